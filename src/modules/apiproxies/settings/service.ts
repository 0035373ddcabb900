import type { z } from 'zod'
import type { Prisma } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { projectEnvironments } from '../../../platform/deploy/project.js'
import { DomainError, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { authorizeInProject } from '../../../platform/scope/project-scope.js'
import { findObject } from '../../keys/store.js'
import { deployedEnvironments, environmentsNamed, requestedDeployment } from '../proxies/automation/deploy.js'
import { pathName, routingOf } from '../proxies/automation/inputs.js'
import { kindWithArticle } from '../shared/kinds.js'
import { BEHAVIOUR_PAGES, behaviourViewOf, SPEC_ACCESS_PAGE } from './behaviour.js'
import { defined, page, problem, section, type Change, type Json, type Page, type PageKinds, type Settings } from './page.js'
import { DEPLOY_FIELDS, splitDeploy, wrappedBody } from './page-body.js'
import {
  cacheInput, circuitBreakerInput, clientRouteSettingInput, connectionInput, corsInput, forwardedIpHeaderInput, JSON_ERROR_TEMPLATE, jsonErrorTemplateInput,
  keysInput, metadataInput, mtlsInput, ntlmInput, proxyServerInput, routingAddressesInput, routingStatusInput, trafficLogInput, XML_ERROR_TEMPLATE, xmlErrorTemplateInput,
} from './inputs.js'

// The settings of an API proxy (vendor pages 04-api-proxies/settings/*): each page validates its part, merges it
// into the proxy's `settings` (so it is stored with the proxy's revision, exported and imported with it, and
// carried in its deployed config), and bumps the revision. With `deploy: true` (the newest pages) the proxy is then
// pushed to deployTargetEnvironmentNameList, or where it runs now when that is empty; otherwise the answer is
// `success: true` and the proxy reads show redeployRequired where it runs until it is deployed again.
// Secrets (secretKey, NTLM and proxy-server passwords) are sealed with the keyring and never shown.

/** Every secret of the settings sections (sealed when written, shown as `<field>Set`, opened for the gateway). */
export const SETTINGS_SECRETS = [
  { section: 'apiKeys', field: 'secretKey' },
  { section: 'ntlm', field: 'password' },
  { section: 'proxyServer', field: 'proxyPassword' },
] as const
const seal = (deps: Deps, v: string) => deps.keyring.encrypt(v)
const unseal = (deps: Deps, v: unknown) => (typeof v === 'string' && v ? (deps.keyring.knows(v) ? deps.keyring.decrypt(v) : v) : null)

const ROUTED_KINDS = ['AI', 'MCP', 'A2A']

async function checkRelativePath(db: Tx, projectId: string, path: string, selfId: string) {
  const clash = await db.apiProxy.findFirst({ where: { projectId, relativePath: path, id: { not: selfId } }, select: { name: true } })
  if (clash) throw new DomainError('conflict', 'relativePathAlreadyUsed', `relativePathList[0]: '${path}' is already the relative path of API proxy '${clash.name}'`, { field: 'relativePathList[0]', apiProxy: clash.name })
}

const CB_DEFAULTS = { circuitBreakerEnabled: false, errorWindow: 60, errorThresholdValue: 5, enumErrorThresholdType: 'COUNT', sleepWindow: 30, halfOpenEnabled: true }
const CONNECTION_DEFAULTS = {
  connectionSettingsEnabled: false, connectionRequestTimeout: 30, redirectsEnabled: true, maxRedirects: 50, relativeRedirectsAllowed: true,
  disableContentCompression: false, enableStreaming: false, connectionPoolManagementType: 'GENERAL', customConnectionPoolSize: null,
}
/** The connection fields the routing section already holds (the crud pages' routingInfo), kept there once. */
const ROUTING_CONNECTION_FIELDS = ['connectTimeout', 'readTimeout', 'retryCount', 'failoverRetryCount', 'ignoreRoutingError'] as const

export const SETTING_PAGES: Record<string, Page<z.ZodType>> = {
  keys: page({
    schema: keysInput.extend(DEPLOY_FIELDS),
    apply({ deps, settings }, input) {
      if (!input.publicKey && !input.secretKey) throw malformed('At least one key (publicKey or secretKey) must be provided', { field: 'publicKey' })
      const current = section(settings, 'apiKeys')
      return { settings: { apiKeys: { ...current, ...(input.publicKey ? { publicKey: input.publicKey.trim() } : {}), ...(input.secretKey ? { secretKey: seal(deps, input.secretKey) } : {}) } } }
    },
  }),
  cache: page({ schema: wrappedBody('cacheSettings', cacheInput), apply: (_ctx, input) => ({ settings: { cache: input } }) }),
  'circuit-breaker': page({
    schema: circuitBreakerInput.extend(DEPLOY_FIELDS),
    apply({ settings }, input) {
      const merged = { ...CB_DEFAULTS, ...section(settings, 'circuitBreaker'), ...defined(input) }
      if (merged.enumErrorThresholdType === 'PERCENT' && (merged.errorThresholdValue as number) > 100) throw problem('errorThresholdValue', 'is a percentage (1..100) when enumErrorThresholdType is PERCENT')
      return { settings: { circuitBreaker: merged } }
    },
  }),
  'client-route': page({
    schema: wrappedBody('clientRoute', clientRouteSettingInput),
    async apply({ db, access, proxy, settings }, input) {
      const lists = [input.relativePathList, input.methodList, input.hostList, input.headerList]
      if (!lists.some((l) => l && l.length)) throw malformed('Client route must have at least one valid route configuration (relativePathList, methodList, hostList or headerList)', { field: 'relativePathList' })
      const current = settings.clientRoute
      const relativePathList = input.relativePathList?.length ? [...new Set(input.relativePathList)] : (current?.relativePathList ?? [])
      if (!relativePathList.length) throw problem('relativePathList', `is required: API proxy '${proxy.name}' has no relative path yet`)
      await checkRelativePath(db, access.project.id, relativePathList[0]!, proxy.id)
      // an absent list keeps the stored one; null or [] clears it (the paths are never cleared: a proxy keeps one)
      const pick = <T>(given: readonly T[] | null | undefined, stored: readonly T[] | undefined): T[] => [...(given === undefined ? (stored ?? []) : (given ?? []))]
      const clientRoute = {
        relativePathList,
        methodList: [...new Set(pick<string>(input.methodList, current?.methodList))],
        hostList: [...new Set(pick<string>(input.hostList, current?.hostList).map((h) => h.toLowerCase()))],
        headerList: pick<{ name: string; value: string }>(input.headerList, current?.headerList),
        bufferRequest: input.bufferRequest ?? current?.bufferRequest ?? true,
        bufferResponse: input.bufferResponse ?? current?.bufferResponse ?? true,
      }
      return { settings: { clientRoute }, proxy: { relativePath: relativePathList[0]! } }
    },
  }),
  connection: page({
    schema: connectionInput.extend(DEPLOY_FIELDS),
    apply({ settings }, input) {
      const given = defined(input)
      const routing = { ...routingOf(null, settings.routing), ...Object.fromEntries(ROUTING_CONNECTION_FIELDS.filter((f) => f in given).map((f) => [f, given[f]])) }
      const connection: Json = { ...CONNECTION_DEFAULTS, ...section(settings, 'connection') }
      for (const [k, v] of Object.entries(given)) if (!(ROUTING_CONNECTION_FIELDS as readonly string[]).includes(k)) connection[k] = v
      if (connection.connectionPoolManagementType === 'CUSTOM' && !connection.customConnectionPoolSize) throw problem('customConnectionPoolSize', 'Custom connection pool size is required when connectionPoolManagementType is CUSTOM')
      return { settings: { routing, connection } }
    },
  }),
  cors: page({ schema: wrappedBody('corsSettings', corsInput), apply: (_ctx, input) => ({ settings: { cors: input } }) }),
  'forwarded-ip-header': page({
    schema: wrappedBody('forwardedIpHeaderParam', forwardedIpHeaderInput),
    apply: ({ settings }, input) => ({
      settings: { forwardedIpHeader: { forwardedIpHeaderParamActive: false, value: 'X-Forwarded-For', xffOrder: 'FIRST', ...section(settings, 'forwardedIpHeader'), ...defined(input) } },
    }),
  }),
  'json-error-template': page({
    schema: wrappedBody('jsonErrorResponseTemplate', jsonErrorTemplateInput),
    apply: ({ settings }, input) => ({
      settings: { jsonErrorTemplate: { jsonErrorResponseTemplateActive: false, jsonValue: JSON_ERROR_TEMPLATE, contentType: 'application/json;charset=UTF-8', permitSpecialChars: false, ...section(settings, 'jsonErrorTemplate'), ...defined(input) } },
    }),
  }),
  'xml-error-template': page({
    schema: wrappedBody('xmlErrorResponseTemplate', xmlErrorTemplateInput),
    apply: ({ settings }, input) => ({
      settings: { xmlErrorTemplate: { xmlErrorResponseTemplateActive: false, xmlValue: XML_ERROR_TEMPLATE, contentType: 'text/xml;charset=UTF-8', permitSpecialChars: false, ...section(settings, 'xmlErrorTemplate'), ...defined(input) } },
    }),
  }),
  metadata: page({
    schema: metadataInput.extend(DEPLOY_FIELDS),
    async apply({ db, access, proxy }, input) {
      if (!Object.keys(defined(input)).length) throw malformed('At least one field (name, description, categoryList, sharingType, requestBodyReadBehavior, responseBodyReadBehavior) must be provided', { field: 'name' })
      const change: Change = { settings: {}, proxy: {} }
      if (input.name != null && input.name !== proxy.name) {
        const clash = await db.apiProxy.findFirst({ where: { projectId: access.project.id, name: { equals: input.name, mode: 'insensitive' }, id: { not: proxy.id } }, select: { name: true } })
        if (clash) throw new DomainError('conflict', 'nameAlreadyExists', `ApiProxy (name: ${clash.name}) is already exist!`, { field: 'name', apiProxy: clash.name })
        // gateways run the proxy (and its endpoint versions) under its name: a rename would orphan those deployments
        const deployed = await db.apiProxyDeployment.findMany({ where: { apiProxyId: proxy.id }, select: { environmentName: true } })
        if (deployed.length) throw problem('name', `API proxy '${proxy.name}' is deployed to ${deployed.map((d) => d.environmentName).join(', ')}; undeploy it before renaming`)
        change.proxy!.name = input.name
      }
      if (input.description != null) change.proxy!.description = input.description || null
      if (input.categoryList != null) change.settings.categoryList = [...new Set(input.categoryList.map((c) => c.trim()))]
      if (input.sharingType != null) change.settings.sharingType = input.sharingType
      if (input.requestBodyReadBehavior != null) change.settings.requestBodyReadBehavior = input.requestBodyReadBehavior
      if (input.responseBodyReadBehavior != null) change.settings.responseBodyReadBehavior = input.responseBodyReadBehavior
      return change
    },
  }),
  mtls: page({
    schema: mtlsInput.extend(DEPLOY_FIELDS),
    async apply({ db, access, settings }, input) {
      const current: Json = { enabled: false, keyStoreName: null, trustStoreName: null, supportedProtocolList: [], hostnameVerifierType: 'NOOP', disableSslValidation: false, ...section(settings, 'mtls') }
      const keyStoreName = input.keyStoreName ?? input.keyStoreId
      const trustStoreName = input.trustStoreName ?? input.trustStoreId
      const merged: Json = {
        ...current,
        ...defined({ enabled: input.enabled, supportedProtocolList: input.supportedProtocolList, hostnameVerifierType: input.hostnameVerifierType, disableSslValidation: input.disableSslValidation }),
        ...(keyStoreName !== undefined ? { keyStoreName } : {}),
        ...(trustStoreName !== undefined ? { trustStoreName } : {}),
      }
      merged.supportedProtocolList = [...new Set(merged.supportedProtocolList as string[])]
      if (merged.enabled && !merged.keyStoreName) throw problem('keyStoreId', 'KeyStore ID is required when mTLS is enabled')
      const projectId = access.project.id
      if (merged.keyStoreName && !(await findObject(db, projectId, 'KEY_STORE', merged.keyStoreName as string))) {
        throw new DomainError('validation', 'keystoreNotFound', `keyStoreId: Keystore (name: ${merged.keyStoreName}) is not found!`, { field: 'keyStoreId', keyStoreName: merged.keyStoreName })
      }
      if (merged.trustStoreName) {
        const name = merged.trustStoreName as string
        const found = (await findObject(db, projectId, 'KEY_STORE', name)) ?? (await findObject(db, projectId, 'CERTIFICATE', name))
        if (!found) throw new DomainError('validation', 'truststoreNotFound', `trustStoreId: no keystore or certificate named '${name}' in project '${access.project.name}'`, { field: 'trustStoreId', trustStoreName: name })
      }
      return { settings: { mtls: merged } }
    },
  }),
  ntlm: page({
    schema: wrappedBody('ntlmSettings', ntlmInput),
    apply({ deps, settings }, input) {
      const { password, ...rest } = input
      const merged: Json = { enabled: false, domain: null, username: null, password: null, workstation: null, ...section(settings, 'ntlm'), ...defined(rest), ...(password ? { password: seal(deps, password) } : {}) }
      if (merged.enabled) {
        const missing = ['domain', 'username', 'password'].filter((f) => !merged[f])
        if (missing.length) throw problem(missing[0]!, `Domain, username, and password are required when NTLM is enabled (missing: ${missing.join(', ')})`)
      }
      return { settings: { ntlm: merged } }
    },
  }),
  'proxy-server': page({
    schema: proxyServerInput.extend(DEPLOY_FIELDS),
    apply({ deps, settings }, input) {
      const { proxyPassword, ...rest } = input
      const merged: Json = {
        proxyEnabled: false, proxyFromHeaderEnabled: false, proxyHost: null, proxyPort: null, proxyAuthorizationNeeded: false, proxyUsername: null, proxyPassword: null,
        ...section(settings, 'proxyServer'), ...defined(rest), ...(proxyPassword ? { proxyPassword: seal(deps, proxyPassword) } : {}),
      }
      if (merged.proxyEnabled && !merged.proxyFromHeaderEnabled) {
        if (!merged.proxyHost) throw problem('proxyHost', 'Proxy host and port are required when proxy is enabled')
        if (!merged.proxyPort) throw problem('proxyPort', 'Proxy host and port are required when proxy is enabled')
      }
      if (merged.proxyEnabled && merged.proxyAuthorizationNeeded && !merged.proxyFromHeaderEnabled) {
        if (!merged.proxyUsername) throw problem('proxyUsername', 'is required when proxyAuthorizationNeeded is true')
        if (!merged.proxyPassword) throw problem('proxyPassword', 'is required when proxyAuthorizationNeeded is true')
      }
      return { settings: { proxyServer: merged } }
    },
  }),
  addresses: page({
    schema: routingAddressesInput.extend(DEPLOY_FIELDS),
    apply({ proxy, settings }, input) {
      const seen = new Set<string>()
      const routingAddressList = input.routingAddressList.map((a, i) => {
        const key = a.address.replace(/\/+$/, '').toLowerCase()
        if (seen.has(key)) throw problem(`routingAddressList[${i}].address`, `${a.address} is listed twice`)
        seen.add(key)
        // soapType applies to SOAP proxies; on others it is accepted and ignored (the page's main example sends it, 319c71d)
        const soapType = proxy.kind === 'SOAP' ? (a.soapType ?? 'SOAP11') : null
        return { address: a.address, weight: a.weight, healthCheckEnabled: a.healthCheckEnabled, soapType, addressType: a.addressType, ...defined({ description: a.description, healthCheckPath: a.healthCheckPath, healthMonitoringEnabled: a.healthMonitoringEnabled }) }
      })
      const current = routingOf(null, settings.routing) as Json
      const healthCheck = input.healthCheck === undefined ? (current.healthCheck ?? null) : input.healthCheck
      if (routingAddressList.some((a) => a.healthCheckEnabled) && !healthCheck) throw problem('healthCheck', 'is required when an address has healthCheckEnabled true (path, interval, thresholds)')
      return { settings: { routing: { ...current, routingAddressList, healthCheck } } }
    },
  }),
  'routing-status': page({
    schema: routingStatusInput.extend(DEPLOY_FIELDS),
    apply: ({ settings }, input) => ({ settings: { routing: { ...routingOf(null, settings.routing), ...defined(input) } } }),
  }),
  'traffic-log': page({
    schema: trafficLogInput.extend(DEPLOY_FIELDS),
    async apply({ db, access, settings }, input) {
      const current: Json = { enabledTraceLog: false, enabledApplicationLog: false, apiProxyTrafficLogSettingsList: [], ...section(settings, 'trafficLog') }
      let list = current.apiProxyTrafficLogSettingsList as Json[]
      if (input.apiProxyTrafficLogSettingsList != null) {
        const environments = new Set((await projectEnvironments(db, access.project.id)).map((e) => e.name))
        const seen = new Set<string>()
        list = input.apiProxyTrafficLogSettingsList.map((item, i) => {
          const name = item.environmentName as string
          if (!environments.has(name)) throw notFound(`apiProxyTrafficLogSettingsList[${i}].environmentName: environment '${name}' not found in project '${access.project.name}'`, { field: `apiProxyTrafficLogSettingsList[${i}].environmentName`, environment: name })
          if (seen.has(name)) throw problem(`apiProxyTrafficLogSettingsList[${i}].environmentName`, `environment '${name}' is listed twice`)
          seen.add(name)
          // the connector maps and method overrides (…/trafficLogSettings/{environmentName}/) are not on this page: kept
          const before = (current.apiProxyTrafficLogSettingsList as Json[]).find((b) => b.environmentName === name)
          return { ...(before ? defined({ connectorSettingsMap: before.connectorSettingsMap, methodOverrideList: before.methodOverrideList }) : {}), ...item }
        })
      }
      return { settings: { trafficLog: { ...current, ...defined({ enabledTraceLog: input.enabledTraceLog, enabledApplicationLog: input.enabledApplicationLog }), apiProxyTrafficLogSettingsList: list } } }
    },
  }),
}

const KIND_REFUSALS: Record<PageKinds, (kind: string, name: string) => string | null> = {
  ALL: () => null,
  CLASSIC: (kind, name) => (ROUTED_KINDS.includes(kind) ? `API proxy '${name}' is ${kindWithArticle(kind)} proxy; these settings apply to REST, SOAP, gRPC and WebSocket proxies (an ${kind} proxy has its own routing)` : null),
  GRPC: (kind, name) => (kind === 'GRPC' ? null : `API Proxy type is not GRPC: API proxy '${name}' is ${kindWithArticle(kind)} proxy`),
  WEBSOCKET: (kind, name) => (kind === 'WEBSOCKET' ? null : `API Proxy type is not WEBSOCKET: API proxy '${name}' is ${kindWithArticle(kind)} proxy`),
}

async function settingsTarget(db: Tx, actor: Actor, projectName: string, proxyName: string, kinds: PageKinds = 'CLASSIC') {
  const access = await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'MANAGE')
  const name = pathName(proxyName, 'apiProxyName')
  const proxy = await db.apiProxy.findUnique({ where: { projectId_name: { projectId: access.project.id, name } } })
  if (!proxy) throw notFound(`ApiProxy (name: ${name}) was not found!`, { apiProxy: name })
  const refusal = KIND_REFUSALS[kinds](proxy.kind, proxy.name)
  if (refusal) throw malformed(refusal, { apiProxy: proxy.name, kind: proxy.kind })
  return { access, proxy }
}

/** Every settings page by the last segment of its path (spec-access-type has its own route: its type is a path segment). */
export const ALL_SETTING_PAGES: Record<string, Page<z.ZodType>> = { ...SETTING_PAGES, ...BEHAVIOUR_PAGES, 'spec-access-type': SPEC_ACCESS_PAGE }

export interface SettingWrite {
  apiProxyName: string
  /** the push `deploy: true` asked for; null without it */
  deploymentResult: DeploymentOutcome | null
}

/**
 * PATCH …/settings/{page}/: validates the page's body, merges it into the proxy's settings and bumps its revision;
 * with `deploy: true` then pushes the proxy (the environments are checked before anything is written).
 */
export async function updateProxySetting(deps: Deps, actor: Actor, projectName: string, proxyName: string, pageName: string, raw: unknown, params: Record<string, string | undefined> = {}): Promise<SettingWrite> {
  const handler = ALL_SETTING_PAGES[pageName]
  if (!handler) throw malformed(`Unknown settings page '${pageName}'; the pages are ${Object.keys(ALL_SETTING_PAGES).join(', ')}, hide-spec-file`, { field: 'page' })
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw malformed('The request body must be a JSON object', { field: 'body' })
  const { access, proxy: before } = await settingsTarget(deps.prisma, actor, projectName, proxyName, handler.kinds)
  const { fields, request } = splitDeploy(parseInput(handler.schema, raw))
  const named = request.deploy && request.environmentNames.length ? await environmentsNamed(deps.prisma, access, request.environmentNames) : null
  const updated = await deps.prisma.$transaction(async (tx) => {
    // read again inside the transaction so two writes to different pages do not overwrite each other's section
    const proxy = (await settingsTarget(tx, actor, projectName, proxyName, handler.kinds)).proxy
    const settings = (proxy.settings ?? {}) as Settings
    const change = await handler.apply({ deps, db: tx, access, proxy, settings, params }, fields)
    return tx.apiProxy.update({
      where: { id: proxy.id },
      data: { ...(change.proxy ?? {}), settings: { ...settings, ...change.settings } as unknown as Prisma.InputJsonValue, revision: { increment: 1 } },
    }).catch((err: unknown) => {
      if ((err as { code?: string } | null)?.code === 'P2002') throw new DomainError('conflict', 'nameAlreadyExists', `ApiProxy (name: ${change.proxy?.name}) is already exist!`, { field: 'name' })
      throw err
    })
  })
  const targets = request.deploy ? (named ?? (await deployedEnvironments(deps.prisma, access, before.id))) : []
  return { apiProxyName: updated.name, deploymentResult: await requestedDeployment(deps, access, updated, request.deploy, targets) }
}

/** PATCH …/settings/hide-spec-file/{hideSpecFile}/: the flag is the path's last segment, `true` or `false`. */
export async function updateHideSpecFile(deps: Deps, actor: Actor, projectName: string, proxyName: string, rawFlag: string) {
  if (rawFlag !== 'true' && rawFlag !== 'false') throw malformed(`hideSpecFile: Invalid hideSpecFile parameter '${rawFlag.slice(0, 50)}'; use true or false`, { field: 'hideSpecFile' })
  await settingsTarget(deps.prisma, actor, projectName, proxyName)
  await deps.prisma.$transaction(async (tx) => {
    const proxy = (await settingsTarget(tx, actor, projectName, proxyName)).proxy
    const settings = (proxy.settings ?? {}) as Settings
    const hidden = rawFlag === 'true'
    // the spec-access-type page's section follows: HIDDEN when hidden, PUBLIC when shown again after HIDDEN
    const specAccess = { ...section(settings, 'specAccess'), specAccessType: hidden ? 'HIDDEN' : ((settings.specAccess as Json | undefined)?.specAccessType === 'HIDDEN' || !settings.specAccess ? 'PUBLIC' : (settings.specAccess as Json).specAccessType) }
    await tx.apiProxy.update({ where: { id: proxy.id }, data: { settings: { ...settings, hideSpecFile: hidden, specAccess } as unknown as Prisma.InputJsonValue, revision: { increment: 1 } } })
  })
}

const secretSet = (v: unknown) => typeof v === 'string' && v.length > 0

/** The settings as the proxy reads show them: every page's section, secrets replaced by a `…Set` flag. */
export function settingsViewOf(stored: unknown) {
  const s = (stored ?? {}) as Settings
  const apiKeys = section(s, 'apiKeys')
  const ntlm = s.ntlm as Json | undefined
  const proxyServer = s.proxyServer as Json | undefined
  const connection = s.connection as Json | undefined
  const routing = s.routing
  return {
    apiKeys: { publicKey: (apiKeys.publicKey as string | undefined) ?? null, secretKeySet: secretSet(apiKeys.secretKey) },
    cacheSettings: s.cache ?? null,
    circuitBreakerSettings: s.circuitBreaker ?? null,
    connectionSettings: connection || routing
      ? { ...CONNECTION_DEFAULTS, ...(connection ?? {}), ...Object.fromEntries(ROUTING_CONNECTION_FIELDS.map((f) => [f, routingOf(null, routing)[f]])) }
      : null,
    corsSettings: s.cors ?? null,
    forwardedIpHeaderParameter: s.forwardedIpHeader ?? null,
    // the newest page's name of the same section (PATCH …/settings/forwarded-ip-header writes forwardedIpHeaderParam)
    forwardedIpHeaderParam: s.forwardedIpHeader ?? null,
    hideSpecFile: (s.hideSpecFile as boolean | undefined) ?? false,
    jsonErrorResponseTemplate: s.jsonErrorTemplate ?? null,
    xmlErrorResponseTemplate: s.xmlErrorTemplate ?? null,
    // the page writes keyStoreId / trustStoreId (ids carry names here): the read answers them beside the stored names
    mtlsSettings: s.mtls ? { ...(s.mtls as Json), keyStoreId: (s.mtls as Json).keyStoreName ?? null, trustStoreId: (s.mtls as Json).trustStoreName ?? null } : null,
    ntlmSettings: ntlm ? { ...ntlm, password: undefined, passwordSet: secretSet(ntlm.password) } : null,
    proxyServerSettings: proxyServer ? { ...proxyServer, proxyPassword: undefined, proxyPasswordSet: secretSet(proxyServer.proxyPassword) } : null,
    trafficLogSettings: s.trafficLog ?? null,
    ...behaviourViewOf(s),
  }
}

/** The settings as the gateway runs them: the stored sections with their secrets opened. */
export function runtimeSettings(deps: Deps, stored: unknown): unknown {
  if (!stored || typeof stored !== 'object') return stored ?? null
  const s = { ...(stored as Settings) }
  const open = (key: string, field: string) => {
    const part = s[key] as Json | undefined
    if (part && part[field]) s[key] = { ...part, [field]: unseal(deps, part[field]) }
  }
  for (const { section: key, field } of SETTINGS_SECRETS) open(key, field)
  return s
}
