import { legacyDeploymentResult, legacyList, legacySuccess } from '../../../platform/envelopes/legacy.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { deployedBody, legacyListBody } from '../../../platform/http/response-schemas.js'
import { z } from 'zod'
import { defineRoutes, requireActor, type RouteDef } from '../../../platform/http/routes.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { accessBody, grantCredentialAccess, listCredentialAccess, revokeCredentialAccess } from '../access.js'
import { vendorCredentialCreate, vendorCredentialUpdate, vendorCredentialView } from './inputs.js'
import { changeCredentialPassword, createCredential, deleteCredential, listCredentials, passwordChange, updateCredential } from '../service.js'

// The credential endpoints of the vendor pages 07-credentials (crud and access), in the legacy envelope
// (spec §7.1): status SUCCESS beside the page's own fields (success, deploymentResult, resultList).

const BASE = '/apiops/projects/:projectName/credentials'
const TAG = 'credentials'
const AUTH_401 = 'missing, invalid, expired or revoked token'
const MANAGE = 'Needs IDENTITY MANAGE; the push to the gateway environments also needs IDENTITY DEPLOY_UNDEPLOY (without it the change is saved, deploymentResult.success is false and every environment says "Not deployed: …").'
const DEPLOYED_200 = 'status SUCCESS, success true, deploymentResult (success, message, environmentResults[] of environmentName, success, message)'

/** The answer of a deploying write: the page's `success` and `deploymentResult`, beside status SUCCESS. */
const deployed = (outcome: DeploymentOutcome) => ({ body: legacySuccess({ success: true, deploymentResult: legacyDeploymentResult(outcome) }) })

/** A credential as the list shows it (vendorCredentialView): the password is always null. */
const credentialView = z
  .object({
    email: z.string().nullable(),
    fullName: z.string().nullable(),
    description: z.string().nullable(),
    username: z.string(),
    password: z.null(),
    roleNameList: z.array(z.string()),
    enabled: z.boolean(),
    ipList: z.array(z.string()),
    expireDate: z.string().nullable(),
    tokenSettings: z.record(z.string(), z.unknown()).nullable().describe('the token settings PUT …/{username}/token wrote (grantType, expiry, refresh, jwtSignatureAlgorithm …); null until set'),
  })
  .meta({ id: 'Credential' })

const accessItem = z.object({ name: z.string(), type: z.enum(['API_PROXY', 'API_PROXY_GROUP']), expireTime: z.string().optional().describe('when the access ends (ISO 8601), when the grant gave one') }).meta({ id: 'CredentialAccessItem' })

const listed = <T>(items: T[]) => ({ body: { ...legacyList(items), success: true } })

export const credentialCrudRoutes: RouteDef[] = defineRoutes([
  {
    method: 'get', path: `${BASE}/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: 'List the credentials of the project (passwords always null). Needs IDENTITY VIEW.',
    response: legacyListBody(credentialView, { success: z.literal(true) }),
    responses: { 200: 'status SUCCESS, success true, resultList of credentials (email, fullName, description, username, password null, roleNameList, enabled, ipList, expireDate, tokenSettings), resultCount', 400: 'unknown project or missing IDENTITY VIEW', 401: AUTH_401 },
    async handle(ctx, input) {
      const rows = await listCredentials(ctx.deps, requireActor(ctx), input.params.projectName)
      return listed(rows.map(vendorCredentialView))
    },
  },
  {
    method: 'post', path: `${BASE}/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: `Create a credential (username unique in the installation, password sealed and never returned) and deploy it to every environment of the project. ${MANAGE}`,
    body: { kind: 'json', required: true, schema: vendorCredentialCreate },
    access: { category: 'IDENTITY', level: 'MANAGE' },
    response: deployedBody,
    responses: { 200: DEPLOYED_200, 400: 'unknown project, missing IDENTITY MANAGE, missing or invalid field (message names it: username, password, fullName, email, roleNameList with an unknown role, ipList with an entry that is no IP or CIDR, expireDate), username already taken', 401: AUTH_401 },
    async handle(ctx, input) {
      const body = parseInput(vendorCredentialCreate, input.body)
      return deployed((await createCredential(ctx.deps, requireActor(ctx), input.params.projectName, body)).deploymentResult)
    },
  },
  {
    method: 'put', path: `${BASE}/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: `Update the credential the body's username names (it cannot change) and redeploy it. A null or absent password keeps the stored one; absent optional fields keep their value. ${MANAGE}`,
    body: { kind: 'json', required: true, schema: vendorCredentialUpdate },
    access: { category: 'IDENTITY', level: 'MANAGE' },
    response: deployedBody,
    responses: { 200: DEPLOYED_200, 400: 'unknown project, missing IDENTITY MANAGE, credential not found in the project, missing or invalid field (message names it), unknown role', 401: AUTH_401 },
    async handle(ctx, input) {
      const { username, ...changes } = parseInput(vendorCredentialUpdate, input.body)
      return deployed((await updateCredential(ctx.deps, requireActor(ctx), input.params.projectName, username, changes)).deploymentResult)
    },
  },
  {
    method: 'delete', path: `${BASE}/:username/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: `Delete a credential with its access grants and undeploy it from every environment of the project. ${MANAGE}`,
    response: deployedBody,
    responses: { 200: DEPLOYED_200, 400: 'unknown project, missing IDENTITY MANAGE, credential not found in the project', 401: AUTH_401 },
    async handle(ctx, input) {
      return deployed(await deleteCredential(ctx.deps, requireActor(ctx), input.params.projectName, input.params.username))
    },
  },
  {
    method: 'patch', path: `${BASE}/:username/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: `Change a credential's password (other fields ignored; sealed, never returned) and redeploy it. ${MANAGE}`,
    body: { kind: 'json', required: true, schema: passwordChange },
    response: deployedBody,
    responses: { 200: DEPLOYED_200, 400: 'unknown project, missing IDENTITY MANAGE, credential not found in the project, password missing or empty', 401: AUTH_401 },
    async handle(ctx, input) {
      return deployed((await changeCredentialPassword(ctx.deps, requireActor(ctx), input.params.projectName, input.params.username, input.body)).deploymentResult)
    },
  },
  {
    method: 'get', path: `${BASE}/:username/access/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: 'The API proxies and API proxy groups the credential may call (its live entitlements of those types). Needs IDENTITY VIEW.',
    response: legacyListBody(accessItem, { success: z.literal(true) }),
    responses: { 200: 'status SUCCESS, success true, resultList of { name, type (API_PROXY or API_PROXY_GROUP) }, resultCount', 400: 'unknown project, missing IDENTITY VIEW, credential not found in the project', 401: AUTH_401 },
    async handle(ctx, input) {
      return listed(await listCredentialAccess(ctx.deps, requireActor(ctx), input.params.projectName, input.params.username))
    },
  },
  {
    method: 'put', path: `${BASE}/:username/access/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: `Grant the credential access to API proxies and API proxy groups of the project (all or none; each an entitlement, spec §2.15) and redeploy it. ${MANAGE}`,
    body: { kind: 'json', required: true, schema: accessBody },
    response: deployedBody,
    responses: { 200: DEPLOYED_200, 400: 'unknown project, missing IDENTITY MANAGE, credential not found, empty list, name or type missing or invalid, item listed twice, API proxy or group not found in the project, access already granted', 401: AUTH_401 },
    async handle(ctx, input) {
      return deployed((await grantCredentialAccess(ctx.deps, requireActor(ctx), input.params.projectName, input.params.username, input.body)).deploymentResult)
    },
  },
  {
    method: 'delete', path: `${BASE}/:username/access/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: `Revoke the credential's access to API proxies and API proxy groups (all or none; the entitlements end) and redeploy it. ${MANAGE}`,
    body: { kind: 'json', required: true, schema: accessBody },
    response: deployedBody,
    responses: { 200: DEPLOYED_200, 400: 'unknown project, missing IDENTITY MANAGE, credential not found, empty list, name or type missing or invalid, API proxy or group not found, access not granted', 401: AUTH_401 },
    async handle(ctx, input) {
      return deployed((await revokeCredentialAccess(ctx.deps, requireActor(ctx), input.params.projectName, input.params.username, input.body)).deploymentResult)
    },
  },
])
