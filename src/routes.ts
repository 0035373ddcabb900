import type { RouteDef } from './platform/http/routes.js'
import { transferRoutes } from './modules/transfer/rest.js'
import { authRoutes } from './modules/auth/rest.js'
import { credentialRoutes } from './modules/credentials/rest.js'
import { apiClientRoutes } from './modules/apiclients/rest.js'
import { identityLifecycleRoutes } from './modules/identity/lifecycle/rest.js'
import { identityReadRoutes } from './modules/identity/rest.js'
import { migrationRoutes } from './modules/migration/rest.js'
import { geolocationRoutes } from './modules/geolocation/rest.js'
import { limitBulkRoutes } from './modules/limits/bulk/rest.js'
import { licenseRoutes } from './modules/licence/rest.js'
import { limitBulkManagerRoutes } from './modules/limits/manager/rest.js'
import { limitDefaultRoutes } from './modules/limits/defaults/rest.js'
import { llmRoutes } from './modules/llm/rest.js'
import { auditRoutes } from './modules/audit/rest.js'
import { apiProxyRoutes } from './modules/apiproxies/ai/rest.js'
import { budgetRoutes } from './modules/budgets/rest.js'
import { presetRoutes } from './modules/presets/rest.js'
import { limitPlanRoutes } from './modules/limits/plans/rest.js'
import { limitAssignmentRoutes } from './modules/limits/assignments/rest.js'
import { automationRoutes } from './modules/environments/rest.js'
import { automationProxyRoutes } from './modules/apiproxies/proxies/rest.js'
import { policyRoutes } from './modules/apiproxies/policies/rest.js'
import { groupRoutes } from './modules/apiproxies/groups/rest.js'
import { proxyEndpointRoutes } from './modules/apiproxies/endpoints/rest.js'
import { proxySettingsRoutes } from './modules/apiproxies/settings/rest.js'
import { deploymentRoutes } from './modules/apiproxies/deployments/rest.js'
import { methodRoutes } from './modules/apiproxies/methods/rest.js'
import { certificateRouteTable, keysRoutes } from './modules/keys/rest.js'
import { keyFileRoutes } from './modules/key-files/rest.js'
import { connectionRoutes } from './modules/connections/rest.js'
import { webhookEventRoutes } from './modules/events/webhooks/rest.js'
import { rlclRoutes } from './modules/rlcl/rest.js'
import { reportRoutes } from './modules/reports/rest.js'
import { declarativeRoutes } from './modules/declarative/rest.js'
import { utilityRoutes } from './modules/utility/rest.js'
import { creatorApiRoutes } from './modules/creators/rest.js'
import { globalPolicyRoutes } from './modules/apiproxies/global-policies/rest.js'
import { policyGroupRoutes } from './modules/apiproxies/policy-groups/rest.js'
import { promotionRoutes } from './modules/promotion/rest.js'
import { portalRoutes } from './modules/portal/rest.js'
// issue 32: credential organizations, traffic log settings, proxy reads and spec
import { credentialOrganizationRoutes } from './modules/projects/rest.js'
import { trafficLogRoutes } from './modules/apiproxies/traffic-log/rest.js'
import { proxyReadRoutes } from './modules/apiproxies/reads/rest.js'

// One import and one entry line per module, so that modules are added without touching each other's lines.
/** Every module's route table: the REST door (/apiops and /api) and the OpenAPI document. */
export const routeTables: RouteDef[] = [
  ...presetRoutes,
  ...authRoutes,
  ...credentialRoutes,
  ...identityLifecycleRoutes,
  ...identityReadRoutes,
  ...migrationRoutes,
  ...apiClientRoutes,
  ...geolocationRoutes,
  ...limitBulkRoutes,
  ...licenseRoutes,
  ...limitBulkManagerRoutes,
  ...limitDefaultRoutes,
  ...llmRoutes,
  ...auditRoutes,
  ...apiProxyRoutes,
  ...budgetRoutes,
  ...limitPlanRoutes,
  ...limitAssignmentRoutes,
  ...transferRoutes,
  ...automationRoutes,
  // before the API proxy routes: /apiProxies/forpromotion and /promotion are not proxy names
  ...promotionRoutes,
  ...automationProxyRoutes,
  ...policyRoutes,
  ...groupRoutes,
  ...proxyEndpointRoutes,
  ...proxySettingsRoutes,
  ...deploymentRoutes,
  ...methodRoutes,
  ...certificateRouteTable,
  ...keyFileRoutes,
  ...keysRoutes,
  ...connectionRoutes,
  ...webhookEventRoutes,
  ...rlclRoutes,
  ...reportRoutes,
  ...declarativeRoutes,
  ...utilityRoutes,
  ...creatorApiRoutes,
  ...globalPolicyRoutes,
  ...policyGroupRoutes,
  ...portalRoutes,
  ...credentialOrganizationRoutes,
  ...trafficLogRoutes,
  ...proxyReadRoutes,
]
