import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { splitJwk } from '../keys/crypto/jwk-material.js'
import { selectJwk } from '../keys/jwk-sources.js'
import { createJwk, jwkNotFound, runtimeJwk } from '../keys/jwks.js'
import { findObject, requiredName } from '../keys/store.js'
import { fileAccess, requireFileImport } from './access.js'
import type { DownloadFile, UploadedFile } from './archive.js'
import { booleanField, textField } from './flags.js'

// JWKs as files (api-reference/keys-secrets/crud/import-jwk-file, export-jwk-file): the upload is the clipboard
// create with the file as its jwkStr (the same parsing, kid picking the key of a set); the download is the JWK Set
// document, private members included unless publicOnly=true.

export interface JwkFileInput { jwkName?: unknown; kid?: unknown; jwkDescription?: unknown }

/** POST …/jwks/import-file/: a JWK or JWK Set document; kid names the key to register. */
export async function importJwkFile(deps: Deps, actor: Actor, projectName: string, input: JwkFileInput, file: UploadedFile | null) {
  const access = await fileAccess(deps, actor, projectName, true)
  const name = requiredName(input.jwkName, 'jwkName')
  const kid = textField(input.kid)
  if (!kid) throw malformed('kid value can not be empty!', { field: 'kid' })
  requireFileImport(access)
  if (!file?.bytes.length) throw malformed('jwkFile value can not be empty!', { field: 'jwkFile' })
  const text = file.bytes.toString('utf8')
  // read here first, so that a refusal names the form field rather than the clipboard body's
  selectJwk(text, kid, 'jwkFile')
  const w = await createJwk(deps, actor, projectName, { name, description: input.jwkDescription, jwkStr: text, kid }, 'COPY_PASTE')
  return { outcome: w.outcome, jwk: w.jwk }
}

/** GET …/jwks/{jwkName}/export-file/: `{ keys: [the JWK] }`; publicOnly=true leaves the private members out. */
export async function exportJwkFile(deps: Deps, actor: Actor, projectName: string, rawName: string, publicOnlyFlag: unknown): Promise<DownloadFile> {
  const access = await fileAccess(deps, actor, projectName, false)
  const name = requiredName(rawName, 'jwkName')
  const publicOnly = booleanField(publicOnlyFlag, 'publicOnly')
  const row = await findObject(deps.prisma, access.project.id, 'JWK', name)
  if (!row) throw jwkNotFound(name)
  const jwk = runtimeJwk(deps, row)
  if (!jwk.kty) throw malformed(`JWK (name: ${name}) carries no key material to export!`, { jwkName: name, reason: 'noMaterial' })
  let key: Record<string, unknown> = jwk
  if (publicOnly) {
    if (jwk.kty === 'oct') throw malformed(`JWK (name: ${name}) is a symmetric (oct) key: it has no public form to publish!`, { field: 'publicOnly', reason: 'symmetricKey' })
    key = splitJwk(jwk).publicJwk
  }
  const bytes = Buffer.from(JSON.stringify({ keys: [key] }, null, 2))
  return { bytes, fileName: publicOnly ? `${name}-public.json` : `${name}.json`, contentType: 'application/json' }
}
