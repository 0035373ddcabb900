import { z } from 'zod'
import type { StoredObject } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import type { ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps } from '../../platform/context.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import {
  algorithmFor, EC_CURVES, generateJwk, JWK_TYPES, jwkTypeOf, KEY_ID_TYPES, keyIdFor, OKP_CURVES, splitJwk, USE_TYPES,
  type Jwk, type JwkType, type KeyIdType, type UseType,
} from './crypto/jwk-material.js'
import { jwkGenerateBodySchema, jwkSourceBodyOf } from './jwk-bodies.js'
import { fromCertificateRow, fromKeyRow, fromKeystoreRow, fromUrl, selectJwk, sourceRow, type DerivedJwk, type SourceType, SOURCE_TYPES } from './jwk-sources.js'
import {
  checkBody, contentOf, createObject, environmentsOfProject, findObject, isRecord, listObjects, optionalText, pushPerEnvironment, requireBody,
  seal, trustAccess, unseal, updateObject, type ProjectEnvironment,
  refuseWhileCredentialsName,
} from './store.js'

// JWKs (kind JWK): generated, or parsed from a source. The public members are shown; the private ones (d, p,
// q…, an oct key's k) are sealed at rest, pushed to the gateway opened, and never answered on any door.

const jwkExists = (name: string) =>
  new DomainError('validation', 'jwkAlreadyExists', `JWK (name: ${name}) is already exist! Try update operation if want to change its value.`, { name })
export const jwkNotFound = (name: string, hint = '') => new DomainError('validation', 'jwkNotFound', `JWK (name: ${name}) is not found!${hint}`, { jwkName: name })

function jwkName(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) throw malformed('JWK name can not be empty!', { field: 'name' })
  if (/[/\\?#%\u0000-\u001f]/.test(value) || value.trim().length > 200) throw malformed('name must be a name without / \\ ? # % or control characters, at most 200 characters', { field: 'name' })
  return value.trim()
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const v = typeof value === 'string' ? value.trim().toUpperCase() : ''
  const found = allowed.find((a) => a.toUpperCase() === v)
  if (!found) throw malformed(`${field} '${String(value)}' is not supported: one of ${allowed.join(', ')}`, { field })
  return found
}

function dateOf(value: unknown, field: string): Date | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const d = typeof value === 'string' || typeof value === 'number' ? new Date(value) : new Date(NaN)
  if (Number.isNaN(d.getTime())) throw malformed(`${field} must be an ISO 8601 date-time`, { field })
  return d
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

interface JwkMeta { use?: UseType; algorithm?: string; kid?: string; keyIdType: KeyIdType; notBefore?: Date; expiration?: Date; prefix: string }

/** Saves a derived or generated key under `name` and pushes it to every environment of the project. */
async function persist(deps: Deps, access: ProjectAccess, name: string, description: string, derived: DerivedJwk, meta: JwkMeta) {
  const jwk = derived.jwk
  const type = jwkTypeOf(jwk.kty)
  const crv = typeof jwk.crv === 'string' ? jwk.crv : undefined
  const use = meta.use ?? (jwk.use === 'enc' ? 'ENCRYPTION' : jwk.use === 'sig' ? 'SIGNATURE' : undefined)
  const octBits = type === 'OCT' ? Buffer.from(String(jwk.k), 'base64url').length * 8 : undefined
  const alg = use ? algorithmFor(type, use, meta.algorithm ?? str(jwk.alg), crv, `${meta.prefix}algorithm`, octBits) : str(jwk.alg) ?? null
  const { publicJwk, privateMembers } = splitJwk(jwk)
  const kid = meta.kid ?? str(jwk.kid) ?? (await keyIdFor(meta.keyIdType, jwk))
  if (meta.notBefore && meta.expiration && meta.expiration <= meta.notBefore) {
    throw malformed(`${meta.prefix}expirationTime must be after ${meta.prefix}notBeforeTime`, { field: `${meta.prefix}expirationTime` })
  }
  const keyMembers = Object.fromEntries(Object.entries(publicJwk).filter(([k]) => !['kid', 'use', 'alg', 'key_ops'].includes(k)))
  const content = {
    description,
    sourceType: derived.sourceType, sourceId: derived.sourceId, sourceUrl: derived.sourceUrl,
    sourceEnvironment: derived.sourceEnvironment, sourceAlias: derived.sourceAlias,
    type, kid, use: use ?? null, alg, keyIdType: meta.keyIdType,
    notBeforeTime: meta.notBefore?.toISOString() ?? null, expirationTime: meta.expiration?.toISOString() ?? null,
    keySize: type === 'OCT' ? octBits : type === 'RSA' ? Buffer.from(String(jwk.n), 'base64url').length * 8 : null,
    publicJwk: keyMembers,
    ...(privateMembers ? { privateJwk: seal(deps, JSON.stringify(privateMembers)) } : {}),
  }
  const row = await createObject(deps.prisma, access.project.id, 'JWK', name, content, () => jwkExists(name))
  return { row, outcome: await pushJwk(deps, access, row, 'DEPLOY') }
}

/** The gateway's form: the whole JWK, private members opened, with kid, use, alg and the validity window. */
export function runtimeJwk(deps: Deps, row: StoredObject): Jwk {
  const c = contentOf(row)
  const secret = unseal(deps, c.privateJwk)
  const use = c.use === 'SIGNATURE' ? 'sig' : c.use === 'ENCRYPTION' ? 'enc' : undefined
  return {
    ...(isRecord(c.publicJwk) ? c.publicJwk : {}), ...(secret ? (JSON.parse(secret) as Record<string, unknown>) : {}),
    ...(c.kid ? { kid: c.kid } : {}), ...(use ? { use } : {}), ...(c.alg ? { alg: c.alg } : {}),
  } as Jwk
}

async function pushJwk(deps: Deps, access: ProjectAccess, row: StoredObject, action: 'DEPLOY' | 'UNDEPLOY', envs?: ProjectEnvironment[]) {
  const environments = envs ?? (await environmentsOfProject(deps.prisma, access.project.id))
  const c = contentOf(row)
  const config = action === 'UNDEPLOY' ? { name: row.name } : { name: row.name, jwk: runtimeJwk(deps, row), notBeforeTime: c.notBeforeTime ?? null, expirationTime: c.expirationTime ?? null }
  return pushPerEnvironment(deps, access, 'JWK', row.name, row.revision, environments.map((env) => ({ env, action, config })))
}

/** The caller's access, then the body's field types (`schema`, jwk-bodies.ts), then the name and description. */
async function openCreate(deps: Deps, actor: Actor, projectName: string, body: Record<string, unknown>, schema: z.ZodType) {
  const access = await trustAccess(deps, actor, projectName, 'MANAGE')
  checkBody(schema, body)
  const name = jwkName(body.name)
  const description = optionalText(body.description, 'description')
  return { access, name, description }
}

const requiredField = (body: Record<string, unknown>, field: string, sourceType: string) => {
  const v = str(body[field])
  if (!v) throw malformed(`${field} is required for ${sourceType} source type!`, { field })
  return v
}

/**
 * POST /jwks/ and the parse-from-* doors: the body names its source (`sourceType`, or the door fixes it).
 * The key's use and algorithm are required for certificate, key and keystore sources (the page's table).
 */
export async function createJwk(deps: Deps, actor: Actor, projectName: string, raw: unknown, fixedSource?: SourceType | 'KEY') {
  const body = requireBody(raw)
  const { access, name, description } = await openCreate(deps, actor, projectName, body, jwkSourceBodyOf(fixedSource))
  const given = fixedSource ?? oneOf(body.sourceType, SOURCE_TYPES, 'sourceType')
  if (!given) throw malformed('Source type is required!', { field: 'sourceType' })
  if (given === 'GENERATE') throw malformed('sourceType GENERATE is not created here: use POST /jwks/generate', { field: 'sourceType' })
  const fromProject = ['CERTIFICATE', 'PUBLIC_KEY', 'PRIVATE_KEY', 'KEYSTORE', 'KEY'].includes(given)
  const use = oneOf(body.useType, USE_TYPES, 'useType')
  const algorithm = str(body.algorithm)
  const kid = str(body.kid)
  if (given === 'URL' && !str(body.url)) throw malformed('URL is required for URL source type!', { field: 'url' })
  if (given === 'COPY_PASTE') requiredField(body, 'jwkStr', 'COPY_PASTE')
  if (fromProject) {
    requiredField(body, { CERTIFICATE: 'certificateName', KEYSTORE: 'keyStoreName' }[given as string] ?? 'keyName', given)
    requiredField(body, 'environmentName', given)
    if (given === 'KEYSTORE') requiredField(body, 'aliasName', given)
    if (!use) throw malformed(`useType is required for ${given} source type!`, { field: 'useType' })
    if (!algorithm) throw malformed(`algorithm is required for ${given} source type!`, { field: 'algorithm' })
  }
  const keyIdType = oneOf(body.keyIdType, KEY_ID_TYPES, 'keyIdType') ?? 'SHA256'
  const notBefore = dateOf(body.notBeforeTime, 'notBeforeTime')
  const expiration = dateOf(body.expirationTime, 'expirationTime')
  if (await findObject(deps.prisma, access.project.id, 'JWK', name)) throw jwkExists(name)
  const envName = str(body.environmentName) ?? ''
  let derived: DerivedJwk
  switch (given) {
    case 'URL': derived = await fromUrl(deps, body.url, kid, body); break
    case 'COPY_PASTE': derived = { jwk: selectJwk(String(body.jwkStr), kid, 'jwkStr'), sourceType: 'COPY_PASTE', sourceId: null, sourceUrl: null, sourceEnvironment: null, sourceAlias: null }; break
    case 'CERTIFICATE': derived = fromCertificateRow(await sourceRow(deps, access.project.id, 'CERTIFICATE', body.certificateName, 'certificateName'), envName); break
    case 'KEYSTORE': derived = fromKeystoreRow(deps, await sourceRow(deps, access.project.id, 'KEY_STORE', body.keyStoreName, 'keyStoreName'), envName, str(body.aliasName)!); break
    default: {
      const row = await sourceRow(deps, access.project.id, 'CRYPTO_KEY_INFO', body.keyName, 'keyName')
      // parse-from-key takes the private key when the environment has one
      const type = given === 'KEY' ? (typeof (contentOf(row).environments as Record<string, Record<string, unknown>> | undefined)?.[envName]?.privateKey === 'string' ? 'PRIVATE_KEY' : 'PUBLIC_KEY') : given
      derived = fromKeyRow(deps, row, envName, type)
    }
  }
  // from a document (URL, COPY_PASTE) the kid picks the key and stays its kid; a key of the document without a kid of
  // its own takes the given one (the pages read back the kid they sent), else one made by keyIdType
  const fromSet = given === 'URL' || given === 'COPY_PASTE'
  const { row, outcome } = await persist(deps, access, name, description, derived, {
    use, algorithm, kid: fromSet && str(derived.jwk.kid) ? undefined : kid, keyIdType, notBefore, expiration, prefix: '',
  })
  return { outcome, jwk: jwkView(row, true) }
}

const GENERATE_PARAMS: Record<JwkType, 'rsa' | 'ec' | 'oct' | 'okp'> = { RSA: 'rsa', EC: 'ec', OCT: 'oct', OKP: 'okp' }

/** POST /jwks/generate: a new key of `type` with the parameters of its object (rsa, ec, oct or okp). */
export async function generateJwkObject(deps: Deps, actor: Actor, projectName: string, raw: unknown) {
  const body = requireBody(raw)
  const { access, name, description } = await openCreate(deps, actor, projectName, body, jwkGenerateBodySchema)
  if (!str(body.type)) throw malformed('JWK type can not be empty!', { field: 'type' })
  const type = oneOf(body.type, JWK_TYPES, 'type')!
  const key = GENERATE_PARAMS[type]
  const params = body[key] ?? {}
  if (!isRecord(params)) throw malformed(`${key} must be an object with the ${type} parameters`, { field: key })
  const p = `${key}.`
  let keySize: number | undefined
  let curveType: string | undefined
  if (type === 'RSA' || type === 'OCT') {
    const sizes = type === 'RSA' ? [2048, 3072, 4096] : [128, 192, 256, 384, 512]
    keySize = params.keySize === undefined && type === 'OCT' ? 256 : (params.keySize as number)
    if (!sizes.includes(keySize)) throw malformed(`${p}keySize must be one of ${sizes.join(', ')}`, { field: `${p}keySize` })
  } else {
    const curves = type === 'EC' ? Object.keys(EC_CURVES) : [...OKP_CURVES]
    curveType = oneOf(params.curveType ?? params.curve, curves, `${p}curveType`)
    if (!curveType) throw malformed(`${p}curveType value can not be empty! One of ${curves.join(', ')}`, { field: `${p}curveType` })
  }
  const use = oneOf(params.keyUseType, USE_TYPES, `${p}keyUseType`) ?? (type === 'OKP' && curveType === 'X25519' ? 'ENCRYPTION' : 'SIGNATURE')
  const keyIdType = oneOf(params.keyIdType, KEY_ID_TYPES, `${p}keyIdType`) ?? 'TIMESTAMP'
  const notBefore = dateOf(params.notBeforeTime, `${p}notBeforeTime`) ?? new Date()
  const expiration = dateOf(params.expirationTime, `${p}expirationTime`) ?? new Date(notBefore.getTime() + 365 * 24 * 3600 * 1000)
  const crv = type === 'EC' ? EC_CURVES[curveType!]!.jose : type === 'OKP' ? (curveType === 'X25519' ? 'X25519' : 'Ed25519') : undefined
  const algorithm = algorithmFor(type, use, str(params.algorithm), crv, `${p}algorithm`, keySize)
  if (await findObject(deps.prisma, access.project.id, 'JWK', name)) throw jwkExists(name)
  const jwk = await generateJwk(type, { keySize, curveType })
  const derived: DerivedJwk = { jwk, sourceType: 'GENERATE', sourceId: null, sourceUrl: null, sourceEnvironment: null, sourceAlias: null }
  const { row, outcome } = await persist(deps, access, name, description, derived, { use, algorithm, kid: str(body.kid), keyIdType, notBefore, expiration, prefix: p })
  return { outcome, jwk: jwkView(row, true) }
}

/** The body of PUT /jwks/{jwkName}/: what updateJwk checks first. */
export const jwkUpdateBodySchema = z.looseObject({
  name: z.string().nullable().optional().describe('a new name renames; blank keeps the name'),
  description: z.string().max(2000).nullable().optional().describe('absent keeps the description'),
}).meta({ id: 'JwkUpdateBody' })

/** Name and description only; a JWK taken from a source is detached from it (no longer refreshed with it). */
export async function updateJwk(deps: Deps, actor: Actor, projectName: string, rawName: string, raw: unknown) {
  const access = await trustAccess(deps, actor, projectName, 'MANAGE')
  const name = jwkName(rawName)
  const body = requireBody(raw)
  checkBody(jwkUpdateBodySchema, body)
  const current = await findObject(deps.prisma, access.project.id, 'JWK', name)
  if (!current) throw jwkNotFound(name, ' Try create operation.')
  const newName = body.name === undefined || body.name === null || body.name === '' ? name : jwkName(body.name)
  const content = contentOf(current)
  const description = body.description === undefined ? content.description : optionalText(body.description, 'description')
  const taken = () => new DomainError('validation', 'jwkAlreadyExists', `JWK (name: ${newName}) is already exist!`, { name: newName })
  if (newName !== name && (await findObject(deps.prisma, access.project.id, 'JWK', newName))) throw taken()
  if (newName !== name) await refuseWhileCredentialsName(deps.prisma, current, 'renamed')
  const row = await updateObject(deps.prisma, current, { ...content, description, sourceId: null }, newName, taken)
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  const outcome = await pushJwk(deps, access, row, 'DEPLOY', envs)
  if (newName !== name) await pushJwk(deps, access, current, 'UNDEPLOY', envs)
  return { outcome, jwk: jwkView(row, true) }
}

export async function deleteJwk(deps: Deps, actor: Actor, projectName: string, rawName: string): Promise<DeploymentOutcome> {
  const access = await trustAccess(deps, actor, projectName, 'MANAGE')
  const name = jwkName(rawName)
  const row = await findObject(deps.prisma, access.project.id, 'JWK', name)
  if (!row) throw jwkNotFound(name)
  await refuseWhileCredentialsName(deps.prisma, row, 'deleted')
  await deps.prisma.storedObject.delete({ where: { id: row.id } })
  return pushJwk(deps, access, { ...row, revision: row.revision + 1 }, 'UNDEPLOY')
}

/** Undeploys JWKs already deleted (with the object they were taken from), each from every environment of the project. */
export function undeployJwks(deps: Deps, access: ProjectAccess, rows: StoredObject[], envs: ProjectEnvironment[]): Promise<DeploymentOutcome[]> {
  return Promise.all(rows.map((row) => pushJwk(deps, access, { ...row, revision: row.revision + 1 }, 'UNDEPLOY', envs)))
}

export interface JwkView {
  name: string; description: string; projectId: string
  sourceType: string | null; sourceId: string | null; sourceUrl: string | null
  type: string | null; kid: string | null; use: string | null; alg: string | null
  notBeforeTime: string | null; expirationTime: string | null; privateKeyPresent: boolean
  rsa?: Record<string, unknown>; ec?: Record<string, unknown>; oct?: Record<string, unknown>; okp?: Record<string, unknown>
  jwk?: Record<string, unknown>
}

/** Public members only; `withMaterial` adds the key object of its type (the page's rsa/ec/oct/okp) and the public JWK. */
export function jwkView(row: StoredObject, withMaterial: boolean): JwkView {
  const c = contentOf(row)
  const s = (v: unknown) => (typeof v === 'string' && v ? v : null)
  const type = s(c.type)
  const publicJwk = isRecord(c.publicJwk) ? c.publicJwk : {}
  const view: JwkView = {
    name: row.name, description: s(c.description) ?? '', projectId: row.projectId,
    sourceType: s(c.sourceType), sourceId: s(c.sourceId), sourceUrl: s(c.sourceUrl),
    type, kid: s(c.kid), use: s(c.use), alg: s(c.alg), notBeforeTime: s(c.notBeforeTime), expirationTime: s(c.expirationTime),
    privateKeyPresent: typeof c.privateJwk === 'string' && !!c.privateJwk,
  }
  if (!withMaterial || !type) return view
  const members = type === 'OCT' ? { keySize: c.keySize ?? null } : { ...publicJwk, ...(type === 'RSA' ? { keySize: c.keySize ?? null } : {}) }
  const slot = GENERATE_PARAMS[type as JwkType]
  if (slot) view[slot] = members
  if (type !== 'OCT') {
    const use = c.use === 'SIGNATURE' ? 'sig' : c.use === 'ENCRYPTION' ? 'enc' : undefined
    view.jwk = { ...publicJwk, ...(view.kid ? { kid: view.kid } : {}), ...(use ? { use } : {}), ...(view.alg ? { alg: view.alg } : {}) }
  }
  return view
}

export async function listJwks(deps: Deps, actor: Actor, projectName: string) {
  const access = await trustAccess(deps, actor, projectName, 'VIEW')
  return (await listObjects(deps.prisma, access.project.id, 'JWK')).map((r) => jwkView(r, false))
}

export async function getJwk(deps: Deps, actor: Actor, projectName: string, rawName: string) {
  const access = await trustAccess(deps, actor, projectName, 'VIEW')
  const name = jwkName(rawName)
  const row = await findObject(deps.prisma, access.project.id, 'JWK', name)
  if (!row) throw jwkNotFound(name)
  return jwkView(row, true)
}

/** Re-derives a JWK from its (updated) source, keeping its name, kid, use and algorithm; pushes it. */
export async function refreshFromSource(deps: Deps, access: ProjectAccess, jwkRow: StoredObject, source: StoredObject): Promise<void> {
  const c = contentOf(jwkRow)
  const env = String(c.sourceEnvironment ?? '')
  const derived = source.kind === 'CERTIFICATE' ? fromCertificateRow(source, env)
    : source.kind === 'KEY_STORE' ? fromKeystoreRow(deps, source, env, String(c.sourceAlias ?? ''))
      : fromKeyRow(deps, source, env, c.sourceType === 'PRIVATE_KEY' ? 'PRIVATE_KEY' : 'PUBLIC_KEY')
  const { publicJwk, privateMembers } = splitJwk(derived.jwk)
  const keyMembers = Object.fromEntries(Object.entries(publicJwk).filter(([k]) => !['kid', 'use', 'alg', 'key_ops'].includes(k)))
  const next: Record<string, unknown> = { ...c, publicJwk: keyMembers }
  if (privateMembers) next.privateJwk = seal(deps, JSON.stringify(privateMembers))
  else delete next.privateJwk
  const row = await updateObject(deps.prisma, jwkRow, next)
  await pushJwk(deps, access, row, 'DEPLOY')
}
