import { SafeIntResolver } from 'graphql-scalars'
import { Field, Float, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql'
import { DeploymentResultType } from '../../platform/graphql/types.js'
import { OVERFLOW_ACTIONS, type ModelBudget, type ProviderBudget } from './budget-object.js'
import { BUDGET_SOURCES, TARGET_TYPES } from './chain.js'

// GraphQL types of the budget object (spec §2.9), the AI gateway settings (§2.8) and the budget reads.
// Token counts are SafeInt: a month of tokens easily exceeds GraphQL's 32-bit Int.

const ACTIONS = OVERFLOW_ACTIONS.join(', ')
const TOKENS = 'at least 1; null = no limit'
const USD = 'USD, greater than 0; null = no limit'

/** The limits a model or provider override carries (spec §2.9 entry fields). */
@ObjectType('AiBudgetOverrideLimits')
abstract class OverrideLimitsFields {
  @Field(() => SafeIntResolver, { nullable: true, description: TOKENS }) tokensPerHour: number | null
  @Field(() => SafeIntResolver, { nullable: true, description: TOKENS }) tokensPerDay: number | null
  @Field(() => SafeIntResolver, { nullable: true, description: TOKENS }) tokensPerMonth: number | null
  @Field(() => Float, { nullable: true, description: USD }) monthlyBudgetUsd: number | null
  @Field(() => Float, { nullable: true, description: USD }) usdPerHour: number | null
  @Field(() => Float, { nullable: true, description: USD }) usdPerDay: number | null
  @Field(() => String, { description: ACTIONS }) overflowAction: string
}

@ObjectType('AiModelBudget', { description: 'A per-model override of a budget' })
export class AiModelBudgetType extends OverrideLimitsFields {
  @Field(() => String) modelId: string
}

@ObjectType('AiProviderBudget', { description: 'A per-provider override of a budget' })
export class AiProviderBudgetType extends OverrideLimitsFields {
  @Field(() => String, { description: 'id of an LLM provider connection' }) providerRef: string
}

@ObjectType('AiBudgetObject', { description: 'The budget object of spec §2.9, every default applied' })
export class AiBudgetObjectType {
  @Field(() => Boolean) enabled: boolean
  @Field(() => SafeIntResolver, { nullable: true, description: TOKENS }) tokensPerHour: number | null
  @Field(() => SafeIntResolver, { nullable: true, description: TOKENS }) tokensPerMinute: number | null
  @Field(() => SafeIntResolver, { nullable: true, description: TOKENS }) tokensPerDay: number | null
  @Field(() => SafeIntResolver, { nullable: true, description: TOKENS }) tokensPerMonth: number | null
  @Field(() => Float, { nullable: true, description: USD }) monthlyBudgetUsd: number | null
  @Field(() => Float, { nullable: true, description: USD }) usdPerHour: number | null
  @Field(() => Float, { nullable: true, description: USD }) usdPerDay: number | null
  @Field(() => [Int], { description: 'each 0 to 100' }) softCapPercents: number[]
  @Field(() => Int, { description: '1 to 100' }) hardCapPercent: number
  @Field(() => String, { description: ACTIONS }) overflowAction: string
  @Field(() => String, { nullable: true, description: 'the model to fall back to with CHEAPER_MODEL' }) cheaperModelId: string | null
  @Field(() => [AiModelBudgetType], { description: 'at most 50' }) modelBudgets: ModelBudget[]
  @Field(() => [AiProviderBudgetType], { description: 'at most 50' }) providerBudgets: ProviderBudget[]
}

@InputType('AiBudgetOverrideLimitsInput')
abstract class OverrideLimitsInput {
  @Field(() => SafeIntResolver, { nullable: true }) tokensPerHour?: number
  @Field(() => SafeIntResolver, { nullable: true }) tokensPerDay?: number
  @Field(() => SafeIntResolver, { nullable: true }) tokensPerMonth?: number
  @Field(() => Float, { nullable: true }) monthlyBudgetUsd?: number
  @Field(() => Float, { nullable: true }) usdPerHour?: number
  @Field(() => Float, { nullable: true }) usdPerDay?: number
  @Field(() => String, { nullable: true, description: `${ACTIONS}; default BLOCK` }) overflowAction?: string
}

@InputType('AiModelBudgetInput')
export class AiModelBudgetInputType extends OverrideLimitsInput {
  @Field(() => String) modelId: string
}

@InputType('AiProviderBudgetInput')
export class AiProviderBudgetInputType extends OverrideLimitsInput {
  @Field(() => String, { description: 'id of an LLM provider connection of the project' }) providerRef: string
}

@InputType('AiBudgetObjectInput', { description: 'Absent scalars take their default; absent or null override lists keep the stored ones, [] wipes them' })
export class AiBudgetObjectInputType {
  @Field(() => Boolean, { nullable: true, description: 'default false' }) enabled?: boolean
  @Field(() => SafeIntResolver, { nullable: true }) tokensPerHour?: number
  @Field(() => SafeIntResolver, { nullable: true }) tokensPerMinute?: number
  @Field(() => SafeIntResolver, { nullable: true }) tokensPerDay?: number
  @Field(() => SafeIntResolver, { nullable: true }) tokensPerMonth?: number
  @Field(() => Float, { nullable: true }) monthlyBudgetUsd?: number
  @Field(() => Float, { nullable: true }) usdPerHour?: number
  @Field(() => Float, { nullable: true }) usdPerDay?: number
  @Field(() => [Int], { nullable: true, description: 'default []' }) softCapPercents?: number[]
  @Field(() => Int, { nullable: true, description: 'default 100' }) hardCapPercent?: number
  @Field(() => String, { nullable: true, description: `${ACTIONS}; default BLOCK` }) overflowAction?: string
  @Field(() => String, { nullable: true }) cheaperModelId?: string
  @Field(() => [AiModelBudgetInputType], { nullable: true }) modelBudgets?: AiModelBudgetInputType[]
  @Field(() => [AiProviderBudgetInputType], { nullable: true }) providerBudgets?: AiProviderBudgetInputType[]
}

@ObjectType('AiGatewaySettings', { description: 'Installation-wide AI gateway settings (spec §2.8), defaults included' })
export class AiGatewaySettingsType {
  @Field(() => Int, { description: '1 to 300; default 10' }) defaultConnectTimeoutSeconds: number
  @Field(() => Int, { description: '1 to 3600; default 120' }) defaultStreamTimeoutSeconds: number
  @Field(() => Int, { description: '0 to 10; default 0' }) defaultRetryCount: number
  @Field(() => Int, { description: '1 to 1073741824; default 10485760' }) maxAiRequestBodyBytes: number
  @Field(() => Int, { description: '1 to 1073741824; default 26214400' }) maxAiBinaryRequestBodyBytes: number
  @Field(() => Int, { description: '1 to 1073741824; default 26214400' }) maxAiBinaryResponseBodyBytes: number
  @Field(() => Int, { description: 'at most 100; 0 or below disables the agentic loop; default 5' }) maxToolTurns: number
  @Field(() => Boolean, { description: 'false when maxToolTurns is 0 or below' }) agenticLoopEnabled: boolean
  @Field(() => AiBudgetObjectType) defaultBudget: AiBudgetObjectType
  @Field(() => AiBudgetObjectType) defaultAnonymousBudget: AiBudgetObjectType
  @Field(() => Int, { description: '0 until the first update' }) revision: number
  @Field(() => GraphQLISODateTime, { nullable: true }) updatedAt: Date | null
  @Field(() => String, { nullable: true }) updatedBy: string | null
}

@InputType('AiGatewaySettingsInput', { description: 'Partial update: absent or null fields keep their value; at least one value' })
export class AiGatewaySettingsInputType {
  @Field(() => Int, { nullable: true }) defaultConnectTimeoutSeconds?: number
  @Field(() => Int, { nullable: true }) defaultStreamTimeoutSeconds?: number
  @Field(() => Int, { nullable: true }) defaultRetryCount?: number
  @Field(() => Int, { nullable: true }) maxAiRequestBodyBytes?: number
  @Field(() => Int, { nullable: true }) maxAiBinaryRequestBodyBytes?: number
  @Field(() => Int, { nullable: true }) maxAiBinaryResponseBodyBytes?: number
  @Field(() => Int, { nullable: true }) maxToolTurns?: number
  @Field(() => AiBudgetObjectInputType, { nullable: true }) defaultBudget?: AiBudgetObjectInputType
  @Field(() => AiBudgetObjectInputType, { nullable: true }) defaultAnonymousBudget?: AiBudgetObjectInputType
}

@ObjectType('AiGatewaySettingsWriteResult')
export class AiGatewaySettingsWriteResult {
  @Field(() => AiGatewaySettingsType) settings: AiGatewaySettingsType
  @Field(() => DeploymentResultType, { description: 'the push to every environment of the installation' }) deploymentResult: DeploymentResultType
}

@ObjectType('AiBudget', { description: 'The budget of one target (spec §2.9)' })
export class AiBudgetType {
  @Field(() => String, { description: TARGET_TYPES.join(', ') }) targetType: string
  @Field(() => String, { description: 'entity id of the target' }) targetId: string
  @Field(() => String, { description: 'display name of the target' }) targetName: string
  @Field(() => String, { description: 'id of the project the budget belongs to' }) targetProjectId: string
  @Field(() => String, { nullable: true, description: `${BUDGET_SOURCES.join(', ')}; only for CREDENTIAL_ALLOWED_API_PROXY` }) budgetSource: string | null
  @Field(() => AiBudgetObjectType) budget: AiBudgetObjectType
  @Field(() => Int) revision: number
  @Field(() => GraphQLISODateTime) updatedAt: Date
  @Field(() => String) updatedBy: string
}

@InputType('AiBudgetInput')
export class AiBudgetInputType {
  @Field(() => String, { description: TARGET_TYPES.join(', ') }) targetType: string
  @Field(() => String, { description: 'entity id of the target (see the id fields of Project, ApiProxy, Organization, Entitlement)' }) targetId: string
  @Field(() => String, { nullable: true, description: 'ignored: the project argument wins' }) targetProjectId?: string
  @Field(() => String, { nullable: true, description: `${BUDGET_SOURCES.join(', ')}; only for CREDENTIAL_ALLOWED_API_PROXY; null keeps` }) budgetSource?: string
  @Field(() => AiBudgetObjectInputType) budget: AiBudgetObjectInputType
}

@ObjectType('AiBudgetWriteResult')
export class AiBudgetWriteResult {
  @Field(() => AiBudgetType) budget: AiBudgetType
  @Field(() => DeploymentResultType, { nullable: true, description: 'the project redeploy; only for a PROJECT target' }) deploymentResult: DeploymentResultType | null
}

@ObjectType('AiBudgetOrgLimit')
export class AiBudgetOrgLimitType {
  @Field(() => String) orgId: string
  @Field(() => String) orgName: string
  @Field(() => SafeIntResolver, { nullable: true }) tokensPerMonth: number | null
}

@ObjectType('AiBudgetEffectiveLimit', { description: 'Manager-side preview of the limit along the chain; null = no limit configured' })
export class AiBudgetEffectiveLimitType {
  @Field(() => SafeIntResolver, { nullable: true }) credentialLeafTokensPerMonth: number | null
  @Field(() => [AiBudgetOrgLimitType], { description: 'only for CREDENTIAL nodes' }) orgChain: AiBudgetOrgLimitType[]
  @Field(() => SafeIntResolver, { nullable: true }) appCapTokensPerMonth: number | null
  @Field(() => SafeIntResolver, { nullable: true }) tenantCapTokensPerMonth: number | null
  @Field(() => SafeIntResolver, { nullable: true }) effectiveMonthlyTokens: number | null
  @Field(() => SafeIntResolver, { nullable: true }) effectiveDailyTokens: number | null
  @Field(() => SafeIntResolver, { nullable: true }) effectiveMinuteTokens: number | null
  @Field(() => String, { description: 'NORMAL, LOCKED or AT_CAPACITY' }) status: string
}

@ObjectType('AiBudgetHierarchyNode', { description: 'One node of the budget tree, listed depth-first from the project (parentNodeId links the tree)' })
export class AiBudgetHierarchyNodeType {
  @Field(() => String, { description: 'PROJECT, API_PROXY, CREDENTIAL_ORGANIZATION, CREDENTIAL or CREDENTIAL_ALLOWED_API_PROXY' }) nodeType: string
  @Field(() => String) nodeId: string
  @Field(() => String, { nullable: true }) parentNodeId: string | null
  @Field(() => Int, { description: '0 for the project' }) depth: number
  @Field(() => String) name: string
  @Field(() => String, { description: 'organization code, credential username or API proxy name' }) key: string
  @Field(() => AiBudgetObjectType, { nullable: true }) budget: AiBudgetObjectType | null
  @Field(() => String, { nullable: true }) budgetSource: string | null
}
