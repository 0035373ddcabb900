import { z } from 'zod'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { legacyDeploymentResult, legacySuccess } from '../../platform/envelopes/legacy.js'
import type { RouteInput } from '../../platform/http/routes.js'
import { deploymentResult, legacyListBody } from '../../platform/http/response-schemas.js'

// What the keys pages' routes (rest.ts, files/rest.ts) share: their constants and the write answer.

export const BASE = '/apiops/projects/:projectName'
export const TAG = 'keys-secrets'
export const AUTH_401 = 'missing, invalid, expired or revoked token'
export const VIEW = '(permission: CERTIFICATE VIEW)'
export const MANAGE = '(permission: CERTIFICATE MANAGE; pushed to the gateways with CERTIFICATE DEPLOY_UNDEPLOY)'
export const DENIED = 'unknown project or missing CERTIFICATE permission'

export const project = (input: RouteInput) => input.params.projectName!

/** The write answers: success and deploymentResult, the saved object in resultList (none on delete). */
export const writtenFields = { success: z.literal(true), deploymentResult }
export const writtenBody = (item: z.ZodType, extra: z.ZodRawShape = {}) => legacyListBody(item, { ...writtenFields, ...extra })

/** The pages' write answer: success and deploymentResult, beside status SUCCESS; the saved object in resultList. */
export const written = (outcome: DeploymentOutcome, item?: unknown, extra: Record<string, unknown> = {}) =>
  legacySuccess({ success: true, deploymentResult: legacyDeploymentResult(outcome), ...(item === undefined ? {} : { resultList: [item], resultCount: 1 }), ...extra })
