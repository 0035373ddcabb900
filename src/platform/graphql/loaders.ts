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

// Entitlement rows carry their subject's name (subjectKey): the same include as identity/entitlements.ts.
const entitlementSubject = { credential: { select: { username: true } }, application: { select: { name: true } } } as const
const entitlementOrder = [{ assignedAt: 'asc' as const }, { entitlementKey: 'asc' as const }]

export const entitlementsOfCredentialLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'entitlementsByCredential', (db, ids) => db.entitlement.findMany({ where: { credentialId: { in: ids } }, include: entitlementSubject, orderBy: entitlementOrder }), (e) => e.credentialId)

export const entitlementsOfApplicationLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'entitlementsByApplication', (db, ids) => db.entitlement.findMany({ where: { applicationId: { in: ids } }, include: entitlementSubject, orderBy: entitlementOrder }), (e) => e.applicationId)
