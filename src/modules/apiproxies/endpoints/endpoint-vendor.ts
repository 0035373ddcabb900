import { z } from 'zod'
import type { ApiProxy, GatewayEndpoint, Prisma } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { DomainError, malformed } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { deployedEnvironments, pushProxy } from '../proxies/proxy-deploy.js'
import { pathName } from '../proxies/proxy-inputs.js'
import { cacheInput, endpointStatusInput, wsaInput } from '../settings/settings-inputs.js'
import { ENDPOINT_METHODS, pathTemplate } from './endpoint-inputs.js'
import { access, endpointNotFound, findProxy, parseVersion, raceChecked } from './endpoint-rules.js'
import { applyEndpointUpdate, insertEndpoint } from './endpoints.js'
import { touchVersion } from './endpoint-versions.js'

// The endpoints of an API proxy through the vendor pages 04-api-proxies/endpoints/* (addressed by the endpoint's
// id) and through GraphQL (by version + operationId): the same GatewayEndpoint rows and rules as spec §2.18's
// endpoints (insertEndpoint, applyEndpointUpdate). A write here bumps the proxy's revision and redeploys the proxy
// (kind API_PROXY, whose config carries every unversioned endpoint with its status, cache and WS-Addressing
// settings) where it is deployed; the answer's deploymentResult says how that went (absent when deployed nowhere).

export type EndpointLocator = { id: string } | { version: string | null | undefined; operationId: string }

export interface VendorEndpointWrite {
  endpoint: GatewayEndpoint
  deploymentResult: DeploymentOutcome | null
}

const enumOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` })
const description = z.string().max(1000, 'must be at most 1000 characters').nullish()

/** The page's body: `name` is the client path, `backendResourceUrl` the backend path (a path: absolute URLs route through the proxy's addresses). */
export const vendorEndpointCreateInput = z.object({
  name: pathTemplate,
  description,
  httpMethod: enumOf(ENDPOINT_METHODS),
  backendResourceUrl: pathTemplate,
  backendHttpMethod: enumOf(ENDPOINT_METHODS),
  active: z.boolean().nullish(),
})
export const vendorEndpointUpdateInput = vendorEndpointCreateInput.partial()

/** The page's endpoint object, plus the spec's version and operationId. */
export function vendorEndpointView(e: GatewayEndpoint) {
  return {
    id: e.id, endpoint: e.path, description: e.description, active: e.enabled, httpMethod: e.method, backendResourceUrl: e.backendPath ?? e.path,
    backendHttpMethod: e.backendMethod ?? e.method, version: e.version, operationId: e.operationId,
  }
}

const notFoundById = (id: string) => new DomainError('notFound', 'endpointNotFound', `Endpoint with ID (${id}) was not found!`, { endpointId: id })

async function locate(db: Tx, proxy: ApiProxy, locator: EndpointLocator): Promise<GatewayEndpoint> {
  if ('id' in locator) {
    const id = pathName(locator.id, 'endpointId')
    const row = await db.gatewayEndpoint.findFirst({ where: { id, apiProxyId: proxy.id } })
    if (!row) throw notFoundById(id)
    return row
  }
  const version = parseVersion(locator.version)
  const operationId = pathName(locator.operationId, 'operationId')
  const row = await db.gatewayEndpoint.findUnique({ where: { apiProxyId_version_operationId: { apiProxyId: proxy.id, version, operationId } } })
  if (!row) throw endpointNotFound(proxy.name, version, operationId)
  return row
}

const restOnly = (proxy: ApiProxy, verb: 'added to' | 'deleted from') => {
  if (proxy.kind !== 'REST') throw malformed(`Endpoint can only be ${verb} REST API Proxies! API proxy '${proxy.name}' is a ${proxy.kind} proxy`, { apiProxy: proxy.name, kind: proxy.kind })
}

/** The stored form of an endpoint's cache and WS-Addressing settings; WS-Addressing is for SOAP endpoints only. */
export function endpointSettingsData(s: { cache?: unknown; wsa?: unknown }, kind: string) {
  if (s.wsa && kind !== 'SOAP') throw malformed(`wsa: WS-Addressing settings apply to SOAP endpoints; this is a ${kind} endpoint`, { field: 'wsa' })
  return { ...(s.cache !== undefined ? { cache: (s.cache ?? undefined) as Prisma.InputJsonValue | undefined } : {}), ...(s.wsa !== undefined ? { wsa: (s.wsa ?? undefined) as Prisma.InputJsonValue | undefined } : {}) }
}

/** Runs one write in a transaction, bumps the proxy's revision, then redeploys the proxy where it runs. */
async function write(deps: Deps, actor: Actor, projectName: string, proxyName: string, change: (tx: Tx, proxy: ApiProxy) => Promise<GatewayEndpoint>): Promise<VendorEndpointWrite> {
  const projectAccess = await access(deps.prisma, actor, projectName, 'MANAGE')
  const name = pathName(proxyName, 'apiProxyName')
  await findProxy(deps.prisma, projectAccess.project.id, name)
  const { proxy, endpoint } = await raceChecked(deps.prisma.$transaction(async (tx) => {
    const found = await findProxy(tx, projectAccess.project.id, name)
    const endpoint = await change(tx, found)
    const proxy = await tx.apiProxy.update({ where: { id: found.id }, data: { revision: { increment: 1 } } })
    return { proxy, endpoint }
  }))
  const environments = await deployedEnvironments(deps.prisma, projectAccess, proxy.id)
  return { endpoint, deploymentResult: environments.length ? await pushProxy(deps, projectAccess.project.name, proxy, environments) : null }
}

/** POST …/endpoints/: a new unversioned REST endpoint. */
export function createVendorEndpoint(deps: Deps, actor: Actor, projectName: string, proxyName: string, raw: unknown) {
  const input = parseInput(vendorEndpointCreateInput, raw ?? {})
  return write(deps, actor, projectName, proxyName, (tx, proxy) => {
    restOnly(proxy, 'added to')
    return insertEndpoint(tx, proxy, '', {
      method: input.httpMethod, path: input.name, description: input.description ?? null, backendPath: input.backendResourceUrl, backendMethod: input.backendHttpMethod,
      enabled: input.active ?? true, parameters: [], responses: [], consumes: [], produces: [], rewriteRules: [], policies: [],
    })
  })
}

/** PATCH …/endpoints/{id}/: only the fields given change. */
export function updateVendorEndpoint(deps: Deps, actor: Actor, projectName: string, proxyName: string, locator: EndpointLocator, raw: unknown) {
  const input = parseInput(vendorEndpointUpdateInput, raw ?? {})
  const given = Object.keys((raw ?? {}) as object)
  if (!given.length) throw malformed('Nothing to update: the body names no field', { field: 'body' })
  const mapped = Object.fromEntries(Object.entries({
    path: input.name, description: input.description, method: input.httpMethod, backendPath: input.backendResourceUrl, backendMethod: input.backendHttpMethod, enabled: input.active,
  }).filter(([, v]) => v !== undefined))
  return write(deps, actor, projectName, proxyName, async (tx, proxy) => applyEndpointUpdate(tx, proxy, await locate(tx, proxy, locator), mapped, input.name))
}

/** DELETE …/endpoints/{id}/: the endpoint and its policies. */
export function deleteVendorEndpoint(deps: Deps, actor: Actor, projectName: string, proxyName: string, locator: EndpointLocator) {
  return write(deps, actor, projectName, proxyName, async (tx, proxy) => {
    restOnly(proxy, 'deleted from')
    const row = await locate(tx, proxy, locator)
    await tx.gatewayEndpoint.delete({ where: { id: row.id } })
    const left = await tx.gatewayEndpoint.count({ where: { apiProxyId: proxy.id, version: row.version } })
    if (left) await touchVersion(tx, proxy.id, row.version)
    else await tx.apiEndpointVersion.deleteMany({ where: { apiProxyId: proxy.id, version: row.version } })
    return row
  })
}

const settingWrite = (data: (row: GatewayEndpoint) => Prisma.GatewayEndpointUpdateInput) =>
  (deps: Deps, actor: Actor, projectName: string, proxyName: string, locator: EndpointLocator) =>
    write(deps, actor, projectName, proxyName, async (tx, proxy) => {
      const row = await locate(tx, proxy, locator)
      const updated = await tx.gatewayEndpoint.update({ where: { id: row.id }, data: data(row) })
      await touchVersion(tx, proxy.id, row.version)
      return updated
    })

/** PATCH …/endpoints/{id}/status/: enables or disables the endpoint (a disabled endpoint answers 404 at the gateway). */
export function setVendorEndpointStatus(deps: Deps, actor: Actor, projectName: string, proxyName: string, locator: EndpointLocator, raw: unknown) {
  const { active } = parseInput(endpointStatusInput, raw ?? {})
  return settingWrite(() => ({ enabled: active }))(deps, actor, projectName, proxyName, locator)
}

/** PATCH …/endpoints/{id}/cache/: the endpoint's own cache settings (they override the proxy's). */
export function setVendorEndpointCache(deps: Deps, actor: Actor, projectName: string, proxyName: string, locator: EndpointLocator, raw: unknown) {
  const cache = parseInput(cacheInput, raw ?? {})
  return settingWrite(() => ({ cache: cache as unknown as Prisma.InputJsonValue }))(deps, actor, projectName, proxyName, locator)
}

/** PATCH …/endpoints/{id}/wsa/: WS-Addressing of a SOAP endpoint. */
export function setVendorEndpointWsa(deps: Deps, actor: Actor, projectName: string, proxyName: string, locator: EndpointLocator, raw: unknown) {
  const wsa = parseInput(wsaInput, raw ?? {})
  return settingWrite((row) => endpointSettingsData({ wsa }, row.kind))(deps, actor, projectName, proxyName, locator)
}

async function readTarget(db: Tx, actor: Actor, projectName: string, proxyName: string) {
  const projectAccess = await access(db, actor, projectName, 'VIEW')
  return findProxy(db, projectAccess.project.id, pathName(proxyName, 'apiProxyName'))
}

/** GET …/endpoints/: every endpoint of the proxy (all versions), without policies. */
export async function listVendorEndpoints(db: Tx, actor: Actor, projectName: string, proxyName: string) {
  const proxy = await readTarget(db, actor, projectName, proxyName)
  const rows = await db.gatewayEndpoint.findMany({ where: { apiProxyId: proxy.id }, orderBy: [{ version: 'asc' }, { path: 'asc' }, { method: 'asc' }] })
  return rows.map(vendorEndpointView)
}

/** GET …/endpoints/{id}/ (policies: false) and …/endpoints/{id}/policies/ (policies: true). */
export async function getVendorEndpoint(db: Tx, actor: Actor, projectName: string, proxyName: string, locator: EndpointLocator, withPolicies: boolean) {
  const proxy = await readTarget(db, actor, projectName, proxyName)
  const row = await locate(db, proxy, locator)
  const view = { ...vendorEndpointView(row), cacheSettings: row.cache ?? null, wsaSettings: row.wsa ?? null }
  if (!withPolicies) return view
  const policies = await db.apiProxyPolicy.findMany({ where: { endpointId: row.id }, orderBy: [{ pipeline: 'asc' }, { position: 'asc' }] })
  const of = (pipeline: string) => policies.filter((p) => p.pipeline === pipeline).map((p) => ({ type: p.type, name: p.name, description: p.description, active: p.active }))
  return { ...view, requestPolicyList: of('REQUEST'), responsePolicyList: of('RESPONSE'), errorPolicyList: of('ERROR') }
}

