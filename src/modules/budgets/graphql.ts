import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { DeploymentResultType } from '../../platform/graphql/types.js'
import { ApiProxyType } from '../apiproxies/proxies/graphql.js'
import { CredentialType } from '../credentials/graphql.js'
import { ConsumerType } from '../identity/consumers/graphql.js'
import { EntitlementType } from '../identity/entitlements/graphql.js'
import { OrganizationType, ProjectType } from '../projects/graphql.js'
import {
  AiBudgetEffectiveLimitType, AiBudgetHierarchyNodeType, AiBudgetInputType, AiBudgetType, AiBudgetWriteResult, AiGatewaySettingsInputType,
  AiGatewaySettingsType, AiGatewaySettingsWriteResult,
} from './graphql-types.js'
import { budgetHierarchy, budgetScopeRules, type HierarchyNode } from './hierarchy.js'
import { budgetEffectiveLimit, getBudget, updateBudget } from './service.js'
import { getAiSettings, updateAiSettings } from './settings.js'

// The GraphQL door of the AI gateway settings and AI budgets: the same services, rules and errors as REST.

/** GraphQL hands inputs over as class instances with absent fields; the services read plain JSON. */
const plain = (input: object | null | undefined): unknown => (input == null ? input : JSON.parse(JSON.stringify(input)))

function flatten(node: HierarchyNode, parentNodeId: string | null = null, depth = 0, out: AiBudgetHierarchyNodeType[] = []) {
  const { children, ...rest } = node
  out.push(Object.assign(new AiBudgetHierarchyNodeType(), { ...rest, parentNodeId, depth }))
  for (const child of children) flatten(child, node.nodeId, depth + 1, out)
  return out
}

@Resolver()
export class AiSettingsResolver {
  @Query(() => AiGatewaySettingsType, { description: 'The AI gateway settings (system administrator)' })
  async aiGatewaySettings(@Ctx() ctx: GqlContext) {
    return getAiSettings(ctx.deps.prisma, requireViewer(ctx))
  }

  @Mutation(() => AiGatewaySettingsWriteResult, { description: 'Partial update of the AI gateway settings (system administrator), pushed to every environment' })
  async updateAiGatewaySettings(@Ctx() ctx: GqlContext, @Arg('input', () => AiGatewaySettingsInputType) input: AiGatewaySettingsInputType) {
    const { settings, deploymentResult } = await updateAiSettings(ctx.deps, requireViewer(ctx), plain(input))
    return { settings, deploymentResult: DeploymentResultType.from(deploymentResult) }
  }
}

@Resolver()
export class AiBudgetResolver {
  @Query(() => AiBudgetType, { nullable: true, description: 'The budget saved on a target, null when none (AI_BUDGETS VIEW)' })
  async aiBudget(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('targetType', () => String) targetType: string,
    @Arg('targetId', () => String) targetId: string,
  ) {
    return getBudget(ctx.deps.prisma, requireViewer(ctx), projectName, targetType, targetId)
  }

  @Mutation(() => AiBudgetWriteResult, { description: 'Set the budget of a target (AI_BUDGETS MANAGE); a PROJECT target redeploys the project' })
  async updateAiBudget(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => AiBudgetInputType) input: AiBudgetInputType) {
    const { budget, deploymentResult } = await updateBudget(ctx.deps, requireViewer(ctx), projectName, plain(input))
    return { budget, deploymentResult: deploymentResult ? DeploymentResultType.from(deploymentResult) : null }
  }

  @Query(() => AiBudgetEffectiveLimitType, { description: 'Effective limit of a node along its budget chain (AI_BUDGETS VIEW)' })
  async aiBudgetEffectiveLimit(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('nodeType', () => String, { description: 'CREDENTIAL, CREDENTIAL_ORGANIZATION, API_PROXY or PROJECT' }) nodeType: string,
    @Arg('nodeId', () => String) nodeId: string,
  ) {
    return budgetEffectiveLimit(ctx.deps.prisma, requireViewer(ctx), projectName, nodeType, nodeId)
  }

  @Query(() => [AiBudgetType], { description: 'Every budget saved in the project (AI_BUDGETS VIEW)' })
  async aiBudgetScopeRules(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return budgetScopeRules(ctx.deps.prisma, requireViewer(ctx), projectName)
  }

  @Query(() => [AiBudgetHierarchyNodeType], { description: 'The budget tree rooted at the project, depth-first (AI_BUDGETS VIEW)' })
  async aiBudgetHierarchy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return flatten(await budgetHierarchy(ctx.deps.prisma, requireViewer(ctx), projectName))
  }
}

// Budget targets and effective-limit nodes are addressed by entity id (spec §1 rule 2 exception): the
// types that name them expose it.
const idField = { description: 'entity id: the targetId of AI budgets and the nodeId of the budget preview' }

@Resolver(() => ProjectType)
export class ProjectIdResolver {
  @FieldResolver(() => ID, idField) id(@Root() row: { id: string }) { return row.id }
}

@Resolver(() => ApiProxyType)
export class ApiProxyIdResolver {
  @FieldResolver(() => ID, idField) id(@Root() row: { id: string }) { return row.id }
}

@Resolver(() => OrganizationType)
export class OrganizationIdResolver {
  @FieldResolver(() => ID, idField) id(@Root() row: { id: string }) { return row.id }
}

@Resolver(() => EntitlementType)
export class EntitlementIdResolver {
  @FieldResolver(() => ID, { description: 'entity id: for a consumer\'s API_PROXY entitlement, the targetId of a CREDENTIAL_ALLOWED_API_PROXY budget' })
  id(@Root() row: { id: string }) { return row.id }
}

@Resolver(() => CredentialType)
export class CredentialIdResolver {
  @FieldResolver(() => ID, { description: 'entity id: the nodeId of a CREDENTIAL budget preview' }) id(@Root() row: { id: string }) { return row.id }
}

@Resolver(() => ConsumerType)
export class ConsumerIdResolver {
  @FieldResolver(() => ID, { description: 'entity id: the nodeId of a CREDENTIAL budget preview' }) id(@Root() row: { id: string }) { return row.id }
}

/** Every resolver of this module, for src/schema.ts. */
export const budgetResolvers = [
  AiSettingsResolver, AiBudgetResolver, ProjectIdResolver, ApiProxyIdResolver, OrganizationIdResolver, EntitlementIdResolver,
  CredentialIdResolver, ConsumerIdResolver,
] as const
