import type { ApiProxy, GatewayEndpoint, Prisma } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Tx } from '../../../platform/context.js'
import { DomainError, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { authorizeInProject } from '../../../platform/scope/project-scope.js'
import { kindWithArticle } from '../shared/kinds.js'
import { fullPathOf, KINDS_BY_PROXY, pathKeyOf, TARGET_PROTOCOLS, templateVariables, versionField, type EndpointValues } from './inputs.js'

// The rules of a gateway endpoint that need the proxy or the database: kinds, path parameters, uniqueness in a
// version, and the stored and read forms. The operations are in service.ts, versions.ts and vendor.ts.

type EndpointFields = Omit<EndpointValues, 'version'>

export const access = (db: Tx, actor: Actor, projectName: string, level: 'VIEW' | 'MANAGE') => authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', level)
export const problem = (field: string, message: string) => malformed(`${field}: ${message}`, { field })
export const versionLabel = (version: string) => (version ? `version '${version}'` : 'the unversioned endpoints')

export function parseVersion(raw: string | null | undefined): string {
  const parsed = versionField.safeParse(raw ?? '')
  if (!parsed.success) throw problem('version', parsed.error.issues[0]?.message ?? 'is invalid')
  return parsed.data
}

export async function findProxy(db: Tx, projectId: string, name: string): Promise<ApiProxy> {
  const proxy = await db.apiProxy.findUnique({ where: { projectId_name: { projectId, name } } })
  if (!proxy) throw notFound(`API proxy '${name}' not found`, { apiProxy: name })
  return proxy
}

export function endpointProxy(proxy: ApiProxy): readonly string[] {
  const kinds = KINDS_BY_PROXY[proxy.kind]
  if (!kinds) throw malformed(`API proxy '${proxy.name}' is ${kindWithArticle(proxy.kind)} proxy; gateway endpoints belong to REST, SOAP, GRPC and WEBSOCKET proxies`, { apiProxy: proxy.name, kind: proxy.kind })
  return kinds
}

export const endpointNotFound = (proxy: string, version: string, operationId: string) =>
  notFound(`Endpoint '${operationId}' not found in ${versionLabel(version)} of API proxy '${proxy}'`, { apiProxy: proxy, version, operationId })

const generatedOperationId = (method: string, path: string) =>
  `${method.toLowerCase()}_${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'root'}`.slice(0, 128)

/** Rules across fields: kind against the proxy and method, parameters against the path template, routing schemes. */
export function normalize(values: EndpointFields, proxy: ApiProxy): Omit<EndpointFields, 'kind'> & { kind: string; operationId: string; backendPath: string; backendMethod: string } {
  const allowed = endpointProxy(proxy)
  const kind = values.kind ?? proxy.kind
  if (!allowed.includes(kind)) throw problem('kind', `${kindWithArticle(proxy.kind)} proxy carries ${allowed.join(' or ')} endpoints, not ${kind}`)
  const backendMethod = values.backendMethod ?? values.method
  if (kind === 'SOAP' && values.method !== 'POST') throw problem('method', 'SOAP endpoints use POST')
  if (kind === 'GRPC' && values.method !== 'POST') throw problem('method', 'gRPC endpoints use POST')
  if (kind === 'WEBSOCKET' && values.method !== 'GET') throw problem('method', 'WebSocket endpoints open with GET')
  if (kind === 'GRPC' && !/^\/[A-Za-z_][A-Za-z0-9_.]*\/[A-Za-z_][A-Za-z0-9_]*$/.test(values.path)) throw problem('path', 'a gRPC endpoint path is /<package.Service>/<Method>')
  if (values.method === 'ALL' && kind !== 'REST') throw problem('method', 'ALL is for REST endpoints only')
  if (backendMethod === 'ALL' && values.method !== 'ALL') throw problem('backendMethod', 'ALL forwards the client method and needs method ALL')
  if (kind !== 'REST' && backendMethod !== values.method) throw problem('backendMethod', `${kind} endpoints call the backend with the client method (${values.method})`)

  const vars = templateVariables(values.path)
  const seen = new Set<string>()
  const parameters = values.parameters.map((p, i) => {
    const key = `${p.in}:${p.in === 'HEADER' ? p.name.toLowerCase() : p.name}`
    if (seen.has(key)) throw problem(`parameters[${i}].name`, `${p.in} parameter '${p.name}' is declared twice`)
    seen.add(key)
    if (p.in === 'PATH' && !vars.includes(p.name)) throw problem(`parameters[${i}].name`, `path parameter '${p.name}' does not appear in the path template ${values.path}`)
    return p.in === 'PATH' ? { ...p, required: true } : p
  })
  for (const v of vars) if (!seen.has(`PATH:${v}`)) parameters.push({ name: v, in: 'PATH', required: true, schema: { type: 'string' } })

  const backendPath = values.backendPath ?? values.path
  const missing = templateVariables(backendPath).find((v) => !vars.includes(v))
  if (missing) throw problem('backendPath', `template variable '{${missing}}' is not in the client path ${values.path}`)

  const statuses = new Set<string>()
  values.responses.forEach((r, i) => {
    if (statuses.has(r.statusCode)) throw problem(`responses[${i}].statusCode`, `status ${r.statusCode} is described twice`)
    statuses.add(r.statusCode)
  })
  const policyNames = new Set<string>()
  values.policies.forEach((p, i) => {
    if (policyNames.has(p.name.toLowerCase())) throw problem(`policies[${i}].name`, `policy '${p.name}' is attached twice`)
    policyNames.add(p.name.toLowerCase())
  })
  if (values.routing) {
    const protocols = TARGET_PROTOCOLS[kind]!
    const urls = new Set<string>()
    values.routing.targets.forEach((t, i) => {
      if (!protocols.includes(new URL(t.url).protocol)) throw problem(`routing.targets[${i}].url`, `${kind} targets use ${protocols.map((p) => p.replace(':', '')).join(', ')}`)
      if (urls.has(t.url)) throw problem(`routing.targets[${i}].url`, `${t.url} is listed twice`)
      urls.add(t.url)
    })
    if (!values.routing.targets.some((t) => t.enabled && t.role === 'PRIMARY')) throw problem('routing.targets', 'at least one enabled PRIMARY target is needed')
  }
  return { ...values, kind, parameters, backendPath, backendMethod, operationId: values.operationId ?? generatedOperationId(values.method, values.path) }
}

/** Refuses a method + path that another endpoint of the version already serves (ALL overlaps every method), and a taken operation id. */
export async function checkUnique(db: Tx, proxyId: string, version: string, e: { method: string; path: string; operationId: string }, selfId?: string) {
  const pathKey = pathKeyOf(e.path)
  const clash = await db.gatewayEndpoint.findFirst({
    where: { apiProxyId: proxyId, version, pathKey, ...(selfId ? { id: { not: selfId } } : {}), ...(e.method === 'ALL' ? {} : { method: { in: [e.method, 'ALL'] } }) },
  })
  if (clash) {
    throw new DomainError('conflict', 'endpointAlreadyExists', `${e.method} ${fullPathOf(version, e.path)} collides with endpoint '${clash.operationId}' (${clash.method} ${fullPathOf(version, clash.path)})`, {
      field: 'path', method: e.method, path: e.path, version, conflictsWith: clash.operationId,
    })
  }
  const taken = await db.gatewayEndpoint.findFirst({ where: { apiProxyId: proxyId, version, operationId: e.operationId, ...(selfId ? { id: { not: selfId } } : {}) } })
  if (taken) {
    throw new DomainError('conflict', 'operationIdAlreadyExists', `operationId '${e.operationId}' is already used by ${taken.method} ${fullPathOf(version, taken.path)} in ${versionLabel(version)}`, {
      field: 'operationId', operationId: e.operationId, version,
    })
  }
}

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === 'P2002'

/** A concurrent write took the method + path or operation id between our check and our insert (unique index). */
export async function raceChecked<T>(write: Promise<T>): Promise<T> {
  try {
    return await write
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
    throw new DomainError('conflict', 'endpointAlreadyExists', 'Another request just stored an endpoint with the same method + path or operationId in this version; read the endpoints and retry', { field: 'path' })
  }
}

export const json = (v: unknown) => (v === null || v === undefined ? undefined : (v as Prisma.InputJsonValue))

export function rowData(e: ReturnType<typeof normalize>) {
  return {
    method: e.method, path: e.path, pathKey: pathKeyOf(e.path), operationId: e.operationId, description: e.description ?? null, kind: e.kind,
    parameters: e.parameters as Prisma.InputJsonValue, requestBody: json(e.requestBody), responses: e.responses as Prisma.InputJsonValue,
    consumes: e.consumes, produces: e.produces, backendPath: e.backendPath, backendMethod: e.backendMethod,
    rewriteRules: e.rewriteRules as Prisma.InputJsonValue, policies: e.policies as Prisma.InputJsonValue, routing: json(e.routing), enabled: e.enabled,
  }
}

/** The stored endpoint as an input document (for update merges). */
export function storedFields(row: GatewayEndpoint): Record<string, unknown> {
  return {
    method: row.method, path: row.path, operationId: row.operationId, description: row.description, kind: row.kind, parameters: row.parameters,
    requestBody: row.requestBody, responses: row.responses, consumes: row.consumes, produces: row.produces, backendPath: row.backendPath,
    backendMethod: row.backendMethod, rewriteRules: row.rewriteRules, policies: row.policies, routing: row.routing, enabled: row.enabled,
  }
}

export function endpointView(proxyName: string, e: GatewayEndpoint) {
  return { ...storedFields(e), cache: e.cache ?? null, wsa: e.wsa ?? null, apiProxyName: proxyName, version: e.version, fullPath: fullPathOf(e.version, e.path), createdAt: e.createdAt, updatedAt: e.updatedAt }
}
export type EndpointView = ReturnType<typeof endpointView>
