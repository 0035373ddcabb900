/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type ApiProxyCorsSettingsCorsSettingsInput = {
  /** one of true, false */
  allowCredentials?: string | null | undefined;
  allowHeaderList?: Array<string> | null | undefined;
  allowMethodList?: Array<string> | null | undefined;
  allowOriginList?: Array<string> | null | undefined;
  corsActive?: boolean | null | undefined;
  description?: string | null | undefined;
  exposeHeaderList?: Array<string> | null | undefined;
  maxAge?: number | null | undefined;
  name?: string | null | undefined;
};

/** The body of PATCH …/apiProxies/{name}/settings/cors/ */
export type ApiProxyCorsSettingsInput = {
  /** one of true, false */
  allowCredentials?: string | null | undefined;
  allowHeaderList?: Array<string> | null | undefined;
  allowMethodList?: Array<string> | null | undefined;
  allowOriginList?: Array<string> | null | undefined;
  corsActive?: boolean | null | undefined;
  /** the section's fields (newest pages); or send them at the top level */
  corsSettings?: ApiProxyCorsSettingsCorsSettingsInput | null | undefined;
  /** true: after saving, push the proxy to deployTargetEnvironmentNameList (or where it is deployed now when that is empty) */
  deploy?: boolean | null | undefined;
  /** environments of the project to push to when deploy is true */
  deployTargetEnvironmentNameList?: Array<string> | null | undefined;
  description?: string | null | undefined;
  exposeHeaderList?: Array<string> | null | undefined;
  maxAge?: number | null | undefined;
  name?: string | null | undefined;
};

export type ApiProxyInput = {
  /** API proxy group names; missing groups are created */
  groups?: Array<string> | null | undefined;
  /** REST, SOAP, GRPC, WEBSOCKET, AI, MCP, A2A; default REST */
  kind?: string | null | undefined;
  name: string;
};

/** The body of PATCH …/apiProxies/{name}/settings/routing-status/ */
export type ApiProxyRoutingStatusSettingsInput = {
  /** true: after saving, push the proxy to deployTargetEnvironmentNameList (or where it is deployed now when that is empty) */
  deploy?: boolean | null | undefined;
  /** environments of the project to push to when deploy is true */
  deployTargetEnvironmentNameList?: Array<string> | null | undefined;
  echoEnabled?: boolean | null | undefined;
  mirrorEnabled?: boolean | null | undefined;
  routingEnabled?: boolean | null | undefined;
};

export type ApplicationInput = {
  /** ACTIVE (default), SUSPENDED, PENDING_DELETION or ARCHIVED */
  appStatus?: string | null | undefined;
  /** PORTAL or INTERNAL (default) */
  applicationKind?: string | null | undefined;
  /** usernames of the credentials the application owns */
  consumers?: Array<string> | null | undefined;
  description?: string | null | undefined;
  name: string;
  organizationCode?: string | null | undefined;
  referenceId?: string | null | undefined;
};

/** A new consumer: a credential without a password */
export type ConsumerInput = {
  description?: string | null | undefined;
  email?: string | null | undefined;
  fullName?: string | null | undefined;
  organizationCode?: string | null | undefined;
  username: string;
};

export type CredentialInput = {
  description?: string | null | undefined;
  email?: string | null | undefined;
  enabled?: boolean | null | undefined;
  expireDate?: string | null | undefined;
  fullName?: string | null | undefined;
  /** allowed client addresses, IP or CIDR */
  ipList?: Array<string> | null | undefined;
  organizationCode?: string | null | undefined;
  /** write-only; encrypted at rest */
  password?: string | null | undefined;
  /** role names of the project catalogue (credentialRoles) */
  roleNameList?: Array<string> | null | undefined;
  syncManaged?: boolean | null | undefined;
  tokenSettings?: CredentialTokenSettingsInput | null | undefined;
  username: string;
};

export type CredentialTokenSettingsInput = {
  allowUrlParameters?: boolean | null | undefined;
  deletePrevious?: boolean | null | undefined;
  enumPolicyAuthenticationType?: string | null | undefined;
  grantType?: string | null | undefined;
  jwtSignatureAlgorithm?: string | null | undefined;
  managedFromThisPolicy?: boolean | null | undefined;
  refreshTokenAllowed?: boolean | null | undefined;
  refreshTokenCount?: number | null | undefined;
  refreshTokenExpiresInAmount?: number | null | undefined;
  refreshTokenExpiresInUnit?: string | null | undefined;
  tokenExpiresInAmount?: number | null | undefined;
  tokenExpiresInUnit?: string | null | undefined;
  tokenNeverExpires?: boolean | null | undefined;
};

/** Absent or null fields keep their value; organizationCode "" detaches */
export type CredentialUpdateInput = {
  description?: string | null | undefined;
  email?: string | null | undefined;
  enabled?: boolean | null | undefined;
  expireDate?: string | null | undefined;
  fullName?: string | null | undefined;
  /** allowed client addresses, IP or CIDR */
  ipList?: Array<string> | null | undefined;
  organizationCode?: string | null | undefined;
  /** write-only; a new value rotates it */
  password?: string | null | undefined;
  /** role names of the project catalogue (credentialRoles) */
  roleNameList?: Array<string> | null | undefined;
  syncManaged?: boolean | null | undefined;
  tokenSettings?: CredentialTokenSettingsInput | null | undefined;
  username?: string | null | undefined;
};

/** The same body as POST/PUT /apiops/projects/{projectName}/environmentVariables/{name}/ */
export type EnvironmentVariableInput = {
  description?: string | null | undefined;
  environmentValueList?: Array<EnvironmentVariableValueInput> | null | undefined;
  /** default false */
  global?: boolean | null | undefined;
  globalValue?: string | null | undefined;
  /** default true; false marks the global value secret */
  globalVisible?: boolean | null | undefined;
  name: string;
};

export type EnvironmentVariableValueInput = {
  environmentName: string;
  /** a secret left null on update keeps its stored value */
  value?: string | null | undefined;
  /** false (default) marks the value secret */
  visible?: boolean | null | undefined;
};

/** The body of spec §2.14; previewFingerprint (required) and expectedCount for runs only */
export type LimitBulkInput = {
  /** KEEP_EXISTING (default) or REPLACE */
  conflictPolicy?: string | null | undefined;
  content: LimitContentInput;
  expectedCount?: number | null | undefined;
  previewFingerprint?: string | null | undefined;
  selector: LimitBulkSelectorInput;
};

export type LimitBulkSelectorInput = {
  enabledOnly?: boolean | null | undefined;
  /** at most 5000 */
  excludeSubjectKeys?: Array<string> | null | undefined;
  /** ANY (default), NONE, EXISTS */
  existingAssignment?: string | null | undefined;
  includeSubOrganizations?: boolean | null | undefined;
  organizationCodes?: Array<string> | null | undefined;
  search?: string | null | undefined;
  /** at most 5000 */
  subjectKeys?: Array<string> | null | undefined;
  /** CONSUMER, API_CLIENT, APPLICATION, ORGANIZATION */
  subjectType: string;
};

export type LimitContentInput = {
  /** default ANY */
  actorScope?: string | null | undefined;
  cacheConnectionTimeoutInSeconds?: number | null | undefined;
  cacheErrorHandlingType?: string | null | undefined;
  customMessageContentType?: string | null | undefined;
  customMessageHttpStatusCode?: number | null | undefined;
  customMessageTemplate?: string | null | undefined;
  /** required with mode CUSTOM */
  customRuleSpec?: unknown;
  /** required */
  family?: string | null | undefined;
  /** default PLAN when planKeys is set */
  mode?: string | null | undefined;
  planKeys?: Array<string> | null | undefined;
  showRateLimitStatisticsInResponseHeader?: boolean | null | undefined;
  target?: LimitTargetInput | null | undefined;
  /** ISO 8601 */
  validFrom?: string | null | undefined;
  /** ISO 8601 */
  validUntil?: string | null | undefined;
};

export type LimitPlanCreateInput = {
  description?: string | null | undefined;
  /** required: REQUEST_RATE or AI_TOKEN_BUDGET (limit.plan.familyRequired) */
  family?: string | null | undefined;
  /** required: exactly one arm matching the family */
  initialRuleSpec?: unknown;
  labels?: Array<string> | null | undefined;
  /** required (limit.plan.nameRequired) */
  name?: string | null | undefined;
  nameTr?: string | null | undefined;
};

export type LimitTargetInput = {
  apiProxyGroupName?: string | null | undefined;
  apiProxyName?: string | null | undefined;
  environmentName?: string | null | undefined;
  httpMethods?: Array<string> | null | undefined;
  targetKey?: string | null | undefined;
  /** default ALL */
  type?: string | null | undefined;
};

export type ProjectInput = {
  description?: string | null | undefined;
  /** names of the environments the project deploys to */
  environments?: Array<string> | null | undefined;
  name: string;
};

/** Exactly one owner: applicationKey, applicationName, consumerKey or consumerUsername */
export type RegisterApiClientInput = {
  /** client_credentials and/or refresh_token */
  allowedGrantTypes?: Array<string> | null | undefined;
  applicationKey?: string | null | undefined;
  applicationName?: string | null | undefined;
  /** minted when absent */
  clientId?: string | null | undefined;
  consumerKey?: string | null | undefined;
  consumerUsername?: string | null | undefined;
  expiresAt?: string | null | undefined;
  /** false: no secret yet (readiness PENDING_SECRET); default true */
  issueSecret?: boolean | null | undefined;
  /** RS256 when unset */
  jwtSignatureAlgorithm?: string | null | undefined;
  name: string;
  projectName: string;
  refreshTokenAllowed?: boolean | null | undefined;
  refreshTokenCount?: number | null | undefined;
  refreshTokenExpiresInAmount?: number | null | undefined;
  refreshTokenExpiresInUnit?: string | null | undefined;
  tokenEndpointAuthMethod?: string | null | undefined;
  tokenExpiresInAmount?: number | null | undefined;
  /** MILLI_SECONDS … YEARS */
  tokenExpiresInUnit?: string | null | undefined;
  tokenIssuanceProfile?: string | null | undefined;
  tokenNeverExpires?: boolean | null | undefined;
  validFrom?: string | null | undefined;
};

export type ConsoleApiProxiesQueryVariables = Exact<{
  projectName: string;
  page: number;
  size: number;
  search?: string | null | undefined;
}>;


export type ConsoleApiProxiesQuery = { apiProxies: { page: number, size: number, totalElements: number, totalPages: number, items: Array<{ name: string, kind: string, relativePath: string | null, description: string | null, revision: number, updatedAt: string, groups: Array<string> }> } };

export type ConsoleApiProxyQueryVariables = Exact<{
  projectName: string;
  name: string;
}>;


export type ConsoleApiProxyQuery = { apiProxySettings: unknown, apiProxy: { name: string, kind: string, relativePath: string | null, description: string | null, revision: number, routingMode: string | null, creationType: string | null, endpointVersions: Array<{ version: string, basePath: string, endpointCount: number, deprecated: boolean }>, endpoints: Array<{ id: string, version: string, httpMethod: string, endpoint: string, operationId: string, active: boolean, backendHttpMethod: string, backendResourceUrl: string, policies: Array<{ name: string, pipeline: string, order: number, type: string, active: boolean }> }>, policies: Array<{ name: string, pipeline: string, order: number, type: string, description: string | null, active: boolean }> }, apiProxyDeployments: Array<{ environmentName: string, deployed: boolean, redeployRequired: boolean }> };

export type ConsoleCreateApiProxyMutationVariables = Exact<{
  projectName: string;
  input: ApiProxyInput;
}>;


export type ConsoleCreateApiProxyMutation = { createApiProxy: { name: string } };

export type ConsoleDeleteApiProxyMutationVariables = Exact<{
  projectName: string;
  name: string;
}>;


export type ConsoleDeleteApiProxyMutation = { deleteApiProxy: boolean };

export type ConsoleDeployApiProxyMutationVariables = Exact<{
  projectName: string;
  name: string;
  environmentName: string;
}>;


export type ConsoleDeployApiProxyMutation = { deployApiProxy: { success: boolean, message: string, environmentResults: Array<{ environmentName: string, success: boolean, message: string }> } };

export type ConsoleUndeployApiProxyMutationVariables = Exact<{
  projectName: string;
  name: string;
  environmentName: string;
}>;


export type ConsoleUndeployApiProxyMutation = { undeployApiProxy: { success: boolean, message: string, environmentResults: Array<{ environmentName: string, success: boolean, message: string }> } };

export type ConsoleDeploymentOutcomesSubscriptionVariables = Exact<{
  projectName: string;
}>;


export type ConsoleDeploymentOutcomesSubscription = { deploymentOutcomes: { kind: string, name: string, environmentName: string, action: string, acknowledged: boolean, revision: number, at: string } };

export type ConsoleUpdateCorsSettingsMutationVariables = Exact<{
  projectName: string;
  apiProxyName: string;
  input: ApiProxyCorsSettingsInput;
}>;


export type ConsoleUpdateCorsSettingsMutation = { updateApiProxyCorsSettings: boolean };

export type ConsoleUpdateRoutingStatusSettingsMutationVariables = Exact<{
  projectName: string;
  apiProxyName: string;
  input: ApiProxyRoutingStatusSettingsInput;
}>;


export type ConsoleUpdateRoutingStatusSettingsMutation = { updateApiProxyRoutingStatusSettings: boolean };

export type ConsoleUpdateHideSpecFileSettingsMutationVariables = Exact<{
  projectName: string;
  apiProxyName: string;
  hideSpecFile: boolean;
}>;


export type ConsoleUpdateHideSpecFileSettingsMutation = { updateApiProxyHideSpecFileSettings: boolean };

export type ConsoleAuditEventFragment = { id: string, at: string, actor: string, surface: string, operation: string, outcome: string, objectType: string | null, objectName: string | null, projectName: string | null, httpStatus: number | null };

export type ConsoleAuditEventsQueryVariables = Exact<{
  projectName?: string | null | undefined;
  page: number;
  size: number;
  user?: string | null | undefined;
  objectType?: string | null | undefined;
  operation?: string | null | undefined;
}>;


export type ConsoleAuditEventsQuery = { auditEvents: { page: number, size: number, totalElements: number, totalPages: number, items: Array<{ id: string, at: string, actor: string, surface: string, operation: string, outcome: string, objectType: string | null, objectName: string | null, projectName: string | null, httpStatus: number | null }> } };

export type ConsoleAuditTailSubscriptionVariables = Exact<{
  projectName: string;
}>;


export type ConsoleAuditTailSubscription = { auditEvents: { id: string, at: string, actor: string, surface: string, operation: string, outcome: string, objectType: string | null, objectName: string | null, projectName: string | null, httpStatus: number | null } };

export type ConsoleEnvironmentVariablesQueryVariables = Exact<{
  projectName: string;
  page: number;
  size: number;
  search?: string | null | undefined;
}>;


export type ConsoleEnvironmentVariablesQuery = { environmentVariablesPage: { page: number, totalElements: number, totalPages: number, items: Array<{ name: string, description: string | null, global: boolean, globalVisible: boolean, globalValue: string | null, globalValueSet: boolean, revision: number, environmentValueList: Array<{ environmentName: string, value: string | null, valueSet: boolean, visible: boolean }> | null }> } };

export type ConsoleCreateEnvironmentVariableMutationVariables = Exact<{
  projectName: string;
  input: EnvironmentVariableInput;
}>;


export type ConsoleCreateEnvironmentVariableMutation = { createEnvironmentVariable: { environmentVariable: { name: string }, deploymentResult: { success: boolean, message: string } } };

export type ConsoleUpdateEnvironmentVariableMutationVariables = Exact<{
  projectName: string;
  name: string;
  input: EnvironmentVariableInput;
}>;


export type ConsoleUpdateEnvironmentVariableMutation = { updateEnvironmentVariable: { environmentVariable: { name: string }, deploymentResult: { success: boolean, message: string } } };

export type ConsoleDeleteEnvironmentVariableMutationVariables = Exact<{
  projectName: string;
  name: string;
}>;


export type ConsoleDeleteEnvironmentVariableMutation = { deleteEnvironmentVariable: { success: boolean, message: string } };

export type ConsoleDeploymentFragment = { success: boolean, message: string, environmentResults: Array<{ environmentName: string, success: boolean, message: string }> };

export type ConsoleCreateCredentialMutationVariables = Exact<{
  projectName: string;
  input: CredentialInput;
}>;


export type ConsoleCreateCredentialMutation = { createCredential: { credential: { username: string, enabled: boolean }, deploymentResult: { success: boolean, message: string, environmentResults: Array<{ environmentName: string, success: boolean, message: string }> } } };

export type ConsoleUpdateCredentialMutationVariables = Exact<{
  projectName: string;
  username: string;
  input: CredentialUpdateInput;
}>;


export type ConsoleUpdateCredentialMutation = { updateCredential: { credential: { username: string, fullName: string | null, email: string | null, enabled: boolean }, deploymentResult: { success: boolean, message: string, environmentResults: Array<{ environmentName: string, success: boolean, message: string }> } } };

export type ConsoleCredentialsQueryVariables = Exact<{
  projectName: string;
  page: number;
  size: number;
  search?: string | null | undefined;
}>;


export type ConsoleCredentialsQuery = { credentialsPage: { page: number, size: number, totalElements: number, totalPages: number, items: Array<{ username: string, fullName: string | null, email: string | null, enabled: boolean, organizationCode: string | null, passwordSet: boolean }> } };

export type ConsoleResetCredentialSecretMutationVariables = Exact<{
  projectName: string;
  username: string;
}>;


export type ConsoleResetCredentialSecretMutation = { resetCredentialSecret: { secret: string, credential: { username: string }, deploymentResult: { success: boolean, message: string, environmentResults: Array<{ environmentName: string, success: boolean, message: string }> } } };

export type ConsoleResetCredentialTokenMutationVariables = Exact<{
  projectName: string;
  username: string;
}>;


export type ConsoleResetCredentialTokenMutation = { resetCredentialToken: { credential: { username: string, consumerKey: string }, deploymentResult: { success: boolean, message: string, environmentResults: Array<{ environmentName: string, success: boolean, message: string }> } } };

export type ConsoleDeleteCredentialMutationVariables = Exact<{
  projectName: string;
  username: string;
}>;


export type ConsoleDeleteCredentialMutation = { deleteCredential: { success: boolean, message: string, environmentResults: Array<{ environmentName: string, success: boolean, message: string }> } };

export type ConsoleApplicationsQueryVariables = Exact<{
  projectName: string;
  page: number;
  size: number;
  search?: string | null | undefined;
}>;


export type ConsoleApplicationsQuery = { applications: { page: number, size: number, totalElements: number, totalPages: number, items: Array<{ name: string, applicationKey: string, appStatus: string, applicationKind: string, organizationCode: string | null, description: string | null }> } };

export type ConsoleCreateApplicationMutationVariables = Exact<{
  projectName: string;
  input: ApplicationInput;
}>;


export type ConsoleCreateApplicationMutation = { createApplication: { name: string } };

export type ConsoleSuspendApplicationMutationVariables = Exact<{
  projectName: string;
  applicationKey: string;
}>;


export type ConsoleSuspendApplicationMutation = { suspendApplication: { applicationKey: string, appStatus: string } };

export type ConsoleResumeApplicationMutationVariables = Exact<{
  projectName: string;
  applicationKey: string;
}>;


export type ConsoleResumeApplicationMutation = { resumeApplication: { applicationKey: string, appStatus: string } };

export type ConsoleDeleteApplicationMutationVariables = Exact<{
  projectName: string;
  name: string;
}>;


export type ConsoleDeleteApplicationMutation = { deleteApplication: boolean };

export type ConsoleConsumersQueryVariables = Exact<{
  projectName: string;
  page: number;
  size: number;
  search?: string | null | undefined;
}>;


export type ConsoleConsumersQuery = { consumers: { page: number, size: number, totalElements: number, totalPages: number, items: Array<{ username: string, fullName: string | null, email: string | null, enabled: boolean, organizationCode: string | null, consumerKey: string }> } };

export type ConsoleApiClientsQueryVariables = Exact<{
  projectName: string;
  page: number;
  size: number;
  search?: string | null | undefined;
}>;


export type ConsoleApiClientsQuery = { apiClients: { page: number, size: number, totalElements: number, totalPages: number, items: Array<{ apiClientKey: string, name: string, clientId: string, applicationName: string | null, credentialUsername: string | null, operationalState: string, readiness: string, materialVersion: number | null }> } };

export type ConsoleApiClientDeploymentFragment = { clientSecret: string | null, apiClient: { apiClientKey: string, name: string, clientId: string, operationalState: string } };

export type ConsoleRegisterApiClientMutationVariables = Exact<{
  input: RegisterApiClientInput;
}>;


export type ConsoleRegisterApiClientMutation = { registerApiClient: { clientSecret: string | null, apiClient: { apiClientKey: string, name: string, clientId: string, operationalState: string } } };

export type ConsoleRotateApiClientSecretMutationVariables = Exact<{
  apiClientKey: string;
}>;


export type ConsoleRotateApiClientSecretMutation = { rotateApiClientSecret: { clientSecret: string | null, apiClient: { apiClientKey: string, name: string, clientId: string, operationalState: string } } };

export type ConsoleSuspendApiClientMutationVariables = Exact<{
  apiClientKey: string;
}>;


export type ConsoleSuspendApiClientMutation = { suspendApiClient: { clientSecret: string | null, apiClient: { apiClientKey: string, name: string, clientId: string, operationalState: string } } };

export type ConsoleActivateApiClientMutationVariables = Exact<{
  apiClientKey: string;
}>;


export type ConsoleActivateApiClientMutation = { activateApiClient: { clientSecret: string | null, apiClient: { apiClientKey: string, name: string, clientId: string, operationalState: string } } };

export type ConsoleDeleteApiClientMutationVariables = Exact<{
  projectName: string;
  apiClientKey: string;
}>;


export type ConsoleDeleteApiClientMutation = { deleteApiClient: boolean };

export type ConsoleCreateConsumerMutationVariables = Exact<{
  projectName: string;
  input: ConsumerInput;
}>;


export type ConsoleCreateConsumerMutation = { createConsumer: { consumer: { consumerKey: string, username: string }, deploymentResult: { success: boolean, message: string, environmentResults: Array<{ environmentName: string, success: boolean, message: string }> } } };

export type ConsoleDisableConsumerMutationVariables = Exact<{
  projectName: string;
  consumerKey: string;
}>;


export type ConsoleDisableConsumerMutation = { disableConsumer: { consumer: { consumerKey: string, username: string, enabled: boolean }, deploymentResult: { success: boolean, message: string, environmentResults: Array<{ environmentName: string, success: boolean, message: string }> } } };

export type ConsoleEnableConsumerMutationVariables = Exact<{
  projectName: string;
  consumerKey: string;
}>;


export type ConsoleEnableConsumerMutation = { enableConsumer: { consumer: { consumerKey: string, username: string, enabled: boolean }, deploymentResult: { success: boolean, message: string, environmentResults: Array<{ environmentName: string, success: boolean, message: string }> } } };

export type ConsoleKeysQueryVariables = Exact<{
  projectName: string;
  size: number;
  keysPage: number;
  keysSearch?: string | null | undefined;
  certificatesPage: number;
  certificatesSearch?: string | null | undefined;
  connectionsPage: number;
  connectionsSearch?: string | null | undefined;
}>;


export type ConsoleKeysQuery = { cryptoKeysPage: { page: number, totalElements: number, totalPages: number, items: Array<{ name: string, description: string, keyType: string, cryptoKeyInfoEnvironmentList: Array<{ environmentName: string, keyAlgorithm: string | null, keySize: number | null, privateKeyPresent: boolean }> }> }, certificatesPage: { page: number, totalElements: number, totalPages: number, items: Array<{ name: string, description: string, certificateEnvironmentList: Array<{ environmentName: string, subjectDn: string | null, endDate: string | null, expired: boolean }> }> }, keyStores: Array<{ name: string, description: string, keyStoreEnvironmentList: Array<{ environmentName: string }> }>, connectionsPage: { page: number, totalElements: number, totalPages: number, items: Array<{ name: string, type: string, description: string | null, enabled: boolean }> } };

export type ConsoleTestConnectionMutationVariables = Exact<{
  projectName: string;
  name: string;
}>;


export type ConsoleTestConnectionMutation = { testConnection: { success: boolean, message: string, durationMs: number } };

export type ConsoleCreateConnectionMutationVariables = Exact<{
  projectName: string;
  name: string;
  type: string;
  config: unknown;
  description?: string | null | undefined;
}>;


export type ConsoleCreateConnectionMutation = { createConnection: { deploymentResult: { success: boolean, message: string } } };

export type ConsoleDeleteConnectionMutationVariables = Exact<{
  projectName: string;
  name: string;
}>;


export type ConsoleDeleteConnectionMutation = { deleteConnection: { success: boolean, message: string } };

export type ConsoleDeleteCryptoKeyMutationVariables = Exact<{
  projectName: string;
  name: string;
}>;


export type ConsoleDeleteCryptoKeyMutation = { deleteCryptoKey: { success: boolean, message: string } };

export type ConsoleDeleteCertificateMutationVariables = Exact<{
  projectName: string;
  name: string;
}>;


export type ConsoleDeleteCertificateMutation = { deleteCertificate: { success: boolean, message: string } };

export type ConsoleDeleteKeyStoreMutationVariables = Exact<{
  projectName: string;
  name: string;
}>;


export type ConsoleDeleteKeyStoreMutation = { deleteKeyStore: { success: boolean, message: string } };

export type ConsoleBulkRunFragment = { runId: string, runStatus: string, kind: string, phase: string, startedAt: string, finishedAt: string | null, expectedCount: number | null, processedCount: number, createdCount: number, replacedCount: number, skippedCount: number, failedCount: number, cancelRequested: boolean };

export type ConsoleLimitsQueryVariables = Exact<{
  projectName: string;
  page: number;
  size: number;
}>;


export type ConsoleLimitsQuery = { limitPlans: { page: number, size: number, totalElements: number, totalPages: number, items: Array<{ planKey: string, name: string, family: string, lifecycle: string, currentPublishedRevision: number, description: string | null, revisions: Array<{ revision: number, status: string, publishedAt: string | null, publishedBy: string | null, changeReason: string | null }> }> }, limitAssignments: { totalElements: number, items: Array<{ bindingKey: string, family: string, mode: string, status: string, planKeys: Array<string>, source: string, subject: { type: string, key: string | null }, target: { type: string, targetKey: string | null } }> }, limitBulkRuns: { totalElements: number, items: Array<{ runId: string, runStatus: string, kind: string, phase: string, startedAt: string, finishedAt: string | null, expectedCount: number | null, processedCount: number, createdCount: number, replacedCount: number, skippedCount: number, failedCount: number, cancelRequested: boolean }> } };

export type ConsoleCreateLimitPlanMutationVariables = Exact<{
  projectName: string;
  idempotencyKey: string;
  input: LimitPlanCreateInput;
}>;


export type ConsoleCreateLimitPlanMutation = { createLimitPlan: { planKey: string, name: string } };

export type ConsolePublishLimitPlanRevisionMutationVariables = Exact<{
  projectName: string;
  planKey: string;
  revision: number;
  changeReason?: string | null | undefined;
}>;


export type ConsolePublishLimitPlanRevisionMutation = { publishLimitPlanRevision: { revision: number, status: string } };

export type ConsoleDeleteLimitPlanMutationVariables = Exact<{
  projectName: string;
  planKey: string;
}>;


export type ConsoleDeleteLimitPlanMutation = { deleteLimitPlan: boolean };

export type ConsolePreviewBulkMutationVariables = Exact<{
  projectName: string;
  input: LimitBulkInput;
}>;


export type ConsolePreviewBulkMutation = { previewLimitBulkAssignment: { selectorFingerprint: string, expectedCount: number, willCreate: number, willSkip: number, willReplace: number, licenseBlocked: number, estimated: boolean } };

export type ConsoleStartBulkMutationVariables = Exact<{
  projectName: string;
  idempotencyKey: string;
  input: LimitBulkInput;
}>;


export type ConsoleStartBulkMutation = { startLimitBulkRun: { runId: string, runStatus: string, kind: string, phase: string, startedAt: string, finishedAt: string | null, expectedCount: number | null, processedCount: number, createdCount: number, replacedCount: number, skippedCount: number, failedCount: number, cancelRequested: boolean } };

export type ConsoleCancelBulkMutationVariables = Exact<{
  projectName: string;
  runId: string;
}>;


export type ConsoleCancelBulkMutation = { cancelLimitBulkRun: { runId: string, runStatus: string, kind: string, phase: string, startedAt: string, finishedAt: string | null, expectedCount: number | null, processedCount: number, createdCount: number, replacedCount: number, skippedCount: number, failedCount: number, cancelRequested: boolean } };

export type ConsoleBulkProgressSubscriptionVariables = Exact<{
  runId: string;
}>;


export type ConsoleBulkProgressSubscription = { limitBulkRunProgress: { runId: string, runStatus: string, kind: string, phase: string, startedAt: string, finishedAt: string | null, expectedCount: number | null, processedCount: number, createdCount: number, replacedCount: number, skippedCount: number, failedCount: number, cancelRequested: boolean } };

export type ConsolePlansQueryVariables = Exact<{
  projectName: string;
}>;


export type ConsolePlansQuery = { declarativeState: unknown, declarativeDrift: { planId: string | null, appliedAt: string | null, appliedBy: string | null, summary: { changed: number, deleted: number }, drift: Array<{ type: string, name: string, status: string, fields: Array<string>, changedBy: string | null, changedAt: string | null }> } };

export type ConsoleCreatePlanMutationVariables = Exact<{
  projectName: string;
  document: unknown;
  mode?: string | null | undefined;
}>;


export type ConsoleCreatePlanMutation = { createDeclarativePlan: { id: string, mode: string, baseRevision: string, collections: Array<string>, summary: { create: number, update: number, delete: number }, changes: Array<{ action: string, type: string, name: string, fields: Array<string>, renamedFrom: string | null, sensitive: boolean | null, details: unknown }> } };

export type ConsoleApplyPlanMutationVariables = Exact<{
  projectName: string;
  planId: string;
  idempotencyKey?: string | null | undefined;
}>;


export type ConsoleApplyPlanMutation = { applyDeclarativePlan: { applied: boolean, planId: string, pushFailed: boolean, advisories: Array<string>, summary: { create: number, update: number, delete: number }, pushes: Array<{ type: string, name: string, success: boolean, message: string | null }> } };

export type ConsoleProjectsQueryVariables = Exact<{
  page: number;
  size: number;
  search?: string | null | undefined;
}>;


export type ConsoleProjectsQuery = { projects: { page: number, size: number, totalElements: number, totalPages: number, items: Array<{ name: string, description: string | null, createdAt: string, environments: Array<{ name: string, type: string, workerUrls: Array<string> }>, members: Array<{ username: string, permissions: Array<{ category: string, level: string }> }> | null }> } };

export type ConsoleCreateProjectMutationVariables = Exact<{
  input: ProjectInput;
}>;


export type ConsoleCreateProjectMutation = { createProject: { name: string } };

export type ConsoleDeleteProjectMutationVariables = Exact<{
  name: string;
}>;


export type ConsoleDeleteProjectMutation = { deleteProject: boolean };

export type ConsoleLoginMutationVariables = Exact<{
  username: string;
  password: string;
}>;


export type ConsoleLoginMutation = { login: { token: string, expiresAt: string | null } };

export type ConsoleLogoutMutationVariables = Exact<{
  token: string;
}>;


export type ConsoleLogoutMutation = { revokeToken: boolean };

export type ConsoleShellQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleShellQuery = { me: { username: string, role: string, initialPassword: boolean }, projects: { totalElements: number, items: Array<{ name: string }> } };

export type ConsoleChangePasswordMutationVariables = Exact<{
  currentPassword: string;
  newPassword: string;
}>;


export type ConsoleChangePasswordMutation = { changeMyPassword: { username: string } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const ConsoleAuditEventFragmentDoc = new TypedDocumentString(`
    fragment ConsoleAuditEvent on AuditEvent {
  id
  at
  actor
  surface
  operation
  outcome
  objectType
  objectName
  projectName
  httpStatus
}
    `, {"fragmentName":"ConsoleAuditEvent"}) as unknown as TypedDocumentString<ConsoleAuditEventFragment, unknown>;
export const ConsoleDeploymentFragmentDoc = new TypedDocumentString(`
    fragment ConsoleDeployment on DeploymentResult {
  success
  message
  environmentResults {
    environmentName
    success
    message
  }
}
    `, {"fragmentName":"ConsoleDeployment"}) as unknown as TypedDocumentString<ConsoleDeploymentFragment, unknown>;
export const ConsoleApiClientDeploymentFragmentDoc = new TypedDocumentString(`
    fragment ConsoleApiClientDeployment on ApiClientDeployment {
  clientSecret
  apiClient {
    apiClientKey
    name
    clientId
    operationalState
  }
}
    `, {"fragmentName":"ConsoleApiClientDeployment"}) as unknown as TypedDocumentString<ConsoleApiClientDeploymentFragment, unknown>;
export const ConsoleBulkRunFragmentDoc = new TypedDocumentString(`
    fragment ConsoleBulkRun on LimitBulkRun {
  runId
  runStatus
  kind
  phase
  startedAt
  finishedAt
  expectedCount
  processedCount
  createdCount
  replacedCount
  skippedCount
  failedCount
  cancelRequested
}
    `, {"fragmentName":"ConsoleBulkRun"}) as unknown as TypedDocumentString<ConsoleBulkRunFragment, unknown>;
export const ConsoleApiProxiesDocument = new TypedDocumentString(`
    query ConsoleApiProxies($projectName: String!, $page: Int!, $size: Int!, $search: String) {
  apiProxies(
    projectName: $projectName
    page: $page
    size: $size
    sort: ["name,asc"]
    search: $search
  ) {
    items {
      name
      kind
      relativePath
      description
      revision
      updatedAt
      groups
    }
    page
    size
    totalElements
    totalPages
  }
}
    `) as unknown as TypedDocumentString<ConsoleApiProxiesQuery, ConsoleApiProxiesQueryVariables>;
export const ConsoleApiProxyDocument = new TypedDocumentString(`
    query ConsoleApiProxy($projectName: String!, $name: String!) {
  apiProxy(projectName: $projectName, name: $name) {
    name
    kind
    relativePath
    description
    revision
    routingMode
    creationType
    endpointVersions {
      version
      basePath
      endpointCount
      deprecated
    }
    endpoints {
      id
      version
      httpMethod
      endpoint
      operationId
      active
      backendHttpMethod
      backendResourceUrl
      policies {
        name
        pipeline
        order
        type
        active
      }
    }
    policies {
      name
      pipeline
      order
      type
      description
      active
    }
  }
  apiProxyDeployments(projectName: $projectName, name: $name) {
    environmentName
    deployed
    redeployRequired
  }
  apiProxySettings(projectName: $projectName, apiProxyName: $name)
}
    `) as unknown as TypedDocumentString<ConsoleApiProxyQuery, ConsoleApiProxyQueryVariables>;
export const ConsoleCreateApiProxyDocument = new TypedDocumentString(`
    mutation ConsoleCreateApiProxy($projectName: String!, $input: ApiProxyInput!) {
  createApiProxy(projectName: $projectName, input: $input) {
    name
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateApiProxyMutation, ConsoleCreateApiProxyMutationVariables>;
export const ConsoleDeleteApiProxyDocument = new TypedDocumentString(`
    mutation ConsoleDeleteApiProxy($projectName: String!, $name: String!) {
  deleteApiProxy(projectName: $projectName, name: $name)
}
    `) as unknown as TypedDocumentString<ConsoleDeleteApiProxyMutation, ConsoleDeleteApiProxyMutationVariables>;
export const ConsoleDeployApiProxyDocument = new TypedDocumentString(`
    mutation ConsoleDeployApiProxy($projectName: String!, $name: String!, $environmentName: String!) {
  deployApiProxy(
    projectName: $projectName
    name: $name
    environmentName: $environmentName
  ) {
    success
    message
    environmentResults {
      environmentName
      success
      message
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeployApiProxyMutation, ConsoleDeployApiProxyMutationVariables>;
export const ConsoleUndeployApiProxyDocument = new TypedDocumentString(`
    mutation ConsoleUndeployApiProxy($projectName: String!, $name: String!, $environmentName: String!) {
  undeployApiProxy(
    projectName: $projectName
    name: $name
    environmentName: $environmentName
  ) {
    success
    message
    environmentResults {
      environmentName
      success
      message
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleUndeployApiProxyMutation, ConsoleUndeployApiProxyMutationVariables>;
export const ConsoleDeploymentOutcomesDocument = new TypedDocumentString(`
    subscription ConsoleDeploymentOutcomes($projectName: String!) {
  deploymentOutcomes(projectName: $projectName) {
    kind
    name
    environmentName
    action
    acknowledged
    revision
    at
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeploymentOutcomesSubscription, ConsoleDeploymentOutcomesSubscriptionVariables>;
export const ConsoleUpdateCorsSettingsDocument = new TypedDocumentString(`
    mutation ConsoleUpdateCorsSettings($projectName: String!, $apiProxyName: String!, $input: ApiProxyCorsSettingsInput!) {
  updateApiProxyCorsSettings(
    projectName: $projectName
    apiProxyName: $apiProxyName
    input: $input
  )
}
    `) as unknown as TypedDocumentString<ConsoleUpdateCorsSettingsMutation, ConsoleUpdateCorsSettingsMutationVariables>;
export const ConsoleUpdateRoutingStatusSettingsDocument = new TypedDocumentString(`
    mutation ConsoleUpdateRoutingStatusSettings($projectName: String!, $apiProxyName: String!, $input: ApiProxyRoutingStatusSettingsInput!) {
  updateApiProxyRoutingStatusSettings(
    projectName: $projectName
    apiProxyName: $apiProxyName
    input: $input
  )
}
    `) as unknown as TypedDocumentString<ConsoleUpdateRoutingStatusSettingsMutation, ConsoleUpdateRoutingStatusSettingsMutationVariables>;
export const ConsoleUpdateHideSpecFileSettingsDocument = new TypedDocumentString(`
    mutation ConsoleUpdateHideSpecFileSettings($projectName: String!, $apiProxyName: String!, $hideSpecFile: Boolean!) {
  updateApiProxyHideSpecFileSettings(
    projectName: $projectName
    apiProxyName: $apiProxyName
    hideSpecFile: $hideSpecFile
  )
}
    `) as unknown as TypedDocumentString<ConsoleUpdateHideSpecFileSettingsMutation, ConsoleUpdateHideSpecFileSettingsMutationVariables>;
export const ConsoleAuditEventsDocument = new TypedDocumentString(`
    query ConsoleAuditEvents($projectName: String, $page: Int!, $size: Int!, $user: String, $objectType: String, $operation: String) {
  auditEvents(
    projectName: $projectName
    page: $page
    size: $size
    user: $user
    objectType: $objectType
    operation: $operation
    sort: ["at,desc"]
  ) {
    items {
      ...ConsoleAuditEvent
    }
    page
    size
    totalElements
    totalPages
  }
}
    fragment ConsoleAuditEvent on AuditEvent {
  id
  at
  actor
  surface
  operation
  outcome
  objectType
  objectName
  projectName
  httpStatus
}`) as unknown as TypedDocumentString<ConsoleAuditEventsQuery, ConsoleAuditEventsQueryVariables>;
export const ConsoleAuditTailDocument = new TypedDocumentString(`
    subscription ConsoleAuditTail($projectName: String!) {
  auditEvents(projectName: $projectName) {
    ...ConsoleAuditEvent
  }
}
    fragment ConsoleAuditEvent on AuditEvent {
  id
  at
  actor
  surface
  operation
  outcome
  objectType
  objectName
  projectName
  httpStatus
}`) as unknown as TypedDocumentString<ConsoleAuditTailSubscription, ConsoleAuditTailSubscriptionVariables>;
export const ConsoleEnvironmentVariablesDocument = new TypedDocumentString(`
    query ConsoleEnvironmentVariables($projectName: String!, $page: Int!, $size: Int!, $search: String) {
  environmentVariablesPage(
    projectName: $projectName
    page: $page
    size: $size
    search: $search
  ) {
    items {
      name
      description
      global
      globalVisible
      globalValue
      globalValueSet
      revision
      environmentValueList {
        environmentName
        value
        valueSet
        visible
      }
    }
    page
    totalElements
    totalPages
  }
}
    `) as unknown as TypedDocumentString<ConsoleEnvironmentVariablesQuery, ConsoleEnvironmentVariablesQueryVariables>;
export const ConsoleCreateEnvironmentVariableDocument = new TypedDocumentString(`
    mutation ConsoleCreateEnvironmentVariable($projectName: String!, $input: EnvironmentVariableInput!) {
  createEnvironmentVariable(projectName: $projectName, input: $input) {
    environmentVariable {
      name
    }
    deploymentResult {
      success
      message
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateEnvironmentVariableMutation, ConsoleCreateEnvironmentVariableMutationVariables>;
export const ConsoleUpdateEnvironmentVariableDocument = new TypedDocumentString(`
    mutation ConsoleUpdateEnvironmentVariable($projectName: String!, $name: String!, $input: EnvironmentVariableInput!) {
  updateEnvironmentVariable(projectName: $projectName, name: $name, input: $input) {
    environmentVariable {
      name
    }
    deploymentResult {
      success
      message
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleUpdateEnvironmentVariableMutation, ConsoleUpdateEnvironmentVariableMutationVariables>;
export const ConsoleDeleteEnvironmentVariableDocument = new TypedDocumentString(`
    mutation ConsoleDeleteEnvironmentVariable($projectName: String!, $name: String!) {
  deleteEnvironmentVariable(projectName: $projectName, name: $name) {
    success
    message
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteEnvironmentVariableMutation, ConsoleDeleteEnvironmentVariableMutationVariables>;
export const ConsoleCreateCredentialDocument = new TypedDocumentString(`
    mutation ConsoleCreateCredential($projectName: String!, $input: CredentialInput!) {
  createCredential(projectName: $projectName, input: $input) {
    credential {
      username
      enabled
    }
    deploymentResult {
      ...ConsoleDeployment
    }
  }
}
    fragment ConsoleDeployment on DeploymentResult {
  success
  message
  environmentResults {
    environmentName
    success
    message
  }
}`) as unknown as TypedDocumentString<ConsoleCreateCredentialMutation, ConsoleCreateCredentialMutationVariables>;
export const ConsoleUpdateCredentialDocument = new TypedDocumentString(`
    mutation ConsoleUpdateCredential($projectName: String!, $username: String!, $input: CredentialUpdateInput!) {
  updateCredential(projectName: $projectName, username: $username, input: $input) {
    credential {
      username
      fullName
      email
      enabled
    }
    deploymentResult {
      ...ConsoleDeployment
    }
  }
}
    fragment ConsoleDeployment on DeploymentResult {
  success
  message
  environmentResults {
    environmentName
    success
    message
  }
}`) as unknown as TypedDocumentString<ConsoleUpdateCredentialMutation, ConsoleUpdateCredentialMutationVariables>;
export const ConsoleCredentialsDocument = new TypedDocumentString(`
    query ConsoleCredentials($projectName: String!, $page: Int!, $size: Int!, $search: String) {
  credentialsPage(
    projectName: $projectName
    page: $page
    size: $size
    search: $search
  ) {
    items {
      username
      fullName
      email
      enabled
      organizationCode
      passwordSet
    }
    page
    size
    totalElements
    totalPages
  }
}
    `) as unknown as TypedDocumentString<ConsoleCredentialsQuery, ConsoleCredentialsQueryVariables>;
export const ConsoleResetCredentialSecretDocument = new TypedDocumentString(`
    mutation ConsoleResetCredentialSecret($projectName: String!, $username: String!) {
  resetCredentialSecret(projectName: $projectName, username: $username) {
    secret
    credential {
      username
    }
    deploymentResult {
      ...ConsoleDeployment
    }
  }
}
    fragment ConsoleDeployment on DeploymentResult {
  success
  message
  environmentResults {
    environmentName
    success
    message
  }
}`) as unknown as TypedDocumentString<ConsoleResetCredentialSecretMutation, ConsoleResetCredentialSecretMutationVariables>;
export const ConsoleResetCredentialTokenDocument = new TypedDocumentString(`
    mutation ConsoleResetCredentialToken($projectName: String!, $username: String!) {
  resetCredentialToken(projectName: $projectName, username: $username) {
    credential {
      username
      consumerKey
    }
    deploymentResult {
      ...ConsoleDeployment
    }
  }
}
    fragment ConsoleDeployment on DeploymentResult {
  success
  message
  environmentResults {
    environmentName
    success
    message
  }
}`) as unknown as TypedDocumentString<ConsoleResetCredentialTokenMutation, ConsoleResetCredentialTokenMutationVariables>;
export const ConsoleDeleteCredentialDocument = new TypedDocumentString(`
    mutation ConsoleDeleteCredential($projectName: String!, $username: String!) {
  deleteCredential(projectName: $projectName, username: $username) {
    ...ConsoleDeployment
  }
}
    fragment ConsoleDeployment on DeploymentResult {
  success
  message
  environmentResults {
    environmentName
    success
    message
  }
}`) as unknown as TypedDocumentString<ConsoleDeleteCredentialMutation, ConsoleDeleteCredentialMutationVariables>;
export const ConsoleApplicationsDocument = new TypedDocumentString(`
    query ConsoleApplications($projectName: String!, $page: Int!, $size: Int!, $search: String) {
  applications(
    projectName: $projectName
    page: $page
    size: $size
    search: $search
  ) {
    items {
      name
      applicationKey
      appStatus
      applicationKind
      organizationCode
      description
    }
    page
    size
    totalElements
    totalPages
  }
}
    `) as unknown as TypedDocumentString<ConsoleApplicationsQuery, ConsoleApplicationsQueryVariables>;
export const ConsoleCreateApplicationDocument = new TypedDocumentString(`
    mutation ConsoleCreateApplication($projectName: String!, $input: ApplicationInput!) {
  createApplication(projectName: $projectName, input: $input) {
    name
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateApplicationMutation, ConsoleCreateApplicationMutationVariables>;
export const ConsoleSuspendApplicationDocument = new TypedDocumentString(`
    mutation ConsoleSuspendApplication($projectName: String!, $applicationKey: String!) {
  suspendApplication(projectName: $projectName, applicationKey: $applicationKey) {
    applicationKey
    appStatus
  }
}
    `) as unknown as TypedDocumentString<ConsoleSuspendApplicationMutation, ConsoleSuspendApplicationMutationVariables>;
export const ConsoleResumeApplicationDocument = new TypedDocumentString(`
    mutation ConsoleResumeApplication($projectName: String!, $applicationKey: String!) {
  resumeApplication(projectName: $projectName, applicationKey: $applicationKey) {
    applicationKey
    appStatus
  }
}
    `) as unknown as TypedDocumentString<ConsoleResumeApplicationMutation, ConsoleResumeApplicationMutationVariables>;
export const ConsoleDeleteApplicationDocument = new TypedDocumentString(`
    mutation ConsoleDeleteApplication($projectName: String!, $name: String!) {
  deleteApplication(projectName: $projectName, name: $name)
}
    `) as unknown as TypedDocumentString<ConsoleDeleteApplicationMutation, ConsoleDeleteApplicationMutationVariables>;
export const ConsoleConsumersDocument = new TypedDocumentString(`
    query ConsoleConsumers($projectName: String!, $page: Int!, $size: Int!, $search: String) {
  consumers(projectName: $projectName, page: $page, size: $size, search: $search) {
    items {
      username
      fullName
      email
      enabled
      organizationCode
      consumerKey
    }
    page
    size
    totalElements
    totalPages
  }
}
    `) as unknown as TypedDocumentString<ConsoleConsumersQuery, ConsoleConsumersQueryVariables>;
export const ConsoleApiClientsDocument = new TypedDocumentString(`
    query ConsoleApiClients($projectName: String!, $page: Int!, $size: Int!, $search: String) {
  apiClients(projectName: $projectName, page: $page, size: $size, search: $search) {
    items {
      apiClientKey
      name
      clientId
      applicationName
      credentialUsername
      operationalState
      readiness
      materialVersion
    }
    page
    size
    totalElements
    totalPages
  }
}
    `) as unknown as TypedDocumentString<ConsoleApiClientsQuery, ConsoleApiClientsQueryVariables>;
export const ConsoleRegisterApiClientDocument = new TypedDocumentString(`
    mutation ConsoleRegisterApiClient($input: RegisterApiClientInput!) {
  registerApiClient(input: $input) {
    ...ConsoleApiClientDeployment
  }
}
    fragment ConsoleApiClientDeployment on ApiClientDeployment {
  clientSecret
  apiClient {
    apiClientKey
    name
    clientId
    operationalState
  }
}`) as unknown as TypedDocumentString<ConsoleRegisterApiClientMutation, ConsoleRegisterApiClientMutationVariables>;
export const ConsoleRotateApiClientSecretDocument = new TypedDocumentString(`
    mutation ConsoleRotateApiClientSecret($apiClientKey: String!) {
  rotateApiClientSecret(apiClientKey: $apiClientKey) {
    ...ConsoleApiClientDeployment
  }
}
    fragment ConsoleApiClientDeployment on ApiClientDeployment {
  clientSecret
  apiClient {
    apiClientKey
    name
    clientId
    operationalState
  }
}`) as unknown as TypedDocumentString<ConsoleRotateApiClientSecretMutation, ConsoleRotateApiClientSecretMutationVariables>;
export const ConsoleSuspendApiClientDocument = new TypedDocumentString(`
    mutation ConsoleSuspendApiClient($apiClientKey: String!) {
  suspendApiClient(apiClientKey: $apiClientKey) {
    ...ConsoleApiClientDeployment
  }
}
    fragment ConsoleApiClientDeployment on ApiClientDeployment {
  clientSecret
  apiClient {
    apiClientKey
    name
    clientId
    operationalState
  }
}`) as unknown as TypedDocumentString<ConsoleSuspendApiClientMutation, ConsoleSuspendApiClientMutationVariables>;
export const ConsoleActivateApiClientDocument = new TypedDocumentString(`
    mutation ConsoleActivateApiClient($apiClientKey: String!) {
  activateApiClient(apiClientKey: $apiClientKey) {
    ...ConsoleApiClientDeployment
  }
}
    fragment ConsoleApiClientDeployment on ApiClientDeployment {
  clientSecret
  apiClient {
    apiClientKey
    name
    clientId
    operationalState
  }
}`) as unknown as TypedDocumentString<ConsoleActivateApiClientMutation, ConsoleActivateApiClientMutationVariables>;
export const ConsoleDeleteApiClientDocument = new TypedDocumentString(`
    mutation ConsoleDeleteApiClient($projectName: String!, $apiClientKey: String!) {
  deleteApiClient(projectName: $projectName, apiClientKey: $apiClientKey)
}
    `) as unknown as TypedDocumentString<ConsoleDeleteApiClientMutation, ConsoleDeleteApiClientMutationVariables>;
export const ConsoleCreateConsumerDocument = new TypedDocumentString(`
    mutation ConsoleCreateConsumer($projectName: String!, $input: ConsumerInput!) {
  createConsumer(projectName: $projectName, input: $input) {
    consumer {
      consumerKey
      username
    }
    deploymentResult {
      ...ConsoleDeployment
    }
  }
}
    fragment ConsoleDeployment on DeploymentResult {
  success
  message
  environmentResults {
    environmentName
    success
    message
  }
}`) as unknown as TypedDocumentString<ConsoleCreateConsumerMutation, ConsoleCreateConsumerMutationVariables>;
export const ConsoleDisableConsumerDocument = new TypedDocumentString(`
    mutation ConsoleDisableConsumer($projectName: String!, $consumerKey: String!) {
  disableConsumer(projectName: $projectName, consumerKey: $consumerKey) {
    consumer {
      consumerKey
      username
      enabled
    }
    deploymentResult {
      ...ConsoleDeployment
    }
  }
}
    fragment ConsoleDeployment on DeploymentResult {
  success
  message
  environmentResults {
    environmentName
    success
    message
  }
}`) as unknown as TypedDocumentString<ConsoleDisableConsumerMutation, ConsoleDisableConsumerMutationVariables>;
export const ConsoleEnableConsumerDocument = new TypedDocumentString(`
    mutation ConsoleEnableConsumer($projectName: String!, $consumerKey: String!) {
  enableConsumer(projectName: $projectName, consumerKey: $consumerKey) {
    consumer {
      consumerKey
      username
      enabled
    }
    deploymentResult {
      ...ConsoleDeployment
    }
  }
}
    fragment ConsoleDeployment on DeploymentResult {
  success
  message
  environmentResults {
    environmentName
    success
    message
  }
}`) as unknown as TypedDocumentString<ConsoleEnableConsumerMutation, ConsoleEnableConsumerMutationVariables>;
export const ConsoleKeysDocument = new TypedDocumentString(`
    query ConsoleKeys($projectName: String!, $size: Int!, $keysPage: Int!, $keysSearch: String, $certificatesPage: Int!, $certificatesSearch: String, $connectionsPage: Int!, $connectionsSearch: String) {
  cryptoKeysPage(
    projectName: $projectName
    page: $keysPage
    size: $size
    search: $keysSearch
  ) {
    items {
      name
      description
      keyType
      cryptoKeyInfoEnvironmentList {
        environmentName
        keyAlgorithm
        keySize
        privateKeyPresent
      }
    }
    page
    totalElements
    totalPages
  }
  certificatesPage(
    projectName: $projectName
    page: $certificatesPage
    size: $size
    search: $certificatesSearch
  ) {
    items {
      name
      description
      certificateEnvironmentList {
        environmentName
        subjectDn
        endDate
        expired
      }
    }
    page
    totalElements
    totalPages
  }
  keyStores(projectName: $projectName) {
    name
    description
    keyStoreEnvironmentList {
      environmentName
    }
  }
  connectionsPage(
    projectName: $projectName
    page: $connectionsPage
    size: $size
    search: $connectionsSearch
  ) {
    items {
      name
      type
      description
      enabled
    }
    page
    totalElements
    totalPages
  }
}
    `) as unknown as TypedDocumentString<ConsoleKeysQuery, ConsoleKeysQueryVariables>;
export const ConsoleTestConnectionDocument = new TypedDocumentString(`
    mutation ConsoleTestConnection($projectName: String!, $name: String!) {
  testConnection(projectName: $projectName, name: $name) {
    success
    message
    durationMs
  }
}
    `) as unknown as TypedDocumentString<ConsoleTestConnectionMutation, ConsoleTestConnectionMutationVariables>;
export const ConsoleCreateConnectionDocument = new TypedDocumentString(`
    mutation ConsoleCreateConnection($projectName: String!, $name: String!, $type: String!, $config: JSON!, $description: String) {
  createConnection(
    projectName: $projectName
    name: $name
    type: $type
    config: $config
    description: $description
  ) {
    deploymentResult {
      success
      message
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateConnectionMutation, ConsoleCreateConnectionMutationVariables>;
export const ConsoleDeleteConnectionDocument = new TypedDocumentString(`
    mutation ConsoleDeleteConnection($projectName: String!, $name: String!) {
  deleteConnection(projectName: $projectName, name: $name) {
    success
    message
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteConnectionMutation, ConsoleDeleteConnectionMutationVariables>;
export const ConsoleDeleteCryptoKeyDocument = new TypedDocumentString(`
    mutation ConsoleDeleteCryptoKey($projectName: String!, $name: String!) {
  deleteCryptoKey(projectName: $projectName, name: $name) {
    success
    message
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteCryptoKeyMutation, ConsoleDeleteCryptoKeyMutationVariables>;
export const ConsoleDeleteCertificateDocument = new TypedDocumentString(`
    mutation ConsoleDeleteCertificate($projectName: String!, $name: String!) {
  deleteCertificate(projectName: $projectName, name: $name) {
    success
    message
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteCertificateMutation, ConsoleDeleteCertificateMutationVariables>;
export const ConsoleDeleteKeyStoreDocument = new TypedDocumentString(`
    mutation ConsoleDeleteKeyStore($projectName: String!, $name: String!) {
  deleteKeyStore(projectName: $projectName, name: $name) {
    success
    message
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteKeyStoreMutation, ConsoleDeleteKeyStoreMutationVariables>;
export const ConsoleLimitsDocument = new TypedDocumentString(`
    query ConsoleLimits($projectName: String!, $page: Int!, $size: Int!) {
  limitPlans(projectName: $projectName, page: $page, size: $size) {
    items {
      planKey
      name
      family
      lifecycle
      currentPublishedRevision
      description
      revisions {
        revision
        status
        publishedAt
        publishedBy
        changeReason
      }
    }
    page
    size
    totalElements
    totalPages
  }
  limitAssignments(projectName: $projectName, page: 0, size: 20) {
    items {
      bindingKey
      family
      mode
      status
      planKeys
      source
      subject {
        type
        key
      }
      target {
        type
        targetKey
      }
    }
    totalElements
  }
  limitBulkRuns(projectName: $projectName, page: 0, size: 10) {
    items {
      ...ConsoleBulkRun
    }
    totalElements
  }
}
    fragment ConsoleBulkRun on LimitBulkRun {
  runId
  runStatus
  kind
  phase
  startedAt
  finishedAt
  expectedCount
  processedCount
  createdCount
  replacedCount
  skippedCount
  failedCount
  cancelRequested
}`) as unknown as TypedDocumentString<ConsoleLimitsQuery, ConsoleLimitsQueryVariables>;
export const ConsoleCreateLimitPlanDocument = new TypedDocumentString(`
    mutation ConsoleCreateLimitPlan($projectName: String!, $idempotencyKey: String!, $input: LimitPlanCreateInput!) {
  createLimitPlan(
    projectName: $projectName
    idempotencyKey: $idempotencyKey
    input: $input
  ) {
    planKey
    name
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateLimitPlanMutation, ConsoleCreateLimitPlanMutationVariables>;
export const ConsolePublishLimitPlanRevisionDocument = new TypedDocumentString(`
    mutation ConsolePublishLimitPlanRevision($projectName: String!, $planKey: String!, $revision: Int!, $changeReason: String) {
  publishLimitPlanRevision(
    projectName: $projectName
    planKey: $planKey
    revision: $revision
    changeReason: $changeReason
  ) {
    revision
    status
  }
}
    `) as unknown as TypedDocumentString<ConsolePublishLimitPlanRevisionMutation, ConsolePublishLimitPlanRevisionMutationVariables>;
export const ConsoleDeleteLimitPlanDocument = new TypedDocumentString(`
    mutation ConsoleDeleteLimitPlan($projectName: String!, $planKey: String!) {
  deleteLimitPlan(projectName: $projectName, planKey: $planKey)
}
    `) as unknown as TypedDocumentString<ConsoleDeleteLimitPlanMutation, ConsoleDeleteLimitPlanMutationVariables>;
export const ConsolePreviewBulkDocument = new TypedDocumentString(`
    mutation ConsolePreviewBulk($projectName: String!, $input: LimitBulkInput!) {
  previewLimitBulkAssignment(projectName: $projectName, input: $input) {
    selectorFingerprint
    expectedCount
    willCreate
    willSkip
    willReplace
    licenseBlocked
    estimated
  }
}
    `) as unknown as TypedDocumentString<ConsolePreviewBulkMutation, ConsolePreviewBulkMutationVariables>;
export const ConsoleStartBulkDocument = new TypedDocumentString(`
    mutation ConsoleStartBulk($projectName: String!, $idempotencyKey: String!, $input: LimitBulkInput!) {
  startLimitBulkRun(
    projectName: $projectName
    idempotencyKey: $idempotencyKey
    input: $input
  ) {
    ...ConsoleBulkRun
  }
}
    fragment ConsoleBulkRun on LimitBulkRun {
  runId
  runStatus
  kind
  phase
  startedAt
  finishedAt
  expectedCount
  processedCount
  createdCount
  replacedCount
  skippedCount
  failedCount
  cancelRequested
}`) as unknown as TypedDocumentString<ConsoleStartBulkMutation, ConsoleStartBulkMutationVariables>;
export const ConsoleCancelBulkDocument = new TypedDocumentString(`
    mutation ConsoleCancelBulk($projectName: String!, $runId: String!) {
  cancelLimitBulkRun(projectName: $projectName, runId: $runId) {
    ...ConsoleBulkRun
  }
}
    fragment ConsoleBulkRun on LimitBulkRun {
  runId
  runStatus
  kind
  phase
  startedAt
  finishedAt
  expectedCount
  processedCount
  createdCount
  replacedCount
  skippedCount
  failedCount
  cancelRequested
}`) as unknown as TypedDocumentString<ConsoleCancelBulkMutation, ConsoleCancelBulkMutationVariables>;
export const ConsoleBulkProgressDocument = new TypedDocumentString(`
    subscription ConsoleBulkProgress($runId: String!) {
  limitBulkRunProgress(runId: $runId) {
    ...ConsoleBulkRun
  }
}
    fragment ConsoleBulkRun on LimitBulkRun {
  runId
  runStatus
  kind
  phase
  startedAt
  finishedAt
  expectedCount
  processedCount
  createdCount
  replacedCount
  skippedCount
  failedCount
  cancelRequested
}`) as unknown as TypedDocumentString<ConsoleBulkProgressSubscription, ConsoleBulkProgressSubscriptionVariables>;
export const ConsolePlansDocument = new TypedDocumentString(`
    query ConsolePlans($projectName: String!) {
  declarativeState(projectName: $projectName)
  declarativeDrift(projectName: $projectName) {
    planId
    appliedAt
    appliedBy
    summary {
      changed
      deleted
    }
    drift {
      type
      name
      status
      fields
      changedBy
      changedAt
    }
  }
}
    `) as unknown as TypedDocumentString<ConsolePlansQuery, ConsolePlansQueryVariables>;
export const ConsoleCreatePlanDocument = new TypedDocumentString(`
    mutation ConsoleCreatePlan($projectName: String!, $document: JSON!, $mode: String) {
  createDeclarativePlan(
    projectName: $projectName
    document: $document
    mode: $mode
  ) {
    id
    mode
    baseRevision
    collections
    summary {
      create
      update
      delete
    }
    changes {
      action
      type
      name
      fields
      renamedFrom
      sensitive
      details
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreatePlanMutation, ConsoleCreatePlanMutationVariables>;
export const ConsoleApplyPlanDocument = new TypedDocumentString(`
    mutation ConsoleApplyPlan($projectName: String!, $planId: String!, $idempotencyKey: String) {
  applyDeclarativePlan(
    projectName: $projectName
    planId: $planId
    idempotencyKey: $idempotencyKey
  ) {
    applied
    planId
    pushFailed
    advisories
    summary {
      create
      update
      delete
    }
    pushes {
      type
      name
      success
      message
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleApplyPlanMutation, ConsoleApplyPlanMutationVariables>;
export const ConsoleProjectsDocument = new TypedDocumentString(`
    query ConsoleProjects($page: Int!, $size: Int!, $search: String) {
  projects(page: $page, size: $size, sort: ["name,asc"], search: $search) {
    items {
      name
      description
      createdAt
      environments {
        name
        type
        workerUrls
      }
      members {
        username
        permissions {
          category
          level
        }
      }
    }
    page
    size
    totalElements
    totalPages
  }
}
    `) as unknown as TypedDocumentString<ConsoleProjectsQuery, ConsoleProjectsQueryVariables>;
export const ConsoleCreateProjectDocument = new TypedDocumentString(`
    mutation ConsoleCreateProject($input: ProjectInput!) {
  createProject(input: $input) {
    name
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateProjectMutation, ConsoleCreateProjectMutationVariables>;
export const ConsoleDeleteProjectDocument = new TypedDocumentString(`
    mutation ConsoleDeleteProject($name: String!) {
  deleteProject(name: $name)
}
    `) as unknown as TypedDocumentString<ConsoleDeleteProjectMutation, ConsoleDeleteProjectMutationVariables>;
export const ConsoleLoginDocument = new TypedDocumentString(`
    mutation ConsoleLogin($username: String!, $password: String!) {
  login(username: $username, password: $password) {
    token
    expiresAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleLoginMutation, ConsoleLoginMutationVariables>;
export const ConsoleLogoutDocument = new TypedDocumentString(`
    mutation ConsoleLogout($token: String!) {
  revokeToken(token: $token)
}
    `) as unknown as TypedDocumentString<ConsoleLogoutMutation, ConsoleLogoutMutationVariables>;
export const ConsoleShellDocument = new TypedDocumentString(`
    query ConsoleShell {
  me {
    username
    role
    initialPassword
  }
  projects(page: 0, size: 200, sort: ["name,asc"]) {
    items {
      name
    }
    totalElements
  }
}
    `) as unknown as TypedDocumentString<ConsoleShellQuery, ConsoleShellQueryVariables>;
export const ConsoleChangePasswordDocument = new TypedDocumentString(`
    mutation ConsoleChangePassword($currentPassword: String!, $newPassword: String!) {
  changeMyPassword(currentPassword: $currentPassword, newPassword: $newPassword) {
    username
  }
}
    `) as unknown as TypedDocumentString<ConsoleChangePasswordMutation, ConsoleChangePasswordMutationVariables>;