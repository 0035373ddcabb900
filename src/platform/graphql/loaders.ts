import type { Tx } from '../context.js'
import { oneByKey, type GqlContext } from './context.js'

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
