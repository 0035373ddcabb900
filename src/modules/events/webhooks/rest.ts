import { z } from 'zod'
import { legacySuccess } from '../../../platform/envelopes/legacy.js'
import { defineRoutes, requireActor } from '../../../platform/http/routes.js'
import { describes, legacyBody, pageBody } from '../../../platform/http/response-schemas.js'
import { pagingQueryDocs } from '../../identity/list-filters.js'
import { BULK_RUN_FINISHED, DELIVERY_SORT, DEPLOYMENT_FAILED, getEventSubscription, pageDeliveries, setEventSubscription, subscriptionInput, type DeliveryView, type EventSubscriptionView } from './service.js'

// Event webhooks over /apiops (docs/events.md "Event webhooks"): a webhook connection's event subscription and its
// delivery log, under the connection's own path and with its permissions (CONNECTION or PROJECT_MANAGEMENT).

const BASE = '/apiops/projects/:projectName/connections/:connectionName'
const TAG = 'connections'
const TOKEN_401 = 'missing, invalid, expired or revoked token'
const TYPES = `audit.*, audit.<asset category>, ${DEPLOYMENT_FAILED}, ${BULK_RUN_FINISHED}`

const subscriptionSchema = describes<EventSubscriptionView>()(
  z.object({
    connectionName: z.string(),
    eventTypes: z.array(z.string()),
    signingSecretSet: z.boolean().describe('whether a signing secret is stored (the secret is write-only)'),
    updatedAt: z.string().nullable(),
  }),
)

const deliverySchema = describes<DeliveryView>()(
  z
    .object({
      id: z.string(),
      eventId: z.string().describe('X-Gateway-Event-Id: the same on every attempt'),
      eventType: z.string(),
      status: z.enum(['PENDING', 'RETRYING', 'DELIVERED', 'CANCELLED']),
      attempts: z.number().int(),
      lastError: z.string().nullable(),
      lastStatusCode: z.number().int().nullable(),
      createdAt: z.string(),
      lastAttemptAt: z.string().nullable(),
      deliveredAt: z.string().nullable(),
      nextAttemptAt: z.string().nullable(),
    })
    .meta({ id: 'WebhookDelivery', description: 'One event sent to one webhook connection' }),
)

const subscriptionBody = legacyBody({ success: z.literal(true), ...subscriptionSchema.shape })

export const webhookEventRoutes = defineRoutes([
  {
    method: 'get',
    path: `${BASE}/events/`,
    style: 'legacy',
    auth: 'token',
    tag: TAG,
    summary: 'The event types a webhook connection receives; the signing secret is never returned, only signingSecretSet (permission: CONNECTION or PROJECT_MANAGEMENT VIEW)',
    responses: { 200: 'status SUCCESS, success true, connectionName, eventTypes[], signingSecretSet, updatedAt', 400: 'connection not found or not of type webhook, unknown project, not a member, or missing CONNECTION (or PROJECT_MANAGEMENT) VIEW', 401: TOKEN_401 },
    response: subscriptionBody,
    async handle(ctx, input) {
      const view = await getEventSubscription(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.connectionName)
      return { body: legacySuccess({ success: true, ...view }) }
    },
  },
  {
    method: 'put',
    path: `${BASE}/events/`,
    style: 'legacy',
    auth: 'token',
    tag: TAG,
    summary: `Replace the event types a webhook connection receives (${TYPES}; an empty list unsubscribes). signingSecret (write-only, at least 16 characters) is required for the first subscription and kept when absent (permission: CONNECTION or PROJECT_MANAGEMENT MANAGE; audit.* types also PROJECT_MANAGEMENT VIEW)`,
    body: { kind: 'json', required: true, schema: subscriptionInput },
    responses: {
      200: 'status SUCCESS, success true, the subscription as GET shows it',
      400: 'an unknown event type (the message names it and its index), signingSecret missing or too short, an unknown field, connection not found or not of type webhook, unknown project, not a member, or missing permission',
      401: TOKEN_401,
    },
    response: subscriptionBody,
    audit: { objectType: 'CONNECTION' },
    async handle(ctx, input) {
      const view = await setEventSubscription(ctx.deps, requireActor(ctx), input.params.projectName, input.params.connectionName, input.body)
      return { body: legacySuccess({ success: true, ...view }) }
    },
  },
  {
    method: 'get',
    path: `${BASE}/deliveries/`,
    style: 'common',
    auth: 'token',
    tag: TAG,
    summary: `The delivery log of a webhook connection, newest first: status, attempts, last error, event id and type, times (sort: ${DELIVERY_SORT.supported.join(', ')}) (permission: CONNECTION or PROJECT_MANAGEMENT VIEW)`,
    query: z.object(pagingQueryDocs),
    responses: {
      200: 'paged envelope of deliveries',
      400: 'malformedRequest: a bad paging value, or the connection is not of type webhook; unsupportedSortField',
      401: TOKEN_401,
      403: 'permissionDenied: CONNECTION or PROJECT_MANAGEMENT VIEW is required',
      404: 'resourceNotFound: unknown or out-of-scope project, unknown connection',
    },
    response: pageBody(deliverySchema),
    async handle(ctx, input) {
      return { body: await pageDeliveries(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.connectionName, input.query) }
    },
  },
])
