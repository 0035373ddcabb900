import { requireActor, defineRoutes } from '../../platform/http/routes.js'
import { legacyDeploymentResult, legacySuccess } from '../../platform/envelopes/legacy.js'
import { deploymentResult, legacyBody } from '../../platform/http/response-schemas.js'
import { resetCredentialToken } from './service.js'
import { credentialCrudRoutes } from './crud/rest.js'
import { credentialMaterialRoutes } from './material/rest.js'

// kept for src/modules/llm/rest.ts, which still imports it from here

export const credentialRoutes = defineRoutes([
  {
    method: 'delete',
    path: '/apiops/projects/:projectName/credentials/:username/token/',
    style: 'legacy',
    auth: 'token',
    tag: 'credentials',
    summary: 'Reset a credential\'s token settings to the defaults and deploy it to every environment of the project',
    response: legacyBody({ deploymentResult }),
    responses: {
      200: 'status SUCCESS and deploymentResult (success, message, environmentResults[])',
      400: 'unknown project, credential not found in the project, or missing IDENTITY MANAGE',
      401: 'missing, invalid, expired or revoked token',
    },
    async handle(ctx, input) {
      const { deploymentResult } = await resetCredentialToken(ctx.deps, requireActor(ctx), input.params.projectName, input.params.username)
      return { body: legacySuccess({ deploymentResult: legacyDeploymentResult(deploymentResult) }) }
    },
  },
  ...credentialCrudRoutes,
  ...credentialMaterialRoutes,
])
