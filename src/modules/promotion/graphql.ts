import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { DeploymentResultType } from '../../platform/graphql/types.js'
import { TransferAdvisoryType } from '../transfer/graphql.js'
import { groupProxiesForPromotion, promoteApiProxy, promoteApiProxyGroup, proxiesForPromotion, type PromotionResult } from './service.js'
import { promotedGroupView, type PromotionEntry } from './views.js'
import { getPromotionExecution, runPromotionExecution } from './executions.js'
import { certificateForPromotion, createPromotionCertificate } from './certificates.js'

// The GraphQL door of promotion: the same service as the /apiops routes (rest.ts).

@ObjectType('ApiProxyPromotionDeploy')
class PromotionDeployType {
  @Field(() => String) environmentSettingsId: string
  @Field(() => String) environmentName: string
  @Field(() => String, { nullable: true }) accessUrl: string | null
  @Field(() => Boolean) deploy: boolean
  @Field(() => Boolean) redeployRequired: boolean
}

@ObjectType('ApiProxyForPromotion')
class PromotionEntryType {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String, { description: 'the proxy kind: REST, AI, MCP, A2A…' }) type: string
  @Field(() => String, { nullable: true }) enumProxyCreationType: string | null
  @Field(() => Boolean) protocolTransformation: boolean
  @Field(() => String, { nullable: true }) relativePath: string | null
  @Field(() => JSONResolver, { nullable: true }) clientRoute: unknown
  @Field(() => JSONResolver, { nullable: true, description: 'the stored routing, with apiRoutingList[].url beside routingAddressList' }) routing: unknown
  @Field(() => [String]) categoryList: string[]
  @Field(() => [PromotionDeployType], { description: 'the source project\'s deployments: informational, never applied by a promotion' }) apiProxyDeployList: PromotionDeployType[]
  @Field(() => JSONResolver, { description: 'the transfer engine\'s API_PROXY object file (secrets CIPHERTEXT_VERBATIM): pass it back in promoteApiProxy\'s input.transfer' }) transfer: unknown
}

@ObjectType('ApiProxyPromotionResult')
class PromotionResultType {
  @Field(() => PromotionEntryType, { description: 'the saved proxy, its apiProxyDeployList rebuilt from the target project' }) apiProxy: PromotionEntry
  @Field(() => [TransferAdvisoryType]) advisories: TransferAdvisoryType[]
  @Field(() => DeploymentResultType, { nullable: true, description: 'null when deployEnvironmentIds named no environment of the project' }) deploymentResult: DeploymentResultType | null
}

@ObjectType('ApiProxyGroupPromotionResult')
class GroupPromotionResultType {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => JSONResolver, { nullable: true }) clientRoute: unknown
  @Field(() => Boolean, { description: 'true when the group did not exist in the target' }) created: boolean
}

@ObjectType('PromotionExecution')
class PromotionExecutionType {
  @Field(() => String) executionId: string
  @Field(() => String, { description: 'COMPLETED' }) executionStatus: string
  @Field(() => String) sourceProjectName: string
  @Field(() => String) targetProjectName: string
  @Field(() => String, { nullable: true }) executionName: string | null
  @Field(() => String, { nullable: true }) executionDescription: string | null
  @Field(() => String, { nullable: true }) executionNotes: string | null
  @Field(() => String) executedBy: string
  @Field(() => Int) progress: number
  @Field(() => Int) totalSteps: number
  @Field(() => String) startedAt: string
  @Field(() => String, { nullable: true }) completedAt: string | null
  @Field(() => JSONResolver, { description: 'type, conflictPolicy, exportDigest, preflightDigest, imported[], advisories[], unresolvedReferences[]' }) result: unknown
}

const resultOf = (r: PromotionResult) => ({ apiProxy: r.entry, advisories: r.advisories, deploymentResult: r.deploymentResult ? DeploymentResultType.from(r.deploymentResult) : null })

@Resolver()
export class PromotionResolver {
  @Query(() => [PromotionEntryType], { description: 'Every API proxy of the source project as a promotion carries it (API_MANAGEMENT VIEW); REST GET …/apiProxies/forpromotion' })
  async apiProxiesForPromotion(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return proxiesForPromotion(ctx.deps, requireViewer(ctx), projectName)
  }

  @Query(() => [PromotionEntryType], { description: 'The API proxies of a group as a promotion carries them (API_MANAGEMENT VIEW)' })
  async apiProxyGroupProxiesForPromotion(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('groupName', () => String) groupName: string) {
    return groupProxiesForPromotion(ctx.deps, requireViewer(ctx), projectName, groupName)
  }

  @Mutation(() => PromotionResultType, { description: 'Creates (no id) or overwrites (id) an API proxy of the target project from a promotion payload, as PUT …/apiProxies/promotion (API_MANAGEMENT MANAGE; DEPLOY_UNDEPLOY with deployEnvironmentIds)' })
  async promoteApiProxy(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String, { description: 'the target project' }) projectName: string,
    @Arg('input', () => JSONResolver, { description: 'an entry of apiProxiesForPromotion (id only to overwrite a proxy of the target)' }) input: unknown,
    @Arg('deployEnvironmentIds', () => [String], { nullable: true, description: 'environment ids to deploy to after the save (best-effort)' }) deployEnvironmentIds?: string[] | null,
  ) {
    const query = deployEnvironmentIds?.length ? { deployEnvironmentIds: deployEnvironmentIds.join(',') } : {}
    return resultOf(await promoteApiProxy(ctx.deps, requireViewer(ctx), projectName, input, query))
  }

  @Mutation(() => GroupPromotionResultType, { description: 'Creates or updates an API proxy group (name, description, clientRoute) in the target project (API_MANAGEMENT MANAGE)' })
  async promoteApiProxyGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => JSONResolver) input: unknown) {
    const { group, created } = await promoteApiProxyGroup(ctx.deps, requireViewer(ctx), projectName, input)
    return { ...promotedGroupView(group), created }
  }

  @Mutation(() => PromotionExecutionType, { description: 'Runs a promotion between two projects on the transfer engine, as POST /apiops/promotion/executions (EXPORT_IMPORT in both)' })
  async runPromotionExecution(@Ctx() ctx: GqlContext, @Arg('input', () => JSONResolver, { description: 'sourceProjectName, targetProjectName, apiProxyNames, withDependencies, conflictPolicy, environmentMapping, executionName, executionDescription, executionNotes' }) input: unknown) {
    return runPromotionExecution(ctx.deps, requireViewer(ctx), input)
  }

  @Query(() => PromotionExecutionType, { description: 'One promotion execution (API_MANAGEMENT VIEW in its target project)' })
  async promotionExecution(@Ctx() ctx: GqlContext, @Arg('executionId', () => String) executionId: string) {
    return getPromotionExecution(ctx.deps, requireViewer(ctx), executionId)
  }

  @Query(() => JSONResolver, { description: 'A certificate, key, keystore or JWK by id with its secret fields sealed, as GET /apiops/utility/promotion-certificates/{certKind}/{id}/full (EXPORT_IMPORT in its project)' })
  async promotionCertificate(@Ctx() ctx: GqlContext, @Arg('certKind', () => String) certKind: string, @Arg('id', () => String) id: string) {
    return certificateForPromotion(ctx.deps, requireViewer(ctx), certKind, id)
  }

  @Mutation(() => JSONResolver, { description: 'Creates a certificate from a promoted source (the promotionCertificate answer), as POST …/promotion-certificates (CERTIFICATE MANAGE): { id, certKind, name, created, advisories }' })
  async createPromotionCertificate(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => JSONResolver) input: unknown) {
    return createPromotionCertificate(ctx.deps, requireViewer(ctx), projectName, input)
  }
}
