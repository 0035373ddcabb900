import type { Tx } from '../context.js'
import { byKey, oneByKey, type GqlContext } from './context.js'

/** Loads rows of a model by id in one query per request tick: shared by every "belongs to" relation. */
export function byIdLoader<T extends { id: string }>(ctx: GqlContext, name: string, fetch: (db: Tx, ids: string[]) => Promise<T[]>) {
  return ctx.loaders.get<string, T | null>(name, async (ids) => oneByKey(ids, await fetch(ctx.deps.prisma, [...ids]), (r) => r.id))
}

export const organizationLoader = (ctx: GqlContext) =>
  byIdLoader(ctx, 'organizationById', (db, ids) => db.organization.findMany({ where: { id: { in: ids } } }))

export const applicationLoader = (ctx: GqlContext) =>
  byIdLoader(ctx, 'applicationById', (db, ids) => db.application.findMany({ where: { id: { in: ids } } }))

export const projectLoader = (ctx: GqlContext) =>
  byIdLoader(ctx, 'projectById', (db, ids) => db.project.findMany({ where: { id: { in: ids } } }))

export const credentialLoader = (ctx: GqlContext) =>
  byIdLoader(ctx, 'credentialById', (db, ids) => db.credential.findMany({ where: { id: { in: ids } } }))

/** Loads a has-many relation for every parent of a request in one query, grouped by the parent key. */
export function hasManyLoader<T>(ctx: GqlContext, name: string, fetch: (db: Tx, keys: string[]) => Promise<T[]>, keyOf: (row: T) => string | null) {
  return ctx.loaders.get<string, T[]>(name, async (keys) => byKey(keys, await fetch(ctx.deps.prisma, [...keys]), keyOf))
}

// The relations below hang off parents that were reached through a permission check of the same area,
// so they add no check of their own.

export const consumersOfApplicationLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'consumersByApplication', (db, ids) => db.credential.findMany({ where: { applicationId: { in: ids } }, orderBy: { username: 'asc' } }), (c) => c.applicationId)

export const apiClientsOfApplicationLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'apiClientsByApplication', (db, ids) => db.apiClient.findMany({ where: { applicationId: { in: ids } }, orderBy: [{ name: 'asc' }, { apiClientKey: 'asc' }] }), (c) => c.applicationId)

export const childrenOfOrganizationLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'childrenByOrganization', (db, ids) => db.organization.findMany({ where: { parentId: { in: ids } }, orderBy: { code: 'asc' } }), (o) => o.parentId)

export const environmentsOfProjectLoader = (ctx: GqlContext) =>
  hasManyLoader(
    ctx,
    'environmentsByProject',
    (db, ids) => db.projectEnvironment.findMany({ where: { projectId: { in: ids } }, include: { environment: true }, orderBy: { environment: { name: 'asc' } } }),
    (link) => link.projectId,
  )

export const groupsOfApiProxyLoader = (ctx: GqlContext) =>
  ctx.loaders.get<string, { name: string }[]>('groupsByApiProxy', async (ids) => {
    const proxies = await ctx.deps.prisma.apiProxy.findMany({ where: { id: { in: [...ids] } }, select: { id: true, groups: { orderBy: { name: 'asc' } } } })
    return oneByKey(ids, proxies, (p) => p.id).map((p) => p?.groups ?? [])
  })

export const apiClientsOfCredentialLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'apiClientsByCredential', (db, ids) => db.apiClient.findMany({ where: { credentialId: { in: ids } }, orderBy: [{ name: 'asc' }, { apiClientKey: 'asc' }] }), (c) => c.credentialId)

/** A to-one relation read by its foreign key: `key` names the column of the row, `find` reads the targets by id. */
export interface ToOne<T extends { id: string }> {
  key: string
  find: (db: Tx, ids: string[]) => Promise<T[]>
}
type Related<M> = { [K in keyof M]: M[K] extends ToOne<infer T> ? T | null : never }

/**
 * Rows with their to-one relations, as Prisma's `include` gives them, but each relation read only for the keys the
 * rows have: an include reads every relation it names, even when no row has a key for it (`WHERE id IN (NULL)`,
 * one statement per relation per request). Every loader that follows a nullable key goes through here.
 */
export async function withToOne<R extends object, M extends Record<string, ToOne<{ id: string }>>>(db: Tx, rows: R[], relations: M): Promise<(R & Related<M>)[]> {
  const found = await Promise.all(Object.entries(relations).map(async ([name, relation]) => {
    const keyOf = (row: R) => (row as Record<string, unknown>)[relation.key] as string | null | undefined
    const ids = [...new Set(rows.flatMap((r) => (keyOf(r) ? [keyOf(r)!] : [])))]
    const byId = new Map((ids.length ? await relation.find(db, ids) : []).map((t) => [t.id, t]))
    return { name, keyOf, byId }
  }))
  return rows.map((row) => Object.assign({ ...row }, ...found.map(({ name, keyOf, byId }) => ({ [name]: (keyOf(row) && byId.get(keyOf(row)!)) || null })))) as (R & Related<M>)[]
}

// Entitlement rows carry their subject's name (subjectKey): the relations of identity/entitlements.ts's include.
const entitlementSubject = {
  credential: { key: 'credentialId', find: (db, ids) => db.credential.findMany({ where: { id: { in: ids } }, select: { id: true, username: true } }) } satisfies ToOne<{ id: string; username: string }>,
  application: { key: 'applicationId', find: (db, ids) => db.application.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }) } satisfies ToOne<{ id: string; name: string }>,
}
const entitlementOrder = [{ assignedAt: 'asc' as const }, { entitlementKey: 'asc' as const }]

export const entitlementsOfCredentialLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'entitlementsByCredential', async (db, ids) => withToOne(db, await db.entitlement.findMany({ where: { credentialId: { in: ids } }, orderBy: entitlementOrder }), entitlementSubject), (e) => e.credentialId)

export const entitlementsOfApplicationLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'entitlementsByApplication', async (db, ids) => withToOne(db, await db.entitlement.findMany({ where: { applicationId: { in: ids } }, orderBy: entitlementOrder }), entitlementSubject), (e) => e.applicationId)
