import crypto from 'node:crypto'
import type { StoredObject } from '../../generated/prisma/client.js'
import type { Deps } from '../../platform/context.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { openKeystore } from './crypto/keystore-files.js'
import { environmentsOf, unseal } from './store.js'

// What a JWK derived from a certificate, a key or a keystore entry reads of its source (jwk-sources.ts), and the
// errors naming a missing one. Apart from the three modules' write paths, which refresh the JWKs derived from
// them (jwk-refresh.ts), so that neither side imports the other.

export const certificateNotFound = (name: string) =>
  new DomainError('validation', 'certificateNotFound', `Certificate (name: ${name}) is not found!`, { certificateName: name })

export const keyNotFound = (name: string) => new DomainError('validation', 'keyNotFound', `Key (name: ${name}) is not found!`, { keyName: name })

export const keystoreNotFound = (name: string) => new DomainError('validation', 'keystoreNotFound', `Keystore (name: ${name}) is not found!`, { keyStoreName: name })

export function keyMaterial(deps: Deps, row: StoredObject, envName: string, field = 'environmentName') {
  const entry = environmentsOf(row)[envName]
  if (!entry) throw malformed(`Key (name: ${row.name}) has no environment '${envName}'`, { field })
  if (typeof entry.secretKey === 'string' && entry.secretKey) {
    throw malformed(`Key (name: ${row.name}) is a SECRET_KEY: No PEM-encoded keys found (a JWK is taken from a PRIVATE_KEY or PUBLIC_KEY)`, { field: 'keyName', reason: 'secretKeySource' })
  }
  const privatePem = unseal(deps, entry.privateKey)
  const privateKey = privatePem ? crypto.createPrivateKey(privatePem) : null
  const publicKey = typeof entry.publicKey === 'string' ? crypto.createPublicKey(entry.publicKey) : privateKey ? crypto.createPublicKey(privateKey) : null
  if (!publicKey) throw malformed(`Key (name: ${row.name}) holds no key material for environment '${envName}'`, { field })
  return { privateKey, publicKey }
}

/** Every entry of a keystore's file for one environment (alias → private key and chain), opened with its password. */
export function keystoreMaterials(deps: Pick<Deps, 'keyring'>, row: StoredObject, envName: string, field = 'environmentName') {
  const entry = environmentsOf(row)[envName]
  if (!entry) throw malformed(`Keystore (name: ${row.name}) has no environment '${envName}'`, { field })
  const file = unseal(deps, entry.file)
  const password = unseal(deps, entry.password)
  if (!file || password === null) throw malformed(`Keystore (name: ${row.name}) holds no file for environment '${envName}'`, { field })
  return openKeystore(Buffer.from(file, 'base64'), typeof entry.type === 'string' ? entry.type : undefined, password, unseal(deps, entry.keyPassword) ?? undefined, {
    file: 'file', password: 'password', type: 'type',
  }).material
}

export function keystoreEntryMaterial(deps: Deps, row: StoredObject, envName: string, alias: string) {
  const materials = keystoreMaterials(deps, row, envName)
  const material = materials.get(alias)
  if (!material || !material.chain.length && !material.privateKey) {
    throw malformed(`aliasName '${alias}' is not an entry of keystore ${row.name} (entries: ${[...materials.keys()].join(', ')})`, { field: 'aliasName' })
  }
  return material
}
