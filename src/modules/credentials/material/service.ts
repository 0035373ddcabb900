import type { StoredObject } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { DomainError, malformed } from '../../../platform/errors/domain-error.js'
import { PLATFORM_PROJECT } from '../../../platform/scope/project-scope.js'
import { kindOf } from '../../keys/key-bodies.js'
import { findObject, requiredName, type TrustKind } from '../../keys/store.js'
import { authorizeCredentials } from '../scope.js'
import { credentialOwners } from '../runtime.js'
import { deployCredential, findCredential, type CredentialWrite } from '../service.js'
import { mergeTokenSettings, tokenSettingsBody } from '../token-settings.js'
import { parseInput } from '../../../platform/errors/validation.js'

// A credential's security material (api-reference/credentials/secrets and jwk-settings): its certificate, keystore,
// truststore, private, public and secret key, and its validation and encryption JWKs, each named by the path and
// looked up in the credential's project first, then in the admin project. Setting replaces the slot's object,
// removing empties it (a slot already empty is refused); either way the credential is redeployed with its material
// (the names of the objects, which the gateways hold as deployed objects). An object a credential names cannot be
// deleted or renamed (modules/keys asks credentialsNaming).

export const MATERIAL_SLOTS = ['CERTIFICATE', 'KEYSTORE', 'TRUSTSTORE', 'PRIVATE_KEY', 'PUBLIC_KEY', 'SECRET_KEY', 'JWK_VALIDATION', 'JWK_ENCRYPTION'] as const
export type MaterialSlot = (typeof MATERIAL_SLOTS)[number]

interface SlotRule {
  kind: TrustKind
  /** the page's name of the object in its messages */
  label: string
  /** the path segment of the REST doors and the path parameter naming the object */
  segment: string
  param: string
  /** for keys: the keyType the object must have */
  keyType?: 'PRIVATE_KEY' | 'PUBLIC_KEY' | 'SECRET_KEY'
}

export const SLOT_RULES: Record<MaterialSlot, SlotRule> = {
  CERTIFICATE: { kind: 'CERTIFICATE', label: 'Certificate', segment: 'certificate', param: 'certificateName' },
  KEYSTORE: { kind: 'KEY_STORE', label: 'Keystore', segment: 'keystore', param: 'keystoreName' },
  TRUSTSTORE: { kind: 'KEY_STORE', label: 'Truststore', segment: 'truststore', param: 'keystoreName' },
  PRIVATE_KEY: { kind: 'CRYPTO_KEY_INFO', label: 'Private Key', segment: 'privateKey', param: 'keyName', keyType: 'PRIVATE_KEY' },
  PUBLIC_KEY: { kind: 'CRYPTO_KEY_INFO', label: 'Public Key', segment: 'publicKey', param: 'keyName', keyType: 'PUBLIC_KEY' },
  SECRET_KEY: { kind: 'CRYPTO_KEY_INFO', label: 'Secret Key', segment: 'secretKey', param: 'secretKeyName', keyType: 'SECRET_KEY' },
  JWK_VALIDATION: { kind: 'JWK', label: 'JWK for validation and signing', segment: 'jwk/validation', param: 'jwkName' },
  JWK_ENCRYPTION: { kind: 'JWK', label: 'JWK for decryption and encryption', segment: 'jwk/encryption', param: 'jwkName' },
}

const objectLabel = (slot: MaterialSlot) => (SLOT_RULES[slot].kind === 'JWK' ? 'JWK' : SLOT_RULES[slot].kind === 'CRYPTO_KEY_INFO' ? 'Key' : SLOT_RULES[slot].label)

const objectNotFound = (slot: MaterialSlot, name: string) =>
  new DomainError('validation', 'credentialMaterialNotFound', `${slot === 'SECRET_KEY' ? 'Secret Key' : objectLabel(slot)} (name: ${name}) is not found!`, { slot, name })

/** The object by name: the credential's project first, then the admin project. */
async function resolveObject(db: Tx, projectId: string, slot: MaterialSlot, name: string): Promise<StoredObject> {
  const rule = SLOT_RULES[slot]
  let row = await findObject(db, projectId, rule.kind, name)
  if (!row) {
    const admin = await db.project.findUnique({ where: { name: PLATFORM_PROJECT }, select: { id: true } })
    if (admin && admin.id !== projectId) row = await findObject(db, admin.id, rule.kind, name)
  }
  if (!row) throw objectNotFound(slot, name)
  if (rule.keyType && kindOf(row) !== rule.keyType) {
    throw malformed(`Key (name: ${name}) is a ${kindOf(row)}: the ${rule.label.toLowerCase()} of a credential must be of type ${rule.keyType}`, { field: rule.param, reason: 'wrongKeyType' })
  }
  return row
}

export function parseSlot(value: unknown): MaterialSlot {
  const slot = typeof value === 'string' ? value.trim().toUpperCase() : ''
  if (!(MATERIAL_SLOTS as readonly string[]).includes(slot)) throw malformed(`slot must be one of ${MATERIAL_SLOTS.join(', ')}`, { field: 'slot' })
  return slot as MaterialSlot
}

/** PUT …/credentials/{username}/{segment}/{name}/: the slot names the object (replacing any other), then the credential is deployed. */
export async function setCredentialMaterial(deps: Deps, actor: Actor, projectName: string, username: string, slot: MaterialSlot, rawName: unknown): Promise<CredentialWrite> {
  const access = await authorizeCredentials(deps.prisma, actor, projectName, 'MANAGE')
  const name = requiredName(rawName, SLOT_RULES[slot].param)
  const credential = await deps.prisma.$transaction(async (tx) => {
    const current = await findCredential(tx, access, username)
    const object = await resolveObject(tx, access.project.id, slot, name)
    await tx.credentialMaterial.upsert({
      where: { credentialId_slot: { credentialId: current.id, slot } },
      create: { credentialId: current.id, slot, objectId: object.id },
      update: { objectId: object.id, assignedAt: new Date() },
    })
    return tx.credential.update({ where: { id: current.id }, data: { revision: { increment: 1 } }, include: credentialOwners })
  })
  deps.logger.info({ project: projectName, credential: credential.username, slot, object: name }, 'credential material set')
  return { credential, deploymentResult: await deployCredential(deps, access, credential, 'DEPLOY') }
}

/** DELETE …/credentials/{username}/{segment}/: empties the slot (refused when it is empty), then the credential is deployed. */
export async function removeCredentialMaterial(deps: Deps, actor: Actor, projectName: string, username: string, slot: MaterialSlot): Promise<CredentialWrite> {
  const access = await authorizeCredentials(deps.prisma, actor, projectName, 'MANAGE')
  const credential = await deps.prisma.$transaction(async (tx) => {
    const current = await findCredential(tx, access, username)
    const removed = await tx.credentialMaterial.deleteMany({ where: { credentialId: current.id, slot } })
    if (!removed.count) {
      throw malformed(`Credential (username: ${current.username}) does not have a ${SLOT_RULES[slot].label} assigned!`, { field: 'slot', slot, reason: 'noMaterial' })
    }
    return tx.credential.update({ where: { id: current.id }, data: { revision: { increment: 1 } }, include: credentialOwners })
  })
  deps.logger.info({ project: projectName, credential: credential.username, slot }, 'credential material removed')
  return { credential, deploymentResult: await deployCredential(deps, access, credential, 'DEPLOY') }
}

/** PUT …/credentials/{username}/token/: the given token settings applied to the stored ones, then the credential is deployed. */
export async function setCredentialTokenSettings(deps: Deps, actor: Actor, projectName: string, username: string, raw: unknown): Promise<CredentialWrite> {
  const access = await authorizeCredentials(deps.prisma, actor, projectName, 'MANAGE')
  const given = parseInput(tokenSettingsBody, raw ?? {})
  const credential = await deps.prisma.$transaction(async (tx) => {
    const current = await findCredential(tx, access, username)
    const merged = mergeTokenSettings(current.tokenSettings, given)
    if ('message' in merged) throw malformed(merged.message, { field: merged.field })
    return tx.credential.update({ where: { id: current.id }, data: { tokenSettings: merged, revision: { increment: 1 } }, include: credentialOwners })
  })
  deps.logger.info({ project: projectName, credential: credential.username, revision: credential.revision }, 'credential token settings set')
  return { credential, deploymentResult: await deployCredential(deps, access, credential, 'DEPLOY') }
}
