// Event webhooks (issue 18 §4, docs/events.md "Event webhooks"). A project's webhook connection subscribes to event
// types; every instance hears the live-events bus (platform/events/bus.ts), and each event a subscription matches
// becomes one WebhookDelivery row (unique per connection and event id, so instances hearing the same notification
// write it once) plus one DeliveryOutbox row in the same transaction. The outbox sends it through this module's
// transport and retries it with its own backoff until the receiver answers 2xx: at least once, the same event id
// on every attempt. The doors (rest.ts, graphql.ts) call the functions here and nothing else.
import crypto from 'node:crypto'
import { z } from 'zod'
import type { DeliveryOutbox, Prisma, WebhookConnection } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import { ASSET_CATEGORIES, requirePermission } from '../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { enqueueDeliveries, type DeliveredHandler, type OutboxTransport } from '../../../platform/deploy/outbox.js'
import type { DeployMessage } from '../../../platform/deploy/pusher.js'
import { findPage, orderByFor, parsePaging, type PagingQuery } from '../../../platform/envelopes/paging.js'
import { malformed } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import type { GatewayEvent } from '../../../platform/events/bus.js'
import { PLATFORM_PROJECT } from '../../../platform/scope/project-scope.js'
import { auditEventView } from '../../audit/service.js'
import { connectionAccess, connectionNotFound, findConnection } from '../../connections/service.js'
import { sendWithStores, toView } from '../../webhooks/service.js'

// ---------------------------------------------------------------------------------------------- event types

export const DEPLOYMENT_FAILED = 'deployment.failed'
export const BULK_RUN_FINISHED = 'bulkRun.finished'
export const AUDIT_ALL = 'audit.*'
/** Every type a subscription may name: audit events by asset category (or all), deployment failures, bulk runs finished. */
export const EVENT_TYPES: readonly string[] = [AUDIT_ALL, ...ASSET_CATEGORIES.map((c) => `audit.${c}`), DEPLOYMENT_FAILED, BULK_RUN_FINISHED]

/** `ApiProxy`, `api-proxies`, `API_PROXY` → `API_PROXY` (the audit trail names object types in several spellings). */
function normalizeType(objectType: string): string {
  return objectType.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[-\s]+/g, '_').toUpperCase()
}
const singular = (t: string) => (t.endsWith('IES') ? `${t.slice(0, -3)}Y` : t.endsWith('S') && !t.endsWith('SS') ? t.slice(0, -1) : t)

/** Object types that are not an asset category themselves, by the category that governs them. */
const CATEGORY_OF: [RegExp, string][] = [
  [/^WEBHOOK_EVENT/, 'CONNECTION'],
  [/^(API_PROXY|API_CLIENT|APPLICATION|CONSUMER|ENTITLEMENT|RLCL|LIMIT|PLAN|ASSIGNMENT|ENVVAR|ENVIRONMENT_VARIABLE)/, 'API_MANAGEMENT'],
  [/^(JWK|KEY|CRYPTO|TRUST)/, 'CERTIFICATE'],
  [/^(LLM|VECTOR|AI_|MODEL)/, 'AI_DEVELOPMENT'],
  [/^BUDGET/, 'AI_BUDGETS'],
  [/^(USER|ROLE|AUTH|TOKEN|PASSWORD)/, 'IDENTITY'],
  [/^(PROJECT|ENVIRONMENT|MEMBER|PACKAGE|TRANSFER|DEPLOY)/, 'PROJECT_MANAGEMENT'],
]

/** The asset category of an audited object type, or null when it has none (only `audit.*` then matches). */
export function auditCategoryOf(objectType: string | null): string | null {
  if (!objectType) return null
  const t = normalizeType(objectType)
  for (const candidate of [t, singular(t)]) if (ASSET_CATEGORIES.includes(candidate)) return candidate
  return CATEGORY_OF.find(([re]) => re.test(t))?.[1] ?? null
}

// --------------------------------------------------------------------------------------------- subscription

export interface EventSubscriptionView {
  connectionName: string
  eventTypes: string[]
  /** whether a signing secret is stored; the secret itself is write-only */
  signingSecretSet: boolean
  updatedAt: string | null
}

export const SIGNING_SECRET_MIN = 16

export const subscriptionInput = z.strictObject({
  eventTypes: z.array(z.string({ error: 'must be a list of event type names' }), { error: 'must be a list of event type names' }),
  signingSecret: z
    .string({ error: 'must be a string' })
    .min(SIGNING_SECRET_MIN, `must be at least ${SIGNING_SECRET_MIN} characters`)
    .max(1000, 'must be at most 1000 characters')
    .nullish(),
})
export type SubscriptionInput = z.input<typeof subscriptionInput>

/** The event types of a subscription, deduplicated in the given order; an unknown one is a 400 naming it. */
export function parseEventTypes(types: string[]): string[] {
  const out: string[] = []
  types.forEach((raw, i) => {
    const t = raw.trim()
    if (!EVENT_TYPES.includes(t)) {
      throw malformed(`eventTypes[${i}]: unknown event type '${raw}' (one of ${AUDIT_ALL}, audit.<asset category>, ${DEPLOYMENT_FAILED}, ${BULK_RUN_FINISHED})`, { field: `eventTypes[${i}]`, value: raw })
    }
    if (!out.includes(t)) out.push(t)
  })
  return out
}

/** The project's webhook connection of that name, after the connection's own permission check at `level`. */
async function webhookConnection(db: Tx, actor: Actor, projectName: string, connectionName: string, level: 'VIEW' | 'MANAGE') {
  const access = await connectionAccess(db, actor, projectName, level)
  const found = await findConnection(db, access.project.id, connectionName)
  if (!found) throw connectionNotFound(connectionName.trim())
  if (found.type !== 'webhook') throw malformed(`type: only webhook connections receive events ('${found.row.name}' is ${found.type})`, { field: 'type' })
  return { access, row: found.row as WebhookConnection }
}

const subscriptionView = (connectionName: string, row: { eventTypes: string[]; updatedAt: Date } | null): EventSubscriptionView => ({
  connectionName,
  eventTypes: row?.eventTypes ?? [],
  signingSecretSet: row !== null,
  updatedAt: row?.updatedAt.toISOString() ?? null,
})

export async function getEventSubscription(db: Tx, actor: Actor, projectName: string, connectionName: string): Promise<EventSubscriptionView> {
  const { row } = await webhookConnection(db, actor, projectName, connectionName, 'VIEW')
  return subscriptionView(row.name, await db.webhookEventSubscription.findUnique({ where: { connectionId: row.id } }))
}

/**
 * Replaces the connection's event types (an empty list unsubscribes and forgets the secret). A signing secret is
 * required to subscribe; an absent or null one keeps the stored secret. Needs the connection's MANAGE; audit event
 * types also need PROJECT_MANAGEMENT VIEW, the permission that reads the audit trail.
 */
export async function setEventSubscription(deps: Deps, actor: Actor, projectName: string, connectionName: string, raw: unknown): Promise<EventSubscriptionView> {
  return deps.prisma.$transaction(async (tx) => {
    const { access, row } = await webhookConnection(tx, actor, projectName, connectionName, 'MANAGE')
    const input = parseInput(subscriptionInput, raw)
    const eventTypes = parseEventTypes(input.eventTypes)
    if (eventTypes.some((t) => t.startsWith('audit.'))) requirePermission(access, 'PROJECT_MANAGEMENT', 'VIEW')
    const stored = await tx.webhookEventSubscription.findUnique({ where: { connectionId: row.id } })
    if (!eventTypes.length) {
      if (stored) await tx.webhookEventSubscription.delete({ where: { connectionId: row.id } })
      return subscriptionView(row.name, null)
    }
    if (!input.signingSecret && !stored) throw malformed('signingSecret: is required to subscribe to events (deliveries are signed with it)', { field: 'signingSecret' })
    const signingSecret = input.signingSecret ? deps.keyring.encrypt(input.signingSecret) : stored!.signingSecret
    const saved = await tx.webhookEventSubscription.upsert({
      where: { connectionId: row.id },
      create: { connectionId: row.id, eventTypes, signingSecret },
      update: { eventTypes, signingSecret },
    })
    return subscriptionView(row.name, saved)
  })
}

// ------------------------------------------------------------------------------------------------ delivery log

export const DELIVERY_SUBJECT = 'webhookDelivery'
export type DeliveryStatus = 'PENDING' | 'RETRYING' | 'DELIVERED' | 'CANCELLED'

export interface DeliveryView {
  id: string
  eventId: string
  eventType: string
  status: DeliveryStatus
  attempts: number
  lastError: string | null
  lastStatusCode: number | null
  createdAt: string
  lastAttemptAt: string | null
  deliveredAt: string | null
  /** when the outbox tries again; null once delivered or cancelled */
  nextAttemptAt: string | null
}

export const DELIVERY_SORT = { defaultSort: 'createdAt,desc', supported: ['createdAt', 'status', 'eventType', 'attempts'] } as const

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null

/** The connection's deliveries, newest first by default, in the paged envelope; needs the connection's VIEW. */
export async function pageDeliveries(db: Tx, actor: Actor, projectName: string, connectionName: string, query: PagingQuery) {
  const { row } = await webhookConnection(db, actor, projectName, connectionName, 'VIEW')
  const page = parsePaging(query, DELIVERY_SORT)
  const result = await findPage(
    page,
    db.webhookDelivery.findMany({ where: { connectionId: row.id }, orderBy: orderByFor(page, 'id'), skip: page.skip, take: page.take }),
    db.webhookDelivery.count({ where: { connectionId: row.id } }),
  )
  const outbox = await db.deliveryOutbox.findMany({
    where: { subject: { in: result.items.map((d) => `${DELIVERY_SUBJECT}:${d.id}`) }, deliveredAt: null },
    select: { subject: true, nextAttemptAt: true },
  })
  const next = new Map(outbox.map((o) => [o.subject, o.nextAttemptAt]))
  const items: DeliveryView[] = result.items.map((d) => ({
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status as DeliveryStatus,
    attempts: d.attempts,
    lastError: d.lastError,
    lastStatusCode: d.lastStatusCode,
    createdAt: d.createdAt.toISOString(),
    lastAttemptAt: iso(d.lastAttemptAt),
    deliveredAt: iso(d.deliveredAt),
    nextAttemptAt: d.status === 'DELIVERED' || d.status === 'CANCELLED' ? null : iso(next.get(`${DELIVERY_SUBJECT}:${d.id}`)),
  }))
  return { ...result, items }
}

// -------------------------------------------------------------------------------------------- event → delivery

/** One event as the webhooks send it: the body's fields besides `data`, and the project it belongs to. */
interface WebhookEvent { id: string; type: string; candidates: string[]; projectName: string; occurredAt: Date; data: Record<string, unknown> }

const TERMINAL_RUN = new Set(['SUCCESS', 'PARTIAL', 'FAILED', 'CANCELLED', 'INTERRUPTED', 'LICENSE_REVOKED'])
const digest = (parts: unknown[]) => crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32)

/** Reads what a deployment or bulk run notification names; null when it is no event any webhook can subscribe to (audit events: readAuditEvents). */
async function readEvent(db: Tx, e: GatewayEvent): Promise<WebhookEvent | null> {
  if (e.k === 'deployment') {
    // only failed deployments are events here: an acknowledged one (a bulk chunk records 200 at once) is not read
    if (e.a === true) return null
    const row = await db.deploymentRecord.findUnique({
      where: { projectName_environmentName_kind_name: { projectName: e.p, environmentName: e.e, kind: e.kind, name: e.n } },
    })
    if (!row || row.acknowledged) return null
    // one event per object revision and environment: the outbox's later failed retries of it are not new events
    return {
      id: `deployment-${digest([row.projectName, row.environmentName, row.kind, row.name, row.action, row.revision])}`,
      type: DEPLOYMENT_FAILED,
      candidates: [DEPLOYMENT_FAILED],
      projectName: row.projectName,
      occurredAt: row.at,
      data: { projectName: row.projectName, environmentName: row.environmentName, kind: row.kind, name: row.name, action: row.action, revision: row.revision, acknowledged: false, at: row.at.toISOString() },
    }
  }
  if (e.k === 'bulkRun' && TERMINAL_RUN.has(e.s)) {
    const run = await db.limitBulkRun.findUnique({ where: { runId: e.id } })
    if (!run || !TERMINAL_RUN.has(run.runStatus)) return null
    const project = await db.project.findUnique({ where: { id: run.projectId }, select: { name: true } })
    if (!project) return null
    return {
      id: `bulkRun-${run.runId}`,
      type: BULK_RUN_FINISHED,
      candidates: [BULK_RUN_FINISHED],
      projectName: project.name,
      occurredAt: run.finishedAt ?? new Date(),
      data: {
        runId: run.runId, projectName: project.name, kind: run.kind, runStatus: run.runStatus, trigger: run.trigger, triggeredBy: run.triggeredBy,
        processedCount: run.processedCount, createdCount: run.createdCount, replacedCount: run.replacedCount, skippedCount: run.skippedCount,
        failedCount: run.failedCount, issueCount: run.issueCount, startedAt: run.startedAt.toISOString(), finishedAt: iso(run.finishedAt),
      },
    }
  }
  return null
}

/** A subscription of a project's webhook connection, as the dispatcher matches events against it. */
interface Subscriber { connectionId: string; connectionName: string; projectName: string; eventTypes: string[] }

const auditSubscriber = (s: Subscriber) => s.eventTypes.some((t) => t.startsWith('audit'))

/** The project a notification names without reading its row (a bulk run's is only known from the row). */
const projectOfNotification = (e: GatewayEvent): string | null => (e.k === 'audit' ? (e.p ?? PLATFORM_PROJECT) : e.k === 'deployment' ? e.p : null)

/** The audit events of a batch that someone subscribes to, read in one query, as webhook events. */
async function readAuditEvents(db: Tx, ids: string[]): Promise<WebhookEvent[]> {
  if (!ids.length) return []
  const rows = await db.auditEvent.findMany({ where: { id: { in: ids.map((id) => BigInt(id)) } }, orderBy: { id: 'asc' } })
  return rows.map((row) => {
    const category = auditCategoryOf(row.objectType)
    return {
      id: `audit-${row.id}`,
      type: category ? `audit.${category}` : 'audit',
      candidates: [AUDIT_ALL, ...(category ? [`audit.${category}`] : [])],
      projectName: row.projectName ?? PLATFORM_PROJECT,
      occurredAt: row.at,
      data: { ...auditEventView(row), category },
    }
  })
}

/**
 * Writes one delivery (and its outbox row) per webhook connection of an event's project that subscribes to it, for a
 * batch of notifications, set-based: one query for the subscriptions of the batch's projects (a batch nobody
 * subscribes to ends there), one for the audit rows someone subscribes to, then one transaction with one INSERT of
 * the deliveries and one of their outbox rows. Instances hearing the same notifications race on the unique
 * (connection, event id): exactly one writes each. Returns the number of deliveries written.
 */
export async function dispatchEvents(deps: Pick<Deps, 'prisma'>, notifications: GatewayEvent[]): Promise<number> {
  const db = deps.prisma
  const projects = new Set<string>()
  const bulkRuns: GatewayEvent[] = []
  for (const e of notifications) {
    const project = projectOfNotification(e)
    if (project) projects.add(project)
    else if (e.k === 'bulkRun' && TERMINAL_RUN.has(e.s)) bulkRuns.push(e)
  }
  const events: WebhookEvent[] = []
  // a bulk run names no project: its row says (rare, one per finished run)
  for (const e of bulkRuns) {
    const event = await readEvent(db, e)
    if (event) {
      events.push(event)
      projects.add(event.projectName)
    }
  }
  if (!projects.size) return 0
  const subscribers: Subscriber[] = (await db.webhookEventSubscription.findMany({
    where: { connection: { project: { name: { in: [...projects] } } } },
    select: { eventTypes: true, connection: { select: { id: true, name: true, project: { select: { name: true } } } } },
  })).flatMap((s) => (s.connection.project ? [{ connectionId: s.connection.id, connectionName: s.connection.name, projectName: s.connection.project.name, eventTypes: s.eventTypes }] : []))
  if (!subscribers.length) return 0
  const byProject = new Map<string, Subscriber[]>()
  for (const s of subscribers) byProject.set(s.projectName, [...(byProject.get(s.projectName) ?? []), s])
  const heard = (project: string, test: (s: Subscriber) => boolean) => (byProject.get(project) ?? []).some(test)
  const auditIds = notifications.flatMap((e) => (e.k === 'audit' && heard(e.p ?? PLATFORM_PROJECT, auditSubscriber) ? [e.id] : []))
  events.push(...(await readAuditEvents(db, auditIds)))
  for (const e of notifications) {
    if (e.k !== 'deployment' || e.a === true || !heard(e.p, (s) => s.eventTypes.includes(DEPLOYMENT_FAILED))) continue
    const event = await readEvent(db, e)
    if (event) events.push(event)
  }
  const deliveries: { connectionId: string; eventId: string; eventType: string; payload: Prisma.InputJsonValue }[] = []
  const seen = new Set<string>()
  for (const event of events) {
    for (const s of byProject.get(event.projectName) ?? []) {
      if (!s.eventTypes.some((t) => event.candidates.includes(t)) || seen.has(`${s.connectionId}\u0000${event.id}`)) continue
      seen.add(`${s.connectionId}\u0000${event.id}`)
      const payload = { id: event.id, type: event.type, occurredAt: event.occurredAt.toISOString(), projectName: event.projectName, connectionName: s.connectionName, data: event.data }
      deliveries.push({ connectionId: s.connectionId, eventId: event.id, eventType: event.type, payload: payload as Prisma.InputJsonValue })
    }
  }
  if (!deliveries.length) return 0
  const names = new Map(subscribers.map((s) => [s.connectionId, s.connectionName]))
  let written = 0
  for (let i = 0; i < deliveries.length; i += DELIVERY_BATCH) {
    written += await db.$transaction(async (tx) => {
      const created = await tx.webhookDelivery.createManyAndReturn({ data: deliveries.slice(i, i + DELIVERY_BATCH), skipDuplicates: true, select: { id: true, connectionId: true } })
      await enqueueDeliveries(tx, created.map((d) => ({
        environment: { name: `webhook ${names.get(d.connectionId)}`, workerUrls: [] },
        message: { deliveryId: d.id } as unknown as DeployMessage,
        subject: `${DELIVERY_SUBJECT}:${d.id}`,
      })))
      return created.length
    })
  }
  return written
}

/** Deliveries per INSERT (a PostgreSQL statement takes at most 65,535 parameters). */
const DELIVERY_BATCH = 1000
/** Notifications per dispatch: those heard while a dispatch runs wait for the next one, together. */
const NOTIFICATION_BATCH = 5000


export interface EventWebhooks { stop(): Promise<void> }

/**
 * Follows the live-events bus of this instance; a no-op without one. Notifications are queued and dispatched in
 * batches: the first waits one turn of the event loop (a commit's notifications arrive together), those heard during
 * a dispatch go in the next one, so an apply that audits thousands of objects costs a few queries, not two per event.
 */
export function startEventWebhooks(deps: Pick<Deps, 'prisma' | 'logger' | 'events'>): EventWebhooks {
  let queue: GatewayEvent[] = []
  let running: Promise<void> | null = null
  const drain = async () => {
    await new Promise((resolve) => setImmediate(resolve))
    while (queue.length) {
      const batch = queue.slice(0, NOTIFICATION_BATCH)
      queue = queue.slice(batch.length)
      await dispatchEvents(deps, batch).catch((err) => deps.logger.error({ err, events: batch.length }, 'event webhook deliveries not written'))
    }
    running = null
  }
  const unsubscribe = deps.events?.subscribe((event) => {
    queue.push(event)
    running ??= drain()
  })
  return {
    async stop() {
      unsubscribe?.()
      while (running) await running
    },
  }
}

// --------------------------------------------------------------------------------------------------- sending

export const SIGNATURE_HEADER = 'X-Gateway-Signature'
/** An attempt's connect and response waits, each at most this (the outbox lease must outlast a delivery). */
const MAX_WAIT_SECONDS = 10

/** `sha256=` + hex HMAC-SHA256 of `${timestamp}.${body}` under the connection's signing secret. */
export const signPayload = (secret: string, timestamp: string, body: string) =>
  `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`

const deliveryIdOf = (row: DeliveryOutbox) => row.subject.slice(DELIVERY_SUBJECT.length + 1)

/** One attempt of one delivery (the outbox calls it for rows of subject kind `webhookDelivery`). */
export function webhookTransport(deps: Pick<Deps, 'prisma' | 'keyring'>): OutboxTransport {
  return async (row) => {
    const id = deliveryIdOf(row)
    const delivery = await deps.prisma.webhookDelivery.findUnique({ where: { id }, include: { connection: { include: { eventSubscription: true } } } })
    if (!delivery) return { success: true, message: 'delivery removed with its connection' }
    const record = (data: Prisma.WebhookDeliveryUpdateManyMutationInput) =>
      deps.prisma.webhookDelivery.updateMany({ where: { id, status: { notIn: ['DELIVERED', 'CANCELLED'] } }, data: { attempts: row.attempts, lastAttemptAt: new Date(), ...data } })
    const subscription = delivery.connection.eventSubscription
    if (!subscription) {
      // unsubscribed meanwhile: no secret to sign with any more; the outbox row is retired, the log says why
      await record({ status: 'CANCELLED', lastError: 'the connection no longer subscribes to events' })
      return { success: true, message: 'cancelled: no subscription' }
    }
    if (!delivery.connection.enabled) {
      await record({ status: 'RETRYING', lastError: 'the connection is disabled', lastStatusCode: null })
      return { success: false, message: 'the connection is disabled' }
    }
    const body = JSON.stringify(delivery.payload)
    const timestamp = String(Math.floor(Date.now() / 1000))
    const view = toView(delivery.connection)
    const result = await sendWithStores(
      deps,
      delivery.connection,
      { ...view, effectiveConnectTimeoutSeconds: Math.min(view.effectiveConnectTimeoutSeconds, MAX_WAIT_SECONDS), effectiveResponseTimeoutSeconds: Math.min(view.effectiveResponseTimeoutSeconds, MAX_WAIT_SECONDS) },
      {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'X-Gateway-Event-Id': delivery.eventId,
          'X-Gateway-Event-Type': delivery.eventType,
          'X-Gateway-Delivery-Id': delivery.id,
          'X-Gateway-Delivery-Attempt': String(row.attempts),
          'X-Gateway-Timestamp': timestamp,
          [SIGNATURE_HEADER]: signPayload(deps.keyring.decrypt(subscription.signingSecret), timestamp, body),
        },
      },
    )
    if (result.success) {
      await record({ lastStatusCode: result.status })
      return { success: true, message: `HTTP ${result.status}` }
    }
    const error = result.error ?? `HTTP ${result.status}`
    await record({ status: 'RETRYING', lastError: error, lastStatusCode: result.status })
    return { success: false, message: error }
  }
}

/** Marks the delivery DELIVERED in the transaction that retires its outbox row. */
const delivered: DeliveredHandler = async (tx, row) => {
  await tx.webhookDelivery.updateMany({ where: { id: deliveryIdOf(row), status: { not: 'CANCELLED' } }, data: { status: 'DELIVERED', deliveredAt: new Date() } })
}

export const WEBHOOK_OUTBOX_HANDLERS: Record<string, DeliveredHandler> = { [DELIVERY_SUBJECT]: delivered }
export const webhookOutboxTransports = (deps: Pick<Deps, 'prisma' | 'keyring'>): Record<string, OutboxTransport> => ({ [DELIVERY_SUBJECT]: webhookTransport(deps) })
