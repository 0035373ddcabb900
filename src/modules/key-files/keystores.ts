import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { KEYSTORE_TYPES, openKeystore, type KeystoreType } from '../keys/crypto/keystore-files.js'
import { createKeystore, MAX_KEYSTORE_BYTES, updateKeystore } from '../keys/keystores.js'
import { keystoreNotFound } from '../keys/materials.js'
import { contentOf, environmentsOf, environmentsOfProject, findObject, optionalText, requiredName, unseal } from '../keys/store.js'
import { fileAccess, requireFileImport } from './access.js'
import { environmentDownload, environmentFiles, type DownloadFile, type UploadedFile } from './archive.js'
import { booleanField, oneOfAnyCase, textField } from './flags.js'

// Keystores as files (api-reference/keys-secrets/crud/import-keystore-file, export-keystore-file): the .jks, .p12 or
// .pfx upload becomes the body of the keystore create (or, with override, the update) and goes through its rules
// (keystores.ts); the download is the stored file, byte for byte, with the extension it was uploaded with.

export interface KeystoreFileInput {
  keystoreName?: unknown; password?: unknown; environmentList?: unknown; environmentMapping?: unknown; keyStoreType?: unknown
  keystoreDescription?: unknown; alias?: unknown; override?: unknown
}

const keystoreExists = (name: string) =>
  new DomainError('validation', 'keystoreAlreadyExists', `Keystore (name: ${name}) is already exist! Send override=true to update it.`, { keystoreName: name })

const EXTENSION_TYPES: Record<string, KeystoreType> = { jks: 'JKS', keystore: 'JKS', p12: 'PKCS12', pfx: 'PKCS12' }
const extensionOf = (fileName: string | undefined) => /\.([^./]+)$/.exec(fileName ?? '')?.[1]?.toLowerCase()

/** The given type, else the file's extension's; none leaves it to the file's own signature. */
function keystoreType(given: string | undefined, fileName: string): KeystoreType | undefined {
  if (given) return oneOfAnyCase(given, KEYSTORE_TYPES, 'keyStoreType')
  return EXTENSION_TYPES[extensionOf(fileName) ?? '']
}

/**
 * POST …/keystores/import-file/: the file into every environment of environmentList, or the export's ZIP, each entry
 * into its environment, opened with `password`. A new keystore, or with override=true the existing one, whose other
 * environments keep theirs.
 */
export async function importKeystoreFile(deps: Deps, actor: Actor, projectName: string, input: KeystoreFileInput, file: UploadedFile | null) {
  const access = await fileAccess(deps, actor, projectName, true)
  const name = requiredName(input.keystoreName, 'keystoreName')
  if (typeof input.password !== 'string' || !input.password) throw malformed('password value can not be empty!', { field: 'password' })
  const password = input.password
  const givenType = textField(input.keyStoreType)
  if (givenType) oneOfAnyCase(givenType, KEYSTORE_TYPES, 'keyStoreType')
  const override = booleanField(input.override, 'override')
  const description = input.keystoreDescription === undefined ? undefined : optionalText(input.keystoreDescription, 'keystoreDescription')
  const alias = textField(input.alias)
  requireFileImport(access)
  if (!file?.bytes.length) throw malformed('keystoreFile value can not be empty!', { field: 'keystoreFile' })
  const current = await findObject(deps.prisma, access.project.id, 'KEY_STORE', name)
  if (current && !override) throw keystoreExists(name)
  if (!current && override) throw keystoreNotFound(name)

  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  const { files, unresolved } = environmentFiles(file, envs, {
    field: 'keystoreFile', objectName: name, label: `keystore (${name})`, extension: 'p12', environmentList: input.environmentList, environmentMapping: input.environmentMapping,
  })
  const written = files.map((f) => {
    if (f.bytes.length > MAX_KEYSTORE_BYTES) throw malformed(`keystoreFile is larger than ${MAX_KEYSTORE_BYTES} bytes`, { field: 'keystoreFile' })
    const type = keystoreType(givenType, f.fileName)
    // opened here first, so that a wrong password or type is refused naming the form field
    const opened = openKeystore(f.bytes, type, password, undefined, { file: 'keystoreFile', password: 'password', type: 'keyStoreType' })
    if (alias && !opened.entries.some((e) => e.alias === alias)) {
      throw malformed(`alias '${alias}' is not an entry of the keystore (entries: ${opened.entries.map((e) => e.alias).join(', ')})`, { field: 'alias' })
    }
    return { environmentName: f.environment.name, file: f.bytes.toString('base64'), password, type: opened.type, fileName: f.fileName, ...(alias ? { alias } : {}) }
  })
  // the environments the upload does not name keep their file and passwords (an entry without file keeps the stored one)
  const kept = Object.keys(current ? environmentsOf(current) : {}).filter((env) => !written.some((w) => w.environmentName === env)).map((environmentName) => ({ environmentName }))
  // the keystore update replaces the description: an import without one keeps the stored one
  const keptDescription = description ?? (current ? contentOf(current).description : undefined)
  const body = { name, ...(keptDescription !== undefined ? { description: keptDescription } : {}), keyStoreEnvironmentList: [...kept, ...written] }
  const w = current
    ? await updateKeystore(deps, actor, projectName, name, body, { updateReferencedJwks: false, updateScope: null })
    : await createKeystore(deps, actor, projectName, body)
  return { outcome: w.outcome, keystore: w.keystore, unresolvedReferences: unresolved }
}

/** GET …/keystores/{keystoreName}/export-file/: one environment's keystore file, or every environment's in `<name>-keystores.zip`. */
export async function exportKeystoreFile(deps: Deps, actor: Actor, projectName: string, rawName: string, environmentName?: string): Promise<DownloadFile> {
  const access = await fileAccess(deps, actor, projectName, false)
  const name = requiredName(rawName, 'keystoreName')
  const row = await findObject(deps.prisma, access.project.id, 'KEY_STORE', name)
  if (!row) throw keystoreNotFound(name)
  const material = new Map<string, { bytes: Buffer; extension: string }>()
  for (const [env, entry] of Object.entries(environmentsOf(row)).sort(([a], [b]) => a.localeCompare(b))) {
    const file = unseal(deps, entry.file)
    if (!file) continue
    const extension = extensionOf(typeof entry.fileName === 'string' ? entry.fileName : undefined) ?? (entry.type === 'PKCS12' ? 'p12' : 'jks')
    material.set(env, { bytes: Buffer.from(file, 'base64'), extension })
  }
  return environmentDownload(name, material, environmentName, { contentType: 'application/octet-stream' }, 'keystores')
}
