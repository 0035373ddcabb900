import crypto from 'node:crypto'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { fileOfJson, importRun, legacyExport, preflight, rawZip, transferBootstrap, unzip, type RawEntry } from '../support/zip-fixtures.js'

let svc: TestService
let root: string
let valid: Buffer

beforeAll(async () => {
  svc = await startTestService({ bootstrap: transferBootstrap() })
  root = await svc.tokenFor('root', 's3cret-root')
  valid = (await legacyExport(svc, root, 'payments', 'IP_GROUP', { names: ['office-ips'] })).bytes
})
afterAll(async () => {
  await svc?.close()
})

const written = () => svc.deps.prisma.storedObject.count()
const MiB = 1024 * 1024
const objectFile = (name: string) => fileOfJson({ formatVersion: 1, role: 'SELECTED', type: 'IP_GROUP', kind: null, name, data: {}, secrets: {}, dependencies: [] })
/** the valid package's entries plus the hostile ones */
const withValid = (...extra: RawEntry[]): Buffer => rawZip([...[...unzip(valid)].map(([name, data]) => ({ name, data })), ...extra])

/** refused by the preflight and by the run as malformedRequest with the same reason, and nothing written */
async function refused(bytes: Buffer, reason: string, params: Record<string, unknown> = {}) {
  const before = await written()
  const pre = await preflight(svc, root, 'other', 'IP_GROUP', bytes)
  expect(pre.status, JSON.stringify(pre.body)).toBe(400)
  expect(pre.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason, ...params } })
  const run = await importRun(svc, root, 'other', bytes, { type: 'IP_GROUP', preflightDigest: 'sha256:x', acknowledgeChecksumMismatch: true })
  expect(run.status).toBe(400)
  expect(run.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason } })
  expect(await written()).toBe(before)
}

describe('hostile packages are refused before anything is read or written (bounds in docs/transfer.md)', () => {
  it('zip-slip: parent segments, absolute and drive-letter paths, backslashes', async () => {
    await refused(withValid({ name: '../evil.json', data: objectFile('evil') }), 'packageEntryPathUnsafe', { entryFileName: '../evil.json' })
    await refused(withValid({ name: 'dependencies/../../evil.json', data: objectFile('evil') }), 'packageEntryPathUnsafe')
    await refused(withValid({ name: '/etc/evil.json', data: objectFile('evil') }), 'packageEntryPathUnsafe', { entryFileName: '/etc/evil.json' })
    await refused(withValid({ name: 'C:/evil.json', data: objectFile('evil') }), 'packageEntryPathUnsafe')
    await refused(withValid({ name: '..\\evil.json', data: objectFile('evil') }), 'packageEntryPathUnsafe')
    await refused(withValid({ name: 'evil.json\u0000.txt', data: objectFile('evil') }), 'packageEntryPathUnsafe')
    await refused(withValid({ name: 'dependencies/./evil.json', data: objectFile('evil') }), 'packageEntryPathUnsafe')
  })

  it('symbolic links and duplicate names (also differing only in case)', async () => {
    await refused(withValid({ name: 'link.json', data: Buffer.from('/etc/passwd'), attr: (0o120777 << 16) >>> 0 }), 'packageEntrySymlink', { entryFileName: 'link.json' })
    await refused(withValid({ name: 'office-ips.json', data: objectFile('office-ips') }), 'packageDuplicateEntry', { entryFileName: 'office-ips.json' })
    await refused(withValid({ name: 'OFFICE-IPS.json', data: objectFile('x') }), 'packageDuplicateEntry')
  })

  it('too many entries', async () => {
    const entries = Array.from({ length: 10_001 }, (_, i) => ({ name: `e${i}.json`, data: Buffer.from('{}') }))
    await refused(rawZip(entries), 'packageTooManyEntries', { entryCount: 10_001, limit: 10_000 })
  })

  it('an entry, or all entries together, over the uncompressed bounds (declared sizes are checked before inflating)', async () => {
    await refused(withValid({ name: 'big.json', data: Buffer.from('{}'), declaredSize: 17 * MiB }), 'packageEntryTooLarge', { entryFileName: 'big.json', limit: 16 * MiB })
    // 18 entries declaring 15 MiB each (> 256 MiB together); their ratio is absurd too, but the total is checked first
    const many = Array.from({ length: 18 }, (_, i) => ({ name: `part${i}.json`, data: Buffer.from('{}'), declaredSize: 15 * MiB }))
    await refused(rawZip(many), 'packageTooLarge', { limit: 256 * MiB })
  })

  it('a zip bomb: compression ratio over the bound', async () => {
    const bomb = rawZip([{ name: 'bomb.json', data: Buffer.alloc(8 * MiB, 0x20), method: 8 }])
    expect(bomb.length).toBeLessThan(64 * 1024)
    await refused(bomb, 'packageCompressionRatioExceeded', { entryFileName: 'bomb.json', limit: 200 })
  })

  it('an entry that lies about its size, or whose data is corrupt', async () => {
    const data = Buffer.from(JSON.stringify({ pad: 'x'.repeat(1000) }))
    await refused(withValid({ name: 'liar.json', data, method: 8, declaredSize: 10 }), 'packageEntryCorrupt', { entryFileName: 'liar.json' })
    const zip = rawZip([{ name: 'a.json', data: Buffer.from('{"a":1}') }])
    zip[30 + 'a.json'.length + 2] ^= 0xff // flip a data byte: the CRC no longer matches
    await refused(zip, 'packageEntryCorrupt', { entryFileName: 'a.json' })
  })

  it('very long or deeply nested names are refused from the raw central directory, before the ZIP library builds folders for them', async () => {
    const deep = 'a/'.repeat(30_000) + 'x.json' // adm-zip alone would build 30,000 nested virtual folders
    await refused(withValid({ name: deep, data: Buffer.from('{}') }), 'packageEntryPathUnsafe')
    await refused(withValid({ name: 'a/b/c/d/e/f/g/h/i.json', data: Buffer.from('{}') }), 'packageEntryPathUnsafe', { entryFileName: 'a/b/c/d/e/f/g/h/i.json' })
    await refused(withValid({ name: 'n'.repeat(513) + '.json', data: Buffer.from('{}') }), 'packageEntryPathUnsafe')
  })

  it('an encrypted package whose KDF parameters would make the server run an expensive scrypt', async () => {
    const salt = crypto.randomBytes(16).toString('base64')
    const iv = crypto.randomBytes(12).toString('base64')
    const hostile = [
      { N: 2 ** 20, r: 16, p: 4, salt, iv }, // 2 GiB, 256× the work
      { N: 2 ** 17, r: 16, p: 1, salt, iv }, // 256 MiB
      { N: 2 ** 15, r: 8, p: 8, salt, iv }, // 8× the work
      { N: 2 ** 15, r: 8, p: 1, salt: 'c2FsdA==', iv }, // 4-byte salt
      { N: 2 ** 15, r: 8, p: 1, salt, iv: crypto.randomBytes(64).toString('base64') },
    ]
    for (const { N, r, p, salt: s, iv: v } of hostile) {
      const header = Buffer.from(JSON.stringify({ cipher: 'AES-256-GCM', format: 1, iv: v, kdf: { N, name: 'scrypt', p, r, salt: s } }))
      const bytes = rawZip([
        { name: 'service-transfer-encryption.json', data: header },
        { name: 'service-transfer-package.bin', data: crypto.randomBytes(64) },
      ])
      const before = await written()
      const pre = await preflight(svc, root, 'other', 'IP_GROUP', bytes, 'pass-phrase')
      expect(pre.status, JSON.stringify({ N, r, p })).toBe(400)
      expect(pre.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'packageEncryptionUnsupported' } })
      expect(await written()).toBe(before)
    }
  })

  it('not a ZIP, an empty file, no file part at all', async () => {
    await refused(Buffer.from('just some text, not a zip at all'), 'exportFileMustBeZip')
    await refused(Buffer.alloc(0), 'exportFileMustBeZip')
    await refused(zlib.gzipSync(Buffer.from('{}')), 'exportFileMustBeZip')
    const none = await preflight(svc, root, 'other', 'IP_GROUP', undefined)
    expect(none.status).toBe(400)
    expect(none.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'exportFileRequired', field: 'exportFile' } })
  })
})
