import type { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { requireAnyPermission, type PermissionLevel, type ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../platform/context.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { DomainError, malformed, notFound } from '../../platform/errors/domain-error.js'
import { resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { containsText, NAME_SORT, parsePaging, parseSearch, toPage, type SearchQuery } from '../../platform/envelopes/paging.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'
import { bodyObject, ownFields, parseCommon, parseTyped, typeOfBody } from './body.js'
import { CONNECTION_CATEGORIES, CONNECTION_KIND, notPushed, pushConnection } from './push.js'
import { KEPT_SECRET } from './types/common.js'
import { connectionTypeOf, CONNECTION_TYPES, TYPE_DEFS, type ConnectionType } from './types/index.js'
import { connectionView, deployConfig, sealedOf, type ConnectionView, type StoredConnection } from './views.js'
import { webhookData } from './webhook-door.js'

export interface ConnectionWrite { connection: ConnectionView; deploymentResult: DeploymentOutcome }

const keyOf = (name: string) => name.trim().toLowerCase()
export const connectionNotFound = (name: string) => notFound(`Connection (name: ${name}) was not found!`, { connection: name })
const nameTaken = (name: string) => new DomainError('conflict', 'nameAlreadyExists', `Connection (name: ${name}) already exists!`, { field: 'name' })

export async function connectionAccess(db: Tx, actor: Actor, projectName: string, level: PermissionLevel): Promise<ProjectAccess> {
  const access = await resolveProjectAccess(db, actor, projectName)
  requireAnyPermission(access, CONNECTION_CATEGORIES, level)
  return access
}

/** The project's connection of that name (case-insensitive), in whichever store holds its type. */
export async function findConnection(db: Tx, projectId: string, rawName: string): Promise<StoredConnection | null> {
  const name = rawName.trim()
  if (!name) throw malformed('Connection name can not be empty!', { field: 'connectionName' })
  const row = await db.connection.findUnique({ where: { projectId_nameKey: { projectId, nameKey: keyOf(name) } } })
  if (row) return { type: row.type as Exclude<ConnectionType, 'webhook'>, row }
  const webhook = await db.webhookConnection.findFirst({ where: { projectId, name: { equals: name, mode: 'insensitive' } } })
  return webhook ? { type: 'webhook', row: webhook } : null
}

async function requireConnection(db: Tx, projectId: string, name: string): Promise<StoredConnection> {
  const found = await findConnection(db, projectId, name)
  if (!found) throw connectionNotFound(name.trim())
  return found
}

/** Names are unique per project across types; a webhook's name also across the installation (its own rule). */
async function checkNameFree(db: Tx, projectId: string, type: ConnectionType, name: string, except: StoredConnection | null) {
  const clash = await findConnection(db, projectId, name)
  if (clash && clash.row.id !== except?.row.id) throw nameTaken(name)
  if (type === 'webhook') {
    const global = await db.webhookConnection.findUnique({ where: { name } })
    if (global && global.id !== except?.row.id) throw nameTaken(name)
  }
}

/** Sealed secrets after a write: new values sealed, KEPT_SECRET keeps the stored cipher, null drops it. */
function sealSecrets(keyring: SecretKeyring, secrets: Record<string, string | null>, stored: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [field, value] of Object.entries(secrets)) {
    if (value === KEPT_SECRET) out[field] = stored[field]!
    else if (value !== null) out[field] = keyring.encrypt(value)
  }
  return out
}

const toJson = (v: unknown) => v as Prisma.InputJsonValue

/** Writes a validated body as a new connection (current null) or over `current`; returns the stored connection. */
async function write(tx: Tx, deps: Deps, access: ProjectAccess, type: ConnectionType, body: Record<string, unknown>, current: StoredConnection | null): Promise<StoredConnection> {
  const common = parseCommon(body)
  await checkNameFree(tx, access.project.id, type, common.name, current)
  const projectId = access.project.id
  if (type === 'webhook') {
    const data = await webhookData(tx, access, common, ownFields(body), current?.type === 'webhook' ? current.row : null)
    const row = current ? await tx.webhookConnection.update({ where: { id: current.row.id }, data: { ...data, revision: { increment: 1 } } }) : await tx.webhookConnection.create({ data })
    return { type, row }
  }
  const def = TYPE_DEFS[type]
  const stored = current?.type === type ? sealedOf(current.row) : {}
  const typed = parseTyped(def, ownFields(body), new Set(Object.keys(stored)))
  const data = {
    type,
    name: common.name,
    nameKey: keyOf(common.name),
    description: common.description,
    enabled: common.enabled,
    deployToWorker: common.deployToWorker,
    config: toJson(typed.config),
    secrets: toJson(sealSecrets(deps.keyring, typed.secrets, stored)),
  }
  const row = current ? await tx.connection.update({ where: { id: current.row.id }, data: { ...data, revision: { increment: 1 } } }) : await tx.connection.create({ data: { ...data, projectId } })
  return { type, row }
}

/** A concurrent create or rename hitting the unique index is the same answer as the check before it. */
async function uniqueName<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') throw nameTaken(name)
    throw err
  }
}

const deployMessage = (keyring: SecretKeyring, c: StoredConnection) => ({ action: 'DEPLOY' as const, kind: CONNECTION_KIND, name: c.row.name, revision: c.row.revision, config: deployConfig(keyring, c) })
const undeployMessage = (c: StoredConnection, revision: number) => ({ action: 'UNDEPLOY' as const, kind: CONNECTION_KIND, name: c.row.name, revision, config: { type: c.type, name: c.row.name } })

function pathMatches(pathName: string, bodyName: unknown) {
  if (typeof bodyName === 'string' && keyOf(bodyName) !== keyOf(pathName)) {
    throw malformed(`Connection name in path (${pathName}) does not match name in body (${bodyName})!`, { field: 'name' })
  }
}

export async function createConnection(deps: Deps, actor: Actor, projectName: string, pathName: string, raw: unknown): Promise<ConnectionWrite> {
  const access = await connectionAccess(deps.prisma, actor, projectName, 'MANAGE')
  const body = bodyObject(raw)
  const type = typeOfBody(body)
  if (body.name === undefined || body.name === null) throw malformed('name: is required (the connection name, matching the path)', { field: 'name' })
  pathMatches(pathName, body.name)
  const created = await uniqueName(String(body.name), () => deps.prisma.$transaction((tx) => write(tx, deps, access, type, body, null)))
  const deploymentResult = created.row.deployToWorker ? await pushConnection(deps, access, [deployMessage(deps.keyring, created)]) : notPushed()
  return { connection: connectionView(created), deploymentResult }
}

/**
 * Applies the body over the stored connection: absent fields keep their value (secrets too: reads never show
 * them), null clears an optional one. The type cannot change; a different body name renames.
 */
export async function updateConnection(deps: Deps, actor: Actor, projectName: string, pathName: string, raw: unknown): Promise<ConnectionWrite> {
  const access = await connectionAccess(deps.prisma, actor, projectName, 'MANAGE')
  const body = bodyObject(raw)
  const { before, after } = await uniqueName(String(body.name ?? pathName), () =>
    deps.prisma.$transaction(async (tx) => {
      const current = await requireConnection(tx, access.project.id, pathName)
      const type = typeOfBody(body, current.type)
      if (type !== current.type) throw malformed(`type: cannot change from ${current.type} to ${type}; delete the connection and create it again`, { field: 'type' })
      const view = connectionView(current)
      const merged: Record<string, unknown> = { ...view, ...body }
      if (current.type !== 'webhook') for (const s of TYPE_DEFS[current.type].secrets) delete merged[`${s}Set`]
      return { before: current, after: await write(tx, deps, access, type, merged, current) }
    }),
  )
  const renamed = before.row.name !== after.row.name
  const messages = [
    ...(renamed && before.row.deployToWorker ? [undeployMessage(before, after.row.revision)] : []),
    after.row.deployToWorker ? deployMessage(deps.keyring, after) : before.row.deployToWorker && !renamed ? undeployMessage(after, after.row.revision) : null,
  ].filter((m) => m !== null)
  const deploymentResult = messages.length ? await pushConnection(deps, access, messages) : notPushed()
  return { connection: connectionView(after), deploymentResult }
}

export async function deleteConnection(deps: Deps, actor: Actor, projectName: string, name: string): Promise<DeploymentOutcome> {
  const access = await connectionAccess(deps.prisma, actor, projectName, 'MANAGE')
  const removed = await removeConnection(deps.prisma, access.project.id, name)
  return undeployRemovedConnection(deps, access, removed)
}

/** The delete itself, in `db` (this module's DELETE, or a declarative sync's transaction): the removed connection. */
export async function removeConnection(db: Tx, projectId: string, name: string): Promise<StoredConnection> {
  const found = await requireConnection(db, projectId, name)
  if (found.type === 'webhook') await db.webhookConnection.delete({ where: { id: found.row.id } })
  else await db.connection.delete({ where: { id: found.row.id } })
  return found
}

/** After the delete committed: undeploys a connection that was deployed to the workers. */
export const undeployRemovedConnection = (deps: Deps, access: ProjectAccess, found: StoredConnection): Promise<DeploymentOutcome> =>
  found.row.deployToWorker ? pushConnection(deps, access, [undeployMessage(found, found.row.revision + 1)]) : Promise.resolve(notPushed())

export async function getConnection(db: Tx, actor: Actor, projectName: string, name: string): Promise<ConnectionView> {
  const access = await connectionAccess(db, actor, projectName, 'VIEW')
  return connectionView(await requireConnection(db, access.project.id, name))
}

/** The project's connections by name, of one type when `type` is given (the page's `?type=`). */
/**
 * The project's connections, of one type. `typeRequired` is the list page's rule (06-connections/crud/list-connections
 * at 319c71d: "the `type` query parameter is required"): without a type the REST list is a 400; the GraphQL door may
 * list every type (the console's view).
 */
export async function listConnections(db: Tx, actor: Actor, projectName: string, rawType?: string | null, { typeRequired = false } = {}): Promise<ConnectionView[]> {
  const access = await connectionAccess(db, actor, projectName, 'VIEW')
  const type = typeFilter(rawType, typeRequired)
  const typed: StoredConnection[] = type === 'webhook' ? [] : (await db.connection.findMany({ where: { projectId: access.project.id, ...(type ? { type } : {}) } })).map((row) => ({ type: row.type as Exclude<ConnectionType, 'webhook'>, row }))
  const webhooks: StoredConnection[] = type && type !== 'webhook' ? [] : (await db.webhookConnection.findMany({ where: { projectId: access.project.id } })).map((row) => ({ type: 'webhook', row }))
  return [...typed, ...webhooks].sort((a, b) => keyOf(a.row.name).localeCompare(keyOf(b.row.name))).map(connectionView)
}

/** The `type` of a list: one connection type or none (every type). */
function typeFilter(rawType: unknown, typeRequired: boolean): ConnectionType | null {
  // a repeated ?type= reaches here as a list: one type per request
  if (rawType != null && typeof rawType !== 'string') throw malformed(`type: must be one connection type (one of ${CONNECTION_TYPES.join(', ')})`, { field: 'type' })
  if (typeRequired && (rawType == null || rawType.trim() === '')) {
    throw malformed(`type: you must specify the connection type (one of ${CONNECTION_TYPES.join(', ')})`, { field: 'type', reason: 'connectionTypeRequired' })
  }
  const type = rawType == null || rawType === '' ? null : connectionTypeOf(rawType)
  if (rawType && !type) throw malformed(`type: must be one of ${CONNECTION_TYPES.join(', ')}`, { field: 'type', value: rawType })
  return type
}

/**
 * One page of listConnections (same order: by name, both tables), those whose name contains the search when one
 * is given. The two tables' names are read and ordered first (a project holds tens of connections), then only the
 * page's rows.
 */
export async function pageConnections(db: Tx, actor: Actor, projectName: string, query: SearchQuery & { type?: string | null }) {
  const access = await connectionAccess(db, actor, projectName, 'VIEW')
  const type = typeFilter(query.type, false)
  const page = parsePaging(query, NAME_SORT)
  const search = parseSearch(query.search)
  const named = { projectId: access.project.id, ...(search ? { name: containsText(search) } : {}) }
  const select = { id: true, name: true } as const
  const [typedNames, webhookNames] = await Promise.all([
    type === 'webhook' ? [] : db.connection.findMany({ where: { ...named, ...(type ? { type } : {}) }, select }),
    type && type !== 'webhook' ? [] : db.webhookConnection.findMany({ where: named, select }),
  ])
  const sign = page.sort[0]?.direction === 'desc' ? -1 : 1
  const ordered = [...typedNames.map((n) => ({ ...n, webhook: false })), ...webhookNames.map((n) => ({ ...n, webhook: true }))]
    .sort((a, b) => sign * keyOf(a.name).localeCompare(keyOf(b.name)))
  const window = ordered.slice(page.skip, page.skip + page.take)
  const idsOf = (webhook: boolean) => window.filter((n) => n.webhook === webhook).map((n) => n.id)
  const [typedRows, webhookRows] = await Promise.all([
    idsOf(false).length ? db.connection.findMany({ where: { id: { in: idsOf(false) } } }) : [],
    idsOf(true).length ? db.webhookConnection.findMany({ where: { id: { in: idsOf(true) } } }) : [],
  ])
  const byId = new Map<string, StoredConnection>([
    ...typedRows.map((row) => [row.id, { type: row.type as Exclude<ConnectionType, 'webhook'>, row }] as const),
    ...webhookRows.map((row) => [row.id, { type: 'webhook', row }] as const),
  ] as [string, StoredConnection][])
  return toPage(page, window.flatMap((n) => { const c = byId.get(n.id); return c ? [connectionView(c)] : [] }), ordered.length)
}

/** For the connection test and export: the stored connection, after VIEW (or the caller's own check). */
export async function loadConnection(db: Tx, access: ProjectAccess, name: string): Promise<StoredConnection> {
  return requireConnection(db, access.project.id, name)
}

/**
 * Writes a typed connection from a transfer package inside the import's transaction (no push: the engine's
 * afterImport pushes). The body is validated like a create; a secret the package does not carry keeps the
 * stored value on REPLACE. Webhook connections travel as WEBHOOK_CONNECTION, not through here.
 */
export async function writeImportedConnection(tx: Tx, deps: Deps, access: ProjectAccess, body: Record<string, unknown>, replace: boolean): Promise<StoredConnection> {
  const type = typeOfBody(body)
  if (type === 'webhook') throw malformed('type: webhook connections travel as WEBHOOK_CONNECTION', { field: 'type' })
  const current = replace ? await findConnection(tx, access.project.id, String(body.name ?? '')) : null
  return uniqueName(String(body.name), () => write(tx, deps, access, type, body, current))
}

/** After an import: deploys the named typed connections that deploy to workers (one push). */
export async function deployImportedConnections(deps: Deps, access: ProjectAccess, names: string[]): Promise<DeploymentOutcome | null> {
  const rows = await deps.prisma.connection.findMany({ where: { projectId: access.project.id, nameKey: { in: names.map(keyOf) }, deployToWorker: true } })
  if (!rows.length) return null
  return pushConnection(deps, access, rows.map((row) => deployMessage(deps.keyring, { type: row.type as Exclude<ConnectionType, 'webhook'>, row })))
}
