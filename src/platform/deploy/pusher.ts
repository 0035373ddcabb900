import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import type { Logger } from '../http/logger.js'
import type { Metrics } from '../http/metrics.js'

export interface DeployEnvironment { name: string; workerUrls: string[] }

/** The body of `POST {workerUrl}/deployments` (RUNTIME.md §4). */
export interface DeployMessage {
  action: 'DEPLOY' | 'UNDEPLOY'
  project: string
  kind: string
  name: string
  revision: number
  config: unknown
}

/**
 * One worker's answer to a push. A worker is known by its URL only (RUNTIME.md §4: the acknowledgement is the
 * status code, the body carries nothing): `podName` is the URL's host (host name and port as configured), `podIp`
 * the address that host name resolves to (the host itself when it is an IP address, or when it does not resolve).
 */
export interface WorkerResult { podName: string; podIp: string; success: boolean; message: string; responseTimeMs: number }

export interface EnvironmentResult {
  environmentName: string
  success: boolean
  message: string
  responseTimeMs: number
  /** each worker of the environment, in the order of its worker URLs (empty: no worker); absent on results not pushed by the deployer */
  workers?: WorkerResult[]
}

export interface DeploymentOutcome { success: boolean; message: string; responseTimeMs: number; environmentResults: EnvironmentResult[] }

/** Per environment, per message in the order given: null when acknowledged, else why not. */
export interface BatchEnvironmentResult { environmentName: string; errors: (string | null)[]; responseTimeMs: number }

export interface BatchDeploymentOutcome { environmentResults: BatchEnvironmentResult[] }

export interface Deployer {
  push(environments: DeployEnvironment[], message: DeployMessage): Promise<DeploymentOutcome>
  /** Many messages to every environment as batches (RUNTIME.md §4.1); see pushMessages for deployers without it. */
  pushMany?(environments: DeployEnvironment[], messages: DeployMessage[]): Promise<BatchDeploymentOutcome>
}

/** At most this many messages per `POST /deployments/batch` (RUNTIME.md §4.1). */
export const MAX_BATCH_MESSAGES = 500
/** How long a worker that answered 404/405 to the batch path gets single pushes without being asked again. */
export const NO_BATCH_MEMORY_MS = 10 * 60_000

/** A kept-alive connection the worker closed just as it was reused: nothing was processed, sending again is safe. */
const isStaleConnection = (e: Error) => {
  const code = (e.cause as { code?: string } | undefined)?.code
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET'
}

/**
 * POSTs a JSON body; resolves with the HTTP status, or the reason there was none. A message carries its revision,
 * so a worker receiving it twice holds the same state: a connection reset is retried once on a fresh connection.
 */
async function post(url: string, path: string, body: unknown, timeoutMs: number, retried = false): Promise<{ status: number } | { error: string }> {
  try {
    const res = await fetch(`${url.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    })
    await res.arrayBuffer().catch(() => undefined)
    return { status: res.status }
  } catch (err) {
    const e = err as Error
    if (e.name === 'TimeoutError') return { error: `${url} did not answer within ${timeoutMs} ms` }
    if (!retried && isStaleConnection(e)) return post(url, path, body, timeoutMs, true)
    return { error: `${url} unreachable: ${(e.cause as Error | undefined)?.message ?? e.message}` }
  }
}

const failureOf = (url: string, answer: { status: number } | { error: string }): string | null =>
  'error' in answer ? answer.error : answer.status >= 200 && answer.status < 300 ? null : `${url} answered HTTP ${answer.status}`

async function pushToWorker(url: string, message: DeployMessage, timeoutMs: number): Promise<string | null> {
  return failureOf(url, await post(url, '/deployments', message, timeoutMs))
}

/** A worker URL's pod name (its host as configured) and address (resolved; the host itself when it does not resolve). */
export async function podOf(url: string): Promise<{ podName: string; podIp: string }> {
  let host: URL
  try {
    host = new URL(url)
  } catch {
    return { podName: url, podIp: '' }
  }
  const hostname = host.hostname.replace(/^\[(.*)\]$/, '$1')
  if (isIP(hostname)) return { podName: host.host, podIp: hostname }
  const resolved = await lookup(hostname).catch(() => null)
  return { podName: host.host, podIp: resolved?.address ?? hostname }
}

/** Pushes to one worker and says who it was: its pod name and address beside the outcome. */
async function pushToPod(url: string, message: DeployMessage, timeoutMs: number): Promise<WorkerResult> {
  const t0 = Date.now()
  const [error, pod] = await Promise.all([pushToWorker(url, message, timeoutMs), podOf(url)])
  return { ...pod, success: error === null, message: error ?? 'Acknowledged', responseTimeMs: Date.now() - t0 }
}

/** The identity whose messages must keep their order: a later revision never overtakes an earlier one. */
const objectOf = (m: DeployMessage) => `${m.project}\u0000${m.kind}\u0000${m.name}`

/**
 * Sends messages to one worker in order, as batches of at most 500, or as single pushes when the worker does
 * not take batches (it answered 404/405 to the batch path, now or within the remembered window). A failed batch
 * fails each of its messages; a later message of an object that already failed here is not sent either (it is
 * failed with the earlier one), so retries can never deliver an older revision after a newer one.
 */
async function pushMessagesToWorker(url: string, messages: DeployMessage[], timeoutMs: number, noBatch: Map<string, number>, count: (batch: boolean, ok: boolean) => void) {
  const errors: (string | null)[] = new Array(messages.length).fill(null)
  const failedObjects = new Map<string, string>()
  const heldBack = (i: number) => {
    const earlier = failedObjects.get(objectOf(messages[i]))
    if (earlier !== undefined) errors[i] = `not sent: an earlier message of ${messages[i].kind} '${messages[i].name}' failed (${earlier})`
    return earlier !== undefined
  }
  const fail = (i: number, error: string) => {
    errors[i] = error
    if (!failedObjects.has(objectOf(messages[i]))) failedObjects.set(objectOf(messages[i]), error)
  }
  for (let start = 0; start < messages.length; start += MAX_BATCH_MESSAGES) {
    const indexes = [...Array(Math.min(MAX_BATCH_MESSAGES, messages.length - start)).keys()].map((k) => start + k).filter((i) => !heldBack(i))
    if (!indexes.length) continue
    if ((noBatch.get(url) ?? 0) <= Date.now()) {
      const answer = await post(url, '/deployments/batch', { messages: indexes.map((i) => messages[i]) }, timeoutMs)
      if ('status' in answer && (answer.status === 404 || answer.status === 405)) {
        noBatch.set(url, Date.now() + NO_BATCH_MEMORY_MS)
      } else {
        const error = failureOf(url, answer)
        count(true, error === null)
        if (error !== null) for (const i of indexes) fail(i, error)
        continue
      }
    }
    for (const i of indexes) {
      if (heldBack(i)) continue
      const error = await pushToWorker(url, messages[i], timeoutMs)
      count(false, error === null)
      if (error !== null) fail(i, error)
    }
  }
  return errors
}

/**
 * Pushes one object to every environment in parallel. An environment is acknowledged when all its workers
 * answered 2xx in time (at once when it has none); a failure is reported, never thrown, because the saved
 * change stays saved.
 */
export function createDeployer(opts: { timeoutMs: number; logger: Logger; metrics: Metrics }): Deployer {
  /** workers that do not take batches, until when (RUNTIME.md §4.1 allows remembering it for a while) */
  const noBatch = new Map<string, number>()
  return {
    async pushMany(environments, messages) {
      const environmentResults = await Promise.all(
        environments.map(async (env): Promise<BatchEnvironmentResult> => {
          const t0 = Date.now()
          const errors: (string | null)[] = new Array(messages.length).fill(null)
          const perWorker = await Promise.all(
            env.workerUrls.map((u) => pushMessagesToWorker(u, messages, opts.timeoutMs, noBatch, (_batch, ok) => opts.metrics.deployPushes.inc({ outcome: ok ? 'acknowledged' : 'failed' }))),
          )
          // an environment acknowledges a message when every one of its workers did
          for (const workerErrors of perWorker) workerErrors.forEach((e, i) => (errors[i] = e === null ? errors[i] : errors[i] === null ? e : `${errors[i]}; ${e}`))
          return { environmentName: env.name, errors, responseTimeMs: Date.now() - t0 }
        }),
      )
      const failed = environmentResults.filter((r) => r.errors.some((e) => e !== null))
      if (failed.length) {
        const firstError = failed[0].errors.find((e) => e !== null)
        opts.logger.warn({ messages: messages.length, failed: failed.map((f) => f.environmentName), firstError }, 'batched deployment not acknowledged by every environment')
      }
      return { environmentResults }
    },
    async push(environments, message) {
      const started = Date.now()
      const environmentResults = await Promise.all(
        environments.map(async (env): Promise<EnvironmentResult> => {
          const t0 = Date.now()
          const workers = await Promise.all(env.workerUrls.map((u) => pushToPod(u, message, opts.timeoutMs)))
          const failures = workers.filter((w) => !w.success).map((w) => w.message)
          const success = failures.length === 0
          opts.metrics.deployPushes.inc({ outcome: success ? 'acknowledged' : 'failed' })
          return {
            environmentName: env.name,
            success,
            message: success ? (env.workerUrls.length ? 'Acknowledged' : 'Acknowledged (no worker configured)') : failures.join('; '),
            responseTimeMs: Date.now() - t0,
            workers,
          }
        }),
      )
      const failed = environmentResults.filter((r) => !r.success)
      const success = failed.length === 0
      if (!success) opts.logger.warn({ kind: message.kind, name: message.name, failed: failed.map((f) => f.environmentName) }, 'deployment not acknowledged by every environment')
      return {
        success,
        message: success
          ? `${message.action === 'DEPLOY' ? 'Deployed' : 'Undeployed'} to ${environmentResults.length} environment(s)`
          : `Failed in ${failed.length} of ${environmentResults.length} environment(s): ${failed.map((f) => f.environmentName).join(', ')}`,
        responseTimeMs: Date.now() - started,
        environmentResults,
      }
    },
  }
}

/**
 * Many messages to every environment (RUNTIME.md §4.1): as batches when the deployer can, else one push after
 * the other in the given order (a deployer built for a test may only have push).
 */
export async function pushMessages(deployer: Deployer, environments: DeployEnvironment[], messages: DeployMessage[]): Promise<BatchDeploymentOutcome> {
  if (!messages.length || !environments.length) return { environmentResults: environments.map((e) => ({ environmentName: e.name, errors: messages.map(() => null), responseTimeMs: 0 })) }
  if (deployer.pushMany) return deployer.pushMany(environments, messages)
  const environmentResults = environments.map((e) => ({ environmentName: e.name, errors: [] as (string | null)[], responseTimeMs: 0 }))
  for (const message of messages) {
    const outcome = await deployer.push(environments, message)
    environmentResults.forEach((r, k) => {
      const result = outcome.environmentResults[k]
      r.errors.push(result?.success ? null : (result?.message ?? 'no result'))
      r.responseTimeMs += result?.responseTimeMs ?? 0
    })
  }
  return { environmentResults }
}

/** The single-push outcome of message `index` of a batched push, for callers that report per object. */
export function outcomeOfMessage(batch: BatchDeploymentOutcome, message: DeployMessage, index: number): DeploymentOutcome {
  const environmentResults = batch.environmentResults.map((r) => ({
    environmentName: r.environmentName,
    success: r.errors[index] === null,
    message: r.errors[index] ?? 'Acknowledged',
    responseTimeMs: r.responseTimeMs,
  }))
  const failed = environmentResults.filter((r) => !r.success)
  return {
    success: failed.length === 0,
    message: failed.length === 0
      ? `${message.action === 'DEPLOY' ? 'Deployed' : 'Undeployed'} to ${environmentResults.length} environment(s)`
      : `Failed in ${failed.length} of ${environmentResults.length} environment(s): ${failed.map((f) => f.environmentName).join(', ')}`,
    responseTimeMs: Math.max(0, ...environmentResults.map((r) => r.responseTimeMs)),
    environmentResults,
  }
}

/** Several undeploys of one change (a proxy and its endpoint versions, a key and the JWKs taken from it) as one result per environment. */
export function mergeOutcomes(outcomes: DeploymentOutcome[]): DeploymentOutcome {
  const byEnv = new Map<string, DeploymentOutcome['environmentResults'][number]>()
  for (const r of outcomes.flatMap((o) => o.environmentResults)) {
    const seen = byEnv.get(r.environmentName)
    byEnv.set(r.environmentName, seen ? { ...seen, success: seen.success && r.success, message: seen.success ? r.message : seen.message } : r)
  }
  const environmentResults = [...byEnv.values()]
  const failed = environmentResults.filter((r) => !r.success)
  return {
    success: failed.length === 0,
    message: failed.length ? `Failed in ${failed.length} of ${environmentResults.length} environment(s): ${failed.map((f) => f.environmentName).join(', ')}` : `Undeployed from ${environmentResults.length} environment(s)`,
    responseTimeMs: Math.max(0, ...outcomes.map((o) => o.responseTimeMs)),
    environmentResults,
  }
}
