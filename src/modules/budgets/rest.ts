import { legacyDeploymentResult, legacyList } from '../../platform/envelopes/legacy.js'
import { deploymentResult, legacyListBody } from '../../platform/http/response-schemas.js'
import { defineRoutes, requireActor } from '../../platform/http/routes.js'
import { budgetHierarchy, budgetScopeRules } from './hierarchy.js'
import { withProblemBody } from './problem.js'
import { budgetEffectiveLimit, budgetUpdate, updateBudget } from './service.js'
import { aiSettingsUpdate, getAiSettings, updateAiSettings } from './settings.js'
import { aiSettingsSchema, budgetViewSchema, effectiveLimitSchema, hierarchyNodeSchema } from './view-schemas.js'

// Legacy-envelope routes of spec §4.5 (AI budgets) and §4.6 (AI gateway settings).

const SETTINGS_PATH = '/apiops/settings/ai-gateway'
const BUDGETS = '/apiops/projects/:projectName/ai-budgets'

const AUTH_FAILURE = { 401: 'missing, invalid, expired or revoked token' }
const USD_PROBLEM =
  'aiQuota.usdBudgetModelPriceMissing: problem-style body { type, title, status: 400, detail, path, errorKey, params { modelCount, models[] }, correlationId }; nothing saved'

export const budgetRoutes = defineRoutes([
  {
    method: 'get',
    path: SETTINGS_PATH,
    style: 'legacy',
    auth: 'token',
    tag: 'settings',
    summary: 'Read the AI gateway settings singleton (system administrator): the full effective document, defaults included',
    response: legacyListBody(aiSettingsSchema),
    responses: { 200: 'status SUCCESS, resultList [settings document], resultCount 1', 400: 'caller not a system administrator', ...AUTH_FAILURE },
    async handle(ctx) {
      return { body: legacyList([await getAiSettings(ctx.deps.prisma, requireActor(ctx))]) }
    },
  },
  {
    method: 'put',
    path: SETTINGS_PATH,
    style: 'legacy',
    auth: 'token',
    tag: 'settings',
    summary: 'Partially update the AI gateway settings (omitted or null fields keep their value) and push them to every environment',
    body: { kind: 'json', required: true, schema: aiSettingsUpdate },
    response: legacyListBody(aiSettingsSchema, { deploymentResult }),
    responses: {
      200: 'status SUCCESS, resultList [full effective settings document], resultCount 1, deploymentResult',
      400: `empty body, a bound violated (message names the field and bounds), maxToolTurns above 100, caller not a system administrator; or ${USD_PROBLEM}`,
      ...AUTH_FAILURE,
    },
    async handle(ctx, input) {
      return withProblemBody(SETTINGS_PATH, ctx.correlationId, async () => {
        const { settings, deploymentResult: outcome } = await updateAiSettings(ctx.deps, requireActor(ctx), input.body)
        return { body: { ...legacyList([settings]), deploymentResult: legacyDeploymentResult(outcome) } }
      })
    },
  },
  {
    method: 'put',
    path: `${BUDGETS}/`,
    style: 'legacy',
    auth: 'token',
    tag: 'ai-budgets',
    summary: 'Set the AI budget of a target (entity id); override lists absent or null keep the stored ones, [] wipes them. A PROJECT target redeploys the project',
    body: { kind: 'json', required: true, schema: budgetUpdate },
    response: legacyListBody(budgetViewSchema, { deploymentResult: deploymentResult.optional().describe('for a PROJECT target') }),
    responses: {
      200: 'status SUCCESS, resultList [resulting budget], resultCount 1; deploymentResult for a PROJECT target',
      400: `empty body, blank targetType or targetId, unknown target, a bound violated, budgetSource on another target type, unknown project or missing AI_BUDGETS MANAGE; or ${USD_PROBLEM}`,
      ...AUTH_FAILURE,
    },
    audit: { objectType: 'ai-budgets' },
    async handle(ctx, input) {
      const projectName = input.params.projectName
      return withProblemBody(`/apiops/projects/${projectName}/ai-budgets/`, ctx.correlationId, async () => {
        const { budget, deploymentResult: outcome } = await updateBudget(ctx.deps, requireActor(ctx), projectName, input.body)
        return { body: { ...legacyList([budget]), ...(outcome ? { deploymentResult: legacyDeploymentResult(outcome) } : {}) } }
      })
    },
  },
  {
    method: 'get',
    path: `${BUDGETS}/hierarchy/:nodeType/:nodeId/effective-limit/`,
    style: 'legacy',
    auth: 'token',
    tag: 'ai-budgets',
    summary: 'Preview the effective limit of a node along its budget chain (nodeType CREDENTIAL, CREDENTIAL_ORGANIZATION, API_PROXY or PROJECT; nodeId an entity id)',
    response: legacyListBody(effectiveLimitSchema),
    responses: { 200: 'status SUCCESS, resultList [effective limit], resultCount 1', 400: 'node cannot be resolved, unknown nodeType, unknown project or missing AI_BUDGETS VIEW', ...AUTH_FAILURE },
    async handle(ctx, input) {
      const { projectName, nodeType, nodeId } = input.params
      return { body: legacyList([await budgetEffectiveLimit(ctx.deps.prisma, requireActor(ctx), projectName, nodeType, nodeId)]) }
    },
  },
  {
    method: 'get',
    path: `${BUDGETS}/scope-rules/`,
    style: 'legacy',
    auth: 'token',
    tag: 'ai-budgets',
    summary: 'Every budget saved in the project as a flat list of scope rules (PROJECT, API_PROXY, CREDENTIAL_ORGANIZATION, CREDENTIAL_ALLOWED_API_PROXY)',
    response: legacyListBody(budgetViewSchema),
    responses: { 200: 'status SUCCESS, resultList [budget rows], resultCount', 400: 'unknown project or missing AI_BUDGETS VIEW', ...AUTH_FAILURE },
    async handle(ctx, input) {
      return { body: legacyList(await budgetScopeRules(ctx.deps.prisma, requireActor(ctx), input.params.projectName)) }
    },
  },
  {
    method: 'get',
    path: `${BUDGETS}/hierarchy/`,
    style: 'legacy',
    auth: 'token',
    tag: 'ai-budgets',
    summary: 'The budget tree rooted at the project: API proxies, organizations, credentials and their API proxy bindings, each with its budget',
    response: legacyListBody(hierarchyNodeSchema),
    responses: { 200: 'status SUCCESS, resultList [project node with nested children], resultCount 1', 400: 'unknown project or missing AI_BUDGETS VIEW', ...AUTH_FAILURE },
    async handle(ctx, input) {
      return { body: legacyList([await budgetHierarchy(ctx.deps.prisma, requireActor(ctx), input.params.projectName)]) }
    },
  },
])
