import { z } from 'zod'
import { legacySuccess } from '../../platform/envelopes/legacy.js'
import { defineRoutes, requireActor, type MultipartBody } from '../../platform/http/routes.js'
import { uploadGeolocationDatabase } from './service.js'

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
])
