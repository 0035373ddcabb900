import 'reflect-metadata'
import { BEHAVIOUR_PAGES } from '../../src/modules/apiproxies/settings/behaviour.js'
import { SETTING_PAGES } from '../../src/modules/apiproxies/settings/service.js'
import { settingsMutationName } from '../../src/modules/apiproxies/settings/graphql.js'

// The GraphQL twin of every REST route (issue 30 §1), keyed by "METHOD path" as the route tables declare them: a
// root field (Query or Mutation) or a walk ("Type.field") that calls the same service. rest-twins.test.ts fails
// when a route of the tables is neither here nor in NO_TWIN, and when a twin named here is not in the schema.

const P = '/apiops/projects/:projectName'
const PROXY = `${P}/apiProxies/:apiProxyName`

const PRESETS: Record<string, string> = {
  'ai-dlp-presets': 'AiDlpPreset', 'ai-privacy-presets': 'AiPrivacyPreset', 'ai-prompt-guard-presets': 'AiPromptGuardPreset',
  'ai-prompt-decorator-presets': 'AiPromptDecoratorPreset', 'ai-topic-category-presets': 'AiTopicCategoryPreset', 'ai-prompt-templates': 'AiPromptTemplate',
}
const LLM: Record<string, [string, string]> = {
  'llm-providers': ['LlmProvider', ':providerName'], 'llm-provider-definitions': ['LlmProviderDefinition', ':definitionName'], 'llm-models': ['LlmModel', ':modelName'],
  'vector-dbs': ['VectorDb', ':vectorDbName'], 'knowledge-bases': ['KnowledgeBase', ':name'],
}
const lower = (s: string) => s[0]!.toLowerCase() + s.slice(1)

/** The five routes of one named collection: list, read, create (or save), update, delete. */
function collection(base: string, item: string, type: string, create: string): Record<string, string> {
  return { [`GET ${base}/`]: `${lower(type)}s`, [`GET ${base}/${item}/`]: lower(type), [`POST ${base}/${item}/`]: `${create}${type}`, [`PUT ${base}/${item}/`]: `update${type}`, [`DELETE ${base}/${item}/`]: `delete${type}` }
}

const presets = Object.entries(PRESETS).flatMap(([segment, type]) => [collection(`/apiops/settings/${segment}`, ':presetName', type, 'save'), collection(`${P}/${segment}`, ':presetName', type, 'save')])
const llm = Object.entries(LLM).map(([segment, [type, item]]) => collection(`${P}/${segment}`, item, type, 'upsert'))

/** Limit plans, on /apiops (project catalog) and on /api (manager surface), with their revisions. */
function limitPlans(base: string, actions: string): Record<string, string> {
  return {
    [`GET ${base}`]: 'limitPlans', [`POST ${base}`]: 'createLimitPlan', [`GET ${base}/:planKey`]: 'limitPlan', [`PUT ${base}/:planKey`]: 'updateLimitPlan',
    [`DELETE ${base}/:planKey`]: 'deleteLimitPlan', [`GET ${base}/:planKey/revisions`]: 'LimitPlan.revisions', [`GET ${base}/:planKey/draft`]: 'LimitPlan.draftRevision',
    [`GET ${base}/:planKey/published`]: 'LimitPlan.publishedRevision', [`GET ${base}/:planKey/revisions/:revision`]: 'limitPlanRevision',
    [`POST ${base}/:planKey/draft-revisions`]: 'openLimitPlanDraft', [`PUT ${base}/:planKey/draft-revisions/:revision`]: 'replaceLimitPlanDraft',
    [`POST ${base}/:planKey/revisions/:revision/${actions}publish`]: 'publishLimitPlanRevision', [`POST ${base}/:planKey/${actions}retire`]: 'retireLimitPlan',
  }
}

/** Limit assignments, on /apiops and on /api (limit-bindings). */
function limitAssignments(base: string, validate: string, actions: string): Record<string, string> {
  return {
    [`GET ${base}`]: 'limitAssignments', [`POST ${base}/${validate}`]: 'validateLimitAssignment', [`POST ${base}`]: 'createLimitAssignment',
    [`GET ${base}/:bindingKey`]: 'limitAssignment', [`PUT ${base}/:bindingKey`]: 'updateLimitAssignment',
    [`POST ${base}/:bindingKey/${actions}activate`]: 'activateLimitAssignment', [`POST ${base}/:bindingKey/${actions}end`]: 'endLimitAssignment',
  }
}

/** Bulk limit runs, on /apiops (project in the path) and on /api (project in the query or the run). */
function bulkRuns(previews: string, runs: string): Record<string, string> {
  return {
    [`POST ${previews}`]: 'previewLimitBulkAssignment', [`POST ${runs}`]: 'startLimitBulkRun', [`GET ${runs}`]: 'limitBulkRuns', [`GET ${runs}/:runId`]: 'limitBulkRun',
    [`GET ${runs}/:runId/issues`]: 'limitBulkRunIssues', [`POST ${runs}/:runId/actions/cancel`]: 'cancelLimitBulkRun',
    [`POST ${runs}/:runId/actions/rollback`]: 'rollbackLimitBulkRun', [`POST ${runs}/:runId/actions/retry-failed`]: 'retryFailedLimitBulkRun',
  }
}

const settingsPages = Object.fromEntries(Object.keys({ ...SETTING_PAGES, ...BEHAVIOUR_PAGES }).map((page) => [`PATCH ${PROXY}/settings/${page}/`, settingsMutationName(page)]))

/** The creators (issue 32 §4): reads take the kind, saves are one mutation per kind. */
const CREATORS: Record<string, [string, string, string]> = { db2apis: [':db2ApiName', ':db2ApiId', 'saveDb2Api'], mockapis: [':mockApiName', ':mockApiId', 'saveMockApi'], script2apis: [':script2ApiName', ':script2ApiId', 'saveScript2Api'] }
const creators = Object.entries(CREATORS).map(([segment, [name, id, save]]) => ({
  [`GET ${P}/${segment}/`]: 'apiCreators', [`GET ${P}/${segment}/${name}/`]: 'apiCreator', [`POST ${P}/${segment}/${name}/`]: save, [`GET /apiops/utility/${segment}/${id}`]: 'apiCreatorName',
}))

export const REST_TWINS: Record<string, string> = Object.assign({}, ...presets, ...llm, limitPlans(`${P}/limit-plans`, 'actions/'), limitPlans('/api/limit-plans', ''),
  limitAssignments(`${P}/limit-assignments`, 'actions/validate', 'actions/'), limitAssignments('/api/limit-bindings', 'validate', ''),
  bulkRuns(`${P}/limit-assignment-previews`, `${P}/limit-assignment-runs`), bulkRuns('/api/limit-assignment-previews', '/api/limit-assignment-runs'),
  settingsPages, ...creators, { 'POST /apiops/utility/creators/batch-names': 'apiCreatorNames' }, {
    // credential organizations (h-proxy, issue 32 §1)
    [`POST ${P}/credential-organizations/`]: 'createOrganization', [`GET ${P}/credential-organizations/:code`]: 'organization',
    [`PUT ${P}/credential-organizations/:code`]: 'updateOrganization', [`DELETE ${P}/credential-organizations/:code`]: 'deleteOrganization',
    // traffic log settings (h-proxy, issue 32 §2)
    [`GET ${PROXY}/trafficLogSettings/`]: 'apiProxyTrafficLogSettings', [`GET ${PROXY}/trafficLogSettings/:environmentName/`]: 'apiProxyTrafficLogSettings',
    [`PUT ${PROXY}/trafficLogSettings/:environmentName/`]: 'saveApiProxyTrafficLogSettings',
    [`PUT ${PROXY}/trafficLogSettings/:environmentName/connectors/:connectorType/methodOverride/`]: 'setApiProxyTrafficLogMethodOverride',
    [`DELETE ${PROXY}/trafficLogSettings/:environmentName/connectors/:connectorType/methodOverride/`]: 'deleteApiProxyTrafficLogMethodOverride',
    // API proxy reads without a vendor page (h-proxy, issue 32 §2)
    [`GET ${PROXY}/full`]: 'apiProxyFull', [`GET ${PROXY}/environment-variables/`]: 'apiProxyEnvironmentVariables',
    [`GET ${PROXY}/spec/`]: 'apiProxySpec', [`PUT ${PROXY}/spec/`]: 'replaceApiProxySpec',
    // key and keystore packages (h-proxy, issue 32 §3)
    [`POST ${P}/keys/import/`]: 'importCryptoKeyPackage', [`POST ${P}/keystores/import/`]: 'importKeyStorePackage',
    // auth
    'POST /apiops/auth/token': 'login',
    'GET /api/session': 'me',
    // credentials
    [`GET ${P}/credentials/`]: 'credentials', [`POST ${P}/credentials/`]: 'createCredential', [`PUT ${P}/credentials/`]: 'updateCredential',
    [`DELETE ${P}/credentials/:username/`]: 'deleteCredential', [`PATCH ${P}/credentials/:username/`]: 'changeCredentialPassword',
    [`DELETE ${P}/credentials/:username/token/`]: 'resetCredentialToken',
    [`GET ${P}/credentials/:username/access/`]: 'credentialAccess', [`PUT ${P}/credentials/:username/access/`]: 'grantCredentialAccess', [`DELETE ${P}/credentials/:username/access/`]: 'revokeCredentialAccess',
    // consumers and applications
    [`POST ${P}/applications/:applicationKey/actions/suspend`]: 'suspendApplication', [`POST ${P}/applications/:applicationKey/actions/resume`]: 'resumeApplication',
    [`POST ${P}/consumers/:consumerKey/actions/transfer-organization`]: 'transferConsumer', [`POST ${P}/applications/:applicationKey/actions/transfer-organization`]: 'transferApplication',
    [`GET ${P}/consumers`]: 'consumers', [`GET ${P}/consumers/:consumerKey`]: 'consumer', [`GET ${P}/consumers/:consumerKey/api-clients`]: 'Consumer.apiClients',
    [`GET ${P}/consumers/:consumerKey/entitlements`]: 'Consumer.entitlements', [`GET ${P}/consumers/:consumerKey/limit-assignments`]: 'Consumer.limitAssignments',
    [`GET ${P}/applications`]: 'applications', [`GET ${P}/applications/:applicationKey`]: 'applicationByKey', [`GET ${P}/applications/:applicationKey/api-clients`]: 'Application.apiClients',
    [`GET ${P}/applications/:applicationKey/entitlements`]: 'Application.entitlements', [`GET ${P}/applications/:applicationKey/limit-assignments`]: 'Application.limitAssignments',
    // API clients and their migration from credentials
    'POST /api/api-clients/migration/secrets/carry-over': 'carryOverApiClientSecrets', 'GET /api/api-clients/migration/inventory': 'apiClientMigrationInventory',
    'POST /api/api-clients/migration/backfill': 'backfillApiClients',
    'POST /api/api-clients': 'registerApiClient', 'GET /api/api-clients/:apiClientKey': 'apiClient', 'PATCH /api/api-clients/:apiClientKey': 'updateApiClient', 'PUT /api/api-clients/:apiClientKey': 'updateApiClient',
    'POST /api/api-clients/:apiClientKey/actions/activate': 'activateApiClient', 'POST /api/api-clients/:apiClientKey/actions/suspend': 'suspendApiClient',
    'POST /api/api-clients/:apiClientKey/actions/rotate-secret': 'rotateApiClientSecret', 'POST /api/api-clients/:apiClientKey/actions/revoke': 'revokeApiClient',
    'GET /api/api-clients/:apiClientKey/runtime-deployment': 'apiClientRuntimeDeployment',
    'GET /apiportal/management/portal/api-clients/get-by-app-id/:appId': 'Application.apiClients', 'GET /apiportal/management/portal/api-clients/get-by-app-id/:appId/:apiClientKey': 'apiClient',
    // geolocation, licence
    'PUT /apiops/settings/geolocation/mmdb': 'uploadGeolocationDatabase', 'PUT /apiops/settings/geolocation/enable': 'setGeolocationEnabled', 'PUT /apiops/settings/geolocation/disable': 'setGeolocationEnabled',
    'GET /api/installation-license': 'installationLicense', 'PUT /api/installation-license': 'setInstallationLicense', 'DELETE /api/installation-license': 'resetInstallationLicense',
    // limits: selector, portal, defaults, assignments by relation
    'GET /api/limit-assignment-subjects/search': 'limitAssignmentSubjects', 'GET /api/limit-assignment-subjects/organizations': 'limitSelectorOrganizations',
    'GET /api/api-products/:productId/plans/:planId/limit-impact': 'portalPlanLimitImpact', 'POST /api/limit-bindings/portal-subscriptions/backfill': 'backfillPortalSubscriptionLimits',
    'GET /api/limit-defaults': 'limitDefaults', 'POST /api/limit-defaults': 'createLimitDefault', 'POST /api/limit-defaults/actions/validate': 'validateLimitDefault',
    'GET /api/limit-defaults/:defaultKey': 'limitDefault', 'PUT /api/limit-defaults/:defaultKey': 'updateLimitDefault', 'POST /api/limit-defaults/:defaultKey/actions/activate': 'activateLimitDefault',
    'POST /api/limit-defaults/:defaultKey/actions/disable': 'disableLimitDefault', 'DELETE /api/limit-defaults/:defaultKey': 'deleteLimitDefault',
    'GET /api/limit-bindings/subject': 'Consumer.limitAssignments', 'GET /api/limit-bindings/covering-api-proxy': 'limitAssignmentsCoveringApiProxy',
    'GET /api/limit-bindings/referencing-plan/:planId': 'LimitPlan.assignments',
    // AI gateway
    [`POST ${P}/vector-dbs/:vectorDbName/test-connection/`]: 'testVectorDbConnection', [`POST ${P}/llm-providers/:providerName/test-connection/`]: 'testLlmProviderConnection', [`POST ${P}/knowledge-bases/:name/reindex/`]: 'reindexKnowledgeBase',
    [`POST ${P}/knowledge-bases/:kbName/documents/`]: 'uploadKnowledgeDocument', [`GET ${P}/knowledge-bases/:kbName/documents/`]: 'knowledgeDocuments',
    [`GET ${P}/knowledge-bases/:kbName/documents/:documentId/`]: 'knowledgeDocument', [`DELETE ${P}/knowledge-bases/:kbName/documents/:documentId/`]: 'deleteKnowledgeDocument',
    [`POST ${P}/knowledge-bases/:kbName/documents/:documentId/reindex/`]: 'reindexKnowledgeDocument',
    [`POST ${P}/apiProxies/ai/:apiProxyName/`]: 'createAiProxy', [`POST ${P}/apiProxies/mcp/:apiProxyName/`]: 'createMcpProxy', [`POST ${P}/apiProxies/a2a/:apiProxyName/`]: 'createA2aProxy',
    [`PUT ${PROXY}/ai-routing/`]: 'replaceAiRouting', [`PUT ${PROXY}/mcp-routing/`]: 'replaceMcpRouting', [`PUT ${PROXY}/a2a-routing/`]: 'replaceA2aRouting',
    [`GET ${PROXY}/ai-routing/`]: 'ApiProxy.aiRouting', [`GET ${PROXY}/mcp-routing/`]: 'ApiProxy.mcpRouting', [`GET ${PROXY}/a2a-routing/`]: 'ApiProxy.a2aRouting',
    [`POST ${PROXY}/policies/:policyName/parse-tools/`]: 'parseProxyTools', [`POST ${PROXY}/policies/:policyName/parse-skills/`]: 'parseProxySkills',
    'GET /apiops/settings/ai-gateway': 'aiGatewaySettings', 'PUT /apiops/settings/ai-gateway': 'updateAiGatewaySettings',
    [`PUT ${P}/ai-budgets/`]: 'updateAiBudget', [`GET ${P}/ai-budgets/hierarchy/:nodeType/:nodeId/effective-limit/`]: 'aiBudgetEffectiveLimit',
    [`GET ${P}/ai-budgets/scope-rules/`]: 'aiBudgetScopeRules', [`GET ${P}/ai-budgets/hierarchy/`]: 'aiBudgetHierarchy',
    // audit, transfer, projects, environments
    [`GET ${P}/audit-events`]: 'auditEvents',
    [`POST ${P}/export-import/:type/export/`]: 'transferExportRun', [`POST ${P}/transfer-export-previews`]: 'transferExportPreview', [`POST ${P}/transfer-export-runs`]: 'transferExportRun',
    [`POST ${P}/transfer-import-preflights`]: 'transferImportPreflight', [`POST ${P}/transfer-import-runs`]: 'transferImportRun',
    'GET /apiops/projects/': 'projects', 'GET /apiops/environments/': 'environments', 'GET /apiops/environments/:projectName': 'Project.environments', [`GET ${P}/environments/`]: 'Project.environments',
    // environment variables, IP groups
    ...collection(`${P}/environmentVariables`, ':name', 'EnvironmentVariable', 'create'),
    [`GET ${P}/ipGroups/`]: 'ipGroups', [`GET ${P}/ipGroups/:ipGroupName/`]: 'ipGroup',
    [`POST ${P}/ipGroups/`]: 'createIpGroup', [`PUT ${P}/ipGroups/:ipGroupName/`]: 'updateIpGroup', [`DELETE ${P}/ipGroups/:ipGroupName/`]: 'deleteIpGroup',
    [`POST ${P}/ipGroups/:ipGroupName/ips/`]: 'addIpGroupIps', [`PUT ${P}/ipGroups/:ipGroupName/ips/`]: 'replaceIpGroupIps', [`DELETE ${P}/ipGroups/:ipGroupName/ips/`]: 'removeIpGroupIps',
    // API proxies, their policies, groups, endpoints and settings
    [`GET ${P}/apiProxies/`]: 'apiProxies', [`POST ${P}/apiProxies/url/`]: 'createApiProxyFromSpec', [`PUT ${P}/apiProxies/url/`]: 'updateApiProxyFromSpec',
    [`POST ${P}/apiProxies/file/`]: 'createApiProxyFromSpec', [`PUT ${P}/apiProxies/file/`]: 'updateApiProxyFromSpec',
    [`GET ${PROXY}/`]: 'apiProxySettings', [`DELETE ${PROXY}/`]: 'deleteApiProxy',
    [`POST ${PROXY}/environments/:environmentName/`]: 'deployApiProxy', [`DELETE ${PROXY}/environments/:environmentName/`]: 'undeployApiProxy',
    [`GET ${PROXY}/export/`]: 'transferExportRun', [`POST ${P}/apiProxies/import/`]: 'transferImportRun', [`PUT ${PROXY}/import/`]: 'transferImportRun',
    [`GET ${PROXY}/policies/`]: 'apiProxyPolicies', [`POST ${PROXY}/policies/:policyName/`]: 'addApiProxyPolicy', [`PUT ${PROXY}/policies/:policyName/`]: 'updateApiProxyPolicy',
    [`DELETE ${PROXY}/policies/:policyName/`]: 'deleteApiProxyPolicy', 'GET /apiops/policy-types/': 'apiProxyPolicyTypes', 'GET /apiops/policy-types/:type/schema': 'apiProxyPolicyTypes',
    [`GET ${P}/apiProxyGroups/`]: 'apiProxyGroups', [`POST ${P}/apiProxyGroups/`]: 'createApiProxyGroup', [`PUT ${P}/apiProxyGroups/`]: 'updateApiProxyGroup',
    [`DELETE ${P}/apiProxyGroups/:apiProxyGroupName/`]: 'deleteApiProxyGroup', [`POST ${P}/apiProxyGroups/:apiProxyGroupName/apiProxies/:apiProxyName/`]: 'addApiProxyToGroup',
    [`DELETE ${P}/apiProxyGroups/:apiProxyGroupName/apiProxies/:apiProxyName/`]: 'removeApiProxyFromGroup', [`GET ${P}/apiProxyGroups/:apiProxyGroupName/environments/`]: 'apiProxyGroupEnvironments',
    [`POST ${P}/apiProxyGroups/:apiProxyGroupName/environments/:environmentName/`]: 'deployApiProxyGroup', [`DELETE ${P}/apiProxyGroups/:apiProxyGroupName/environments/:environmentName/`]: 'undeployApiProxyGroup',
    [`GET ${PROXY}/endpoints/`]: 'ApiProxy.endpoints', [`POST ${PROXY}/endpoints/`]: 'createGatewayEndpoint', [`GET ${PROXY}/endpoints/:endpointId/`]: 'gatewayEndpoint',
    [`PATCH ${PROXY}/endpoints/:endpointId/`]: 'updateGatewayEndpoint', [`DELETE ${PROXY}/endpoints/:endpointId/`]: 'deleteGatewayEndpoint',
    [`PATCH ${PROXY}/endpoints/:endpointId/status/`]: 'setGatewayEndpointStatus', [`PATCH ${PROXY}/endpoints/:endpointId/cache/`]: 'updateGatewayEndpointCache',
    [`PATCH ${PROXY}/endpoints/:endpointId/wsa/`]: 'updateGatewayEndpointWsa', [`GET ${PROXY}/endpoints/:endpointId/policies/`]: 'ApiProxyEndpoint.policies',
    // the body-identified forms (management-api-docs b9d5441): the same operations, the endpoint named in the body
    [`POST ${PROXY}/endpoints/details/`]: 'gatewayEndpoint', [`POST ${PROXY}/endpoints/policies/`]: 'ApiProxyEndpoint.policies',
    [`PATCH ${PROXY}/endpoints/`]: 'updateGatewayEndpoint', [`POST ${PROXY}/endpoints/delete/`]: 'deleteGatewayEndpoint',
    [`PATCH ${PROXY}/endpoints/status/`]: 'setGatewayEndpointStatus', [`PATCH ${PROXY}/endpoints/cache/`]: 'updateGatewayEndpointCache',
    [`PATCH ${PROXY}/endpoints/wsa/`]: 'updateGatewayEndpointWsa',
    [`PATCH ${PROXY}/settings/hide-spec-file/:hideSpecFile/`]: 'updateApiProxyHideSpecFileSettings',
    [`PATCH ${PROXY}/settings/spec-access-type/:specAccessType/`]: 'updateApiProxySpecAccessTypeSettings',
    // keys and secrets
    [`GET ${P}/certificates/`]: 'certificates', [`GET ${P}/certificates/truststore/:environmentName/`]: 'truststoreCertificates', [`GET ${P}/certificates/:certificateName/`]: 'certificate',
    [`GET ${P}/certificates/:certificateName/export/`]: 'certificateExport', [`POST ${P}/certificates/`]: 'createCertificate', [`PUT ${P}/certificates/:certificateName/`]: 'updateCertificate',
    [`DELETE ${P}/certificates/:certificateName/`]: 'deleteCertificate',
    [`GET ${P}/certificates/:certificateName/export-file/`]: 'certificateExport', [`POST ${P}/certificates/import-file/`]: 'importCertificateFile',
    [`POST ${P}/certificates/truststore/:environmentName/import-file/`]: 'importTruststoreFile', [`GET ${P}/certificates/truststore/:environmentName/export-file/`]: 'truststoreExportFile',
    [`POST ${P}/keys/import-file/`]: 'importCryptoKeyFile', [`GET ${P}/keys/:keyName/export-file/`]: 'cryptoKeyExportFile',
    [`POST ${P}/keystores/import-file/`]: 'importKeyStoreFile', [`GET ${P}/keystores/:keystoreName/export-file/`]: 'keyStoreExportFile',
    [`POST ${P}/jwks/import-file/`]: 'importJwkFile', [`GET ${P}/jwks/:jwkName/export-file/`]: 'jwkExportFile',
    // the package of one key or keystore is the transfer export of type CERTIFICATE with its kind
    [`GET ${P}/keys/:keyName/export/`]: 'transferExportRun', [`GET ${P}/keystores/:keystoreName/export/`]: 'transferExportRun',
    [`GET ${P}/keys/`]: 'cryptoKeys', [`GET ${P}/keys/:keyName/`]: 'cryptoKey', [`POST ${P}/keys/`]: 'createCryptoKey', [`PUT ${P}/keys/:keyName/`]: 'updateCryptoKey', [`DELETE ${P}/keys/:keyName/`]: 'deleteCryptoKey',
    [`GET ${P}/keystores/`]: 'keyStores', [`GET ${P}/keystores/:keystoreName/`]: 'keyStore', [`POST ${P}/keystores/`]: 'createKeyStore', [`PUT ${P}/keystores/:keystoreName/`]: 'updateKeyStore',
    [`DELETE ${P}/keystores/:keystoreName/`]: 'deleteKeyStore',
    [`POST ${P}/jwks/generate`]: 'generateJwk', [`POST ${P}/jwks/parse-from-url`]: 'createJwkFromUrl', [`POST ${P}/jwks/parse-from-clipboard`]: 'createJwkFromClipboard',
    [`POST ${P}/jwks/parse-from-certificate`]: 'createJwkFromCertificate', [`POST ${P}/jwks/parse-from-key`]: 'createJwkFromKey', [`POST ${P}/jwks/parse-from-keystore`]: 'createJwkFromKeystore',
    [`GET ${P}/jwks/`]: 'jwks', [`GET ${P}/jwks/:jwkName/`]: 'jwk', [`POST ${P}/jwks/`]: 'createJwk', [`PUT ${P}/jwks/:jwkName/`]: 'updateJwk', [`DELETE ${P}/jwks/:jwkName/`]: 'deleteJwk',
    // connections
    ...collection(`${P}/connections`, ':connectionName', 'Connection', 'create'),
    [`POST ${P}/connections/:connectionName/test`]: 'testConnection', [`GET ${P}/connections/:connectionName/events/`]: 'webhookEventSubscription',
    [`PUT ${P}/connections/:connectionName/events/`]: 'setWebhookEventSubscription', [`GET ${P}/connections/:connectionName/deliveries/`]: 'webhookDeliveries',
    // RLCLs
    [`GET ${P}/rlcl/`]: 'rlcls', [`POST ${P}/rlcl/`]: 'createRlcl', [`GET ${P}/rlcl/:rlclName/`]: 'rlcl', [`PUT ${P}/rlcl/:rlclName/`]: 'updateRlcl', [`DELETE ${P}/rlcl/:rlclName/`]: 'deleteRlcl',
    ...Object.fromEntries(['credentials', 'endpoints', 'condition'].flatMap((part) => {
      const name = part === 'condition' ? 'RlclCondition' : `Rlcl${part[0]!.toUpperCase()}${part.slice(1)}`
      return [[`POST ${P}/rlcl/:rlclName/${part}/`, `add${name}`], [`PUT ${P}/rlcl/:rlclName/${part}/`, `replace${name}`], [`DELETE ${P}/rlcl/:rlclName/${part}/`, `remove${name}`]]
    })),
    // reports
    'GET /apiops/reports/api-proxies': 'apiProxyReport', 'GET /apiops/reports/organization-api-data-model-access': 'organizationAccessReport',
    // a credential's security material (issue 32 §1): one mutation per direction, the slot as an argument
    [`PUT ${P}/credentials/:username/certificate/:certificateName/`]: 'setCredentialMaterial', [`DELETE ${P}/credentials/:username/certificate/`]: 'removeCredentialMaterial',
    [`PUT ${P}/credentials/:username/keystore/:keystoreName/`]: 'setCredentialMaterial', [`DELETE ${P}/credentials/:username/keystore/`]: 'removeCredentialMaterial',
    [`PUT ${P}/credentials/:username/truststore/:keystoreName/`]: 'setCredentialMaterial', [`DELETE ${P}/credentials/:username/truststore/`]: 'removeCredentialMaterial',
    [`PUT ${P}/credentials/:username/privateKey/:keyName/`]: 'setCredentialMaterial', [`DELETE ${P}/credentials/:username/privateKey/`]: 'removeCredentialMaterial',
    [`PUT ${P}/credentials/:username/publicKey/:keyName/`]: 'setCredentialMaterial', [`DELETE ${P}/credentials/:username/publicKey/`]: 'removeCredentialMaterial',
    [`PUT ${P}/credentials/:username/secretKey/:secretKeyName/`]: 'setCredentialMaterial', [`DELETE ${P}/credentials/:username/secretKey/`]: 'removeCredentialMaterial',
    [`PUT ${P}/credentials/:username/jwk/validation/:jwkName/`]: 'setCredentialMaterial', [`DELETE ${P}/credentials/:username/jwk/validation/`]: 'removeCredentialMaterial',
    [`PUT ${P}/credentials/:username/jwk/encryption/:jwkName/`]: 'setCredentialMaterial', [`DELETE ${P}/credentials/:username/jwk/encryption/`]: 'removeCredentialMaterial',
    [`PUT ${P}/credentials/:username/token/`]: 'setCredentialTokenSettings',
    // the API proxy lifecycle (issue 32 §2)
    [`GET ${PROXY}/environments/:environmentName/deploy-status/`]: 'apiProxyDeployStatus', [`GET ${PROXY}/environments/:environmentName/route-health/`]: 'apiProxyRouteHealth',
    [`GET ${PROXY}/invoke-info/`]: 'apiProxyInvokeInfo', [`GET ${PROXY}/deploy-histories/`]: 'apiProxyDeployHistories', [`GET ${PROXY}/deploy-histories/:revision/`]: 'apiProxyDeployHistory',
    [`DELETE ${PROXY}/deploy-histories/:revision/`]: 'deleteApiProxyDeployHistory', [`POST ${PROXY}/deploy-histories/:revision/rollback/`]: 'rollbackApiProxy',
    [`GET ${P}/apiProxyGroups/:apiProxyGroupName/deploy-histories/`]: 'apiProxyGroupDeployHistories', [`GET ${P}/apiProxyGroups/:apiProxyGroupName/deploy-histories/:revision/`]: 'apiProxyGroupDeployHistory',
    [`DELETE ${P}/apiProxyGroups/:apiProxyGroupName/deploy-histories/:revision/`]: 'deleteApiProxyGroupDeployHistory', [`POST ${P}/apiProxyGroups/:apiProxyGroupName/deploy-histories/:revision/rollback/`]: 'rollbackApiProxyGroup',
    [`GET ${PROXY}/methods/`]: 'apiProxyMethods', [`POST ${PROXY}/methods/policies/`]: 'ApiProxyEndpoint.policies',
    // declarative configuration (issue 29)
    [`GET ${P}/declarative-state`]: 'declarativeState', [`POST ${P}/declarative-plans`]: 'createDeclarativePlan', [`POST ${P}/declarative-plans/:planId/apply`]: 'applyDeclarativePlan',
    [`POST ${P}/declarative-validations`]: 'validateDeclarativeDocument', [`GET ${P}/declarative-drift`]: 'declarativeDrift',
    // platform objects (issue 32 §3): export-import listings and import on the transfer engine
    [`GET ${P}/export-import/types/`]: 'exportImportTypes', [`GET ${P}/export-import/:type/objects/`]: 'exportImportObjects', [`POST ${P}/export-import/:type/import/`]: 'importObjects',
    // global policies and policy groups
    [`GET ${P}/globalPolicies/`]: 'globalPolicies', [`POST ${P}/globalPolicies/`]: 'createGlobalPolicy', [`GET ${P}/globalPolicies/:policyName/`]: 'globalPolicy',
    [`PUT ${P}/globalPolicies/:policyName/`]: 'updateGlobalPolicy', [`DELETE ${P}/globalPolicies/:policyName/`]: 'deleteGlobalPolicy',
    [`GET ${P}/policyGroups/`]: 'policyGroups', [`POST ${P}/policyGroups/`]: 'createPolicyGroup', [`GET ${P}/policyGroups/:policyGroupName/`]: 'policyGroup',
    [`PUT ${P}/policyGroups/:policyGroupName/`]: 'updatePolicyGroup', [`DELETE ${P}/policyGroups/:policyGroupName/`]: 'deletePolicyGroup',
    // promotion (issue 32 §4)
    [`GET ${P}/apiProxies/forpromotion`]: 'apiProxiesForPromotion', [`PUT ${P}/apiProxies/promotion`]: 'promoteApiProxy',
    [`PUT ${P}/apiProxyGroups/promotion`]: 'promoteApiProxyGroup', 'POST /apiops/promotion/executions': 'runPromotionExecution', 'GET /apiops/promotion/executions/:executionId': 'promotionExecution',
    'GET /apiops/utility/promotion-certificates/:certKind/:id/full': 'promotionCertificate',
    // the portal (issue 32 §4)
    'GET /apiops/portal-apps/organizations': 'portalOrganizations', 'POST /apiops/portal-apps/provision': 'provisionPortalApplication',
    'GET /apiops/portal-apps/:referenceId/credentials': 'portalApplicationCredentials', 'GET /apiops/portal-apps/:referenceId/usage-report': 'portalApplicationUsage',
    'GET /apiops/api-products': 'apiProducts', 'POST /apiops/api-products/promote': 'promoteApiProduct', 'GET /apiops/api-products/:referenceId/plans': 'apiProductPlans',
    'GET /apiops/portal/usage': 'portalUsage', 'GET /apiops/portal/traffic/summary': 'portalTrafficSummary', [`POST ${P}/promotion-certificates`]: 'createPromotionCertificate', [`GET ${P}/apiProxyGroups/:apiProxyGroupName/proxies/forpromotion`]: 'apiProxyGroupProxiesForPromotion',
    // the utility lookups (one query per form, the kind as an argument)
    ...Object.fromEntries(['apiProxies', 'connections', 'environments', 'projects', 'proxyGroups'].map((kind) => [`POST /apiops/utility/${kind}/batch-names`, 'utilityNames'])),
    ...Object.fromEntries(['apiProxies/:apiProxyId', 'connections/:connectionId', 'connections/:connectionId/full', 'environments/:environmentId', 'projects/:projectId', 'proxyGroups/:proxyGroupId'].map((path) => [`GET /apiops/utility/${path}`, 'utilityObject'])),
  })

/** Routes with no GraphQL twin, each with the reason. */
export const NO_TWIN: Record<string, string> = {
  'GET /apiops/test/healthcheck': 'diagnostics: plain text OK for probes of the REST surface; GraphQL has /healthz and the introspection query',
  'GET /apiops/declarative/schema.json': 'a JSON Schema file for editors, not an operation: GraphQL clients get the same rules from the schema of createDeclarativePlan',
  'GET /apiops/test/hello/:name': 'diagnostics: checks that a token works on the REST surface; on GraphQL `me` answers the same question',
}
