import { legacyDeploymentResult, legacyList, legacySuccess } from '../../../platform/envelopes/legacy.js'
import { deploymentResult, legacyBody, legacyListBody } from '../../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteDef } from '../../../platform/http/routes.js'
import { connectorLogSettingsInput, methodOverrideQuery, trafficLogSettingsInput } from './inputs.js'
import { deleteMethodOverride, getTrafficLogSettings, listTrafficLogSettings, putMethodOverride, updateTrafficLogSettings } from './service.js'
import { trafficLogSettingsSchema } from './view-schemas.js'

// Vendor pages api-reference/api-proxies/traffic-log-settings/* (get-all, get-by-environment, update,
// update-method-override, delete-method-override) and settings/update-traffic-log-settings, legacy envelope (spec
// §7.1: every client mistake is a 400 with resultMessage; the pages' 500 for "settings not found" is a 400 here).

const BASE = '/apiops/projects/:projectName/apiProxies/:apiProxyName/trafficLogSettings'
const TAG = 'apiProxyTrafficLogSettings'
const VIEW = { category: 'API_MANAGEMENT', level: 'VIEW' } as const
const MANAGE = { category: 'API_MANAGEMENT', level: 'MANAGE' } as const
const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const READ_400 = 'unknown project, missing API_MANAGEMENT VIEW, API proxy not found'
const WRITE_400 = 'unknown project, missing API_MANAGEMENT MANAGE, API proxy not found, environment not an environment of the project'
const PUSHED = 'deploymentResult: the redeploy to this environment when the proxy runs there (needs API_MANAGEMENT DEPLOY_UNDEPLOY, else saved and reported not deployed); absent when it does not run there'
const pushed = deploymentResult.optional().describe(PUSHED)
const withPush = (outcome: Parameters<typeof legacyDeploymentResult>[0] | null) => (outcome ? { deploymentResult: legacyDeploymentResult(outcome) } : {})
const methodAudit = { objectType: 'API_PROXY' as const, objectName: (input: { params: Record<string, string | undefined> }) => input.params.apiProxyName ?? null }

export const trafficLogRoutes: RouteDef[] = defineRoutes([
  {
    method: 'get', path: `${BASE}/`, style: 'legacy', auth: 'token', tag: TAG, access: VIEW,
    summary: "Every environment's traffic log settings of the API proxy; connectorSettingsMap keyed by connection name (API_MANAGEMENT VIEW)",
    response: legacyListBody(trafficLogSettingsSchema),
    responses: { 200: 'status SUCCESS, resultList[] (one per environment with settings), resultCount', 400: READ_400, ...COMMON },
    async handle(ctx, input) {
      return { body: legacyList(await listTrafficLogSettings(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!)) }
    },
  },
  {
    method: 'get', path: `${BASE}/:environmentName/`, style: 'legacy', auth: 'token', tag: TAG, access: VIEW,
    summary: "One environment's traffic log settings of the API proxy, with its method-level overrides; resultList empty when never saved (API_MANAGEMENT VIEW)",
    response: legacyListBody(trafficLogSettingsSchema),
    responses: { 200: 'status SUCCESS, resultList with the settings (or empty), resultCount', 400: `${READ_400}, Environment (X) is not found!`, ...COMMON },
    async handle(ctx, input) {
      return { body: legacyList(await getTrafficLogSettings(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, input.params.environmentName)) }
    },
  },
  {
    method: 'put', path: `${BASE}/:environmentName/`, style: 'legacy', auth: 'token', tag: TAG, access: MANAGE,
    summary: "Update one environment's traffic log settings (only the fields given; created with every log flag true): connectorSettingsMap by connection name or connector type, methodOverrideList by apiMethodId or apiMethodName; redeployed there when the proxy runs there (API_MANAGEMENT MANAGE)",
    body: { kind: 'json', required: true, schema: trafficLogSettingsInput },
    audit: { objectType: 'API_PROXY' },
    response: legacyListBody(trafficLogSettingsSchema, { deploymentResult: pushed }),
    responses: {
      200: `status SUCCESS, resultList with the saved settings (keys as connection names), resultCount 1; ${PUSHED}`,
      400: `${WRITE_400}, body not an object, unknown field, a field invalid (named), Connection with name 'X' not found in the environment!, Method (X) is not found in ApiProxy!, a method listed twice`,
      ...COMMON,
    },
    async handle(ctx, input) {
      const { view, deploymentResult: outcome } = await updateTrafficLogSettings(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, input.params.environmentName, input.body)
      return { body: { ...legacyList([view]), ...withPush(outcome) } }
    },
  },
  {
    method: 'put', path: `${BASE}/:environmentName/connectors/:connectorType/methodOverride/`, style: 'legacy', auth: 'token', tag: TAG, access: MANAGE,
    summary: "Add or replace one connector's override for one method (methodName query: the endpoint path, e.g. /pets); the environment's settings must exist; redeployed there when the proxy runs there (API_MANAGEMENT MANAGE)",
    query: methodOverrideQuery,
    body: { kind: 'json', required: true, schema: connectorLogSettingsInput },
    audit: methodAudit,
    response: legacyBody({ deploymentResult: pushed }),
    responses: {
      200: `status SUCCESS; ${PUSHED}`,
      400: `${WRITE_400}, Invalid connectorType: X, methodName missing, Method (X) is not found in ApiProxy!, traffic log settings not saved yet for the environment, a field invalid (named)`,
      ...COMMON,
    },
    async handle(ctx, input) {
      const p = input.params
      const { deploymentResult: outcome } = await putMethodOverride(ctx.deps, requireActor(ctx), p.projectName!, p.apiProxyName!, p.environmentName, p.connectorType, input.query, input.body)
      return { body: legacySuccess(withPush(outcome)) }
    },
  },
  {
    method: 'delete', path: `${BASE}/:environmentName/connectors/:connectorType/methodOverride/`, style: 'legacy', auth: 'token', tag: TAG, access: MANAGE,
    summary: "Remove one connector's override for one method (the method's entry goes with its last override); none there: success, nothing written (API_MANAGEMENT MANAGE)",
    query: methodOverrideQuery,
    audit: methodAudit,
    response: legacyBody({ deploymentResult: pushed }),
    responses: { 200: `status SUCCESS; ${PUSHED}`, 400: `${WRITE_400}, Invalid connectorType: X, methodName missing, Traffic log settings not found`, ...COMMON },
    async handle(ctx, input) {
      const p = input.params
      const { changed, deploymentResult: outcome } = await deleteMethodOverride(ctx.deps, requireActor(ctx), p.projectName!, p.apiProxyName!, p.environmentName, p.connectorType, input.query)
      return { body: legacySuccess(withPush(outcome)), ...(changed ? {} : { audit: false as const }) }
    },
  },
])

