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

export interface EnvironmentResult { environmentName: string; success: boolean; message: string; responseTimeMs: number }

export interface DeploymentOutcome { success: boolean; message: string; responseTimeMs: number; environmentResults: EnvironmentResult[] }

export interface Deployer {
  push(environments: DeployEnvironment[], message: DeployMessage): Promise<DeploymentOutcome>
}

async function pushToWorker(url: string, message: DeployMessage, timeoutMs: number): Promise<string | null> {
  const target = `${url.replace(/\/+$/, '')}/deployments`
  try {
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(timeoutMs),
    })
    await res.arrayBuffer().catch(() => undefined)
    return res.ok ? null : `${url} answered HTTP ${res.status}`
  } catch (err) {
    const e = err as Error
    if (e.name === 'TimeoutError') return `${url} did not answer within ${timeoutMs} ms`
    return `${url} unreachable: ${(e.cause as Error | undefined)?.message ?? e.message}`
  }
}

/**
 * Pushes one object to every environment in parallel. An environment is acknowledged when all its workers
 * answered 2xx in time (at once when it has none); a failure is reported, never thrown, because the saved
 * change stays saved.
 */
export function createDeployer(opts: { timeoutMs: number; logger: Logger; metrics: Metrics }): Deployer {
  return {
    async push(environments, message) {
      const started = Date.now()
      const environmentResults = await Promise.all(
        environments.map(async (env): Promise<EnvironmentResult> => {
          const t0 = Date.now()
          const failures = (await Promise.all(env.workerUrls.map((u) => pushToWorker(u, message, opts.timeoutMs)))).filter(
            (f): f is string => f !== null,
          )
          const success = failures.length === 0
          opts.metrics.deployPushes.inc({ outcome: success ? 'acknowledged' : 'failed' })
          return {
            environmentName: env.name,
            success,
            message: success ? (env.workerUrls.length ? 'Acknowledged' : 'Acknowledged (no worker configured)') : failures.join('; '),
            responseTimeMs: Date.now() - t0,
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
