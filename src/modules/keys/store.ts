import { z } from 'zod'
import type { Prisma, StoredObject } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { can, type PermissionLevel, type ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../platform/context.js'
import { notDeployed } from '../../platform/deploy/project.js'
import type { DeployEnvironment, DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { authorizeInProject } from '../../platform/scope/project-scope.js'
import { objectName } from '../../platform/validation/common.js'
import { containsText, findPage, NAME_SORT, orderByFor, parsePaging, parseSearch, type SearchQuery } from '../../platform/envelopes/paging.js'

// Certificates, keys, keystores and JWKs are the kinds of the exportable type CERTIFICATE (RUNTIME.md §3): they
// live as stored objects (type CERTIFICATE, kind CERTIFICATE / CRYPTO_KEY_INFO / KEY_STORE / JWK) so that the
// bootstrap, export/transfer and the references of other objects (webhook trust stores) see the very objects
// this module manages. Their asset category is CERTIFICATE: VIEW reads, MANAGE writes, DEPLOY_UNDEPLOY pushes.

export const CATEGORY = 'CERTIFICATE'
export const TYPE = 'CERTIFICATE'
export type TrustKind = 'CERTIFICATE' | 'CRYPTO_KEY_INFO' | 'KEY_STORE' | 'JWK'

export const trustAccess = (deps: Deps, actor: Actor, projectName: string, level: PermissionLevel) =>
  authorizeInProject(deps.prisma, actor, projectName, CATEGORY, level)

export const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)
export const contentOf = (row: StoredObject): Record<string, unknown> => (isRecord(row.content) ? row.content : {})
export const environmentsOf = (row: StoredObject): Record<string, Record<string, unknown>> => {
  const envs = contentOf(row).environments
  return isRecord(envs) ? (Object.fromEntries(Object.entries(envs).filter(([, v]) => isRecord(v))) as Record<string, Record<string, unknown>>) : {}
}

export const findObject = (db: Tx, projectId: string, kind: TrustKind, name: string) =>
  db.storedObject.findUnique({ where: { projectId_type_kind_name: { projectId, type: TYPE, kind, name } } })

export const listObjects = (db: Tx, projectId: string, kind: TrustKind) =>
  db.storedObject.findMany({ where: { projectId, type: TYPE, kind }, orderBy: [{ name: 'asc' }, { id: 'asc' }] })

/** One page of the project's objects of one kind by name, those whose name contains the search when one is given. */
export async function pageObjects(db: Tx, projectId: string, kind: TrustKind, query: SearchQuery) {
  const page = parsePaging(query, NAME_SORT)
  const search = parseSearch(query.search)
  const where = { projectId, type: TYPE, kind, ...(search ? { name: containsText(search) } : {}) }
  return findPage(page, db.storedObject.findMany({ where, orderBy: orderByFor(page, 'id'), skip: page.skip, take: page.take }), db.storedObject.count({ where }))
}

export async function createObject(db: Tx, projectId: string, kind: TrustKind, name: string, content: Record<string, unknown>, exists: () => Error) {
  try {
    return await db.storedObject.create({ data: { projectId, type: TYPE, kind, name, content: content as Prisma.InputJsonValue } })
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') throw exists()
    throw err
  }
}

export async function updateObject(db: Tx, row: StoredObject, content: Record<string, unknown>, name = row.name, exists?: () => Error) {
  try {
    return await db.storedObject.update({ where: { id: row.id }, data: { name, content: content as Prisma.InputJsonValue, revision: { increment: 1 } } })
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002' && exists) throw exists()
    throw err
  }
}

/** A name from a path or body: blank is `<field> value can not be empty!` as the pages word it. */
export function requiredName(value: unknown, field: string, emptyMessage = `${field} value can not be empty!`): string {
  if (typeof value !== 'string' || !value.trim()) throw malformed(emptyMessage, { field })
  const parsed = objectName.safeParse(value)
  if (!parsed.success) throw malformed(`${field} must be a name without / \\ ? # % or control characters, at most 200 characters`, { field })
  return parsed.data
}

export const optionalText = (value: unknown, field: string, max = 2000): string => {
  if (value === undefined || value === null) return ''
  if (typeof value !== 'string') throw malformed(`${field} must be a string`, { field })
  if (value.length > max) throw malformed(`${field} must be at most ${max} characters`, { field })
  return value
}

export const requiredString = (value: unknown, field: string): string => {
  if (typeof value !== 'string' || !value.trim()) throw malformed(`${field} value can not be empty!`, { field })
  return value
}

export const requireBody = (raw: unknown): Record<string, unknown> => {
  if (!isRecord(raw)) throw malformed('Request body must be a JSON object', { reason: 'bodyRequired' })
  return raw
}

export interface ProjectEnvironment extends DeployEnvironment { id: string }

/** The environments of the project, by name. */
export async function environmentsOfProject(db: Tx, projectId: string): Promise<ProjectEnvironment[]> {
  // one statement through the link table (an include would add a lookup by the links' keys, IN (NULL) when none)
  const environments = await db.environment.findMany({ where: { projects: { some: { projectId } } }, select: { id: true, name: true, workerUrls: true } })
  return environments.sort((a, b) => a.name.localeCompare(b.name))
}

export const environmentNotFound = (name: string) =>
  new DomainError('validation', 'environmentNotFound', `Environment (${name}) is not found or user does not have privilege to access it!`, { field: 'environmentName', environment: name })

/** Each name must be an environment of the project. */
export function pickEnvironment(envs: ProjectEnvironment[], name: string): ProjectEnvironment {
  const env = envs.find((e) => e.name === name.trim())
  if (!env) throw environmentNotFound(name.trim())
  return env
}

export interface EnvironmentPush {
  env: DeployEnvironment
  action: 'DEPLOY' | 'UNDEPLOY'
  config: unknown
  /** the name pushed when it is not the object's current one (the old name undeployed by a rename) */
  name?: string
}

/**
 * Pushes one object to its environments, each with its own config (a certificate differs per environment),
 * in parallel; one outcome for them all. Without DEPLOY_UNDEPLOY the change stays saved and every
 * environment says why it was not pushed.
 */
export async function pushPerEnvironment(deps: Deps, access: ProjectAccess, kind: string, name: string, revision: number, pushes: EnvironmentPush[]): Promise<DeploymentOutcome> {
  if (!can(access, CATEGORY, 'DEPLOY_UNDEPLOY')) {
    return notDeployed(pushes.map((p) => p.env), `deploying needs ${CATEGORY} DEPLOY_UNDEPLOY in project '${access.project.name}'`)
  }
  const started = Date.now()
  const outcomes = await Promise.all(
    pushes.map((p) => deps.deployer.push([p.env], { action: p.action, project: access.project.name, kind, name: p.name ?? name, revision, config: p.config })),
  )
  const environmentResults = outcomes.flatMap((o) => o.environmentResults)
  const failed = environmentResults.filter((r) => !r.success)
  const undeploysOnly = pushes.length > 0 && pushes.every((p) => p.action === 'UNDEPLOY')
  return {
    success: failed.length === 0,
    message: failed.length === 0
      ? `${undeploysOnly ? 'Undeployed from' : 'Deployed to'} ${environmentResults.length} environment(s)`
      : `Failed in ${failed.length} of ${environmentResults.length} environment(s): ${failed.map((f) => f.environmentName).join(', ')}`,
    responseTimeMs: Date.now() - started,
    environmentResults,
  }
}

/** Sealed with the master key; never serialised back out. */
export const seal = (deps: Deps, value: string) => deps.keyring.encrypt(value)
/** A stored secret may be sealed (every write of this module, an import) or clear (a bootstrap file). */
export const unseal = (deps: Pick<Deps, 'keyring'>, value: unknown): string | null =>
  typeof value !== 'string' || !value ? null : deps.keyring.knows(value) ? deps.keyring.decrypt(value) : value

/** Checks a body against its documented schema (its OpenAPI request body) first: the first fault, named, is a 400. */
export function checkBody(schema: z.ZodType, body: unknown): void {
  // reportInput: without it zod leaves `input` out of every issue, and bodyIssue would read a wrong type as missing
  const checked = schema.safeParse(body, { reportInput: true })
  if (!checked.success) throw bodyIssue(checked.error)
}

const article = (type: string) => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`

/** The first issue of a failed body check, in the words of the hand-written checks. */
function bodyIssue(error: z.ZodError) {
  const issue = error.issues[0]!
  const field = issue.path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), '')
  if (issue.code === 'too_small' && issue.origin === 'array' || issue.code === 'invalid_type' && issue.input === undefined) return malformed(`${field} value can not be empty!`, { field })
  if (issue.code === 'invalid_type') return malformed(`${field} must be ${article(issue.expected)}`, { field })
  if (issue.code === 'too_big') return malformed(`${field} must be at most ${String(issue.maximum)} characters`, { field })
  if (issue.code === 'invalid_union') {
    // a value of none of the accepted types: name them ("a string or a number")
    const expected = issue.errors.map((branch) => branch.find((i) => i.code === 'invalid_type' && i.path.length === 0)).filter((i) => i?.code === 'invalid_type').map((i) => i.expected)
    if (expected.length === issue.errors.length) return malformed(`${field} must be ${expected.map(article).join(' or ')}`, { field })
  }
  return malformed(`${field}: ${issue.message}`, { field })
}

const KIND_LABELS: Record<string, string> = { CERTIFICATE: 'Certificate', CRYPTO_KEY_INFO: 'Key', KEY_STORE: 'Keystore', JWK: 'JWK' }

/**
 * Refuses to delete, rename or retype an object a credential names as its security material
 * (modules/credentials/material.ts): the credential would lose it on the gateways. Names up to five of them.
 */
export async function refuseWhileCredentialsName(db: Tx, row: StoredObject, change: 'deleted' | 'renamed' | 'changed to another keyType') {
  const uses = await db.credentialMaterial.findMany({
    where: { objectId: row.id }, select: { slot: true, credential: { select: { username: true } } }, orderBy: { credentialId: 'asc' }, take: 5,
  })
  if (!uses.length) return
  const label = KIND_LABELS[row.kind] ?? row.kind
  const names = [...new Set(uses.map((u) => u.credential.username))]
  throw new DomainError('validation', 'objectUsedByCredential',
    `${label} (name: ${row.name}) is used by credential(s) ${names.join(', ')} and can not be ${change}: remove it from them first`,
    { name: row.name, kind: row.kind, credentials: names })
}
