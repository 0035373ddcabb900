import { legacyDeploymentResult, legacySuccess } from '../../../platform/envelopes/legacy.js'
import { deploymentResult, legacyBody } from '../../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteDef, type RouteInput } from '../../../platform/http/routes.js'
import { MATERIAL_SLOTS, removeCredentialMaterial, setCredentialMaterial, setCredentialTokenSettings, SLOT_RULES } from './service.js'
import { tokenSettingsBody } from '../token-settings.js'

// A credential's security material and token settings over /apiops, as api-reference/credentials/secrets/*,
// jwk-settings/* and token-settings/set-token-settings have them (legacy envelope: status SUCCESS and
// deploymentResult). The reset of the token settings is rest.ts (spec §4.2).

const BASE = '/apiops/projects/:projectName/credentials/:username'
const TAG = 'credentials'
const AUTH_401 = 'missing, invalid, expired or revoked token'
const MANAGE = 'Needs IDENTITY MANAGE; the push to the gateway environments also needs IDENTITY DEPLOY_UNDEPLOY (without it the change is saved and every environment says "Not deployed: …").'
const DEPLOYED_200 = 'status SUCCESS, deploymentResult (success, message, environmentResults[] of environmentName, success, message)'
const response = legacyBody({ deploymentResult })
const credentialName = (input: RouteInput) => input.params.username ?? null

const answer = (write: { deploymentResult: Parameters<typeof legacyDeploymentResult>[0] }) => ({ body: legacySuccess({ deploymentResult: legacyDeploymentResult(write.deploymentResult) }) })

const materialRoutes: RouteDef[] = MATERIAL_SLOTS.flatMap((slot): RouteDef[] => {
  const rule = SLOT_RULES[slot]
  const what = rule.label.toLowerCase()
  const kindNote = rule.keyType ? ` (a key of type ${rule.keyType})` : ''
  return [
    {
      method: 'put', path: `${BASE}/${rule.segment}/:${rule.param}/`, style: 'legacy', auth: 'token', tag: TAG,
      audit: { objectType: 'CREDENTIAL', objectName: credentialName },
      summary: `Set the credential's ${what}${kindNote}: the object of the project, else of the admin project, replacing any other; then redeploy the credential. ${MANAGE}`,
      response,
      responses: { 200: DEPLOYED_200, 400: `unknown project, missing IDENTITY MANAGE, credential not found in the project, ${what} not found in the project nor in the admin project${rule.keyType ? `, a key not of type ${rule.keyType}` : ''}`, 401: AUTH_401 },
      handle: async (ctx, input) => answer(await setCredentialMaterial(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.username!, slot, input.params[rule.param])),
    },
    {
      method: 'delete', path: `${BASE}/${rule.segment}/`, style: 'legacy', auth: 'token', tag: TAG,
      audit: { objectType: 'CREDENTIAL', objectName: credentialName },
      summary: `Remove the credential's ${what} (the object itself stays); then redeploy the credential. ${MANAGE}`,
      response,
      responses: { 200: DEPLOYED_200, 400: `unknown project, missing IDENTITY MANAGE, credential not found in the project, no ${what} assigned`, 401: AUTH_401 },
      handle: async (ctx, input) => answer(await removeCredentialMaterial(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.username!, slot)),
    },
  ]
})

export const credentialMaterialRoutes = defineRoutes([
  ...materialRoutes,
  {
    method: 'put', path: `${BASE}/token/`, style: 'legacy', auth: 'token', tag: TAG,
    body: { kind: 'json', required: true, schema: tokenSettingsBody },
    audit: { objectType: 'CREDENTIAL', objectName: credentialName },
    summary: `Set the credential's token settings: the given fields change, the others stay; the authentication type becomes SECRET_MANAGER; then redeploy the credential. ${MANAGE}`,
    response,
    responses: { 200: DEPLOYED_200, 400: 'unknown project, missing IDENTITY MANAGE, credential not found in the project, a field of a wrong type or value (the message names it), an expiry or refresh field missing where the page requires it', 401: AUTH_401 },
    handle: async (ctx, input) => answer(await setCredentialTokenSettings(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.username!, input.body)),
  },
])
