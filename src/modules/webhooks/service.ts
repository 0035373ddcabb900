import http from 'node:http'
import https from 'node:https'
import { z } from 'zod'
import type { Prisma, WebhookConnection } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { requireSystemAdmin } from '../../platform/auth/require.js'
import type { Deps, Tx } from '../../platform/context.js'
import { findPage, orderByFor, parsePaging, type PagingQuery } from '../../platform/envelopes/paging.js'
import { DomainError, lifecycleConflict, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { httpUrl } from '../../platform/validation/common.js'
import { tlsOptions, webhookTls, WebhookTlsError, type WebhookStoreRefs, type WebhookTls } from './tls.js'

/** Spec §2.17: the HTTP methods a webhook connection may use. */
export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'TRACE'] as const
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number]

/**
 * Allowed name characters: letters, digits, space, '-', '_' and '.'; the first character must not be a space.
 * Anything else counts as a "special character" (spec §2.17).
 */
export const WEBHOOK_NAME_PATTERN = /^[A-Za-z0-9_.-][A-Za-z0-9 _.-]*$/
export const WEBHOOK_NAME_MAX = 200

export const WEBHOOK_DEFAULTS = {
  timeout: 2,
  enabled: true,
  writeStallTimeoutSeconds: 30,
  connectionsPerHost: 24,
  totalPoolConnections: 48,
  serverNameVerification: false,
  gzip: false,
  bufferFullWaitMs: 100,
  batching: { enabled: false, maxEvents: 100, maxBytes: 1_048_576, maxDelayMs: 200, bufferCapBytes: 33_554_432 },
  retry: { maxRetries: 1, waitMs: 200, maxRetryAfterSeconds: 5, retryNonIdempotent: false },
  collectorMode: {
    enabled: false, index: '', sourcetype: '', source: '', host: '',
    acknowledgements: false, acknowledgementTimeoutSeconds: 30, maxAcknowledgementResends: 2,
  },
  circuitBreaker: { enabled: false, failureThreshold: 5, coolDownSeconds: 30 },
} as const

const int = () => z.number().int('must be an integer')
const atLeast1 = () => int().min(1, 'must be at least 1')
const nonNegative = () => int().min(0, 'must be at least 0')
/** one of the four timeouts sharing the fallback to `timeout`: empty (null) means "use timeout" */
const fallbackTimeout = () => atLeast1().nullable().default(null)
const D = WEBHOOK_DEFAULTS

export const webhookName = z
  .string()
  .min(1, 'must not be blank')
  .max(WEBHOOK_NAME_MAX, `must be at most ${WEBHOOK_NAME_MAX} characters`)
  .refine((s) => !s.startsWith(' '), 'must not start with a space')
  .refine((s) => s.trim().length > 0, 'must not be blank')
  .regex(WEBHOOK_NAME_PATTERN, "may contain only letters, digits, space, '-', '_' and '.'")

const header = z.object({
  name: z.string().trim().min(1, 'header name must not be empty'),
  value: z.string().min(1, 'header value must not be empty'),
})

const batching = z.object({
  enabled: z.boolean().default(D.batching.enabled),
  maxEvents: atLeast1().default(D.batching.maxEvents),
  maxBytes: atLeast1().default(D.batching.maxBytes),
  maxDelayMs: nonNegative().default(D.batching.maxDelayMs),
  bufferCapBytes: atLeast1().default(D.batching.bufferCapBytes),
})

const retry = z.object({
  maxRetries: nonNegative().default(D.retry.maxRetries),
  waitMs: nonNegative().default(D.retry.waitMs),
  maxRetryAfterSeconds: nonNegative().default(D.retry.maxRetryAfterSeconds),
  retryNonIdempotent: z.boolean().default(D.retry.retryNonIdempotent),
})

const collectorMode = z.object({
  enabled: z.boolean().default(D.collectorMode.enabled),
  index: z.string().max(1000).default(D.collectorMode.index),
  sourcetype: z.string().max(1000).default(D.collectorMode.sourcetype),
  source: z.string().max(1000).default(D.collectorMode.source),
  host: z.string().max(1000).default(D.collectorMode.host),
  acknowledgements: z.boolean().default(D.collectorMode.acknowledgements),
  acknowledgementTimeoutSeconds: atLeast1().default(D.collectorMode.acknowledgementTimeoutSeconds),
  maxAcknowledgementResends: nonNegative().default(D.collectorMode.maxAcknowledgementResends),
})

/** null in failureThreshold / coolDownSeconds = use the installation-wide default (spec: "blank values") */
const circuitBreaker = z.object({
  enabled: z.boolean().default(D.circuitBreaker.enabled),
  failureThreshold: int().min(1, 'must be at least 1').max(10_000, 'must be at most 10000').nullable().default(D.circuitBreaker.failureThreshold),
  coolDownSeconds: int().min(1, 'must be at least 1').max(3600, 'must be at most 3600').nullable().default(D.circuitBreaker.coolDownSeconds),
})

/** The one input schema of a webhook connection: every rule of spec §2.17, with its defaults. */
export const webhookConnectionInput = z.object({
  name: webhookName,
  description: z.string().max(1000, 'must be at most 1000 characters').nullable().default(null),
  environment: z.string().trim().min(1, 'must not be blank'),
  method: z.enum(WEBHOOK_METHODS, { error: `must be one of ${WEBHOOK_METHODS.join(', ')}` }),
  fullUrl: httpUrl,
  timeout: atLeast1().default(D.timeout),
  headers: z.array(header).default([]),
  enabled: z.boolean().default(D.enabled),
  connectTimeoutSeconds: fallbackTimeout(),
  responseTimeoutSeconds: fallbackTimeout(),
  connectionRequestTimeoutSeconds: fallbackTimeout(),
  socketTimeoutSeconds: fallbackTimeout(),
  /** ≤ 0 disables the write-stall guard; not part of the shared fallback */
  writeStallTimeoutSeconds: int().default(D.writeStallTimeoutSeconds),
  connectionsPerHost: atLeast1().default(D.connectionsPerHost),
  /** a value below connectionsPerHost is accepted; the runtime raises it (see effectiveTotalPoolConnections) */
  totalPoolConnections: atLeast1().default(D.totalPoolConnections),
  trustStoreName: z.string().trim().min(1, 'must not be blank').nullable().default(null),
  keyStoreName: z.string().trim().min(1, 'must not be blank').nullable().default(null),
  serverNameVerification: z.boolean().default(D.serverNameVerification),
  batching: batching.default(() => batching.parse({})),
  gzip: z.boolean().default(D.gzip),
  bufferFullWaitMs: int().min(0, 'must be at least 0').max(2000, 'must be at most 2000').default(D.bufferFullWaitMs),
  retry: retry.default(() => retry.parse({})),
  collectorMode: collectorMode.default(() => collectorMode.parse({})),
  circuitBreaker: circuitBreaker.default(() => circuitBreaker.parse({})),
})

type Nested<T> = { [K in keyof T]?: T[K] | null }
export type WebhookConnectionInput = Omit<Partial<z.input<typeof webhookConnectionInput>>, 'batching' | 'retry' | 'collectorMode' | 'circuitBreaker'> & {
  batching?: Nested<z.output<typeof batching>>
  retry?: Nested<z.output<typeof retry>>
  collectorMode?: Nested<z.output<typeof collectorMode>>
  circuitBreaker?: Nested<z.output<typeof circuitBreaker>>
}
export type WebhookConnectionValues = z.output<typeof webhookConnectionInput>

const NESTED = ['batching', 'retry', 'collectorMode', 'circuitBreaker'] as const
/** null in these nested fields is meaningful (installation default), every other null means "absent / keep" */
const NULL_MEANINGFUL: Record<string, string[]> = { circuitBreaker: ['failureThreshold', 'coolDownSeconds'] }

const dropNulls = (group: string, o: Record<string, unknown> | null | undefined) =>
  o == null ? undefined : Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== null || NULL_MEANINGFUL[group]?.includes(k)))

export function normalizeNested(input: WebhookConnectionInput): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input }
  for (const g of NESTED) {
    const v = dropNulls(g, input[g] as Record<string, unknown> | undefined)
    if (v === undefined) delete out[g]
    else out[g] = v
  }
  return out
}

/** The stored row as read by clients, with the effective values the runtime uses. */
export interface WebhookConnectionView extends WebhookConnectionValues {
  id: string
  createdAt: Date
  updatedAt: Date
  effectiveConnectTimeoutSeconds: number
  effectiveResponseTimeoutSeconds: number
  effectiveConnectionRequestTimeoutSeconds: number
  effectiveSocketTimeoutSeconds: number
  effectiveTotalPoolConnections: number
  writeStallGuardEnabled: boolean
}

export function valuesOf(row: WebhookConnection): WebhookConnectionValues {
  return {
    name: row.name,
    description: row.description,
    environment: row.environment,
    method: row.method as WebhookMethod,
    fullUrl: row.fullUrl,
    timeout: row.timeout,
    headers: row.headers as WebhookConnectionValues['headers'],
    enabled: row.enabled,
    connectTimeoutSeconds: row.connectTimeoutSeconds,
    responseTimeoutSeconds: row.responseTimeoutSeconds,
    connectionRequestTimeoutSeconds: row.connectionRequestTimeoutSeconds,
    socketTimeoutSeconds: row.socketTimeoutSeconds,
    writeStallTimeoutSeconds: row.writeStallTimeoutSeconds,
    connectionsPerHost: row.connectionsPerHost,
    totalPoolConnections: row.totalPoolConnections,
    trustStoreName: row.trustStoreName,
    keyStoreName: row.keyStoreName,
    serverNameVerification: row.serverNameVerification,
    batching: row.batching as WebhookConnectionValues['batching'],
    gzip: row.gzip,
    bufferFullWaitMs: row.bufferFullWaitMs,
    retry: row.retry as WebhookConnectionValues['retry'],
    collectorMode: row.collectorMode as WebhookConnectionValues['collectorMode'],
    circuitBreaker: row.circuitBreaker as WebhookConnectionValues['circuitBreaker'],
  }
}

export function toView(row: WebhookConnection): WebhookConnectionView {
  const v = valuesOf(row)
  return {
    ...v,
    id: row.id,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    effectiveConnectTimeoutSeconds: v.connectTimeoutSeconds ?? v.timeout,
    effectiveResponseTimeoutSeconds: v.responseTimeoutSeconds ?? v.timeout,
    effectiveConnectionRequestTimeoutSeconds: v.connectionRequestTimeoutSeconds ?? v.timeout,
    effectiveSocketTimeoutSeconds: v.socketTimeoutSeconds ?? v.timeout,
    effectiveTotalPoolConnections: Math.max(v.totalPoolConnections, v.connectionsPerHost),
    writeStallGuardEnabled: v.writeStallTimeoutSeconds > 0,
  }
}

export const toData = (v: WebhookConnectionValues) => ({
  ...v,
  headers: v.headers as Prisma.InputJsonValue,
  batching: v.batching as Prisma.InputJsonValue,
  retry: v.retry as Prisma.InputJsonValue,
  collectorMode: v.collectorMode as Prisma.InputJsonValue,
  circuitBreaker: v.circuitBreaker as Prisma.InputJsonValue,
})

const webhookNotFound = (name: string) => notFound(`Webhook connection '${name}' not found`, { webhookConnection: name })
const nameTaken = (name: string) =>
  new DomainError('conflict', 'nameAlreadyExists', `Webhook connection '${name}' already exists`, { field: 'name' })

async function requireEnvironment(db: Tx, name: string) {
  if (!(await db.environment.findUnique({ where: { name } }))) {
    throw notFound(`Environment '${name}' not found`, { field: 'environment', environment: name })
  }
}

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === 'P2002'

async function findRow(db: Tx, name: string) {
  const row = await db.webhookConnection.findUnique({ where: { name } })
  if (!row) throw webhookNotFound(name)
  return row
}

export async function createWebhookConnection(db: Tx, actor: Actor, raw: WebhookConnectionInput): Promise<WebhookConnectionView> {
  requireSystemAdmin(actor)
  const values = parseInput(webhookConnectionInput, normalizeNested(raw))
  if (await db.webhookConnection.findUnique({ where: { name: values.name } })) throw nameTaken(values.name)
  await requireEnvironment(db, values.environment)
  try {
    return toView(await db.webhookConnection.create({ data: toData(values) }))
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(values.name)
    throw err
  }
}

/** Partial update: absent or null fields keep their stored value (circuit-breaker threshold/cool-down: null = installation default). */
export async function updateWebhookConnection(db: Tx, actor: Actor, name: string, raw: WebhookConnectionInput): Promise<WebhookConnectionView> {
  requireSystemAdmin(actor)
  const row = await findRow(db, name)
  const stored = valuesOf(row)
  const patch = normalizeNested(raw)
  const merged: Record<string, unknown> = { ...stored, ...patch }
  for (const g of NESTED) merged[g] = { ...stored[g], ...(patch[g] as object | undefined) }
  const values = parseInput(webhookConnectionInput, merged)
  if (values.name !== row.name && (await db.webhookConnection.findUnique({ where: { name: values.name } }))) throw nameTaken(values.name)
  if (values.environment !== row.environment) await requireEnvironment(db, values.environment)
  try {
    return toView(await db.webhookConnection.update({ where: { id: row.id }, data: toData(values) }))
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(values.name)
    throw err
  }
}

export async function deleteWebhookConnection(db: Tx, actor: Actor, name: string): Promise<boolean> {
  requireSystemAdmin(actor)
  const removed = await db.webhookConnection.deleteMany({ where: { name } })
  if (!removed.count) throw webhookNotFound(name)
  return true
}

export async function getWebhookConnection(db: Tx, actor: Actor, name: string): Promise<WebhookConnectionView> {
  requireSystemAdmin(actor)
  return toView(await findRow(db, name))
}

/** The "while typing" check: exact name match. */
export async function webhookConnectionNameExists(db: Tx, actor: Actor, name: string): Promise<boolean> {
  requireSystemAdmin(actor)
  return (await db.webhookConnection.count({ where: { name } })) > 0
}

export const WEBHOOK_SORT = { defaultSort: 'name,asc', supported: ['name', 'environment', 'createdAt', 'updatedAt'] } as const

export async function pageWebhookConnections(db: Tx, actor: Actor, query: PagingQuery) {
  requireSystemAdmin(actor)
  const page = parsePaging(query, WEBHOOK_SORT)
  const result = await findPage(
    page,
    db.webhookConnection.findMany({ orderBy: orderByFor(page, 'name'), skip: page.skip, take: page.take }),
    db.webhookConnection.count(),
  )
  return { ...result, items: result.items.map(toView) }
}

export interface WebhookTestResult {
  success: boolean
  /** HTTP status of the answer; null when none came */
  status: number | null
  latencyMs: number
  error: string | null
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH'])

/**
 * Sends ONE request to fullUrl with the connection's method and headers. The connect timeout bounds the
 * TCP/TLS connect, the response timeout bounds the wait for the complete answer after connecting.
 */
export async function testWebhookConnection(deps: Deps, actor: Actor, name: string): Promise<WebhookTestResult> {
  requireSystemAdmin(actor)
  const row = await findRow(deps.prisma, name)
  const conn = toView(row)
  if (!conn.enabled) throw lifecycleConflict('webhook.disabled', `Webhook connection '${name}' is disabled`, { webhookConnection: name })
  return sendWithStores(deps, row, conn)
}

/** sendOnce under the connection's trust and key stores; a store that cannot be used is the request's failure. */
export async function sendWithStores(deps: Pick<Deps, 'prisma' | 'keyring'>, row: WebhookStoreRefs, conn: WebhookConnectionView, request?: WebhookRequest): Promise<WebhookTestResult> {
  let tls: WebhookTls
  try {
    tls = await webhookTls(deps, row)
  } catch (err) {
    if (err instanceof WebhookTlsError) return { success: false, status: null, latencyMs: 0, error: err.message }
    throw err
  }
  return sendOnce(conn, request, tls)
}

/** What to send instead of the connection test's request (event deliveries: POST, their JSON body and headers). */
export interface WebhookRequest { method: string; body: string; headers: Record<string, string> }

/**
 * Sends one request to the connection's fullUrl with its headers (plus `request.headers`) under its connect and
 * response timeouts: the connection test's request, or `request` (an event delivery).
 */
export function sendOnce(conn: WebhookConnectionView, request?: WebhookRequest, tls: WebhookTls = {}): Promise<WebhookTestResult> {
  const url = new URL(conn.fullUrl)
  const method = request?.method ?? conn.method
  const headers: Record<string, string> = {}
  for (const h of conn.headers) headers[h.name] = h.value
  for (const [name, value] of Object.entries(request?.headers ?? {})) {
    for (const k of Object.keys(headers)) if (k.toLowerCase() === name.toLowerCase()) delete headers[k]
    headers[name] = value
  }
  const body = request ? request.body : BODY_METHODS.has(conn.method) ? JSON.stringify({ event: 'webhookConnectionTest', connection: conn.name, time: new Date().toISOString() }) : undefined
  if (body !== undefined) {
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json'
    headers['content-length'] = String(Buffer.byteLength(body))
  }
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  return new Promise<WebhookTestResult>((resolve) => {
    let done = false
    let timer: NodeJS.Timeout | undefined
    const finish = (r: Omit<WebhookTestResult, 'latencyMs'>) => {
      if (done) return
      done = true
      clearTimeout(timer)
      req.destroy()
      resolve({ ...r, latencyMs: elapsed() })
    }
    const arm = (seconds: number, what: string) => {
      clearTimeout(timer)
      timer = setTimeout(() => finish({ success: false, status: null, error: `${what} timeout after ${seconds} s` }), seconds * 1000)
    }
    const options: https.RequestOptions = { method, headers, agent: false, ...tlsOptions(url, tls, conn.serverNameVerification) }
    const req = (url.protocol === 'https:' ? https : http).request(url, options, (res) => {
      res.on('data', () => undefined)
      res.on('error', (err) => finish({ success: false, status: res.statusCode ?? null, error: err.message }))
      res.on('end', () => {
        const status = res.statusCode ?? null
        const ok = status !== null && status >= 200 && status < 300
        finish({ success: ok, status, error: ok ? null : `HTTP ${status}` })
      })
    })
    arm(conn.effectiveConnectTimeoutSeconds, 'connect')
    req.on('socket', (socket) => {
      const connected = () => arm(conn.effectiveResponseTimeoutSeconds, 'response')
      if (!socket.connecting) connected()
      else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', connected)
    })
    req.on('error', (err) => finish({ success: false, status: null, error: err.message }))
    req.end(body)
  })
}
