import { z } from 'zod'
import type { StoredObject } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { openKeystore, type KeystoreEntryView } from './crypto/keystore-files.js'
import { deleteSourceAndJwks, jwkDeleteAction, refreshReferencedJwks, type RefreshOptions } from './jwk-refresh.js'
import {
  checkBody, contentOf, createObject, environmentsOf, environmentsOfProject, findObject, isRecord, listObjects, optionalText, pickEnvironment, pushPerEnvironment,
  refuseWhileCredentialsName, requireBody, requiredName, seal, trustAccess, unseal, updateObject, type EnvironmentPush, type ProjectEnvironment,
} from './store.js'
import { keystoreNotFound } from './materials.js'


// Keystores (kind KEY_STORE): a PKCS#12 or JKS file per environment, base64, opened with its password when
// given; its entries are listed, the file and the passwords are sealed at rest and never answered.

const keystoreExists = (name: string) =>
  new DomainError('validation', 'keystoreAlreadyExists', `Keystore (name: ${name}) is already exist! Try update operation if want to change its value.`, { name })

const LIST = 'keyStoreEnvironmentList'
/** Accepted keystore files are at most this large once decoded. */
export const MAX_KEYSTORE_BYTES = 1024 * 1024

function decodeBase64(value: string, field: string): Buffer {
  const compact = value.replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) throw malformed(`${field} must be the base64 of the keystore file`, { field, reason: 'notBase64' })
  const bytes = Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64')
  if (bytes.length > MAX_KEYSTORE_BYTES) throw malformed(`${field} is larger than ${MAX_KEYSTORE_BYTES} bytes`, { field })
  return bytes
}

/** The body of a keystore write (POST: name required; PUT: a new name renames): what parseKeystoreBody checks first. */
export const keystoreBodySchema = z.looseObject({
  name: z.string().optional().describe('The keystore name (required on create; on update a different name renames)'),
  description: z.string().max(2000).nullable().optional(),
  [LIST]: z.array(z.looseObject({
    environmentName: z.string(),
    file: z.string().optional().describe(`base64 of the keystore file (at most ${MAX_KEYSTORE_BYTES} bytes); blank on update keeps the stored file and passwords`),
    password: z.string().optional().describe('the store password (required with file)'),
    keyPassword: z.string().optional().describe('the key password when it differs from the store password'),
    type: z.string().optional().describe('the keystore type (e.g. JKS, PKCS12); detected when absent'),
    keyStoreType: z.string().nullable().optional().describe('the newest pages\' name of type: JKS or PKCS12'),
    alias: z.string().nullable().optional().describe('the default alias: an entry of the file; absent on update keeps the stored one'),
    fileName: z.string().max(200).optional().describe('the name of the uploaded file: export-file gives the file back with its extension'),
  })).min(1),
}).meta({ id: 'KeystoreWriteBody' })

/** The default alias of an environment: one of the file's entries; absent keeps `kept`. */
function defaultAlias(given: unknown, entries: unknown, kept: unknown, at: string): string | null {
  if (given === undefined || given === null || given === '') return given === '' ? null : typeof kept === 'string' ? kept : null
  const aliases = Array.isArray(entries) ? entries.map((e) => (isRecord(e) ? String(e.alias) : '')) : []
  if (typeof given !== 'string' || !aliases.includes(given)) {
    throw malformed(`${at}.alias '${String(given)}' is not an entry of the keystore (entries: ${aliases.join(', ')})`, { field: `${at}.alias` })
  }
  return given
}

function parseKeystoreBody(deps: Deps, body: Record<string, unknown>, envs: ProjectEnvironment[], current: StoredObject | null) {
  checkBody(keystoreBodySchema, body)
  const description = optionalText(body.description, 'description')
  const list = body[LIST]
  if (!Array.isArray(list) || !list.length) throw malformed(`${LIST} value can not be empty!`, { field: LIST })
  const stored = current ? environmentsOf(current) : {}
  const environments: Record<string, Record<string, unknown>> = {}
  list.forEach((raw, i) => {
    const at = `${LIST}[${i}]`
    if (!isRecord(raw)) throw malformed(`${at} must be an object`, { field: at })
    const env = pickEnvironment(envs, requiredName(raw.environmentName, `${at}.environmentName`))
    if (env.name in environments) throw malformed(`${at}.environmentName '${env.name}' is listed twice`, { field: `${at}.environmentName` })
    const file = typeof raw.file === 'string' && raw.file.trim() ? raw.file : null
    const kept = stored[env.name]
    const type = typeof raw.type === 'string' && raw.type.trim() ? raw.type : typeof raw.keyStoreType === 'string' && raw.keyStoreType.trim() ? raw.keyStoreType : undefined
    if (typeof raw.type === 'string' && typeof raw.keyStoreType === 'string' && raw.type.trim() && raw.keyStoreType.trim() && raw.type.trim().toUpperCase() !== raw.keyStoreType.trim().toUpperCase()) {
      throw malformed(`${at}.keyStoreType '${raw.keyStoreType}' differs from ${at}.type '${raw.type}'`, { field: `${at}.keyStoreType` })
    }
    if (!file && kept && typeof kept.file === 'string') {
      // an update without the file keeps the stored file and passwords of that environment (the alias may change)
      environments[env.name] = { ...kept, alias: defaultAlias(raw.alias, kept.entries, kept.alias, at) }
      return
    }
    if (!file) throw malformed(`${at}.file value can not be empty!`, { field: `${at}.file` })
    if (typeof raw.password !== 'string') throw malformed(`${at}.password value can not be empty!`, { field: `${at}.password` })
    const keyPassword = typeof raw.keyPassword === 'string' && raw.keyPassword ? raw.keyPassword : undefined
    const bytes = decodeBase64(file, `${at}.file`)
    const opened = openKeystore(bytes, type, raw.password, keyPassword, {
      file: `${at}.file`, password: `${at}.password`, type: typeof raw.type === 'string' && raw.type.trim() ? `${at}.type` : `${at}.keyStoreType`,
    })
    environments[env.name] = {
      type: opened.type,
      alias: defaultAlias(raw.alias, opened.entries, null, at),
      entries: opened.entries,
      fileSize: bytes.length,
      ...(typeof raw.fileName === 'string' && raw.fileName.trim() ? { fileName: raw.fileName.trim() } : {}),
      file: seal(deps, bytes.toString('base64')),
      password: seal(deps, raw.password),
      ...(keyPassword ? { keyPassword: seal(deps, keyPassword) } : {}),
    }
  })
  return { description, environments }
}

function pushesFor(deps: Deps, row: StoredObject, envs: ProjectEnvironment[], previous: string[] = []): EnvironmentPush[] {
  const current = environmentsOf(row)
  const byName = new Map(envs.map((e) => [e.name, e]))
  const deploys = Object.entries(current).filter(([env]) => byName.has(env)).map(([env, e]) => ({
    env: byName.get(env)!, action: 'DEPLOY' as const,
    config: {
      name: row.name, environmentName: env, type: e.type, alias: e.alias ?? null, file: unseal(deps, e.file), password: unseal(deps, e.password),
      ...(e.keyPassword ? { keyPassword: unseal(deps, e.keyPassword) } : {}),
      aliases: Array.isArray(e.entries) ? e.entries.map((x) => (isRecord(x) ? x.alias : null)) : [],
    },
  }))
  const undeploys = previous.filter((e) => !(e in current) && byName.has(e)).map((e) => ({ env: byName.get(e)!, action: 'UNDEPLOY' as const, config: { name: row.name, environmentName: e } }))
  return [...deploys, ...undeploys]
}

const undeployAll = (row: StoredObject, envs: ProjectEnvironment[]): EnvironmentPush[] =>
  Object.keys(environmentsOf(row)).flatMap((e) => {
    const env = envs.find((x) => x.name === e)
    return env ? [{ env, action: 'UNDEPLOY' as const, name: row.name, config: { name: row.name, environmentName: e } }] : []
  })

export async function createKeystore(deps: Deps, actor: Actor, projectName: string, raw: unknown) {
  const access = await trustAccess(deps, actor, projectName, 'MANAGE')
  const body = requireBody(raw)
  const name = requiredName(body.name, 'name')
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  if (await findObject(deps.prisma, access.project.id, 'KEY_STORE', name)) throw keystoreExists(name)
  const content = parseKeystoreBody(deps, body, envs, null)
  const row = await createObject(deps.prisma, access.project.id, 'KEY_STORE', name, content, () => keystoreExists(name))
  const outcome = await pushPerEnvironment(deps, access, 'KEYSTORE', name, row.revision, pushesFor(deps, row, envs))
  return { outcome, keystore: keystoreView(row, envs), updatedJwks: [] as string[] }
}

export async function updateKeystore(deps: Deps, actor: Actor, projectName: string, rawName: string, raw: unknown, refresh: RefreshOptions) {
  const access = await trustAccess(deps, actor, projectName, 'MANAGE')
  const name = requiredName(rawName, 'keystoreName')
  const body = requireBody(raw)
  const current = await findObject(deps.prisma, access.project.id, 'KEY_STORE', name)
  if (!current) throw keystoreNotFound(name)
  const newName = typeof body.name === 'string' && body.name.trim() ? requiredName(body.name, 'name') : name
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  const content = parseKeystoreBody(deps, body, envs, current)
  if (newName !== name && (await findObject(deps.prisma, access.project.id, 'KEY_STORE', newName))) throw keystoreExists(newName)
  if (newName !== name) await refuseWhileCredentialsName(deps.prisma, current, 'renamed')
  const previous = Object.keys(environmentsOf(current))
  const row = await updateObject(deps.prisma, current, content, newName, () => keystoreExists(newName))
  const pushes = pushesFor(deps, row, envs, newName === name ? previous : [])
  if (newName !== name) pushes.push(...undeployAll(current, envs))
  const outcome = await pushPerEnvironment(deps, access, 'KEYSTORE', newName, row.revision, pushes)
  const updatedJwks = await refreshReferencedJwks(deps, access, row, refresh)
  return { outcome, keystore: keystoreView(row, envs), updatedJwks }
}

/** `jwkDeleteAction` says what becomes of the JWKs taken from it (jwk-refresh.ts): detached (NULLIFY, the default) or deleted. */
export async function deleteKeystore(deps: Deps, actor: Actor, projectName: string, rawName: string, rawJwkDeleteAction?: unknown): Promise<DeploymentOutcome> {
  const access = await trustAccess(deps, actor, projectName, 'MANAGE')
  const name = requiredName(rawName, 'keystoreName')
  const action = jwkDeleteAction(rawJwkDeleteAction)
  const row = await findObject(deps.prisma, access.project.id, 'KEY_STORE', name)
  if (!row) throw keystoreNotFound(name)
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  return deleteSourceAndJwks(deps, access, row, action, () => pushPerEnvironment(deps, access, 'KEYSTORE', name, row.revision + 1, undeployAll(row, envs)))
}

export interface KeystoreEnvironmentView {
  environmentId: string | null
  environmentName: string
  type: string | null
  /** the newest pages' name of type */
  keyStoreType: string | null
  alias: string | null
  fileSize: number | null
  entries: KeystoreEntryView[]
}
export interface KeystoreView { name: string; description: string; projectId: string; keyStoreEnvironmentList: KeystoreEnvironmentView[] }

/** The file and its passwords are write-only: reads show the type, the size and the entries. */
export function keystoreView(row: StoredObject, envs: ProjectEnvironment[]): KeystoreView {
  const content = contentOf(row)
  return {
    name: row.name,
    description: typeof content.description === 'string' ? content.description : '',
    projectId: row.projectId,
    keyStoreEnvironmentList: Object.entries(environmentsOf(row)).sort(([a], [b]) => a.localeCompare(b)).map(([env, e]) => ({
      environmentId: envs.find((x) => x.name === env)?.id ?? null,
      environmentName: env,
      type: typeof e.type === 'string' ? e.type : null,
      keyStoreType: typeof e.type === 'string' ? e.type : null,
      alias: typeof e.alias === 'string' ? e.alias : null,
      fileSize: typeof e.fileSize === 'number' ? e.fileSize : null,
      entries: Array.isArray(e.entries) ? (e.entries as KeystoreEntryView[]) : [],
    })),
  }
}

export async function listKeystores(deps: Deps, actor: Actor, projectName: string) {
  const access = await trustAccess(deps, actor, projectName, 'VIEW')
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  return (await listObjects(deps.prisma, access.project.id, 'KEY_STORE')).map((r) => keystoreView(r, envs))
}

export async function getKeystore(deps: Deps, actor: Actor, projectName: string, rawName: string) {
  const access = await trustAccess(deps, actor, projectName, 'VIEW')
  const name = requiredName(rawName, 'keystoreName')
  const row = await findObject(deps.prisma, access.project.id, 'KEY_STORE', name)
  if (!row) throw keystoreNotFound(name)
  return keystoreView(row, await environmentsOfProject(deps.prisma, access.project.id))
}

/** One entry's key material, the stored file opened again (for JWKs parsed from it). */
