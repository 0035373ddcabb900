// Packages for the export/transfer tests: a raw ZIP writer that can write what well-behaved libraries refuse
// to (zip-slip names, symlinks, duplicates, lying sizes, bombs), package tampering, and the HTTP calls.
import crypto from 'node:crypto'
import zlib from 'node:zlib'
import AdmZip from 'adm-zip'
import type { TestService } from './app.js'
import { sampleBootstrap } from './fixtures.js'

export interface RawEntry {
  name: string
  data?: Buffer
  /** 0 stored (default), 8 deflated */
  method?: 0 | 8
  /** uncompressed size written in the headers (default: the real one) */
  declaredSize?: number
  /** external attributes (high 16 bits: unix mode) */
  attr?: number
}

const crcTable = (() => {
  const t = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    t[n] = c >>> 0
  }
  return t
})()
const crc32 = (b: Buffer) => {
  let c = 0xffffffff
  for (const byte of b) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** A ZIP written byte by byte, so tests can build hostile archives no library would write. */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const e of entries) {
    const data = e.data ?? Buffer.alloc(0)
    const method = e.method ?? 0
    const body = method === 8 ? zlib.deflateRawSync(data) : data
    const name = Buffer.from(e.name, 'utf8')
    const size = e.declaredSize ?? data.length
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x0800, 6) // UTF-8 names
    local.writeUInt16LE(method, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(name.length, 26)
    locals.push(local, name, body)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(0x0314, 4) // made by unix
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(0x0800, 8)
    central.writeUInt16LE(method, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE((e.attr ?? (0o100644 << 16)) >>> 0, 38)
    central.writeUInt32LE(offset, 42)
    centrals.push(central, name)
    offset += local.length + name.length + body.length
  }
  const cd = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(cd.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, cd, end])
}

/** The files of a (plain) package. */
export function unzip(bytes: Buffer): Map<string, Buffer> {
  const zip = new AdmZip(bytes)
  return new Map(zip.getEntries().filter((e) => !e.isDirectory).map((e) => [e.entryName, e.getData()]))
}

export const zipOf = (files: Map<string, Buffer>) => rawZip([...files].map(([name, data]) => ({ name, data, method: 8 })))

export const jsonOfFile = (files: Map<string, Buffer>, name: string): any => JSON.parse(files.get(name)!.toString('utf8'))
export const fileOfJson = (value: unknown) => Buffer.from(JSON.stringify(value, null, 2) + '\n')

/** A tampered copy of a package: `edit` changes the file map in place. */
export function tamper(bytes: Buffer, edit: (files: Map<string, Buffer>) => void): Buffer {
  const files = unzip(bytes)
  edit(files)
  return zipOf(files)
}

// ---- HTTP calls of the export and transfer surface ----

export const b64 = (passphrase: string) => Buffer.from(passphrase, 'utf8').toString('base64')

export async function legacyExport(
  svc: TestService, token: string, project: string, type: string, body: unknown,
  opts: { encrypt?: boolean; withDependencies?: boolean; secretHandling?: string; passphrase?: string } = {},
) {
  const q = new URLSearchParams()
  if (opts.encrypt !== undefined) q.set('encrypt', String(opts.encrypt))
  if (opts.withDependencies !== undefined) q.set('withDependencies', String(opts.withDependencies))
  if (opts.secretHandling) q.set('secretHandling', opts.secretHandling)
  const res = await svc.http(`/apiops/projects/${project}/export-import/${type}/export/?${q}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`, 'content-type': 'application/json',
      ...(opts.passphrase !== undefined ? { 'X-Service-Package-Passphrase': b64(opts.passphrase) } : {}),
    },
    body: JSON.stringify(body),
  })
  const bytes = Buffer.from(await res.arrayBuffer())
  return { res, bytes, json: () => JSON.parse(bytes.toString('utf8')) }
}

export async function postJson(svc: TestService, token: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await svc.http(path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  const bytes = Buffer.from(await res.arrayBuffer())
  return { res, bytes, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(bytes.toString('utf8')) : null }
}

/** transfer export preview then run; the ZIP bytes */
export async function transferExport(svc: TestService, token: string, project: string, selection: Record<string, unknown>, opts: { passphrase?: string } = {}) {
  const preview = await postJson(svc, token, `/apiops/projects/${project}/transfer-export-previews`, selection)
  if (preview.res.status !== 200) throw new Error(`preview ${preview.res.status}: ${preview.bytes}`)
  const run = await postJson(svc, token, `/apiops/projects/${project}/transfer-export-runs${opts.passphrase ? '?encrypt=true' : ''}`,
    { ...selection, expectedExportDigest: preview.body.exportDigest },
    opts.passphrase ? { 'X-Service-Package-Passphrase': b64(opts.passphrase) } : {})
  if (run.res.status !== 200) throw new Error(`run ${run.res.status}: ${run.bytes}`)
  return { preview: preview.body, bytes: run.bytes, res: run.res }
}

function form(parts: { exportFile?: Buffer; options?: unknown }) {
  const f = new FormData()
  if (parts.exportFile) f.append('exportFile', new Blob([new Uint8Array(parts.exportFile)], { type: 'application/zip' }), 'package.zip')
  if (parts.options !== undefined) f.append('options', typeof parts.options === 'string' ? parts.options : JSON.stringify(parts.options))
  return f
}

export async function preflight(svc: TestService, token: string, project: string, type: string | null, exportFile: Buffer | undefined, passphrase?: string) {
  const res = await svc.http(`/apiops/projects/${project}/transfer-import-preflights${type ? `?type=${type}` : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(passphrase !== undefined ? { 'X-Service-Package-Passphrase': b64(passphrase) } : {}) },
    body: form({ exportFile }),
  })
  return { status: res.status, body: (await res.json()) as any }
}

export async function importRun(
  svc: TestService, token: string, project: string, exportFile: Buffer | undefined, options: unknown,
  opts: { key?: string | null; passphrase?: string } = {},
) {
  const key = opts.key === undefined ? crypto.randomUUID() : opts.key
  const res = await svc.http(`/apiops/projects/${project}/transfer-import-runs`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(key !== null ? { 'Idempotency-Key': key } : {}),
      ...(opts.passphrase !== undefined ? { 'X-Service-Package-Passphrase': b64(opts.passphrase) } : {}),
    },
    body: form({ exportFile, options }),
  })
  return { status: res.status, body: (await res.json()) as any }
}

/** preflight, then run with its digest: the usual two-step import */
export async function importPackage(
  svc: TestService, token: string, project: string, type: string, bytes: Buffer, options: Record<string, unknown> = {}, passphrase?: string,
) {
  const pre = await preflight(svc, token, project, type, bytes, passphrase)
  if (pre.status !== 200) throw new Error(`preflight ${pre.status}: ${JSON.stringify(pre.body)}`)
  const run = await importRun(svc, token, project, bytes, { formatVersion: 1, type, preflightDigest: pre.body.preflightDigest, ...options }, { passphrase })
  return { preflight: pre.body, ...run }
}

// ---- the installation the package tests run against ----


/** sampleBootstrap plus objects of every opaque type (with secrets, references, per-environment data) and users for the permission cases. */
export function transferBootstrap(workers: { dev: string[] } = { dev: [] }) {
  const b = sampleBootstrap(workers) as any
  const payments = b.projects[0]
  payments.objects.push(
    { type: 'IP_GROUP', name: 'partner-ips', content: { ips: ['192.168.0.0/16'] } },
    { type: 'IP_GROUP', name: 'lab:one', content: { ips: [] } },
    { type: 'IP_GROUP', name: 'lab*one', content: { ips: [] } },
    { type: 'IP_GROUP', name: 'service-transfer-manifest', content: { ips: [] } },
    { type: 'CERTIFICATE', kind: 'CERTIFICATE', name: 'api-cert', content: { pem: '-----BEGIN CERTIFICATE-----', privateKey: 'PRIVATE-KEY-1', environments: { dev: { alias: 'd' }, prod: { alias: 'p' } } } },
    { type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'api-cert', content: { alias: 'api' } },
    { type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'hook-trust', content: { alias: 'trust', password: 'ks-pass-1' } },
    { type: 'GLOBAL_POLICY', name: 'block-bad', content: { action: 'DENY', ipGroupNames: ['office-ips', 'partner-ips'] } },
    { type: 'API_CREATOR', kind: 'OPENAPI', name: 'orders-spec', content: { spec: 'openapi: 3.0.0' } },
    { type: 'IDENTITY_SERVICE', kind: 'LDAP', name: 'corp-ldap', content: { url: 'ldap://ldap.example.test', bindPassword: 'ldap-secret-1', certificateName: 'api-cert' } },
  )
  payments.members.push(
    // erin may export GLOBAL_POLICY but not the IP groups it refers to; frank may export nothing
    { username: 'erin', permissions: [{ category: 'GLOBAL_POLICY', level: 'EXPORT_IMPORT' }] },
    { username: 'frank', permissions: [{ category: 'IP_GROUP', level: 'VIEW' }] },
  )
  // gina may import credentials into `other` but not deploy them
  b.projects[1].members = [{ username: 'gina', permissions: [{ category: 'CREDENTIAL', level: 'EXPORT_IMPORT' }] }]
  b.users.push({ username: 'erin', password: 'erin-pass-1' }, { username: 'frank', password: 'frank-pass-1' }, { username: 'gina', password: 'gina-pass-1' })
  return b
}
