import type { SearchQuery } from '../../platform/envelopes/paging.js'
import type { StoredObject } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { DomainError } from '../../platform/errors/domain-error.js'
import { deleteSourceAndJwks, jwkDeleteAction, refreshReferencedJwks, type RefreshOptions } from './jwk-refresh.js'
import { kindOf, parseKeyBody, type KeyKind } from './key-bodies.js'
import {
  createObject, contentOf, environmentsOf, environmentsOfProject, findObject, listObjects, pageObjects, pushPerEnvironment,
  refuseWhileCredentialsName, requireBody, requiredName, trustAccess, unseal, updateObject, type EnvironmentPush, type ProjectEnvironment,
} from './store.js'
import { keyNotFound } from './materials.js'

// Keys (kind CRYPTO_KEY_INFO), as api-reference/keys-secrets/crud/*-key have them: a SECRET_KEY (AES, DES, DESede or
// RSA bytes), a PRIVATE_KEY or a PUBLIC_KEY (RSA or EC) per environment, with an alias; the bodies are key-bodies.ts.
// Private and secret material is sealed at rest and never answered: reads show the public key and what it is.

export { keyBodySchema } from './key-bodies.js'

const keyExists = (name: string) =>
  new DomainError('validation', 'keyAlreadyExists', `Key (name: ${name}) is already exist! Try update operation if want to change its value.`, { name })

function pushesFor(deps: Deps, row: StoredObject, envs: ProjectEnvironment[], previous: string[] = []): EnvironmentPush[] {
  const current = environmentsOf(row)
  const byName = new Map(envs.map((e) => [e.name, e]))
  const keyType = kindOf(row)
  const algorithm = contentOf(row).algorithm ?? null
  const deploys = Object.entries(current).filter(([env]) => byName.has(env)).map(([env, entry]) => ({
    env: byName.get(env)!, action: 'DEPLOY' as const,
    config: {
      name: row.name, environmentName: env, keyType, algorithm, keyAlgorithm: entry.keyAlgorithm ?? null, alias: entry.alias ?? null, publicKey: entry.publicKey ?? null,
      ...(entry.privateKey ? { privateKey: unseal(deps, entry.privateKey) } : {}),
      ...(entry.secretKey ? { secretKey: unseal(deps, entry.secretKey) } : {}),
    },
  }))
  const undeploys = previous.filter((e) => !(e in current) && byName.has(e)).map((e) => ({ env: byName.get(e)!, action: 'UNDEPLOY' as const, config: { name: row.name, environmentName: e } }))
  return [...deploys, ...undeploys]
}

export async function createKey(deps: Deps, actor: Actor, projectName: string, raw: unknown) {
  const access = await trustAccess(deps, actor, projectName, 'MANAGE')
  const body = requireBody(raw)
  const name = requiredName(body.name, 'name')
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  if (await findObject(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO', name)) throw keyExists(name)
  const content = parseKeyBody(deps, body, envs, null)
  const row = await createObject(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO', name, { ...content }, () => keyExists(name))
  const outcome = await pushPerEnvironment(deps, access, 'KEY', name, row.revision, pushesFor(deps, row, envs))
  return { outcome, key: keyView(row, envs), updatedJwks: [] as string[] }
}

/** The given fields replace the stored ones (absent ones are kept, as is the material of an entry without it); a new name renames. */
export async function updateKey(deps: Deps, actor: Actor, projectName: string, rawName: string, raw: unknown, refresh: RefreshOptions) {
  const access = await trustAccess(deps, actor, projectName, 'MANAGE')
  const name = requiredName(rawName, 'keyName')
  const body = requireBody(raw)
  const current = await findObject(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO', name)
  if (!current) throw keyNotFound(name)
  const newName = typeof body.name === 'string' && body.name.trim() ? requiredName(body.name, 'name') : name
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  const content = parseKeyBody(deps, body, envs, current)
  if (newName !== name && (await findObject(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO', newName))) throw keyExists(newName)
  if (newName !== name) await refuseWhileCredentialsName(deps.prisma, current, 'renamed')
  if (content.keyType !== kindOf(current)) await refuseWhileCredentialsName(deps.prisma, current, 'changed to another keyType')
  const previous = Object.keys(environmentsOf(current))
  const row = await updateObject(deps.prisma, current, { ...content }, newName, () => keyExists(newName))
  const pushes = pushesFor(deps, row, envs, newName === name ? previous : [])
  if (newName !== name) pushes.push(...undeployAll(current, envs))
  const outcome = await pushPerEnvironment(deps, access, 'KEY', newName, row.revision, pushes)
  const updatedJwks = await refreshReferencedJwks(deps, access, row, refresh)
  return { outcome, key: keyView(row, envs), updatedJwks }
}

const undeployAll = (row: StoredObject, envs: ProjectEnvironment[]): EnvironmentPush[] =>
  Object.keys(environmentsOf(row)).flatMap((e) => {
    const env = envs.find((x) => x.name === e)
    return env ? [{ env, action: 'UNDEPLOY' as const, name: row.name, config: { name: row.name, environmentName: e } }] : []
  })

/** `jwkDeleteAction` says what becomes of the JWKs taken from it (jwk-refresh.ts): detached (NULLIFY, the default) or deleted. */
export async function deleteKey(deps: Deps, actor: Actor, projectName: string, rawName: string, rawJwkDeleteAction?: unknown): Promise<DeploymentOutcome> {
  const access = await trustAccess(deps, actor, projectName, 'MANAGE')
  const name = requiredName(rawName, 'keyName')
  const action = jwkDeleteAction(rawJwkDeleteAction)
  const row = await findObject(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO', name)
  if (!row) throw keyNotFound(name)
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  return deleteSourceAndJwks(deps, access, row, action, () => pushPerEnvironment(deps, access, 'KEY', name, row.revision + 1, undeployAll(row, envs)))
}

export interface KeyEnvironmentView {
  environmentId: string | null
  environmentName: string
  alias: string | null
  /** the pages' origin marker of an entry merged by an import: never set here */
  source: string | null
  publicKey: string | null
  keyAlgorithm: string | null
  keySize: number | null
  curve: string | null
  publicKeyFingerprint: string | null
  privateKeyPresent: boolean
  secretKeyPresent: boolean
}
export interface KeyView {
  id: string; name: string; description: string; projectId: string; keyType: KeyKind; algorithm: string | null; cryptoKeyInfoEnvironmentList: KeyEnvironmentView[]
}

/** Public parts and metadata only: the private and secret keys are write-only. */
export function keyView(row: StoredObject, envs: ProjectEnvironment[]): KeyView {
  const content = contentOf(row)
  const s = (v: unknown) => (typeof v === 'string' ? v : null)
  const keyType = kindOf(row)
  return {
    id: row.id,
    name: row.name,
    description: s(content.description) ?? '',
    projectId: row.projectId,
    keyType,
    algorithm: keyType === 'SECRET_KEY' ? s(content.algorithm) : null,
    cryptoKeyInfoEnvironmentList: Object.entries(environmentsOf(row)).sort(([a], [b]) => a.localeCompare(b)).map(([env, e]) => ({
      environmentId: envs.find((x) => x.name === env)?.id ?? null,
      environmentName: env,
      alias: s(e.alias),
      source: null,
      publicKey: s(e.publicKey),
      keyAlgorithm: s(e.keyAlgorithm),
      keySize: typeof e.keySize === 'number' ? e.keySize : null,
      curve: s(e.curve),
      publicKeyFingerprint: s(e.publicKeyFingerprint),
      privateKeyPresent: e.privateKeyPresent === true || (typeof e.privateKey === 'string' && !!e.privateKey),
      secretKeyPresent: typeof e.secretKey === 'string' && !!e.secretKey,
    })),
  }
}

export async function listKeys(deps: Deps, actor: Actor, projectName: string) {
  const access = await trustAccess(deps, actor, projectName, 'VIEW')
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  return (await listObjects(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO')).map((r) => keyView(r, envs))
}

/** One page of listKeys, searched by name. */
export async function pageKeys(deps: Deps, actor: Actor, projectName: string, query: SearchQuery) {
  const access = await trustAccess(deps, actor, projectName, 'VIEW')
  const [page, envs] = await Promise.all([pageObjects(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO', query), environmentsOfProject(deps.prisma, access.project.id)])
  return { ...page, items: page.items.map((r) => keyView(r, envs)) }
}

export async function getKey(deps: Deps, actor: Actor, projectName: string, rawName: string) {
  const access = await trustAccess(deps, actor, projectName, 'VIEW')
  const name = requiredName(rawName, 'keyName')
  const row = await findObject(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO', name)
  if (!row) throw keyNotFound(name)
  return keyView(row, await environmentsOfProject(deps.prisma, access.project.id))
}

/** The key objects of one environment of a stored key (for JWKs parsed from it). */
