import crypto, { X509Certificate } from 'node:crypto'
import { createRequire } from 'node:module'
import forge from 'node-forge'
import { malformed } from '../../../platform/errors/domain-error.js'
import { certificateFacts, type CertificateFacts } from './x509.js'

// PKCS#12 files opened with node-forge, JKS files with jks-js; every certificate read with node's X509Certificate.
// What comes out: the entries (alias, kind, certificate chain facts, whether a private key is there) for
// display, and the material (private key, chain) for the JWKs parsed from an entry.

interface JksEntry { cert?: string; key?: string; ca?: string }
const jks = createRequire(import.meta.url)('jks-js') as { toPem(file: Buffer, password: string, keyPassword?: string): Record<string, JksEntry> }

export const KEYSTORE_TYPES = ['JKS', 'PKCS12'] as const
export type KeystoreType = (typeof KEYSTORE_TYPES)[number]

export interface KeystoreEntryView {
  alias: string
  entryType: 'PRIVATE_KEY' | 'TRUSTED_CERTIFICATE'
  privateKeyPresent: boolean
  certificateChain: CertificateFacts[]
}

export interface OpenedKeystore {
  type: KeystoreType
  entries: KeystoreEntryView[]
  /** alias → material, for parsing a JWK out of an entry */
  material: Map<string, { privateKey: crypto.KeyObject | null; chain: X509Certificate[] }>
}

/** JKS files start 0xFEEDFEED (JCEKS 0xCECECECE); a PKCS#12 file is a DER SEQUENCE. */
export function detectKeystoreType(bytes: Buffer): KeystoreType | null {
  if (bytes.length >= 4 && (bytes.readUInt32BE(0) === 0xfeedfeed || bytes.readUInt32BE(0) === 0xcececece)) return 'JKS'
  if (bytes.length >= 2 && bytes[0] === 0x30) return 'PKCS12'
  return null
}

interface Fields { file: string; password: string; type: string }

/**
 * Opens a keystore with its password. A type that does not match the file, a file that is not a keystore of
 * its type, and a wrong password are each a 400 naming the field at fault.
 */
export function openKeystore(bytes: Buffer, declared: string | undefined, password: string, keyPassword: string | undefined, fields: Fields): OpenedKeystore {
  if (!bytes.length) throw malformed(`${fields.file} value can not be empty!`, { field: fields.file })
  const detected = detectKeystoreType(bytes)
  const type = (declared?.trim().toUpperCase().replace(/^PKCS#?12$|^P12$|^PFX$/, 'PKCS12') || detected) as KeystoreType | null
  if (!type || !KEYSTORE_TYPES.includes(type)) {
    if (declared) throw malformed(`${fields.type} '${declared}' is not supported: one of ${KEYSTORE_TYPES.join(', ')}`, { field: fields.type })
    throw malformed(`${fields.file} is neither a JKS nor a PKCS#12 keystore`, { field: fields.file, reason: 'corruptKeystore' })
  }
  if (detected && detected !== type) throw malformed(`${fields.type} is ${type} but ${fields.file} is a ${detected} file`, { field: fields.type, reason: 'keystoreTypeMismatch' })
  const material = type === 'JKS' ? openJks(bytes, password, keyPassword, fields) : openPkcs12(bytes, password, fields)
  const entries = [...material.entries()].map(([alias, m]): KeystoreEntryView => ({
    alias,
    entryType: m.privateKey ? 'PRIVATE_KEY' : 'TRUSTED_CERTIFICATE',
    privateKeyPresent: !!m.privateKey,
    certificateChain: m.chain.map(certificateFacts),
  }))
  return { type, entries, material }
}

const corrupt = (fields: Fields, type: string, detail: string) =>
  malformed(`${fields.file} is not a readable ${type} keystore: ${detail}`, { field: fields.file, reason: 'corruptKeystore' })
const wrongPassword = (fields: Fields) =>
  malformed(`${fields.password} does not open the keystore (wrong password)`, { field: fields.password, reason: 'wrongPassword' })

const certsOfPem = (pem: string) =>
  [...pem.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)].map((m) => new X509Certificate(m[0]))

function openJks(bytes: Buffer, password: string, keyPassword: string | undefined, fields: Fields) {
  let raw: Record<string, JksEntry>
  try {
    raw = jks.toPem(bytes, password, keyPassword || undefined)
  } catch (err) {
    const message = (err as Error).message ?? ''
    if (/password/i.test(message)) throw wrongPassword(fields)
    throw corrupt(fields, 'JKS', message || 'unreadable')
  }
  const material: OpenedKeystore['material'] = new Map()
  try {
    for (const [alias, entry] of Object.entries(raw).sort(([a], [b]) => a.localeCompare(b))) {
      const privateKey = entry.key ? crypto.createPrivateKey(entry.key) : null
      material.set(alias, { privateKey, chain: certsOfPem(entry.cert ?? entry.ca ?? '') })
    }
  } catch (err) {
    throw corrupt(fields, 'JKS', (err as Error).message)
  }
  return material
}

const derOf = (asn1: forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary')

function openPkcs12(bytes: Buffer, password: string, fields: Fields) {
  let p12: forge.pkcs12.Pkcs12Pfx
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(bytes.toString('binary')))
    try {
      p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password)
    } catch (err) {
      if (/password|mac could not be verified|decrypt/i.test((err as Error).message ?? '')) throw wrongPassword(fields)
      throw err
    }
  } catch (err) {
    if (err instanceof Error && err.name === 'DomainError') throw err
    throw corrupt(fields, 'PKCS#12', (err as Error).message || 'unreadable')
  }
  const groups = new Map<string, { alias: string; privateKey: crypto.KeyObject | null; chain: X509Certificate[] }>()
  const groupOf = (bag: forge.pkcs12.Bag, index: number) => {
    const attrs = bag.attributes as Record<string, string[] | undefined>
    const localKeyId = attrs.localKeyId?.[0]
    const key = localKeyId ? `id:${Buffer.from(localKeyId, 'binary').toString('hex')}` : `bag:${index}`
    const group = groups.get(key) ?? { alias: attrs.friendlyName?.[0] ?? '', privateKey: null, chain: [] }
    if (!group.alias && attrs.friendlyName?.[0]) group.alias = attrs.friendlyName[0]
    groups.set(key, group)
    return group
  }
  try {
    let index = 0
    for (const safe of p12.safeContents) {
      for (const bag of safe.safeBags) {
        index++
        if (bag.type === forge.pki.oids.keyBag || bag.type === forge.pki.oids.pkcs8ShroudedKeyBag) {
          const pem = bag.key ? forge.pki.privateKeyToPem(bag.key) : null
          groupOf(bag, index).privateKey = pem ? crypto.createPrivateKey(pem) : crypto.createPrivateKey({ key: derOf(bag.asn1 as forge.asn1.Asn1), format: 'der', type: 'pkcs8' })
        } else if (bag.type === forge.pki.oids.certBag) {
          const der = bag.cert ? derOf(forge.pki.certificateToAsn1(bag.cert)) : derOf(bag.asn1 as forge.asn1.Asn1)
          groupOf(bag, index).chain.push(new X509Certificate(der))
        }
      }
    }
  } catch (err) {
    throw corrupt(fields, 'PKCS#12', (err as Error).message)
  }
  // certificates with neither a key id nor a name are the chain of the one private key, when there is one
  const keyed = [...groups.values()].filter((g) => g.privateKey)
  if (keyed.length === 1) {
    for (const [id, group] of groups) {
      if (id.startsWith('bag:') && !group.alias && !group.privateKey) {
        keyed[0]!.chain.push(...group.chain)
        groups.delete(id)
      }
    }
  }
  const material: OpenedKeystore['material'] = new Map()
  let n = 0
  for (const group of groups.values()) {
    n++
    material.set(group.alias || `entry-${n}`, { privateKey: group.privateKey, chain: orderChain(group.chain, group.privateKey) })
  }
  return material
}

/** The certificate of the private key first, then the others as stored. */
function orderChain(chain: X509Certificate[], privateKey: crypto.KeyObject | null): X509Certificate[] {
  if (!privateKey || chain.length < 2) return chain
  const spki = crypto.createPublicKey(privateKey).export({ type: 'spki', format: 'der' })
  const leaf = chain.findIndex((c) => c.publicKey.export({ type: 'spki', format: 'der' }).equals(spki))
  return leaf <= 0 ? chain : [chain[leaf]!, ...chain.filter((_, i) => i !== leaf)]
}
