import type { ApiProxy, Prisma } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { projectEnvironments } from '../../../platform/deploy/project.js'
import { DomainError, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { authorizeInProject } from '../../../platform/scope/project-scope.js'
import { deployedEnvironments, requestedDeployment } from '../proxies/automation/deploy.js'
import { pathName } from '../proxies/automation/inputs.js'
import {
  CONNECTOR_TYPES, connectorLogSettingsInput, isConnectorType, LOG_FLAGS, methodOverrideQuery, trafficLogSettingsInput, type ConnectorLogSettings,
} from './inputs.js'

// Traffic log settings of an API proxy per environment (vendor api-reference/api-proxies/traffic-log-settings/*).
// They live in the proxy's settings (section trafficLog, list apiProxyTrafficLogSettingsList, one item per
// environment: the list the settings page traffic-log writes), so they are carried in its revision, its export and
// its deployed config. connectorSettingsMap keys are stored as the connection's id (a rename keeps them) or as a
// connector type (the older keys), and read back as the connection's name. A write bumps the proxy's revision and
// redeploys it to that environment when it runs there (the pages: "changes are automatically deployed").

type Json = Record<string, unknown>
export interface MethodOverride { apiMethodId: string; apiMethodName: string; connectorSettingsMap: Record<string, ConnectorLogSettings> }
export interface TrafficLogItem extends Json { environmentName: string; connectorSettingsMap?: Record<string, ConnectorLogSettings>; methodOverrideList?: MethodOverride[] }

const defined = (o: Json) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null))
const itemsOf = (proxy: ApiProxy): TrafficLogItem[] => ((((proxy.settings ?? {}) as Json).trafficLog as Json | undefined)?.apiProxyTrafficLogSettingsList ?? []) as TrafficLogItem[]

async function target(db: Tx, actor: Actor, projectName: string, proxyName: string, level: 'VIEW' | 'MANAGE') {
  const access = await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', level)
  const name = pathName(proxyName, 'apiProxyName')
  const proxy = await db.apiProxy.findUnique({ where: { projectId_name: { projectId: access.project.id, name } } })
  if (!proxy) throw notFound(`ApiProxy (name: ${name}) was not found!`, { apiProxy: name })
  return { access, proxy }
}

async function environmentOf(db: Tx, access: ProjectAccess, raw: string | undefined) {
  const name = (raw ?? '').trim()
  if (!name) throw malformed('environmentName value can not be empty!', { field: 'environmentName' })
  const found = (await projectEnvironments(db, access.project.id)).find((e) => e.name === name)
  if (!found) throw notFound(`Environment (${name}) is not found!`, { environment: name })
  return found.name
}

/** The connection names of the stored keys (ids), for the reads; a connector type or an unknown id stays as stored. */
async function keyNames(db: Tx, projectId: string, items: TrafficLogItem[]) {
  const keys = new Set(items.flatMap((i) => [...Object.keys(i.connectorSettingsMap ?? {}), ...(i.methodOverrideList ?? []).flatMap((m) => Object.keys(m.connectorSettingsMap ?? {}))]))
  const ids = [...keys].filter((k) => !isConnectorType(k))
  const rows = ids.length ? await db.connection.findMany({ where: { projectId, id: { in: ids } }, select: { id: true, name: true } }) : []
  return new Map(rows.map((r) => [r.id, r.name]))
}

const renamed = (map: Record<string, ConnectorLogSettings> | undefined, names: Map<string, string>) =>
  Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [names.get(k) ?? k, v]))

function itemView(item: TrafficLogItem, names: Map<string, string>) {
  const { connectorSettingsMap, methodOverrideList, ...flags } = item
  const overrides = (methodOverrideList ?? []).map((m) => ({ apiMethodId: m.apiMethodId, apiMethodName: m.apiMethodName, connectorSettingsMap: renamed(m.connectorSettingsMap, names) }))
  // the pages: methodOverrideList is left out when empty
  return { ...flags, connectorSettingsMap: renamed(connectorSettingsMap, names), ...(overrides.length ? { methodOverrideList: overrides } : {}) }
}
export type TrafficLogView = ReturnType<typeof itemView>

/** GET …/trafficLogSettings/: every environment's settings (API_MANAGEMENT VIEW). */
export async function listTrafficLogSettings(db: Tx, actor: Actor, projectName: string, proxyName: string): Promise<TrafficLogView[]> {
  const { access, proxy } = await target(db, actor, projectName, proxyName, 'VIEW')
  const items = itemsOf(proxy)
  const names = await keyNames(db, access.project.id, items)
  return items.map((i) => itemView(i, names))
}

/** GET …/trafficLogSettings/{environmentName}/: that environment's settings, none when never saved. */
export async function getTrafficLogSettings(db: Tx, actor: Actor, projectName: string, proxyName: string, environmentName: string | undefined): Promise<TrafficLogView[]> {
  const { access, proxy } = await target(db, actor, projectName, proxyName, 'VIEW')
  const environment = await environmentOf(db, access, environmentName)
  const items = itemsOf(proxy).filter((i) => i.environmentName === environment)
  const names = await keyNames(db, access.project.id, items)
  return items.map((i) => itemView(i, names))
}

/** A map's keys as stored: a connector type as is, a connection name as the id of the project's logging connection. */
async function storedKeys(db: Tx, projectId: string, map: Record<string, Json> | null | undefined, field: string) {
  if (!map) return undefined
  const out: Record<string, ConnectorLogSettings> = {}
  for (const [key, settings] of Object.entries(map)) {
    let stored = key
    if (!isConnectorType(key)) {
      const connection = await db.connection.findFirst({ where: { projectId, nameKey: key.toLowerCase(), type: { in: Object.values(CONNECTOR_TYPES) } }, select: { id: true } })
      if (!connection) throw new DomainError('validation', 'malformedRequest', `${field}.${key}: Connection with name '${key}' not found in the environment!`, { field: `${field}.${key}`, connection: key })
      stored = connection.id
    }
    if (stored in out) throw malformed(`${field}.${key}: the connector is listed twice`, { field: `${field}.${key}` })
    out[stored] = defined(settings)
  }
  return out
}

const methodNotFound = (name: string) => new DomainError('validation', 'malformedRequest', `Method (${name}) is not found in ApiProxy!`, { field: 'methodName', method: name })
/** The endpoint a method name (its path, e.g. /pets) names: the first of its HTTP methods. */
async function endpointNamed(db: Tx, proxyId: string, raw: string) {
  const path = (raw.startsWith('/') ? raw : `/${raw}`).replace(/(.)\/+$/, '$1')
  const row = await db.gatewayEndpoint.findFirst({ where: { apiProxyId: proxyId, path }, orderBy: [{ version: 'asc' }, { method: 'asc' }], select: { id: true, path: true } })
  if (!row) throw methodNotFound(raw)
  return row
}

/** Writes the environment's item (the change given the stored item) with a new revision; pushes where it runs. */
async function writeItem(deps: Deps, actor: Actor, projectName: string, proxyName: string, environmentName: string | undefined, change: (db: Tx, access: ProjectAccess, proxy: ApiProxy, environment: string, item: TrafficLogItem | undefined) => Promise<TrafficLogItem | null>) {
  const { access } = await target(deps.prisma, actor, projectName, proxyName, 'MANAGE')
  const written = await deps.prisma.$transaction(async (tx) => {
    const { proxy } = await target(tx, actor, projectName, proxyName, 'MANAGE')
    const environment = await environmentOf(tx, access, environmentName)
    const items = itemsOf(proxy)
    const next = await change(tx, access, proxy, environment, items.find((i) => i.environmentName === environment))
    if (!next) return null
    const settings = (proxy.settings ?? {}) as Json
    const trafficLog = { enabledTraceLog: false, enabledApplicationLog: false, ...((settings.trafficLog ?? {}) as Json) }
    const list = items.some((i) => i.environmentName === environment) ? items.map((i) => (i.environmentName === environment ? next : i)) : [...items, next]
    const updated = await tx.apiProxy.update({ where: { id: proxy.id }, data: { settings: { ...settings, trafficLog: { ...trafficLog, apiProxyTrafficLogSettingsList: list } } as unknown as Prisma.InputJsonValue, revision: { increment: 1 } } })
    return { proxy: updated, item: next, environment }
  })
  if (!written) return null
  const where = (await deployedEnvironments(deps.prisma, access, written.proxy.id)).filter((e) => e.name === written.environment)
  const deploymentResult: DeploymentOutcome | null = where.length ? await requestedDeployment(deps, access, written.proxy, true, where) : null
  return { access, item: written.item, deploymentResult }
}

/** PUT …/trafficLogSettings/{environmentName}/: the fields given change (created with every log flag true). */
export async function updateTrafficLogSettings(deps: Deps, actor: Actor, projectName: string, proxyName: string, environmentName: string | undefined, raw: unknown) {
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw malformed('The request body must be a JSON object', { field: 'body' })
  await target(deps.prisma, actor, projectName, proxyName, 'MANAGE')
  const input = parseInput(trafficLogSettingsInput, raw) as Json & { connectorSettingsMap?: Record<string, Json> | null; methodOverrideList?: { apiMethodId?: string | null; apiMethodName?: string | null; connectorSettingsMap?: Record<string, Json> | null }[] | null }
  const done = await writeItem(deps, actor, projectName, proxyName, environmentName, async (db, access, proxy, environment, stored) => {
    const base: TrafficLogItem = stored ?? { environmentName: environment, ...Object.fromEntries(LOG_FLAGS.map((f) => [f, true])), connectorSettingsMap: {}, methodOverrideList: [] }
    const flags = defined(Object.fromEntries(LOG_FLAGS.map((f) => [f, input[f]])))
    const connectorSettingsMap = (await storedKeys(db, access.project.id, input.connectorSettingsMap, 'connectorSettingsMap')) ?? base.connectorSettingsMap ?? {}
    let methodOverrideList = base.methodOverrideList ?? []
    if (input.methodOverrideList) {
      const seen = new Set<string>()
      methodOverrideList = []
      for (const [i, entry] of input.methodOverrideList.entries()) {
        const field = `methodOverrideList[${i}]`
        let endpoint: { id: string; path: string }
        if (entry.apiMethodId) {
          const row = await db.gatewayEndpoint.findFirst({ where: { apiProxyId: proxy.id, id: entry.apiMethodId }, select: { id: true, path: true } })
          if (!row) throw new DomainError('validation', 'malformedRequest', `${field}.apiMethodId: Method (${entry.apiMethodId}) is not found in ApiProxy!`, { field: `${field}.apiMethodId`, method: entry.apiMethodId })
          endpoint = row
        } else if (entry.apiMethodName) {
          endpoint = await endpointNamed(db, proxy.id, entry.apiMethodName).catch(() => {
            throw new DomainError('validation', 'malformedRequest', `${field}.apiMethodName: Method (${entry.apiMethodName}) is not found in ApiProxy!`, { field: `${field}.apiMethodName`, method: entry.apiMethodName })
          })
        } else throw malformed(`${field}.apiMethodId: is required (or apiMethodName)`, { field: `${field}.apiMethodId` })
        if (seen.has(endpoint.id)) throw malformed(`${field}: method '${endpoint.path}' is listed twice`, { field })
        seen.add(endpoint.id)
        methodOverrideList.push({ apiMethodId: endpoint.id, apiMethodName: endpoint.path, connectorSettingsMap: (await storedKeys(db, access.project.id, entry.connectorSettingsMap, `${field}.connectorSettingsMap`)) ?? {} })
      }
    }
    return { ...base, ...flags, environmentName: environment, connectorSettingsMap, methodOverrideList }
  })
  const names = await keyNames(deps.prisma, done!.access.project.id, [done!.item])
  return { view: itemView(done!.item, names), deploymentResult: done!.deploymentResult }
}

const settingsMissing = () => new DomainError('validation', 'malformedRequest', 'Traffic log settings not found for this API proxy and environment. Please save the log settings first before adding method-level overrides.', { reason: 'trafficLogSettingsNotFound' })
function connectorTypeOf(raw: string | undefined) {
  if (!raw || !isConnectorType(raw)) throw malformed(`Invalid connectorType: ${String(raw ?? '').slice(0, 100)}; one of ${Object.keys(CONNECTOR_TYPES).join(', ')}`, { field: 'connectorType' })
  return raw
}

/** PUT …/connectors/{connectorType}/methodOverride/?methodName=: sets one connector's settings for one method. */
export async function putMethodOverride(deps: Deps, actor: Actor, projectName: string, proxyName: string, environmentName: string | undefined, rawType: string | undefined, query: unknown, raw: unknown) {
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw malformed('The request body must be a JSON object', { field: 'body' })
  await target(deps.prisma, actor, projectName, proxyName, 'MANAGE')
  const connectorType = connectorTypeOf(rawType)
  const { methodName } = parseInput(methodOverrideQuery, query ?? {})
  const settings = defined(parseInput(connectorLogSettingsInput, raw) as Json)
  const done = await writeItem(deps, actor, projectName, proxyName, environmentName, async (db, _access, proxy, _environment, stored) => {
    const endpoint = await endpointNamed(db, proxy.id, methodName)
    if (!stored) throw settingsMissing()
    const list = [...(stored.methodOverrideList ?? [])]
    const at = list.findIndex((m) => m.apiMethodId === endpoint.id)
    const entry = at >= 0 ? list[at]! : { apiMethodId: endpoint.id, apiMethodName: endpoint.path, connectorSettingsMap: {} }
    const next = { ...entry, connectorSettingsMap: { ...entry.connectorSettingsMap, [connectorType]: settings } }
    if (at >= 0) list[at] = next
    else list.push(next)
    return { ...stored, methodOverrideList: list }
  })
  return { deploymentResult: done!.deploymentResult }
}

/** DELETE …/connectors/{connectorType}/methodOverride/?methodName=: removes it; no override there is a no-op (null). */
export async function deleteMethodOverride(deps: Deps, actor: Actor, projectName: string, proxyName: string, environmentName: string | undefined, rawType: string | undefined, query: unknown) {
  await target(deps.prisma, actor, projectName, proxyName, 'MANAGE')
  const connectorType = connectorTypeOf(rawType)
  const { methodName } = parseInput(methodOverrideQuery, query ?? {})
  const done = await writeItem(deps, actor, projectName, proxyName, environmentName, async (db, _access, proxy, _environment, stored) => {
    if (!stored) throw new DomainError('validation', 'malformedRequest', 'Traffic log settings not found', { reason: 'trafficLogSettingsNotFound' })
    const endpoint = await endpointNamed(db, proxy.id, methodName).catch(() => null)
    const list = stored.methodOverrideList ?? []
    const entry = endpoint ? list.find((m) => m.apiMethodId === endpoint.id) : undefined
    if (!entry || !(connectorType in entry.connectorSettingsMap)) return null
    const { [connectorType]: _removed, ...rest } = entry.connectorSettingsMap
    // no connector override left: the method's entry goes
    const next = Object.keys(rest).length ? list.map((m) => (m === entry ? { ...m, connectorSettingsMap: rest } : m)) : list.filter((m) => m !== entry)
    return { ...stored, methodOverrideList: next }
  })
  return done ? { changed: true, deploymentResult: done.deploymentResult } : { changed: false, deploymentResult: null }
}

/** The connection ids the stored traffic log settings of these proxies name (for runtimeTrafficLog's one query). */
export function trafficLogConnectionIds(proxies: ApiProxy[]): string[] {
  const ids = new Set<string>()
  for (const item of proxies.flatMap(itemsOf)) {
    for (const key of [...Object.keys(item.connectorSettingsMap ?? {}), ...(item.methodOverrideList ?? []).flatMap((m) => Object.keys(m.connectorSettingsMap ?? {}))]) {
      if (!isConnectorType(key)) ids.add(key)
    }
  }
  return [...ids]
}

/**
 * The traffic log section as the gateway runs it: connector keys as the connection names the gateway knows
 * (connections are deployed by name), and each method override with its endpoint's method and path (the gateway
 * matches endpoints by them, not by our ids); an override of an endpoint gone is left out.
 */
export function runtimeTrafficLog(settings: unknown, connectionNames: Map<string, string>, endpoints: Map<string, { method: string; path: string }>): unknown {
  const trafficLog = ((settings ?? {}) as Json).trafficLog as Json | undefined
  if (!trafficLog || !Array.isArray(trafficLog.apiProxyTrafficLogSettingsList)) return settings
  const list = (trafficLog.apiProxyTrafficLogSettingsList as TrafficLogItem[]).map((item) => ({
    ...item,
    connectorSettingsMap: renamed(item.connectorSettingsMap, connectionNames),
    methodOverrideList: (item.methodOverrideList ?? []).flatMap((m) => {
      const endpoint = endpoints.get(m.apiMethodId)
      return endpoint ? [{ ...m, httpMethod: endpoint.method, path: endpoint.path, connectorSettingsMap: renamed(m.connectorSettingsMap, connectionNames) }] : []
    }),
  }))
  return { ...(settings as Json), trafficLog: { ...trafficLog, apiProxyTrafficLogSettingsList: list } }
}
