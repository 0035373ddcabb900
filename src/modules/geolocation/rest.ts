import { z } from 'zod'
import { legacyDeploymentResult, legacySuccess } from '../../platform/envelopes/legacy.js'
import { defineRoutes, requireActor, type MultipartBody, type RouteContext } from '../../platform/http/routes.js'
import { deployedBody, describes, legacyBody } from '../../platform/http/response-schemas.js'
import { setGeolocationEnabled, uploadGeolocationDatabase, type GeolocationDeploymentResult } from './service.js'

/** The upload's deploymentResult, in the geolocation page's own form (responseTime, detailList). */
const geolocationDeploymentResult = describes<GeolocationDeploymentResult>()(
  z.object({
    success: z.boolean(),
    responseTime: z.number().describe('milliseconds'),
    detailList: z.array(z.object({ envName: z.string(), success: z.boolean(), detail: z.string(), responseTime: z.number() })),
  }).meta({ id: 'GeolocationDeploymentResult' }),
)

/** Largest accepted MMDB: commercial city databases are well below this. */
export const MAX_MMDB_BYTES = 256 * 1024 * 1024

const uploadForm = z.object({
  file: z.string().meta({ contentMediaType: 'application/octet-stream', description: 'the MaxMind DB (MMDB) geolocation database; required, non-empty' }),
  fileName: z.string().optional().meta({ description: 'display name; falls back to the uploaded file name, then geolocation.mmdb' }),
})

export const geolocationRoutes = defineRoutes([
  {
    method: 'put',
    path: '/apiops/settings/geolocation/mmdb',
    style: 'legacy',
    auth: 'token',
    tag: 'settings',
    summary: 'Upload the installation\'s geolocation IP database (MMDB), replacing the stored one, and deploy it to every environment',
    body: { kind: 'multipart', schema: uploadForm, required: true, files: ['file'], maxFileBytes: MAX_MMDB_BYTES },
    response: legacyBody({ deploymentResult: geolocationDeploymentResult }),
    responses: {
      200: 'status SUCCESS and deploymentResult (success, responseTime, detailList[] of envName, success, detail, responseTime)',
      400: 'no file part, empty file, not a MaxMind DB, or caller not a system administrator',
      401: 'missing, invalid, expired or revoked token',
    },
    async handle(ctx, input) {
      const actor = requireActor(ctx)
      const body = input.body as MultipartBody
      const { deploymentResult } = await uploadGeolocationDatabase(ctx.deps, actor, { file: body.files.file, fileName: body.fields.fileName })
      return { body: legacySuccess({ deploymentResult }) }
    },
  },
  ...(['enable', 'disable'] as const).map((action) => ({
    method: 'put' as const,
    path: `/apiops/settings/geolocation/${action}`,
    style: 'legacy' as const,
    auth: 'token' as const,
    tag: 'settings',
    summary: `${action === 'enable' ? 'Enable' : 'Disable'} geolocation and deploy the geolocation configuration carrying the switch to every environment (permission: system administrator)`,
    audit: { objectType: 'geolocation' },
    response: deployedBody,
    responses: {
      200: 'status SUCCESS, success true and deploymentResult (success, message, environmentResults[] of environmentName, success, message)',
      400: 'caller not a system administrator',
      401: 'missing, invalid, expired or revoked token',
    },
    async handle(ctx: RouteContext) {
      const { deploymentResult } = await setGeolocationEnabled(ctx.deps, requireActor(ctx), action === 'enable')
      return { body: legacySuccess({ success: true, deploymentResult: legacyDeploymentResult(deploymentResult) }) }
    },
  })),
])
