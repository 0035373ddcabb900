import { defineRoutes, requireActor, type RouteAccess, type RouteDef, type RouteResult } from '../../platform/http/routes.js'
import { unvalidatedText } from '../../platform/validation/common.js'
import { apiClientSummary } from '../identity/views.js'
import { createApiClientInput, updateApiClientInput } from './inputs.js'
import { apiClientOfPortalApplication, apiClientsOfPortalApplication } from './portal.js'
import {
  activateApiClient, apiClientNotFound, apiClientProjectName, createManagedApiClient, getApiClientRuntimeDeployment, getManagedApiClient, revokeApiClient,
  rotateApiClientSecret, suspendApiClient, updateManagedApiClient, type ApiClientWrite,
} from './service.js'
import { managedApiClientView, runtimeDeploymentView } from './views.js'
import { plainBody } from '../../platform/http/response-schemas.js'
import { apiClientSummarySchema } from '../identity/view-schemas.js'
import { z } from 'zod'
import { apiClientDeploymentSchema, apiClientWriteSchema, managedApiClientSchema } from './view-schemas.js'

const writeAnswer = plainBody(apiClientWriteSchema)

const BASE = '/api/api-clients'
const runtimeDeploymentPath = (apiClientKey: string) => `${BASE}/${encodeURIComponent(apiClientKey)}/runtime-deployment`

/** The §2.6 envelope of a write; clientSecret sits beside apiClient when a secret was issued (shown this once). */
export const writeBody = (w: ApiClientWrite) => ({
  apiClient: managedApiClientView(w.apiClient),
  ...(w.clientSecret ? { clientSecret: w.clientSecret } : {}),
  runtimeDeployment: runtimeDeploymentView(w.runtimeDeployment, false),
})

/** 200, or for a revocation handed to the retry outbox 202 with the durable record's Location (spec §4.11). */
function writeResult(w: ApiClientWrite): RouteResult {
  if (w.runtimeDeployment.state === 'PENDING') {
    return { status: 202, headers: { Location: runtimeDeploymentPath(w.apiClient.apiClientKey) }, body: writeBody(w) }
  }
  return { body: writeBody(w) }
}

const WRITE_RESPONSES = {
  200: 'apiClient, runtimeDeployment { state IN_SYNC or DEGRADED, environments[] { name, acknowledged, detail? } }',
  400: 'malformedRequest (body or field named in params.field)',
  401: 'missing, invalid, expired or revoked token',
  403: 'permissionDenied: IDENTITY MANAGE is needed in the client\'s project',
  404: 'resourceNotFound: unknown key, or a project the caller cannot see',
  409: 'lifecycleConflict (params.reason: apiClient.revokedIsFinal, apiClient.alreadyActive, apiClient.alreadySuspended, apiClient.notActive, apiClient.notReady) or versionConflict',
}

// Access before validation (issue 28 §6): decided by the router on the project owning the client the key names (a
// caller who cannot see it gets the key's not found, as for an unknown key), or on the project a create body names.
const MANAGE: RouteAccess = { category: 'IDENTITY', level: 'MANAGE' }
const VIEW: RouteAccess = { category: 'IDENTITY', level: 'VIEW' }
const keyProject: RouteDef['accessProject'] = async (db, { params }) => ({
  name: await apiClientProjectName(db, params.apiClientKey!),
  unseen: apiClientNotFound(params.apiClientKey!),
})
const bodyProject: RouteDef['accessProject'] = async (_db, request) => {
  const name = unvalidatedText(await request.body(), 'projectName')
  return name === undefined ? undefined : { name }
}

const action = (segment: string, summary: string, run: typeof activateApiClient, extra: Record<number, string> = {}): RouteDef => ({
  method: 'post',
  path: `${BASE}/:apiClientKey/actions/${segment}`,
  style: 'common',
  auth: 'token',
  tag: 'api-clients',
  summary,
  access: MANAGE,
  accessProject: keyProject,
  response: writeAnswer,
  responses: { ...WRITE_RESPONSES, ...extra },
  async handle(ctx, input) {
    return writeResult(await run(ctx.deps, requireActor(ctx), input.params.apiClientKey))
  },
})

const update = (method: 'patch' | 'put'): RouteDef => ({
  method,
  path: `${BASE}/:apiClientKey`,
  style: 'common',
  auth: 'token',
  tag: 'api-clients',
  summary: 'Update name, validity window and issuance fields (absent fields keep their value, null clears); optional version must match',
  access: MANAGE,
  accessProject: keyProject,
  body: { kind: 'json', required: true, schema: updateApiClientInput },
  response: writeAnswer,
  responses: WRITE_RESPONSES,
  async handle(ctx, input) {
    return writeResult(await updateManagedApiClient(ctx.deps, requireActor(ctx), input.params.apiClientKey, input.body))
  },
})

export const apiClientRoutes = defineRoutes([
  {
    method: 'post',
    path: BASE,
    style: 'common',
    auth: 'token',
    tag: 'api-clients',
    summary: 'Create a DRAFT API client owned by an application or a consumer of the project; its first secret is shown once',
    access: MANAGE,
    accessProject: bodyProject,
    body: { kind: 'json', required: true, schema: createApiClientInput },
    response: writeAnswer,
    responses: { ...WRITE_RESPONSES, 200: 'apiClient, clientSecret (unless issueSecret is false), runtimeDeployment', 404: 'resourceNotFound: project, application or consumer', 409: 'nameAlreadyExists (clientId) or lifecycleConflict apiClient.ownerTerminal' },
    async handle(ctx, input) {
      return writeResult(await createManagedApiClient(ctx.deps, requireActor(ctx), input.body))
    },
  },
  {
    method: 'get',
    path: `${BASE}/:apiClientKey`,
    style: 'common',
    auth: 'token',
    tag: 'api-clients',
    summary: 'An API client (IDENTITY VIEW); never its secret',
    access: VIEW,
    accessProject: keyProject,
    response: plainBody(managedApiClientSchema),
    responses: { 200: 'the API client', 401: 'missing or invalid token', 403: 'permissionDenied', 404: 'resourceNotFound' },
    async handle(ctx, input) {
      return { body: managedApiClientView(await getManagedApiClient(ctx.deps, requireActor(ctx), input.params.apiClientKey)) }
    },
  },
  update('patch'),
  update('put'),
  action('activate', 'DRAFT or SUSPENDED → ACTIVE (needs a live secret)', activateApiClient),
  action('suspend', 'ACTIVE → SUSPENDED', suspendApiClient),
  action('rotate-secret', 'Issue the next secret version (shown once as clientSecret); the previous version is retired', rotateApiClientSecret, {
    200: 'apiClient, clientSecret, runtimeDeployment',
  }),
  action('revoke', 'Revoke (final) and undeploy everywhere; environments that do not acknowledge are retried by the outbox', revokeApiClient, {
    202: 'stored; delivery handed to the retry outbox: runtimeDeployment.state PENDING, Location of the runtime-deployment resource',
  }),
  {
    method: 'get',
    path: `${BASE}/:apiClientKey/runtime-deployment`,
    style: 'common',
    auth: 'token',
    tag: 'api-clients',
    summary: 'The durable runtime deployment record (IDENTITY VIEW); writes nothing',
    access: VIEW,
    accessProject: keyProject,
    response: plainBody(apiClientDeploymentSchema),
    responses: {
      200: 'apiClient, runtimeDeployment { state, revision, environments[] }',
      204: 'the client was never pushed',
      401: 'missing or invalid token',
      403: 'permissionDenied',
      404: 'resourceNotFound',
    },
    async handle(ctx, input) {
      const found = await getApiClientRuntimeDeployment(ctx.deps, requireActor(ctx), input.params.apiClientKey)
      if (!found) return { status: 204 }
      return { body: { apiClient: managedApiClientView(found.apiClient), runtimeDeployment: runtimeDeploymentView(found.runtimeDeployment, true) } }
    },
  },
  {
    method: 'get',
    path: '/apiportal/management/portal/api-clients/get-by-app-id/:appId',
    style: 'common',
    auth: 'token',
    tag: 'portal',
    summary: 'The API clients of an application (appId = applicationKey) as §2.5 summary rows, by name (IDENTITY VIEW)',
    response: plainBody(z.array(apiClientSummarySchema)),
    responses: { 200: 'array of apiClientKey, clientId, name, operationalState, readiness, validFrom, expiresAt, version', 401: 'missing or invalid token', 403: 'permissionDenied', 404: 'resourceNotFound: unknown application or a project the caller cannot see' },
    async handle(ctx, input) {
      return { body: (await apiClientsOfPortalApplication(ctx.deps, requireActor(ctx), input.params.appId)).map(apiClientSummary) }
    },
  },
  {
    method: 'get',
    path: '/apiportal/management/portal/api-clients/get-by-app-id/:appId/:apiClientKey',
    style: 'common',
    auth: 'token',
    tag: 'portal',
    summary: 'One API client of an application as a §2.5 summary row; a key the application does not own is not found',
    response: plainBody(apiClientSummarySchema),
    responses: { 200: 'the summary row', 401: 'missing or invalid token', 403: 'permissionDenied', 404: 'resourceNotFound: unknown application, or a key it does not own' },
    async handle(ctx, input) {
      return { body: apiClientSummary(await apiClientOfPortalApplication(ctx.deps, requireActor(ctx), input.params.appId, input.params.apiClientKey)) }
    },
  },
])
