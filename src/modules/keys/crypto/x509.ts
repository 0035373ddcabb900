import crypto, { X509Certificate } from 'node:crypto'
import { malformed } from '../../../platform/errors/domain-error.js'

// X.509 certificates read with node's X509Certificate: what an operator needs to see of each one.

export interface CertificateFacts {
  subjectDn: string
  issuerDn: string
  serialNumber: string
  startDate: string
  endDate: string
  sha1Thumbprint: string
  sha256Fingerprint: string
  keyAlgorithm: string
  keySize: number | null
  curve: string | null
  subjectAltNames: string[]
  selfSigned: boolean
}

/** `C=US\nO=Example\nCN=x` (node's form) → `CN=x, O=Example, C=US` (most specific first, as Java prints it). */
const dnOf = (multiline: string) => multiline.split('\n').filter(Boolean).reverse().join(', ')

const hex = (bytes: Buffer) => bytes.toString('hex').toUpperCase()

export function keyFacts(key: crypto.KeyObject): { keyAlgorithm: string; keySize: number | null; curve: string | null } {
  const type = key.asymmetricKeyType ?? 'unknown'
  const details = key.asymmetricKeyDetails ?? {}
  if (type === 'rsa' || type === 'rsa-pss') return { keyAlgorithm: 'RSA', keySize: details.modulusLength ?? null, curve: null }
  if (type === 'ec') {
    const curve = details.namedCurve ?? null
    const size = curve === 'prime256v1' || curve === 'secp256k1' ? 256 : curve === 'secp384r1' ? 384 : curve === 'secp521r1' ? 521 : null
    return { keyAlgorithm: 'EC', keySize: size, curve: curveName(curve) }
  }
  if (type === 'ed25519' || type === 'x25519') return { keyAlgorithm: type === 'ed25519' ? 'Ed25519' : 'X25519', keySize: 256, curve: type === 'ed25519' ? 'Ed25519' : 'X25519' }
  return { keyAlgorithm: type.toUpperCase(), keySize: null, curve: null }
}

/** node's curve names → the JOSE ones operators know (P-256…); unknown names pass through. */
export function curveName(nodeCurve: string | null): string | null {
  if (!nodeCurve) return null
  return ({ prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521', secp256k1: 'secp256k1' } as Record<string, string>)[nodeCurve] ?? nodeCurve
}

export function certificateFacts(cert: X509Certificate): CertificateFacts {
  const der = cert.raw
  return {
    subjectDn: dnOf(cert.subject),
    issuerDn: dnOf(cert.issuer),
    serialNumber: cert.serialNumber.toUpperCase(),
    startDate: new Date(cert.validFrom).toISOString(),
    endDate: new Date(cert.validTo).toISOString(),
    sha1Thumbprint: hex(crypto.createHash('sha1').update(der).digest()),
    sha256Fingerprint: hex(crypto.createHash('sha256').update(der).digest()),
    ...keyFacts(cert.publicKey),
    subjectAltNames: (cert.subjectAltName ?? '').split(', ').filter(Boolean),
    selfSigned: cert.subject === cert.issuer && safeVerify(cert),
  }
}

const safeVerify = (cert: X509Certificate) => {
  try {
    return cert.verify(cert.publicKey)
  } catch {
    return false
  }
}

/** Validity against `now`: expired, not yet valid, or fine. */
export function validityOf(facts: Pick<CertificateFacts, 'startDate' | 'endDate'>, now = new Date()) {
  return { expired: new Date(facts.endDate) < now, notYetValid: new Date(facts.startDate) > now }
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g

/** The PEM blocks of a text, in order: label and DER bytes. */
export function pemBlocks(text: string): { label: string; der: Buffer }[] {
  return [...text.matchAll(PEM_BLOCK)].map((m) => ({ label: m[1]!, der: Buffer.from(m[2]!.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64') }))
}

export const toPem = (label: string, der: Buffer) =>
  `-----BEGIN ${label}-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`

/**
 * A certificate file: PEM with one or more CERTIFICATE blocks (the first is the leaf, the others its chain,
 * in the order given), or a single DER certificate. A file with a private key in it, with no certificate, or
 * with a block that does not parse is refused with a 400 naming `field`.
 */
export function parseCertificateFile(bytes: Buffer, field: string): { leaf: X509Certificate; chain: X509Certificate[] } {
  if (!bytes.length) throw malformed(`${field} value can not be empty!`, { field })
  const text = bytes.toString('latin1')
  const blocks = pemBlocks(text)
  if (blocks.some((b) => b.label.includes('PRIVATE KEY'))) {
    throw malformed(`${field} holds a private key: a certificate file must not; store the key as a key or keystore`, { field, reason: 'privateKeyInCertificateFile' })
  }
  const certBlocks = blocks.filter((b) => b.label === 'CERTIFICATE' || b.label === 'X509 CERTIFICATE' || b.label === 'TRUSTED CERTIFICATE')
  const ders = certBlocks.length ? certBlocks.map((b) => b.der) : text.includes('-----BEGIN') ? [] : [bytes]
  if (!ders.length) throw malformed(`${field} is not a PEM-encoded X.509 certificate (no CERTIFICATE block found)`, { field, reason: 'notACertificate' })
  const certs = ders.map((der, i) => {
    try {
      return new X509Certificate(der)
    } catch {
      const where = ders.length > 1 ? ` (block ${i + 1})` : ''
      throw malformed(`${field} is not a valid X.509 certificate${where}`, { field, reason: 'notACertificate', block: i + 1 })
    }
  })
  return { leaf: certs[0]!, chain: certs.slice(1) }
}
