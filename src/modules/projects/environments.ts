import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import { requireSystemAdmin } from '../../platform/auth/require.js'
import type { Tx } from '../../platform/context.js'
import { orderByFor, parsePaging, findPage, type PagingQuery } from '../../platform/envelopes/paging.js'
import { DomainError, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { httpUrl, objectName } from '../../platform/validation/common.js'

export const ENVIRONMENT_TYPES = ['PRODUCTION', 'SANDBOX', 'TEST'] as const

export const environmentInput = z.object({
  name: objectName,
  workerUrls: z.array(httpUrl).default([]),
  description: z.string().max(1000).nullish(),
  type: z.enum(ENVIRONMENT_TYPES).default('PRODUCTION'),
  /** the address clients call the gateway at in this environment (shown by GET /apiops/environments) */
  accessUrl: httpUrl.nullish(),
})
export type EnvironmentInput = z.input<typeof environmentInput>

const environmentNotFound = (name: string) => notFound(`Environment '${name}' not found`, { environment: name })

export async function createEnvironment(db: Tx, actor: Actor, raw: EnvironmentInput) {
  requireSystemAdmin(actor)
  const input = parseInput(environmentInput, raw)
  if (await db.environment.findUnique({ where: { name: input.name } })) {
    throw new DomainError('conflict', 'nameAlreadyExists', `Environment '${input.name}' already exists`, { field: 'name' })
  }
  return db.environment.create({ data: input })
}

export async function updateEnvironmentWorkers(db: Tx, actor: Actor, name: string, workerUrls: string[]) {
  requireSystemAdmin(actor)
  const input = parseInput(environmentInput, { name, workerUrls })
  const env = await db.environment.findUnique({ where: { name } })
  if (!env) throw environmentNotFound(name)
  return db.environment.update({ where: { id: env.id }, data: { workerUrls: input.workerUrls } })
}

export async function deleteEnvironment(db: Tx, actor: Actor, name: string): Promise<boolean> {
  requireSystemAdmin(actor)
  const removed = await db.environment.deleteMany({ where: { name } })
  if (!removed.count) throw environmentNotFound(name)
  return true
}

export async function getEnvironment(db: Tx, actor: Actor, name: string) {
  requireSystemAdmin(actor)
  const env = await db.environment.findUnique({ where: { name } })
  if (!env) throw environmentNotFound(name)
  return env
}

export const ENVIRONMENT_SORT = { defaultSort: 'name,asc', supported: ['name', 'createdAt'] } as const

/** One page of the installation's environments, with their worker URLs: system administrators only. */
export async function pageEnvironments(db: Tx, actor: Actor, query: PagingQuery) {
  requireSystemAdmin(actor)
  const page = parsePaging(query, ENVIRONMENT_SORT)
  return findPage(
    page,
    db.environment.findMany({ orderBy: orderByFor(page, 'name'), skip: page.skip, take: page.take }),
    db.environment.count(),
  )
}

/** Environments by name, refusing the first unknown one. */
export async function environmentsNamed(db: Tx, names: string[]) {
  const found = await db.environment.findMany({ where: { name: { in: names } } })
  const missing = names.find((n) => !found.some((e) => e.name === n))
  if (missing) throw environmentNotFound(missing)
  return found
}
