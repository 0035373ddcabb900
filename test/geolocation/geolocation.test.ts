import crypto from 'node:crypto'
import { Reader } from 'mmdb-lib'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { jsonOf } from '../support/http.js'
import { startTestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { buildMmdb, cityRecord, sampleMmdb } from '../support/mmdb-writer.js'

const PATH = '/apiops/settings/geolocation/mmdb'

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root', alice: 'alice-pass-1' } })

/** A multipart body built by hand, so the test decides every Content-Disposition (fetch's FormData names a Blob "blob"). */
function multipart(parts: { name: string; fileName?: string; content: Buffer | string }[]): { body: Buffer; contentType: string } {
  const boundary = `----geo${crypto.randomUUID()}`
  const chunks: Buffer[] = []
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.fileName !== undefined ? `; filename="${p.fileName}"` : ''}`
    const type = p.fileName !== undefined ? 'Content-Type: application/octet-stream\r\n' : ''
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(p.content), Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}

function upload(token: string, parts: Parameters<typeof multipart>[0]) {
  const { body, contentType } = multipart(parts)
  return bed.svc.http(PATH, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body: new Uint8Array(body) })
}

const stored = () => bed.svc.deps.prisma.geolocationDatabase.findUnique({ where: { id: 'current' } })

const DB_QUERY = `{ geolocationDatabase { fileName databaseType ipVersion nodeCount buildEpoch sizeBytes sha256 revision uploadedAt uploadedBy } }`
const LOOKUP = `query($ip: String!) { geolocationLookup(ip: $ip) { ip found prefixLength countryIsoCode countryName cityName record } }`

describe('the test MMDB writer', () => {
  it('builds a database mmdb-lib opens and looks up', () => {
    const reader = new Reader(sampleMmdb({ databaseType: 'Writer-Test', buildEpoch: 1_700_000_000 }))
    expect(reader.metadata).toMatchObject({ databaseType: 'Writer-Test', ipVersion: 4, recordSize: 24, binaryFormatMajorVersion: 2, languages: ['en'] })
    expect(reader.metadata.buildEpoch.toISOString()).toBe('2023-11-14T22:13:20.000Z')
    expect(reader.get('81.2.69.160')).toEqual(cityRecord('GB', 'United Kingdom', 'London'))
    expect(reader.get('89.160.20.120')).toEqual(cityRecord('DE', 'Germany', 'Berlin'))
    expect(reader.get('89.160.20.128')).toBeNull()
    expect(reader.get('1.1.1.1')).toBeNull()
  })
})

describe('PUT /apiops/settings/geolocation/mmdb', () => {
  it('accepts a valid MMDB, stores it, pushes it to every environment and serves lookups', async () => {
    const bytes = sampleMmdb({ databaseType: 'GeoLite2-City', buildEpoch: 1_767_225_600 })
    const res = await upload(bed.root, [
      { name: 'file', fileName: 'upload.mmdb', content: bytes },
      { name: 'fileName', content: 'city-2026-01.mmdb' },
    ])
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body.status).toBe('SUCCESS')
    expect(body.deploymentResult).toMatchObject({ success: true, responseTime: expect.any(Number) })
    expect(body.deploymentResult.detailList).toEqual([
      { envName: 'dev', success: true, detail: 'Acknowledged', responseTime: expect.any(Number) },
      { envName: 'prod', success: true, detail: 'Acknowledged (no worker configured)', responseTime: expect.any(Number) },
    ])

    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex')
    const row = await stored()
    expect(Buffer.from(row!.content).equals(bytes)).toBe(true)
    expect(row).toMatchObject({ fileName: 'city-2026-01.mmdb', sha256, databaseType: 'GeoLite2-City', ipVersion: 4, uploadedBy: 'root' })

    expect(bed.dev.received).toHaveLength(1)
    const pushed = bed.dev.received[0]
    expect(pushed).toMatchObject({ action: 'DEPLOY', kind: 'GEOLOCATION_DATABASE', name: 'city-2026-01.mmdb', revision: row!.revision })
    expect(pushed.config).toEqual({ fileName: 'city-2026-01.mmdb', sha256, databaseType: 'GeoLite2-City', buildEpoch: 1_767_225_600, contentBase64: bytes.toString('base64'), enabled: true })

    const meta = await bed.svc.graphql(DB_QUERY, {}, bed.root)
    expect(meta.body.errors).toBeUndefined()
    expect(meta.body.data.geolocationDatabase).toMatchObject({
      fileName: 'city-2026-01.mmdb', databaseType: 'GeoLite2-City', ipVersion: 4, nodeCount: new Reader(bytes).metadata.nodeCount,
      buildEpoch: '2026-01-01T00:00:00.000Z', sizeBytes: bytes.length, sha256, uploadedBy: 'root',
    })

    const london = await bed.svc.graphql(LOOKUP, { ip: '81.2.69.160' }, bed.root)
    expect(london.body.data.geolocationLookup).toEqual({
      ip: '81.2.69.160', found: true, prefixLength: 24, countryIsoCode: 'GB', countryName: 'United Kingdom', cityName: 'London',
      record: cityRecord('GB', 'United Kingdom', 'London'),
    })
    const nowhere = await bed.svc.graphql(LOOKUP, { ip: '1.1.1.1' }, bed.root)
    expect(nowhere.body.data.geolocationLookup).toMatchObject({ found: false, countryIsoCode: null, cityName: null, record: null })
    const bad = await bed.svc.graphql(LOOKUP, { ip: 'not-an-ip' }, bed.root)
    expect(bad.body.errors?.[0].message).toMatch(/not an IPv4 or IPv6 address/)
  })

  it('numbers revisions upward and replaces the stored database', async () => {
    const before = (await stored())?.revision ?? 0
    const paris = buildMmdb([{ cidr: '2.2.2.0/24', data: cityRecord('FR', 'France', 'Paris') }], { databaseType: 'Paris-Only' })
    expect((await upload(bed.root, [{ name: 'file', fileName: 'paris.mmdb', content: paris }])).status).toBe(200)
    const row = await stored()
    expect(row!.revision).toBe(before + 1)
    expect(bed.dev.received[0].revision).toBe(before + 1)
    const london = await bed.svc.graphql(LOOKUP, { ip: '81.2.69.160' }, bed.root)
    expect(london.body.data.geolocationLookup.found).toBe(false)
    const paris2 = await bed.svc.graphql(LOOKUP, { ip: '2.2.2.2' }, bed.root)
    expect(paris2.body.data.geolocationLookup.cityName).toBe('Paris')
  })

  it('falls back from the fileName part to the uploaded file name, then to geolocation.mmdb', async () => {
    const bytes = sampleMmdb()
    expect((await upload(bed.root, [{ name: 'file', fileName: 'from-upload.mmdb', content: bytes }])).status).toBe(200)
    expect((await stored())!.fileName).toBe('from-upload.mmdb')
    expect(bed.dev.received.at(-1)!.name).toBe('from-upload.mmdb')

    expect((await upload(bed.root, [{ name: 'file', fileName: '', content: bytes }, { name: 'fileName', content: '  ' }])).status).toBe(200)
    expect((await stored())!.fileName).toBe('geolocation.mmdb')

    expect((await upload(bed.root, [{ name: 'fileName', content: 'named.mmdb' }, { name: 'file', fileName: 'ignored.mmdb', content: bytes }])).status).toBe(200)
    expect((await stored())!.fileName).toBe('named.mmdb')
  })

  it('accepts an upload sent with fetch FormData', async () => {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(sampleMmdb())]), 'formdata.mmdb')
    const res = await bed.svc.http(PATH, { method: 'PUT', headers: { authorization: `Bearer ${bed.root}` }, body: form })
    expect(res.status).toBe(200)
    expect((await stored())!.fileName).toBe('formdata.mmdb')
  })

  describe('refusals keep the previous database in force', () => {
    let previous: Awaited<ReturnType<typeof stored>>
    beforeAll(async () => {
      expect((await upload(bed.root, [{ name: 'file', fileName: 'keep.mmdb', content: sampleMmdb({ databaseType: 'Keep-Me' }) }])).status).toBe(200)
      previous = await stored()
      bed.dev.received.length = 0
    })
    afterEach(async () => {
      expect(await stored()).toEqual(previous)
      expect(bed.dev.received).toHaveLength(0)
      const lookup = await bed.svc.graphql(LOOKUP, { ip: '81.2.69.1' }, bed.root)
      expect(lookup.body.data.geolocationLookup.cityName).toBe('London')
    })

    const refused = async (res: Response, message: RegExp) => {
      expect(res.status).toBe(400)
      const body = await jsonOf(res)
      expect(body).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
    }

    it('refuses garbage, naming the problem', async () => {
      await refused(await upload(bed.root, [{ name: 'file', fileName: 'x.mmdb', content: crypto.randomBytes(4096) }]), /not a MaxMind DB.*metadata marker/)
      await refused(await upload(bed.root, [{ name: 'file', fileName: 'x.mmdb', content: 'hello, world' }]), /not a MaxMind DB/)
    })

    it('refuses a file with the marker but a broken database', async () => {
      const valid = sampleMmdb()
      // the search tree cut away: the metadata promises more nodes than the file holds
      const truncated = valid.subarray(200)
      await refused(await upload(bed.root, [{ name: 'file', fileName: 'cut.mmdb', content: truncated }]), /not a MaxMind DB/)
      const marker = Buffer.from('ABCDEF4D61784D696E642E636F6D', 'hex')
      await refused(await upload(bed.root, [{ name: 'file', fileName: 'm.mmdb', content: Buffer.concat([crypto.randomBytes(64), marker, Buffer.from([0xff, 0xff])]) }]), /not a MaxMind DB/)
    })

    it('refuses an empty file', async () => {
      await refused(await upload(bed.root, [{ name: 'file', fileName: 'empty.mmdb', content: '' }]), /empty/)
    })

    it('refuses a request without a file part', async () => {
      await refused(await upload(bed.root, [{ name: 'fileName', content: 'x.mmdb' }]), /'file' is required/)
      await refused(await upload(bed.root, [{ name: 'file', content: 'a text field, not a file' }]), /'file' is required/)
      const notMultipart = await bed.svc.http(PATH, { method: 'PUT', headers: { authorization: `Bearer ${bed.root}`, 'content-type': 'application/json' }, body: '{}' })
      await refused(notMultipart, /multipart\/form-data/)
    })

    it('refuses a caller who is not a system administrator', async () => {
      await refused(await upload(bed.alice, [{ name: 'file', fileName: 'a.mmdb', content: sampleMmdb() }]), /system administrator/)
      const meta = await bed.svc.graphql(DB_QUERY, {}, bed.alice)
      expect(meta.body.errors?.[0].message).toMatch(/system administrator/)
      const lookup = await bed.svc.graphql(LOOKUP, { ip: '81.2.69.1' }, bed.alice)
      expect(lookup.body.errors?.[0].message).toMatch(/system administrator/)
    })

    it('refuses a caller without a token with 401', async () => {
      const { body, contentType } = multipart([{ name: 'file', fileName: 'a.mmdb', content: sampleMmdb() }])
      const res = await bed.svc.http(PATH, { method: 'PUT', headers: { 'content-type': contentType }, body: new Uint8Array(body) })
      expect(res.status).toBe(401)
    })
  })

  it('reports a failing worker per environment while the upload stays stored', async () => {
    bed.dev.status = 500
    const bytes = sampleMmdb({ databaseType: 'Failing-Push' })
    const res = await upload(bed.root, [{ name: 'file', fileName: 'fail.mmdb', content: bytes }])
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body.status).toBe('SUCCESS')
    expect(body.deploymentResult.success).toBe(false)
    const byEnv = Object.fromEntries(body.deploymentResult.detailList.map((d: any) => [d.envName, d]))
    expect(byEnv.dev).toMatchObject({ success: false, detail: expect.stringContaining('HTTP 500'), responseTime: expect.any(Number) })
    expect(byEnv.prod).toMatchObject({ success: true })
    expect(bed.dev.received).toHaveLength(1)
    const row = await stored()
    expect(row).toMatchObject({ fileName: 'fail.mmdb', databaseType: 'Failing-Push' })
    expect(Buffer.from(row!.content).equals(bytes)).toBe(true)
  })

  it('documents the route as multipart/form-data in the OpenAPI document', async () => {
    const res = await bed.svc.http('/apiops/openapi.json')
    expect(res.status).toBe(200)
    const doc = await jsonOf(res)
    const op = doc.paths['/apiops/settings/geolocation/mmdb'].put
    expect(Object.keys(op.requestBody.content)).toEqual(['multipart/form-data'])
    expect(op.requestBody.required).toBe(true)
    expect(op.requestBody.content['multipart/form-data'].schema.required).toEqual(['file'])
  })
})

describe('geolocationDatabase before any upload', () => {
  it('is null on a fresh installation', async () => {
    const fresh = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }) })
    try {
      const token = await fresh.tokenFor('root', 's3cret-root')
      const res = await fresh.graphql(DB_QUERY, {}, token)
      expect(res.body.errors).toBeUndefined()
      expect(res.body.data.geolocationDatabase).toBeNull()
      const lookup = await fresh.graphql(LOOKUP, { ip: '81.2.69.1' }, token)
      expect(lookup.body.errors?.[0].message).toMatch(/No geolocation database/)
    } finally {
      await fresh.close()
    }
  })
})
