import { z } from 'zod'
import type { ApiProxy, GatewayEndpoint, Prisma } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { DomainError, malformed } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { deployedEnvironments, environmentsNamed, pushProxy, requestedDeployment } from '../proxies/automation/deploy.js'
import { DEPLOY_FIELDS, splitDeploy, type DeployRequest } from '../settings/page-body.js'
import { pathName } from '../proxies/automation/inputs.js'
import { cacheInput, endpointStatusInput, wsaInput } from '../settings/inputs.js'
import { ENDPOINT_METHODS, pathKeyOf, pathTemplate } from './inputs.js'
import { access, endpointNotFound, findProxy, parseVersion, raceChecked } from './rules.js'
import { applyEndpointUpdate, insertEndpoint } from './service.js'
import { touchVersion } from './versions.js'
import { enumOf } from '../../../platform/validation/common.js'

// The endpoints of an API proxy through the vendor pages 04-api-proxies/endpoints/* and through GraphQL: the same
// GatewayEndpoint rows and rules as spec §2.18's endpoints (insertEndpoint, applyEndpointUpdate). The pages of
// 2025-11-17 (management-api-docs commit b9d5441) name the endpoint in the body (name + httpMethod, or
// identifierName + identifierHttpMethod beside the settings); the pages before it named it by id in the path, which
// stays served; GraphQL names it by version + operationId. Every operation takes any of the three (EndpointTarget)
// and resolves it after the access check. A write here bumps the proxy's revision and redeploys the proxy (kind
// API_PROXY, whose config carries every unversioned endpoint with its status, cache and WS-Addressing settings)
// where it is deployed; the answer's deploymentResult says how that went (absent when deployed nowhere).

export type EndpointLocator = { id: string } | { version: string | null | undefined; operationId: string } | { name: string; httpMethod: string }
/** The call names its endpoint in its body (the pages of b9d5441): the operation reads the identifier from `raw`. */
export const IN_BODY = 'inBody' as const
export type EndpointTarget = EndpointLocator | typeof IN_BODY

export interface VendorEndpointWrite {
  endpoint: GatewayEndpoint
  deploymentResult: DeploymentOutcome | null
}

const description = z.string().max(1000, 'must be at most 1000 characters').nullish()
const httpMethod = enumOf(ENDPOINT_METHODS)

/** The page's body: `name` is the client path, `backendResourceUrl` the backend path (a path: absolute URLs route through the proxy's addresses). */
export const vendorEndpointCreateInput = z.object({
  name: pathTemplate,
  description,
  httpMethod,
  backendResourceUrl: pathTemplate,
  backendHttpMethod: httpMethod,
  active: z.boolean().nullish(),
})
/** PATCH …/endpoints/{id}/ (pages before b9d5441): every field optional, name and httpMethod included (they move the endpoint). */
export const vendorEndpointUpdateInput = vendorEndpointCreateInput.partial()

// ----- the endpoint named in the body (pages of b9d5441) ---------------------------------------------------------

/** The page's message for a body without its identifier (missing, null or blank). */
export const IDENTIFIER_MISSING = 'Endpoint identifier (name and httpMethod) must be provided in request body!'
/** An endpoint's name as the pages send it: its path (`/api/users`), or a SOAP operation name (`getUser`, read as `/getUser`). */
const identifierName = z.string().trim().min(1, 'must not be blank').max(1000, 'must be at most 1000 characters')
const byName = { name: identifierName, httpMethod }
const byIdentifier = { identifierName, identifierHttpMethod: httpMethod }

/** POST …/endpoints/details/, …/policies/, …/delete/. */
export const endpointIdentifierInput = z.object(byName)
// The body-identified writes also take the newest pages' `deploy` and `deployTargetEnvironmentNameList` (as the
// settings pages do): with deploy true the proxy is pushed to those environments (where it is deployed when empty).
/** PATCH …/endpoints/: name + httpMethod identify the endpoint (they do not change); the other fields given change. */
export const vendorEndpointUpdateByNameInput = vendorEndpointUpdateInput.omit({ name: true, httpMethod: true }).extend({ ...byName, ...DEPLOY_FIELDS })
/** PATCH …/endpoints/status/. */
export const endpointStatusByNameInput = endpointStatusInput.extend({ ...byIdentifier, ...DEPLOY_FIELDS })
/** PATCH …/endpoints/cache/: the settings in `cacheSettings` (the proxy-level cache page's body). */
export const endpointCacheByNameInput = z.strictObject({ ...byIdentifier, cacheSettings: cacheInput, ...DEPLOY_FIELDS })
/** PATCH …/endpoints/wsa/: the settings in `wsaSettings`. */
export const endpointWsaByNameInput = z.strictObject({ ...byIdentifier, wsaSettings: wsaInput, ...DEPLOY_FIELDS })

const NAME_KEYS = ['name', 'httpMethod'] as const
const IDENTIFIER_KEYS = ['identifierName', 'identifierHttpMethod'] as const

const absent = (fields: Record<string, unknown>, key: string) => fields[key] === undefined || fields[key] === null || (typeof fields[key] === 'string' && !fields[key].trim())

/**
 * A body-identified call: the identifier present (else the page's message), the settings object present (`object`:
 * cacheSettings, wsaSettings), then the body's one schema.
 */
function fromBody<S extends z.ZodType>(schema: S, keys: readonly [string, string], raw: unknown, object?: string): { locator: EndpointLocator; body: z.output<S> } {
  const fields = (raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>
  const missing = keys.find((k) => absent(fields, k))
  if (missing) throw malformed(IDENTIFIER_MISSING, { field: missing })
  if (object && absent(fields, object)) throw malformed(`${object}: is required`, { field: object })
  const body = parseInput(schema, fields)
  const named = body as Record<string, string>
  return { locator: { name: named[keys[0]]!, httpMethod: named[keys[1]]! }, body }
}

/** The target's locator and the operation's input: from the body (IN_BODY, `byName` schema) or from `raw` as it is (`flat`). */
function readCall<F extends z.ZodType, B extends z.ZodType>(
  target: EndpointTarget, raw: unknown, flat: F, named: B, keys: readonly [string, string], pick: (body: z.output<B>) => z.output<F>, object?: string,
) {
  if (target !== IN_BODY) return { locator: target, input: parseInput(flat, raw ?? {}) as z.output<F> }
  const { locator, body } = fromBody(named, keys, raw, object)
  const { fields, request } = splitDeploy(body)
  return { locator, input: pick(fields as z.output<B>), request }
}

/** The page's endpoint object, plus the spec's version and operationId. */
export function vendorEndpointView(e: GatewayEndpoint) {
  return {
    id: e.id, endpoint: e.path, description: e.description, active: e.enabled, httpMethod: e.method, backendResourceUrl: e.backendPath ?? e.path,
    backendHttpMethod: e.backendMethod ?? e.method, version: e.version, operationId: e.operationId,
  }
}

const notFoundById = (id: string) => new DomainError('notFound', 'endpointNotFound', `Endpoint with ID (${id}) was not found!`, { endpointId: id })
const notFoundByName = (name: string, method: string) =>
  new DomainError('notFound', 'endpointNotFound', `Endpoint with name (${name}) and HTTP method (${method}) is not found!`, { name, httpMethod: method })

/** A page's name as a stored path: a leading '/' added (SOAP operation names), a trailing one dropped. */
const asPath = (name: string) => {
  const path = name.startsWith('/') ? name : `/${name}`
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path
}

/**
 * name + httpMethod: the endpoint of that method whose path template matches the name (variable names aside, as
 * uniqueness counts them). The unversioned one when there is one, else the only version holding it; several
 * versions and no unversioned one cannot be told apart by the page's identifier.
 */
async function locateByName(db: Tx, proxy: ApiProxy, name: string, method: string): Promise<GatewayEndpoint> {
  const rows = await db.gatewayEndpoint.findMany({ where: { apiProxyId: proxy.id, pathKey: pathKeyOf(asPath(name)), method }, orderBy: { version: 'asc' } })
  const [first] = rows
  if (!first) throw notFoundByName(name, method)
  if (first.version === '' || rows.length === 1) return first
  const versions = rows.map((r) => r.version)
  throw malformed(`Endpoint with name (${name}) and HTTP method (${method}) exists in the path versions ${versions.join(', ')} of API proxy '${proxy.name}'; address it by id`, { field: 'name', versions })
}

async function locate(db: Tx, proxy: ApiProxy, locator: EndpointLocator): Promise<GatewayEndpoint> {
  if ('name' in locator) return locateByName(db, proxy, locator.name, locator.httpMethod)
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

/**
 * Runs one write: the access check, the proxy, then `read` (the body: identifier and fields, so a caller without
 * access learns nothing of the body rules), then `change` in a transaction that bumps the proxy's revision, then
 * the redeploy where the proxy runs.
 */
async function write<I>(
  deps: Deps, actor: Actor, projectName: string, proxyName: string, read: () => I, change: (tx: Tx, proxy: ApiProxy, input: I) => Promise<GatewayEndpoint>,
): Promise<VendorEndpointWrite> {
  const projectAccess = await access(deps.prisma, actor, projectName, 'MANAGE')
  const name = pathName(proxyName, 'apiProxyName')
  await findProxy(deps.prisma, projectAccess.project.id, name)
  const input = read()
  const request = input !== null && typeof input === 'object' && 'request' in input ? (input.request as DeployRequest | undefined) : undefined
  // the environments a `deploy: true` names are checked before anything is written
  const named = request?.deploy && request.environmentNames.length ? await environmentsNamed(deps.prisma, projectAccess, request.environmentNames) : null
  const { proxy, endpoint } = await raceChecked(deps.prisma.$transaction(async (tx) => {
    const found = await findProxy(tx, projectAccess.project.id, name)
    const endpoint = await change(tx, found, input)
    const proxy = await tx.apiProxy.update({ where: { id: found.id }, data: { revision: { increment: 1 } } })
    return { proxy, endpoint }
  }))
  const environments = await deployedEnvironments(deps.prisma, projectAccess, proxy.id)
  if (request?.deploy) return { endpoint, deploymentResult: await requestedDeployment(deps, projectAccess, proxy, true, named ?? environments) }
  return { endpoint, deploymentResult: environments.length ? await pushProxy(deps, projectAccess.project.name, proxy, environments) : null }
}

/** POST …/endpoints/: a new unversioned REST endpoint. */
export function createVendorEndpoint(deps: Deps, actor: Actor, projectName: string, proxyName: string, raw: unknown) {
  return write(deps, actor, projectName, proxyName, () => parseInput(vendorEndpointCreateInput, raw ?? {}), (tx, proxy, input) => {
    restOnly(proxy, 'added to')
    return insertEndpoint(tx, proxy, '', {
      method: input.httpMethod, path: input.name, description: input.description ?? null, backendPath: input.backendResourceUrl, backendMethod: input.backendHttpMethod,
      enabled: input.active ?? true, parameters: [], responses: [], consumes: [], produces: [], rewriteRules: [], policies: [],
    })
  })
}

/** PATCH …/endpoints/ (named in the body) and …/endpoints/{id}/: only the fields given change. */
export function updateVendorEndpoint(deps: Deps, actor: Actor, projectName: string, proxyName: string, target: EndpointTarget, raw: unknown) {
  const read = () => {
    const { locator, input, request } = readCall(target, raw, vendorEndpointUpdateInput, vendorEndpointUpdateByNameInput, NAME_KEYS, ({ name: _n, httpMethod: _m, ...changes }) => changes)
    const changes = Object.fromEntries(Object.entries({
      path: input.name, description: input.description, method: input.httpMethod, backendPath: input.backendResourceUrl, backendMethod: input.backendHttpMethod, enabled: input.active,
    }).filter(([, v]) => v !== undefined))
    if (!Object.keys(changes).length) {
      throw malformed(target === IN_BODY ? 'Nothing to update: the body names no field besides the identifier (name, httpMethod)' : 'Nothing to update: the body names no field', { field: 'body' })
    }
    return { locator, changes, newPath: input.name, request }
  }
  return write(deps, actor, projectName, proxyName, read, async (tx, proxy, { locator, changes, newPath }) => applyEndpointUpdate(tx, proxy, await locate(tx, proxy, locator), changes, newPath))
}

/** POST …/endpoints/delete/ (named in the body) and DELETE …/endpoints/{id}/: the endpoint and its policies. */
export function deleteVendorEndpoint(deps: Deps, actor: Actor, projectName: string, proxyName: string, target: EndpointTarget, raw?: unknown) {
  const read = () => (target === IN_BODY ? fromBody(endpointIdentifierInput, NAME_KEYS, raw).locator : target)
  return write(deps, actor, projectName, proxyName, read, async (tx, proxy, locator) => {
    restOnly(proxy, 'deleted from')
    const row = await locate(tx, proxy, locator)
    await tx.gatewayEndpoint.delete({ where: { id: row.id } })
    const left = await tx.gatewayEndpoint.count({ where: { apiProxyId: proxy.id, version: row.version } })
    if (left) await touchVersion(tx, proxy.id, row.version)
    else await tx.apiEndpointVersion.deleteMany({ where: { apiProxyId: proxy.id, version: row.version } })
    return row
  })
}

/** One setting of one endpoint: `read` gives the locator and the row's new data. */
const settingWrite = (deps: Deps, actor: Actor, projectName: string, proxyName: string, read: () => { locator: EndpointLocator; data: (row: GatewayEndpoint) => Prisma.GatewayEndpointUpdateInput; request?: DeployRequest }) =>
  write(deps, actor, projectName, proxyName, read, async (tx, proxy, { locator, data }) => {
    const row = await locate(tx, proxy, locator)
    const updated = await tx.gatewayEndpoint.update({ where: { id: row.id }, data: data(row) })
    await touchVersion(tx, proxy.id, row.version)
    return updated
  })

/** PATCH …/endpoints/status/ and …/{id}/status/: enables or disables the endpoint (a disabled endpoint answers 404 at the gateway). */
export function setVendorEndpointStatus(deps: Deps, actor: Actor, projectName: string, proxyName: string, target: EndpointTarget, raw: unknown) {
  return settingWrite(deps, actor, projectName, proxyName, () => {
    const { locator, input, request } = readCall(target, raw, endpointStatusInput, endpointStatusByNameInput, IDENTIFIER_KEYS, ({ active }) => ({ active }))
    return { locator, data: () => ({ enabled: input.active }), request }
  })
}

/** PATCH …/endpoints/cache/ and …/{id}/cache/: the endpoint's own cache settings (they override the proxy's). */
export function setVendorEndpointCache(deps: Deps, actor: Actor, projectName: string, proxyName: string, target: EndpointTarget, raw: unknown) {
  return settingWrite(deps, actor, projectName, proxyName, () => {
    const { locator, input, request } = readCall(target, raw, cacheInput, endpointCacheByNameInput, IDENTIFIER_KEYS, (b) => b.cacheSettings, 'cacheSettings')
    return { locator, data: () => ({ cache: input as unknown as Prisma.InputJsonValue }), request }
  })
}

/** PATCH …/endpoints/wsa/ and …/{id}/wsa/: WS-Addressing of a SOAP endpoint. */
export function setVendorEndpointWsa(deps: Deps, actor: Actor, projectName: string, proxyName: string, target: EndpointTarget, raw: unknown) {
  return settingWrite(deps, actor, projectName, proxyName, () => {
    const { locator, input, request } = readCall(target, raw, wsaInput, endpointWsaByNameInput, IDENTIFIER_KEYS, (b) => b.wsaSettings, 'wsaSettings')
    return { locator, data: (row) => endpointSettingsData({ wsa: input }, row.kind), request }
  })
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

/**
 * One endpoint: POST …/endpoints/details/ and GET …/endpoints/{id}/ (policies: false); POST …/endpoints/policies/
 * and GET …/endpoints/{id}/policies/ (policies: true).
 */
export async function getVendorEndpoint(db: Tx, actor: Actor, projectName: string, proxyName: string, target: EndpointTarget, withPolicies: boolean, raw?: unknown) {
  const proxy = await readTarget(db, actor, projectName, proxyName)
  const row = await locate(db, proxy, target === IN_BODY ? fromBody(endpointIdentifierInput, NAME_KEYS, raw).locator : target)
  const view = { ...vendorEndpointView(row), cacheSettings: row.cache ?? null, wsaSettings: row.wsa ?? null }
  if (!withPolicies) return view
  const policies = await db.apiProxyPolicy.findMany({ where: { endpointId: row.id }, orderBy: [{ pipeline: 'asc' }, { position: 'asc' }] })
  const of = (pipeline: string) => policies.filter((p) => p.pipeline === pipeline).map((p) => ({ type: p.type, name: p.name, description: p.description, active: p.active }))
  return { ...view, requestPolicyList: of('REQUEST'), responsePolicyList: of('RESPONSE'), errorPolicyList: of('ERROR') }
}

