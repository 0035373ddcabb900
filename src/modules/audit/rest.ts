import { defineRoutes, requireActor } from '../../platform/http/routes.js'
import { pagingQueryDocs } from '../identity/list-filters.js'
import { auditFilters, pageProjectAuditEvents } from './service.js'
import { pageBody } from '../../platform/http/response-schemas.js'
import { auditEventSchema } from './view-schemas.js'

export const auditRoutes = defineRoutes([
  {
    method: 'get',
    path: '/apiops/projects/:projectName/audit-events',
    style: 'common',
    auth: 'token',
    tag: 'audit',
    summary: 'Audit trail of the project, newest first (the platform project `admin` shows installation-level events)',
    query: auditFilters.extend(pagingQueryDocs),
    response: pageBody(auditEventSchema),
    responses: {
      200: 'paged envelope of audit events: id, at, surface, actor, projectName, operation, objectType, objectName, outcome, httpStatus, correlationId',
      400: 'malformedRequest (a bad filter, time range or paging value) or unsupportedSortField (params.supported)',
      401: 'missing, invalid, expired or revoked token',
      403: 'permissionDenied: PROJECT_MANAGEMENT VIEW is required',
      404: 'resourceNotFound: unknown or out-of-scope project',
    },
    async handle(ctx, input) {
      return { body: await pageProjectAuditEvents(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.query) }
    },
  },
])
