import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { containsText, findPage, orderByFor, parsePaging, type PagingQuery } from '../../../platform/envelopes/paging.js'
import { malformed } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import type { ApiProxy, GatewayEndpoint } from '../../../generated/prisma/client.js'
import { endpointCreateInput, endpointUpdateInput, templateVariables, type EndpointValues } from './inputs.js'
import {
  access, checkUnique, endpointNotFound, endpointView, findProxy, normalize, parseVersion, raceChecked, rowData, storedFields, type EndpointView,
} from './rules.js'
import { pushVersion, touchVersion, type VersionDeployment } from './versions.js'

// Gateway endpoints under API proxies (spec §2.18), addressed by (proxy, version, operationId). Every write saves
// in one transaction, then pushes the endpoint's whole version (versions.ts).

export interface EndpointWrite {
  endpoint: EndpointView
  deploymentResult: DeploymentOutcome
}

export async function createGatewayEndpoint(deps: Deps, actor: Actor, projectName: string, proxyName: string, raw: unknown): Promise<EndpointWrite> {
  const { project } = await access(deps.prisma, actor, projectName, 'MANAGE')
  const input = parseInput(endpointCreateInput, raw ?? {})
  const { version, ...fields } = input
  const { proxy, row } = await raceChecked(deps.prisma.$transaction(async (tx) => {
    const proxy = await findProxy(tx, project.id, proxyName)
    return { proxy, row: await insertEndpoint(tx, proxy, version, fields) }
  }))
  return { endpoint: endpointView(proxy.name, row), deploymentResult: await pushVersion(deps, project.name, proxy, version) }
}

/** Partial update: absent fields keep their stored values; lists given replace the stored ones. */
export async function updateGatewayEndpoint(
  deps: Deps, actor: Actor, projectName: string, proxyName: string, versionRaw: string | null | undefined, operationId: string, raw: unknown,
): Promise<EndpointWrite> {
  const { project } = await access(deps.prisma, actor, projectName, 'MANAGE')
  const version = parseVersion(versionRaw)
  const provided = parseInput(endpointUpdateInput, raw ?? {})
  // the keys the caller sent (zod may fill defaults into the parsed partial, so the raw keys decide what changes)
  const given = new Set(Object.keys((raw ?? {}) as object))
  if (!given.size) throw malformed('Nothing to update: the body names no field', { reason: 'bodyRequired' })
  const { proxy, row } = await raceChecked(deps.prisma.$transaction(async (tx) => {
    const proxy = await findProxy(tx, project.id, proxyName)
    const current = await tx.gatewayEndpoint.findUnique({ where: { apiProxyId_version_operationId: { apiProxyId: proxy.id, version, operationId } } })
    if (!current) throw endpointNotFound(proxy.name, version, operationId)
    return { proxy, row: await applyEndpointUpdate(tx, proxy, current, raw as Record<string, unknown>, provided.path) }
  }))
  return { endpoint: endpointView(proxy.name, row), deploymentResult: await pushVersion(deps, project.name, proxy, version) }
}

/** Inserts one endpoint after the rules (kind, parameters, uniqueness in its version) and bumps the version. */
export async function insertEndpoint(tx: Tx, proxy: ApiProxy, version: string, fields: Omit<EndpointValues, 'version'>): Promise<GatewayEndpoint> {
  const values = normalize(fields, proxy)
  await checkUnique(tx, proxy.id, version, values)
  const row = await tx.gatewayEndpoint.create({ data: { apiProxyId: proxy.id, version, ...rowData(values) } })
  await touchVersion(tx, proxy.id, version)
  return row
}

/** Merges the given fields (`raw`, already validated as a partial) into a stored endpoint, re-checks the rules and saves. */
export async function applyEndpointUpdate(tx: Tx, proxy: ApiProxy, current: GatewayEndpoint, raw: Record<string, unknown>, newPath?: string): Promise<GatewayEndpoint> {
  const given = new Set(Object.keys(raw))
  const merged = { ...storedFields(current), ...raw }
  // a changed path re-derives the backend path unless the caller set one, so the two do not drift apart
  if (given.has('path') && !given.has('backendPath') && current.backendPath === current.path) delete merged.backendPath
  if (given.has('method') && !given.has('backendMethod') && current.backendMethod === current.method) delete merged.backendMethod
  // path parameters follow a changed path template unless the caller sent the parameters
  if (given.has('path') && !given.has('parameters')) {
    const vars = templateVariables(newPath ?? String(raw.path))
    merged.parameters = (current.parameters as { in: string; name: string }[]).filter((p) => p.in !== 'PATH' || vars.includes(p.name))
  }
  const values = normalize(parseInput(endpointCreateInput.omit({ version: true }), withoutNulls(merged)), proxy)
  await checkUnique(tx, proxy.id, current.version, values, current.id)
  const row = await tx.gatewayEndpoint.update({ where: { id: current.id }, data: rowData(values) })
  await touchVersion(tx, proxy.id, current.version)
  return row
}

const withoutNulls = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined))

/** Deletes one endpoint and redeploys its version (the last endpoint of a version undeploys it). */
export async function deleteGatewayEndpoint(deps: Deps, actor: Actor, projectName: string, proxyName: string, versionRaw: string | null | undefined, operationId: string): Promise<VersionDeployment> {
  const { project } = await access(deps.prisma, actor, projectName, 'MANAGE')
  const version = parseVersion(versionRaw)
  const proxy = await deps.prisma.$transaction(async (tx) => {
    const proxy = await findProxy(tx, project.id, proxyName)
    const removed = await tx.gatewayEndpoint.deleteMany({ where: { apiProxyId: proxy.id, version, operationId } })
    if (!removed.count) throw endpointNotFound(proxy.name, version, operationId)
    await touchVersion(tx, proxy.id, version)
    return proxy
  })
  return { version, deploymentResult: await pushVersion(deps, project.name, proxy, version) }
}

export async function getGatewayEndpoint(db: Tx, actor: Actor, projectName: string, proxyName: string, versionRaw: string | null | undefined, operationId: string): Promise<EndpointView> {
  const { project } = await access(db, actor, projectName, 'VIEW')
  const version = parseVersion(versionRaw)
  const proxy = await findProxy(db, project.id, proxyName)
  const row = await db.gatewayEndpoint.findUnique({ where: { apiProxyId_version_operationId: { apiProxyId: proxy.id, version, operationId } } })
  if (!row) throw endpointNotFound(proxy.name, version, operationId)
  return endpointView(proxy.name, row)
}

export const ENDPOINT_SORT = { defaultSort: 'path,asc', supported: ['path', 'method', 'operationId', 'version', 'createdAt'] } as const

/** The endpoints of a proxy, of one version when `version` is given (null: every version), optionally matching `search`. */
export async function pageGatewayEndpoints(
  db: Tx, actor: Actor, projectName: string, proxyName: string, versionRaw: string | null | undefined, query: PagingQuery, search?: string | null,
) {
  const { project } = await access(db, actor, projectName, 'VIEW')
  const proxy = await findProxy(db, project.id, proxyName)
  const page = parsePaging(query, ENDPOINT_SORT)
  const text = search?.trim()
  const where = {
    apiProxyId: proxy.id,
    ...(versionRaw === null || versionRaw === undefined ? {} : { version: parseVersion(versionRaw) }),
    ...(text ? { OR: [{ path: containsText(text) }, { operationId: containsText(text) }, { description: containsText(text) }] } : {}),
  }
  const result = await findPage(
    page,
    db.gatewayEndpoint.findMany({ where, orderBy: orderByFor(page, 'id'), skip: page.skip, take: page.take }),
    db.gatewayEndpoint.count({ where }),
  )
  return { ...result, items: result.items.map((e) => endpointView(proxy.name, e)) }
}

