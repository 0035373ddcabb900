import crypto from 'node:crypto'
import forge from 'node-forge'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'

// Shared by test/keys/*.test.ts: the service (sample installation plus users holding CERTIFICATE permissions),
// certificates, keys and PKCS#12 files made here with node's crypto and node-forge.

export const USERS = {
  tina: 'tina-pass-1', // CERTIFICATE MANAGE + DEPLOY_UNDEPLOY
  vic: 'vic-pass-1', // CERTIFICATE VIEW
  mo: 'mo-pass-1', // CERTIFICATE MANAGE, no DEPLOY_UNDEPLOY
} as const

export async function startKeysService(workerUrl: string, env: Record<string, string> = {}): Promise<TestService> {
  const bootstrap = sampleBootstrap({ dev: [workerUrl] })
  for (const [username, password] of Object.entries(USERS)) bootstrap.users.push({ username, password })
  const members = bootstrap.projects[0]!.members!
  members.push({ username: 'tina', permissions: [{ category: 'CERTIFICATE', level: 'MANAGE' }, { category: 'CERTIFICATE', level: 'DEPLOY_UNDEPLOY' }] })
  members.push({ username: 'vic', permissions: [{ category: 'CERTIFICATE', level: 'VIEW' }] })
  members.push({ username: 'mo', permissions: [{ category: 'CERTIFICATE', level: 'MANAGE' }] })
  return startTestService({ bootstrap, env: { ...env } })
}

export interface Answer { status: number; body: any; text: string; headers: Headers }

/** Calls as a token; every answer text lands in `bodies` (scanned for secrets at the end of a file). */
export function client(service: () => TestService, defaultToken: () => string) {
  const bodies: string[] = []
  async function call(method: string, path: string, token: string | null, body?: unknown): Promise<Answer> {
    const isForm = body instanceof FormData
    const res = await service().http(path, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    })
    const buf = Buffer.from(await res.arrayBuffer())
    const text = buf.toString('utf8')
    bodies.push(text)
    let parsed: any = buf
    if ((res.headers.get('content-type') ?? '').includes('json')) parsed = text ? JSON.parse(text) : undefined
    return { status: res.status, body: parsed, text, headers: res.headers }
  }
  return {
    bodies,
    call,
    get: (path: string, token: string | null = defaultToken()) => call('GET', path, token),
    post: (path: string, body?: unknown, token: string | null = defaultToken()) => call('POST', path, token, body),
    put: (path: string, body: unknown, token: string | null = defaultToken()) => call('PUT', path, token, body),
    del: (path: string, token: string | null = defaultToken()) => call('DELETE', path, token),
  }
}

export function form(fields: Record<string, string | undefined>, file?: { name?: string; content: string | Buffer }): FormData {
  const f = new FormData()
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) f.append(k, v)
  if (file) f.append(file.name ?? 'pemEncodedFile', new Blob([file.content]), 'certificate.pem')
  return f
}

export function rsaKeyPair(bits = 2048) {
  return crypto.generateKeyPairSync('rsa', { modulusLength: bits })
}

interface CertOptions {
  cn: string
  notBefore?: Date
  notAfter?: Date
  sans?: string[]
  keys?: crypto.KeyPairKeyObjectResult
  issuer?: { cn: string; keys: crypto.KeyPairKeyObjectResult }
  serial?: string
  ca?: boolean
}

/** A certificate (RSA key, SHA-256) made with node-forge: self-signed unless an issuer is given. */
export function makeCertificate(o: CertOptions) {
  const keys = o.keys ?? rsaKeyPair()
  const cert = forge.pki.createCertificate()
  cert.publicKey = forge.pki.publicKeyFromPem(keys.publicKey.export({ type: 'spki', format: 'pem' }).toString())
  cert.serialNumber = o.serial ?? '0a1b2c3d'
  cert.validity.notBefore = o.notBefore ?? new Date(Date.now() - 24 * 3600 * 1000)
  cert.validity.notAfter = o.notAfter ?? new Date(Date.now() + 365 * 24 * 3600 * 1000)
  cert.setSubject([{ name: 'organizationName', value: 'Example Inc' }, { name: 'commonName', value: o.cn }])
  cert.setIssuer([{ name: 'organizationName', value: 'Example Inc' }, { name: 'commonName', value: o.issuer?.cn ?? o.cn }])
  const extensions: any[] = [{ name: 'basicConstraints', cA: !!o.ca }]
  if (o.sans?.length) extensions.push({ name: 'subjectAltName', altNames: o.sans.map((value) => ({ type: 2, value })) })
  cert.setExtensions(extensions)
  const signer = o.issuer?.keys ?? keys
  cert.sign(forge.pki.privateKeyFromPem(signer.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()), forge.md.sha256.create())
  const pem = forge.pki.certificateToPem(cert)
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary')
  return { pem, der, keys, sha256: crypto.createHash('sha256').update(der).digest('hex').toUpperCase() }
}

/** A PKCS#12 file (3DES) with one private-key entry and its chain, as base64. */
export function makePkcs12(alias: string, password: string, keys: crypto.KeyPairKeyObjectResult, certPems: string[]): string {
  const key = forge.pki.privateKeyFromPem(keys.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString())
  const p12 = forge.pkcs12.toPkcs12Asn1(key, certPems.map((p) => forge.pki.certificateFromPem(p)), password, { algorithm: '3des', friendlyName: alias })
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary').toString('base64')
}

export const legacyFailure = (res: Answer) => ({ status: res.status, bodyStatus: res.body?.status, message: res.body?.resultMessage as string })
