import { z } from 'zod'
import type { EnvironmentVariable, Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import type { PermissionLevel, ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../platform/context.js'
import { projectEnvironments } from '../../platform/deploy/project.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { DomainError, malformed, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { containsText, NAME_SORT, orderByFor, parsePaging, parseSearch, toPage, type SearchQuery } from '../../platform/envelopes/paging.js'
import { authorizeInProject, PLATFORM_PROJECT } from '../../platform/scope/project-scope.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'
import { objectName } from '../../platform/validation/common.js'
import { ENVIRONMENT_VARIABLE_KIND, messageFor, pushVariable } from './push.js'
import { storedValues, variableView, type EnvironmentVariableView, type StoredEnvironmentValue } from './values.js'

const CATEGORY = 'PROJECT_MANAGEMENT'
export const MAX_VALUE_LENGTH = 65_536

/** Text the database can store: PostgreSQL text and jsonb refuse NUL characters. */
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).regex(/^[^\u0000]*$/, 'must not contain NUL characters')
const value = text(MAX_VALUE_LENGTH)
const pathNameInput = z.object({ name: objectName })

export const environmentValueInput = z.object({
  environmentName: objectName,
  /** a secret's value may be left null on update to keep the stored one (reads never return it) */
  value: value.nullish(),
  visible: z.boolean().default(false),
})

/** Body of create and update (vendor 10-environment-variables). */
export const environmentVariableInput = z
  .object({
    name: objectName,
    description: text(1000).nullish(),
    global: z.boolean().default(false),
    globalValue: value.nullish(),
    globalVisible: z.boolean().default(true),
    environmentValueList: z.array(environmentValueInput).max(1000, 'must hold at most 1000 entries').nullish(),
  })
  .superRefine((v, ctx) => {
    if (!v.global && !v.environmentValueList?.length) {
      ctx.addIssue({ code: 'custom', path: ['environmentValueList'], message: 'must hold at least one environment value when global is false' })
    }
    const seen = new Set<string>()
    for (const [i, entry] of (v.environmentValueList ?? []).entries()) {
      if (seen.has(entry.environmentName)) ctx.addIssue({ code: 'custom', path: ['environmentValueList', i, 'environmentName'], message: `'${entry.environmentName}' is listed twice` })
      seen.add(entry.environmentName)
    }
  })
export type EnvironmentVariableInput = z.input<typeof environmentVariableInput>

export interface EnvironmentVariableWrite { variable: EnvironmentVariableView; deploymentResult: DeploymentOutcome }

const keyOf = (name: string) => name.toLowerCase()
const variableNotFound = (name: string) => notFound(`Environment variable (name: ${name}) was not found!`, { environmentVariable: name })

const access = (db: Tx, actor: Actor, projectName: string, level: PermissionLevel) => authorizeInProject(db, actor, projectName, CATEGORY, level)

async function findVariable(db: Tx, projectId: string, rawName: string): Promise<EnvironmentVariable> {
  const { name } = parseInput(pathNameInput, { name: rawName })
  const found = await db.environmentVariable.findUnique({ where: { projectId_nameKey: { projectId, nameKey: keyOf(name) } } })
  if (!found) throw variableNotFound(name)
  return found
}

/**
 * The columns of a validated body. Values of environments the project does not deploy to are refused;
 * a secret left null keeps what `current` holds for it (or is refused when there is nothing to keep).
 */
async function columnsOf(db: Tx, keyring: SecretKeyring, projectAccess: ProjectAccess, input: z.output<typeof environmentVariableInput>, current: EnvironmentVariable | null) {
  const environments = new Set((await projectEnvironments(db, projectAccess.project.id)).map((e) => e.name))
  const previous = current ? storedValues(current) : []
  let globalValue: string | null = null
  let globalValueCipher: string | null = null
  const environmentValues: StoredEnvironmentValue[] = []
  if (input.global) {
    if (input.globalValue != null) {
      if (input.globalVisible) globalValue = input.globalValue
      else globalValueCipher = keyring.encrypt(input.globalValue)
    } else if (!input.globalVisible && current?.global && current.globalValueCipher) {
      globalValueCipher = current.globalValueCipher
    } else {
      throw malformed('globalValue: is required when global is true', { field: 'globalValue' })
    }
  } else {
    for (const [i, entry] of (input.environmentValueList ?? []).entries()) {
      const field = `environmentValueList[${i}]`
      if (!environments.has(entry.environmentName)) {
        throw malformed(`${field}.environmentName: '${entry.environmentName}' is not an environment of project '${projectAccess.project.name}'`, { field: `${field}.environmentName` })
      }
      const kept = previous.find((p) => p.environmentName === entry.environmentName && !p.visible && p.valueCipher)
      if (entry.value == null && !(entry.visible === false && kept)) throw malformed(`${field}.value: is required`, { field: `${field}.value` })
      environmentValues.push(
        entry.visible
          ? { environmentName: entry.environmentName, visible: true, value: entry.value!, valueCipher: null }
          : { environmentName: entry.environmentName, visible: false, value: null, valueCipher: entry.value != null ? keyring.encrypt(entry.value) : kept!.valueCipher },
      )
    }
  }
  return {
    name: input.name,
    nameKey: keyOf(input.name),
    description: input.description ?? null,
    global: input.global,
    globalVisible: input.globalVisible,
    globalValue,
    globalValueCipher,
    environmentValues: environmentValues as unknown as Prisma.InputJsonValue,
  }
}

const nameTaken = (name: string) => new DomainError('conflict', 'nameAlreadyExists', `Environment variable (name: ${name}) already exists!`, { field: 'name' })

/** Unique violations from a concurrent create or rename are the same answer as the check before it. */
async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') throw nameTaken(name)
    throw err
  }
}

export async function createEnvironmentVariable(deps: Deps, actor: Actor, projectName: string, pathName: string, raw: unknown): Promise<EnvironmentVariableWrite> {
  const projectAccess = await access(deps.prisma, actor, projectName, 'MANAGE')
  const input = parseInput(environmentVariableInput, raw)
  if (keyOf(parseInput(pathNameInput, { name: pathName }).name) !== keyOf(input.name)) {
    throw malformed(`Environment variable name in path (${pathName}) does not match name in body (${input.name})!`, { field: 'name' })
  }
  const variable = await uniqueName(input.name, () =>
    deps.prisma.$transaction(async (tx) => {
      if (await tx.environmentVariable.findUnique({ where: { projectId_nameKey: { projectId: projectAccess.project.id, nameKey: keyOf(input.name) } } })) throw nameTaken(input.name)
      const columns = await columnsOf(tx, deps.keyring, projectAccess, input, null)
      return tx.environmentVariable.create({ data: { projectId: projectAccess.project.id, ...columns } })
    }),
  )
  const deploymentResult = await pushVariable(deps, projectAccess, (env) => [messageFor(deps.keyring, variable, env.name)])
  return { variable: variableView(variable, projectAccess.project.name), deploymentResult }
}

/** Replaces every field; the body's name may differ from the path's (a rename: the old name is undeployed). */
export async function updateEnvironmentVariable(deps: Deps, actor: Actor, projectName: string, pathName: string, raw: unknown): Promise<EnvironmentVariableWrite> {
  const projectAccess = await access(deps.prisma, actor, projectName, 'MANAGE')
  const input = parseInput(environmentVariableInput, raw)
  const { before, after } = await uniqueName(input.name, () =>
    deps.prisma.$transaction(async (tx) => {
      const current = await findVariable(tx, projectAccess.project.id, pathName)
      if (keyOf(input.name) !== current.nameKey) {
        const clash = await tx.environmentVariable.findUnique({ where: { projectId_nameKey: { projectId: projectAccess.project.id, nameKey: keyOf(input.name) } } })
        if (clash) throw nameTaken(input.name)
      }
      const columns = await columnsOf(tx, deps.keyring, projectAccess, input, current)
      const updated = await tx.environmentVariable.update({ where: { id: current.id }, data: { ...columns, revision: { increment: 1 } } })
      return { before: current, after: updated }
    }),
  )
  const renamed = before.name !== after.name
  const deploymentResult = await pushVariable(deps, projectAccess, (env) => [
    ...(renamed ? [{ action: 'UNDEPLOY' as const, kind: ENVIRONMENT_VARIABLE_KIND, name: before.name, revision: after.revision, config: { name: before.name } }] : []),
    messageFor(deps.keyring, after, env.name),
  ])
  return { variable: variableView(after, projectAccess.project.name), deploymentResult }
}

export async function deleteEnvironmentVariable(deps: Deps, actor: Actor, projectName: string, name: string): Promise<DeploymentOutcome> {
  const projectAccess = await access(deps.prisma, actor, projectName, 'MANAGE')
  const variable = await findVariable(deps.prisma, projectAccess.project.id, name)
  await deps.prisma.environmentVariable.delete({ where: { id: variable.id } })
  return pushVariable(deps, projectAccess, () => [
    { action: 'UNDEPLOY', kind: ENVIRONMENT_VARIABLE_KIND, name: variable.name, revision: variable.revision + 1, config: { name: variable.name } },
  ])
}

export async function getEnvironmentVariable(db: Tx, actor: Actor, projectName: string, name: string): Promise<EnvironmentVariableView> {
  const projectAccess = await access(db, actor, projectName, 'VIEW')
  return variableView(await findVariable(db, projectAccess.project.id, name), projectAccess.project.name)
}

/** The project's variables by name; in the platform project (admin) every project's (vendor note). */
export async function listEnvironmentVariables(db: Tx, actor: Actor, projectName: string): Promise<EnvironmentVariableView[]> {
  const projectAccess = await access(db, actor, projectName, 'VIEW')
  const everyProject = projectAccess.project.name === PLATFORM_PROJECT
  const rows = await db.environmentVariable.findMany({
    where: everyProject ? {} : { projectId: projectAccess.project.id },
    include: { project: { select: { name: true } } },
    orderBy: [{ project: { name: 'asc' } }, { nameKey: 'asc' }],
  })
  return rows.map((row) => variableView(row, row.project.name))
}

/** One page of listEnvironmentVariables, the variables whose name contains the search when one is given. */
export async function pageEnvironmentVariables(db: Tx, actor: Actor, projectName: string, query: SearchQuery) {
  const projectAccess = await access(db, actor, projectName, 'VIEW')
  const everyProject = projectAccess.project.name === PLATFORM_PROJECT
  const page = parsePaging(query, NAME_SORT)
  const search = parseSearch(query.search)
  const where: Prisma.EnvironmentVariableWhereInput = {
    ...(everyProject ? {} : { projectId: projectAccess.project.id }),
    ...(search ? { name: containsText(search) } : {}),
  }
  const [rows, total] = await Promise.all([
    db.environmentVariable.findMany({
      where,
      include: { project: { select: { name: true } } },
      orderBy: [{ project: { name: 'asc' } }, ...orderByFor(page, 'id', { name: 'nameKey' })],
      skip: page.skip,
      take: page.take,
    }),
    db.environmentVariable.count({ where }),
  ])
  return toPage(page, rows.map((row) => variableView(row, row.project.name)), total)
}

/**
 * A variable as a state document declares it (declarative applies, through the envvars transfer adapter), inside the
 * caller's transaction: the create and update body's schema and rules (columnsOf: environments of the project, a secret
 * left null keeps the stored one), then the row. `current` is the stored name to replace, or null to create. Pushed by
 * the caller after the commit (pushDeclaredVariables).
 */
export async function writeDeclaredVariable(tx: Tx, keyring: SecretKeyring, projectAccess: ProjectAccess, raw: unknown, current: string | null) {
  const input = parseInput(environmentVariableInput, raw)
  const projectId = projectAccess.project.id
  const stored = current === null ? null : await findVariable(tx, projectId, current)
  if (keyOf(input.name) !== stored?.nameKey && (await tx.environmentVariable.findUnique({ where: { projectId_nameKey: { projectId, nameKey: keyOf(input.name) } } }))) throw nameTaken(input.name)
  const columns = await columnsOf(tx, keyring, projectAccess, input, stored)
  return stored
    ? tx.environmentVariable.update({ where: { id: stored.id }, data: { ...columns, revision: { increment: 1 } } })
    : tx.environmentVariable.create({ data: { projectId, ...columns } })
}

/** Deletes a variable inside the caller's transaction; answers what its undeploy needs after the commit. */
export async function removeDeclaredVariable(tx: Tx, projectId: string, name: string) {
  const variable = await findVariable(tx, projectId, name)
  await tx.environmentVariable.delete({ where: { id: variable.id } })
  return variable
}

/** After a declarative commit: the written variables deployed, the removed ones undeployed, as the REST writes push them. */
export async function pushDeclaredVariables(deps: Deps, projectAccess: ProjectAccess, names: string[], removed: EnvironmentVariable[] = []): Promise<DeploymentOutcome | null> {
  const rows = names.length ? await deps.prisma.environmentVariable.findMany({ where: { projectId: projectAccess.project.id, nameKey: { in: names.map(keyOf) } } }) : []
  if (!rows.length && !removed.length) return null
  return pushVariable(deps, projectAccess, (env) => [
    ...removed.map((v) => ({ action: 'UNDEPLOY' as const, kind: ENVIRONMENT_VARIABLE_KIND, name: v.name, revision: v.revision + 1, config: { name: v.name } })),
    ...rows.map((v) => messageFor(deps.keyring, v, env.name)),
  ])
}
