import { defineRoutes, requireActor, type RouteDef } from '../../../platform/http/routes.js'
import { resumeApplication, suspendApplication } from './service.js'
import { transferApplication, transferBody, transferConsumer } from '../transfer.js'
import { plainBody } from '../../../platform/http/response-schemas.js'
import { applicationSchema, consumerSchema } from '../view-schemas.js'

const BASE = '/apiops/projects/:projectName'

const refusals = {
  400: 'malformedRequest: platform project (params.reason platformScopeNotSupported)',
  401: 'missing, invalid, expired or revoked token',
  403: 'permissionDenied: IDENTITY MANAGE is missing',
  404: 'resourceNotFound: unknown or out-of-scope project, unknown key',
}

const statusAction = (verb: 'suspend' | 'resume', summary: string, operation: typeof suspendApplication): RouteDef => ({
  method: 'post',
  path: `${BASE}/applications/:applicationKey/actions/${verb}`,
  style: 'common',
  auth: 'token',
  tag: 'applications',
  summary,
  response: plainBody(applicationSchema),
  responses: {
    200: 'the application (also when it already was in the target state: nothing is done then)',
    ...refusals,
    409: 'lifecycleConflict, params.reason application.terminal: the application is PENDING_DELETION or ARCHIVED',
  },
  async handle(ctx, input) {
    return { body: await operation(ctx.deps, requireActor(ctx), input.params.projectName, input.params.applicationKey) }
  },
})

const transferResponses = (subject: string) => ({
  200: `the ${subject} as it is after the move`,
  ...refusals,
  400: 'malformedRequest: organizationCode blank or missing (params.field organizationCode, checked first), or the platform project',
  404: 'resourceNotFound: unknown or out-of-scope project, unknown key, unknown organization (params.organization)',
  409: 'lifecycleConflict, params.reason transfer.sameOrganization, transfer.syncManaged, transfer.applicationTerminal, deleteInProgress, transfer.organizationDeleteInProgress or transfer.targetOrganizationTombstoned; nothing changes',
})

/** Spec §4.10 actions on consumers and applications (Common Contract style); the reads are in another table. */
export const identityLifecycleRoutes = defineRoutes([
  statusAction('suspend', 'Suspend an application: its enabled credentials are disabled and undeployed, its API clients re-pushed as suspended', suspendApplication),
  statusAction('resume', 'Resume an application: only the credentials its suspend disabled are re-enabled and redeployed', resumeApplication),
  {
    method: 'post',
    path: `${BASE}/consumers/:consumerKey/actions/transfer-organization`,
    style: 'common',
    auth: 'token',
    tag: 'consumers',
    summary: 'Move a consumer, its API clients and entitlements to another organization, then redeploy it',
    body: { kind: 'json', schema: transferBody },
    access: { category: 'IDENTITY', level: 'MANAGE' },
    response: plainBody(consumerSchema),
    responses: transferResponses('consumer'),
    async handle(ctx, input) {
      return { body: await transferConsumer(ctx.deps, requireActor(ctx), input.params.projectName, input.params.consumerKey, input.body) }
    },
  },
  {
    method: 'post',
    path: `${BASE}/applications/:applicationKey/actions/transfer-organization`,
    style: 'common',
    auth: 'token',
    tag: 'applications',
    summary: 'Move an application with its consumers, API clients, entitlements and product subscriptions to another organization, then redeploy',
    body: { kind: 'json', schema: transferBody },
    access: { category: 'IDENTITY', level: 'MANAGE' },
    response: plainBody(applicationSchema),
    responses: transferResponses('application'),
    async handle(ctx, input) {
      return { body: await transferApplication(ctx.deps, requireActor(ctx), input.params.projectName, input.params.applicationKey, input.body) }
    },
  },
])
