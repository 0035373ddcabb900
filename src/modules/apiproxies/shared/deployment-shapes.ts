import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'

// The vendor pages show three forms of deploymentResult; each route answers with its page's form. Every form
// keeps `success` and `message`, so a client reading the spec's form (§2.1) finds them too.

const results = (o: DeploymentOutcome) => o.environmentResults.map(({ environmentName, success, message }) => ({ environmentName, success, message }))

/** API proxy pages (create, update, delete, deploy, undeploy): deploymentResults[]. */
export const proxyDeploymentResult = (o: DeploymentOutcome) => ({ success: o.success, message: o.message, deploymentResults: results(o) })

/** API proxy group pages and import with override: environmentResults[]. */
export const groupDeploymentResult = (o: DeploymentOutcome) => ({ success: o.success, message: o.message, environmentResults: results(o) })

/**
 * Policy pages: responseTime and detailList[], one entry per worker (the pages' pod) of each environment: envName,
 * podName and podIp (the worker, platform/deploy/pusher.ts WorkerResult), success, responseTime, and the message as
 * detail. An environment without a worker (or not pushed) has one entry with empty podName and podIp.
 */
export const policyDeploymentResult = (o: DeploymentOutcome) => ({
  success: o.success,
  message: o.message,
  responseTime: o.responseTimeMs,
  detailList: o.environmentResults.flatMap((r) =>
    r.workers?.length
      ? r.workers.map((w) => ({ envName: r.environmentName, podName: w.podName, podIp: w.podIp, success: w.success, responseTime: w.responseTimeMs, detail: w.message }))
      : [{ envName: r.environmentName, podName: '', podIp: '', success: r.success, responseTime: r.responseTimeMs, detail: r.message }],
  ),
})
