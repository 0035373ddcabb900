import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'

// The vendor pages show three forms of deploymentResult; each route answers with its page's form. Every form
// keeps `success` and `message`, so a client reading the spec's form (§2.1) finds them too.

const results = (o: DeploymentOutcome) => o.environmentResults.map(({ environmentName, success, message }) => ({ environmentName, success, message }))

/** API proxy pages (create, update, delete, deploy, undeploy): deploymentResults[]. */
export const proxyDeploymentResult = (o: DeploymentOutcome) => ({ success: o.success, message: o.message, deploymentResults: results(o) })

/** API proxy group pages and import with override: environmentResults[]. */
export const groupDeploymentResult = (o: DeploymentOutcome) => ({ success: o.success, message: o.message, environmentResults: results(o) })

/** Policy pages: responseTime and detailList[] (envName, success, responseTime; the message as detail). */
export const policyDeploymentResult = (o: DeploymentOutcome) => ({
  success: o.success,
  message: o.message,
  responseTime: o.responseTimeMs,
  detailList: o.environmentResults.map((r) => ({ envName: r.environmentName, success: r.success, responseTime: r.responseTimeMs, detail: r.message })),
})
