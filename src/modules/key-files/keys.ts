import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { createKey, updateKey } from '../keys/crypto-keys.js'
import { parsePrivateKey, parsePublicKey } from '../keys/crypto/pem-keys.js'
import { decodeSecret, KEY_KINDS, LIST, SECRET_ALGORITHMS, type KeyKind } from '../keys/key-bodies.js'
import { keyNotFound } from '../keys/materials.js'
import { contentOf, environmentsOf, environmentsOfProject, findObject, optionalText, requiredName, unseal } from '../keys/store.js'
import { fileAccess, requireFileImport } from './access.js'
import { environmentDownload, environmentFiles, type DownloadFile, type UploadedFile } from './archive.js'
import { booleanField, oneOfAnyCase, textField } from './flags.js'

// Keys as files (api-reference/keys-secrets/crud/import-key-file, export-key-file): the upload becomes the body of the
// key create (or, with override, the update) and goes through its rules (key-bodies.ts); the download is the
// material itself: the PKCS#8 PEM of a PRIVATE_KEY, the SPKI PEM of a PUBLIC_KEY, the base64 of a SECRET_KEY.

export interface KeyFileInput {
  keyName?: unknown; keyType?: unknown; algorithm?: unknown; environmentList?: unknown; environmentMapping?: unknown
  keyDescription?: unknown; alias?: unknown; override?: unknown
}

const keyExists = (name: string) =>
  new DomainError('validation', 'keyAlreadyExists', `Key (name: ${name}) is already exist! Send override=true to update it.`, { keyName: name })

const BASE64 = /^[A-Za-z0-9+/=\s]+$/

/** The file as the create body's `content`: PEM text, base64 text, or the base64 of binary (DER, raw secret bytes); checked here so the refusal names the form field. */
function keyContent(bytes: Buffer, keyType: KeyKind, algorithm: string | null): string {
  const text = bytes.toString('utf8').trim()
  if (keyType === 'SECRET_KEY') {
    // base64 text of the key bytes (what the export writes), else the raw bytes themselves
    if (BASE64.test(text)) {
      try {
        decodeSecret(text, algorithm!, 'keyFile')
        return text
      } catch {
        // not the base64 of a key of that length: read the file as the raw bytes
      }
    }
    const raw = bytes.toString('base64')
    decodeSecret(raw, algorithm!, 'keyFile')
    return raw
  }
  const content = text.includes('-----BEGIN') || BASE64.test(text) ? text : bytes.toString('base64')
  try {
    if (keyType === 'PRIVATE_KEY') parsePrivateKey(content, 'keyFile', undefined, 'keyFile')
    else parsePublicKey(content, 'keyFile')
  } catch (err) {
    if (err instanceof DomainError && err.params.reason === 'notAKey') {
      throw malformed(`Key content is neither PEM nor valid Base64 for key type ${keyType}! Send the PEM content Base64-encoded.`, { field: 'keyFile', reason: 'notAKey' })
    }
    throw err
  }
  return content
}

/**
 * POST …/keys/import-file/: the file into every environment of environmentList, or the export's ZIP, each entry
 * into its environment. A new key, or with override=true the existing one, whose other environments keep theirs.
 */
export async function importKeyFile(deps: Deps, actor: Actor, projectName: string, input: KeyFileInput, file: UploadedFile | null) {
  const access = await fileAccess(deps, actor, projectName, true)
  const name = requiredName(input.keyName, 'keyName')
  const rawType = textField(input.keyType)
  if (!rawType) throw malformed('keyType value can not be empty!', { field: 'keyType' })
  if (!(KEY_KINDS as readonly string[]).includes(rawType)) throw malformed(`Unknown keyType (${rawType})! Supported values: ${KEY_KINDS.join(', ')}`, { field: 'keyType' })
  const keyType = rawType as KeyKind
  const override = booleanField(input.override, 'override')
  const givenAlgorithm = textField(input.algorithm)
  const algorithmAsked = givenAlgorithm ? oneOfAnyCase(givenAlgorithm, SECRET_ALGORITHMS, 'algorithm') : null
  const description = input.keyDescription === undefined ? undefined : optionalText(input.keyDescription, 'keyDescription')
  const alias = textField(input.alias)
  requireFileImport(access)
  if (!file?.bytes.length) throw malformed('keyFile value can not be empty!', { field: 'keyFile' })
  const current = await findObject(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO', name)
  if (current && !override) throw keyExists(name)
  if (!current && override) throw keyNotFound(name)
  const stored = current ? contentOf(current) : {}
  const algorithm = keyType !== 'SECRET_KEY' ? algorithmAsked : algorithmAsked ?? (stored.keyType === 'SECRET_KEY' && typeof stored.algorithm === 'string' ? stored.algorithm : null)
  if (keyType === 'SECRET_KEY' && !algorithm) throw malformed(`algorithm is required for SECRET_KEY! Supported values: ${SECRET_ALGORITHMS.join(', ')}`, { field: 'algorithm' })

  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  const { files, unresolved } = environmentFiles(file, envs, {
    field: 'keyFile', objectName: name, label: `key (${name})`, extension: 'pem', environmentList: input.environmentList, environmentMapping: input.environmentMapping,
  })
  const written = files.map((f) => ({ environmentName: f.environment.name, content: keyContent(f.bytes, keyType, algorithm), ...(alias ? { alias } : {}) }))
  // the environments the upload does not name keep their material (an entry without content keeps the stored one)
  const kept = Object.keys(current ? environmentsOf(current) : {}).filter((env) => !written.some((w) => w.environmentName === env)).map((environmentName) => ({ environmentName }))
  const body = {
    name, keyType, ...(keyType === 'SECRET_KEY' ? { algorithm } : {}), ...(description !== undefined ? { description } : {}), [LIST]: [...kept, ...written],
  }
  const w = current
    ? await updateKey(deps, actor, projectName, name, body, { updateReferencedJwks: false, updateScope: null })
    : await createKey(deps, actor, projectName, body)
  return { outcome: w.outcome, key: w.key, unresolvedReferences: unresolved }
}

/** GET …/keys/{keyName}/export-file/: one environment's key file, or every environment's in `<keyName>-keys.zip`. */
export async function exportKeyFile(deps: Deps, actor: Actor, projectName: string, rawName: string, environmentName?: string): Promise<DownloadFile> {
  const access = await fileAccess(deps, actor, projectName, false)
  const name = requiredName(rawName, 'keyName')
  const row = await findObject(deps.prisma, access.project.id, 'CRYPTO_KEY_INFO', name)
  if (!row) throw keyNotFound(name)
  const material = new Map<string, { bytes: Buffer; extension: string }>()
  for (const [env, entry] of Object.entries(environmentsOf(row)).sort(([a], [b]) => a.localeCompare(b))) {
    const secret = unseal(deps, entry.secretKey)
    const text = unseal(deps, entry.privateKey) ?? (typeof entry.publicKey === 'string' ? entry.publicKey : null) ?? (secret ? `${secret}\n` : null)
    if (text) material.set(env, { bytes: Buffer.from(text), extension: 'pem' })
  }
  return environmentDownload(name, material, environmentName, { contentType: 'application/x-pem-file' }, 'keys')
}
