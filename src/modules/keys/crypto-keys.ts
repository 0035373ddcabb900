import crypto from 'node:crypto'
import { z } from 'zod'
import type { StoredObject } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { parseKeyPair, parsePublicKey, pkcs8Pem, publicKeyFingerprint, spkiDer, spkiPem } from './crypto/pem-keys.js'
import { refreshReferencedJwks, type RefreshOptions } from './jwk-refresh.js'
import {
  createObject, contentOf, environmentsOf, environmentsOfProject, findObject, isRecord, listObjects, optionalText, pickEnvironment, pushPerEnvironment,
  checkBody, requireBody, requiredName, seal, trustAccess, unseal, updateObject, type EnvironmentPush, type ProjectEnvironment,
} from './store.js'
import { keyNotFound } from './materials.js'


// Keys (kind CRYPTO_KEY_INFO): an RSA or EC key per environment, given as PEM (PKCS#1, PKCS#8, encrypted PKCS#8
// with its password, SEC1, SPKI) or base64 of PEM or DER. The private key is sealed at rest (as unencrypted
// PKCS#8 under the master key) and never answered: reads show the public key and what it is.

export const KEY_TYPES = ['RSA', 'EC'] as const

const keyExists = (name: string) =>
  new DomainError('validation', 'keyAlreadyExists', `Key (name: ${name}) is already exist! Try update operation if want to change its value.`, { name })

const LIST = 'cryptoKeyInfoEnvironmentList'

interface EntryContent {
  publicKey: string
  keyAlgorithm: string
  keySize: number | null
  curve: string | null
  publicKeyFingerprint: string
  privateKeyPresent: boolean
  privateKey?: string
}

/** The body of a key write (POST: name required; PUT: a new name renames): what parseKeyBody checks first. */
export const keyBodySchema = z.looseObject({
  name: z.string().optional().describe('The key name (required on create; on update a different name renames)'),
  description: z.string().max(2000).nullable().optional(),
  keyType: z.string().optional().describe(`${KEY_TYPES.join(' or ')} (any case); by default the algorithm of the first entry`),
  [LIST]: z.array(z.looseObject({
    environmentName: z.string(),
    publicKey: z.string().optional().describe('PEM (SPKI) or base64 of PEM or DER; derived from privateKey when absent'),
    privateKey: z.string().optional().describe('PEM (PKCS#1, PKCS#8, encrypted PKCS#8, SEC1) or base64; blank on update keeps the stored one'),
    password: z.string().optional().describe('the password of an encrypted PKCS#8 privateKey'),
  })).min(1),
}).meta({ id: 'KeyWriteBody' })

/** Reads and checks the body; `current` gives the stored private keys an update without one keeps. */
function parseKeyBody(deps: Deps, body: Record<string, unknown>, envs: ProjectEnvironment[], current: StoredObject | null) {
  checkBody(keyBodySchema, body)
  const description = optionalText(body.description, 'description')
  const keyTypeGiven = typeof body.keyType === 'string' && body.keyType.trim() ? body.keyType.trim().toUpperCase() : null
  if (keyTypeGiven && !(KEY_TYPES as readonly string[]).includes(keyTypeGiven)) throw malformed(`keyType '${String(body.keyType)}' is not supported: one of ${KEY_TYPES.join(', ')}`, { field: 'keyType' })
  const list = body[LIST]
  if (!Array.isArray(list) || !list.length) throw malformed(`${LIST} value can not be empty!`, { field: LIST })
  const stored = current ? environmentsOf(current) : {}
  const environments: Record<string, EntryContent> = {}
  let keyType = keyTypeGiven
  list.forEach((raw, i) => {
    const at = `${LIST}[${i}]`
    if (!isRecord(raw)) throw malformed(`${at} must be an object`, { field: at })
    const envName = requiredName(raw.environmentName, `${at}.environmentName`)
    const env = pickEnvironment(envs, envName)
    if (env.name in environments) throw malformed(`${at}.environmentName '${env.name}' is listed twice`, { field: `${at}.environmentName` })
    const str = (k: string) => (typeof raw[k] === 'string' && (raw[k] as string).trim() ? (raw[k] as string) : undefined)
    let entry: EntryContent
    const kept = stored[env.name]
    if (!str('privateKey') && kept && typeof kept.privateKey === 'string') {
      // an update without the private key keeps the stored one, unless a different public key replaces it
      const keptPublic = crypto.createPublicKey(String(kept.publicKey))
      if (str('publicKey') && !spkiDer(parsePublicKey(str('publicKey')!, `${at}.publicKey`)).equals(spkiDer(keptPublic))) {
        throw malformed(`${at}.publicKey differs from the stored key: give the matching privateKey too`, { field: `${at}.privateKey` })
      }
      entry = { ...(kept as unknown as EntryContent) }
    } else {
      const pair = parseKeyPair({ publicKey: str('publicKey'), privateKey: str('privateKey'), password: str('password') }, at)
      entry = {
        publicKey: spkiPem(pair.publicKey), keyAlgorithm: pair.keyAlgorithm, keySize: pair.keySize, curve: pair.curve,
        publicKeyFingerprint: publicKeyFingerprint(pair.publicKey), privateKeyPresent: !!pair.privateKey,
        ...(pair.privateKey ? { privateKey: seal(deps, pkcs8Pem(pair.privateKey)) } : {}),
      }
    }
    keyType ??= entry.keyAlgorithm
    if (entry.keyAlgorithm !== keyType) throw malformed(`${at} holds an ${entry.keyAlgorithm} key but keyType is ${keyType}`, { field: keyTypeGiven ? 'keyType' : at })
    environments[env.name] = entry
  })
  return { description, keyType, environments }
}

function pushesFor(deps: Deps, row: StoredObject, envs: ProjectEnvironment[], previous: string[] = []): EnvironmentPush[] {
  const current = environmentsOf(row)
  const byName = new Map(envs.map((e) => [e.name, e]))
  const keyType = contentOf(row).keyType
  const deploys = Object.entries(current).filter(([env]) => byName.has(env)).map(([env, entry]) => ({
    env: byName.get(env)!, action: 'DEPLOY' as const,
    config: { name: row.name, environmentName: env, keyType, publicKey: entry.publicKey, ...(entry.privateKey ? { privateKey: unseal(deps, entry.privateKey) } : {}) },
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
  const row = await createObject(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO', name, content, () => keyExists(name))
  const outcome = await pushPerEnvironment(deps, access, 'KEY', name, row.revision, pushesFor(deps, row, envs))
  return { outcome, key: keyView(row, envs), updatedJwks: [] as string[] }
}

/** Full replacement; a blank privateKey keeps the stored one of that environment; a new name renames. */
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
  const previous = Object.keys(environmentsOf(current))
  const row = await updateObject(deps.prisma, current, content, newName, () => keyExists(newName))
  const pushes = pushesFor(deps, row, envs, newName === name ? previous : [])
  if (newName !== name) pushes.push(...undeployAll(current, envs))
  const outcome = await pushPerEnvironment(deps, access, 'KEY', newName, row.revision, pushes)
  const updatedJwks = await refreshReferencedJwks(deps, access, row, refresh)
  return { outcome, key: keyView(row, envs), updatedJwks }
}

const undeployAll = (row: StoredObject, envs: ProjectEnvironment[]): EnvironmentPush[] =>
  Object.keys(environmentsOf(row)).flatMap((e) => {
    const env = envs.find((x) => x.name === e)
    return env ? [{ env, action: 'UNDEPLOY' as const, config: { name: row.name, environmentName: e } }] : []
  })

export async function deleteKey(deps: Deps, actor: Actor, projectName: string, rawName: string): Promise<DeploymentOutcome> {
  const access = await trustAccess(deps, actor, projectName, 'MANAGE')
  const name = requiredName(rawName, 'keyName')
  const row = await findObject(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO', name)
  if (!row) throw keyNotFound(name)
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  await deps.prisma.storedObject.delete({ where: { id: row.id } })
  return pushPerEnvironment(deps, access, 'KEY', name, row.revision + 1, undeployAll(row, envs))
}

export interface KeyEnvironmentView {
  environmentId: string | null
  environmentName: string
  publicKey: string | null
  keyAlgorithm: string | null
  keySize: number | null
  curve: string | null
  publicKeyFingerprint: string | null
  privateKeyPresent: boolean
}
export interface KeyView { name: string; description: string; projectId: string; keyType: string | null; cryptoKeyInfoEnvironmentList: KeyEnvironmentView[] }

/** Public parts and metadata only: the private key is write-only. */
export function keyView(row: StoredObject, envs: ProjectEnvironment[]): KeyView {
  const content = contentOf(row)
  const s = (v: unknown) => (typeof v === 'string' ? v : null)
  return {
    name: row.name,
    description: s(content.description) ?? '',
    projectId: row.projectId,
    keyType: s(content.keyType),
    cryptoKeyInfoEnvironmentList: Object.entries(environmentsOf(row)).sort(([a], [b]) => a.localeCompare(b)).map(([env, e]) => ({
      environmentId: envs.find((x) => x.name === env)?.id ?? null,
      environmentName: env,
      publicKey: s(e.publicKey),
      keyAlgorithm: s(e.keyAlgorithm),
      keySize: typeof e.keySize === 'number' ? e.keySize : null,
      curve: s(e.curve),
      publicKeyFingerprint: s(e.publicKeyFingerprint),
      privateKeyPresent: e.privateKeyPresent === true || (typeof e.privateKey === 'string' && !!e.privateKey),
    })),
  }
}

export async function listKeys(deps: Deps, actor: Actor, projectName: string) {
  const access = await trustAccess(deps, actor, projectName, 'VIEW')
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  return (await listObjects(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO')).map((r) => keyView(r, envs))
}

export async function getKey(deps: Deps, actor: Actor, projectName: string, rawName: string) {
  const access = await trustAccess(deps, actor, projectName, 'VIEW')
  const name = requiredName(rawName, 'keyName')
  const row = await findObject(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO', name)
  if (!row) throw keyNotFound(name)
  return keyView(row, await environmentsOfProject(deps.prisma, access.project.id))
}

/** The key objects of one environment of a stored key (for JWKs parsed from it). */
