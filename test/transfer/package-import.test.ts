import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canonicalHash, sha256Hex } from '../../src/platform/hashing/canonical.js'
import { parseImportOptions } from '../../src/modules/transfer/import.js'
import { startTestService, type TestService } from '../support/app.js'
import { fileOfJson, importRun, jsonOfFile, legacyExport, preflight, tamper, transferBootstrap } from '../support/zip-fixtures.js'

let svc: TestService
let root: string
let alice: string
let frank: string
let bob: string
/** IP groups office-ips and partner-ips, exported from payments */
let pkg: Buffer

beforeAll(async () => {
  svc = await startTestService({ bootstrap: transferBootstrap() })
  root = await svc.tokenFor('root', 's3cret-root')
  alice = await svc.tokenFor('alice', 'alice-pass-1')
  frank = await svc.tokenFor('frank', 'frank-pass-1')
  bob = await svc.tokenFor('bob', 'bob-pass-1')
  pkg = (await legacyExport(svc, alice, 'payments', 'IP_GROUP', { names: ['office-ips', 'partner-ips'] })).bytes
})
afterAll(async () => {
  await svc?.close()
})

const otherId = async () => (await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'other' } })).id
const inOther = async () => (await svc.deps.prisma.storedObject.findMany({ where: { projectId: await otherId() }, orderBy: { name: 'asc' } })).map((o) => o.name)
const clearOther = async () => svc.deps.prisma.storedObject.deleteMany({ where: { projectId: await otherId() } })
const MANIFEST = 'service-transfer-manifest.json'

describe('tampered packages (spec §4.4 acknowledgeChecksumMismatch)', () => {
  interface Case { what: string; edit: (files: Map<string, Buffer>) => void; entries: string[]; imported: string[] }
  const acknowledgeable: Case[] = [
    {
      what: 'an edited object file',
      edit: (f) => f.set('office-ips.json', fileOfJson({ ...jsonOfFile(f, 'office-ips.json'), data: { ips: ['0.0.0.0/0'] } })),
      entries: ['office-ips.json'], imported: ['office-ips', 'partner-ips'],
    },
    { what: 'a missing file', edit: (f) => f.delete('partner-ips.json'), entries: ['partner-ips.json'], imported: ['office-ips'] },
    {
      what: 'an extra file',
      edit: (f) => f.set('sneaky.json', fileOfJson({ ...jsonOfFile(f, 'office-ips.json'), name: 'sneaky' })),
      entries: ['sneaky.json'], imported: ['office-ips', 'partner-ips', 'sneaky'],
    },
    {
      what: 'an edited manifest',
      edit: (f) => f.set(MANIFEST, fileOfJson({ ...jsonOfFile(f, MANIFEST), exportedBy: 'someone-else' })),
      entries: [MANIFEST], imported: ['office-ips', 'partner-ips'],
    },
    { what: 'an unreadable manifest', edit: (f) => f.set(MANIFEST, Buffer.from('{ not json')), entries: [MANIFEST], imported: ['office-ips', 'partner-ips'] },
    { what: 'no manifest', edit: (f) => f.delete(MANIFEST), entries: [MANIFEST], imported: ['office-ips', 'partner-ips'] },
  ]

  for (const c of acknowledgeable) {
    it(`${c.what}: refused without acknowledgement, imported with it and an advisory`, async () => {
      await clearOther()
      const bytes = tamper(pkg, c.edit)
      const pre = await preflight(svc, root, 'other', 'IP_GROUP', bytes)
      expect(pre.status).toBe(200)
      expect(pre.body.blockers.map((b: any) => b.code)).toEqual(c.entries.map(() => 'manifestChecksumMismatch'))
      expect(pre.body.blockers.map((b: any) => b.entryFileName)).toEqual(c.entries)

      const refused = await importRun(svc, root, 'other', bytes, { type: 'IP_GROUP', preflightDigest: pre.body.preflightDigest })
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'manifestChecksumMismatch', entryCount: c.entries.length, entries: c.entries } })
      expect(await inOther()).toEqual([])

      const accepted = await importRun(svc, root, 'other', bytes, { type: 'IP_GROUP', preflightDigest: pre.body.preflightDigest, acknowledgeChecksumMismatch: true })
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
      expect(accepted.body.advisories).toEqual([
        { level: 'WARNING', key: 'transfer.checksumMismatchAcknowledged', params: { entryCount: c.entries.length, acknowledgedBy: 'root', entries: c.entries } },
      ])
      expect(accepted.body.unresolvedReferences).toEqual([`${c.entries.length} package entr${c.entries.length === 1 ? 'y' : 'ies'} changed after export; accepted by root`])
      expect(await inOther()).toEqual(c.imported)
    })
  }

  const never: { what: string; edit: (files: Map<string, Buffer>) => void; errorKey: string; entry: string }[] = [
    { what: 'a newer manifest format', edit: (f) => f.set(MANIFEST, fileOfJson({ ...jsonOfFile(f, MANIFEST), manifestFormat: 2 })), errorKey: 'manifestFormatUnsupported', entry: MANIFEST },
    { what: 'an unknown critical feature', edit: (f) => f.set(MANIFEST, fileOfJson({ ...jsonOfFile(f, MANIFEST), criticalFeatures: ['quantum.entanglement'] })), errorKey: 'manifestCriticalFeatureUnsupported', entry: MANIFEST },
    { what: 'an unsupported checksum algorithm', edit: (f) => f.set(MANIFEST, fileOfJson({ ...jsonOfFile(f, MANIFEST), checksumAlgorithm: 'MD5' })), errorKey: 'manifestChecksumAlgorithmUnsupported', entry: MANIFEST },
    { what: 'bad JSON in an object file', edit: (f) => f.set('office-ips.json', Buffer.from('{"formatVersion": 1, ')), errorKey: 'packageEntryJsonInvalid', entry: 'office-ips.json' },
    { what: 'a file that is not an object file', edit: (f) => f.set('office-ips.json', fileOfJson({ hello: 'world' })), errorKey: 'packageEntryInvalid', entry: 'office-ips.json' },
  ]
  for (const c of never) {
    it(`${c.what}: never accepted, even acknowledged`, async () => {
      await clearOther()
      const bytes = tamper(pkg, c.edit)
      const pre = await preflight(svc, root, 'other', 'IP_GROUP', bytes)
      expect(pre.status).toBe(200)
      expect(pre.body.blockers).toContainEqual({ code: c.errorKey, entryFileName: c.entry, detail: expect.any(String) })
      const run = await importRun(svc, root, 'other', bytes, { type: 'IP_GROUP', preflightDigest: pre.body.preflightDigest, acknowledgeChecksumMismatch: true })
      expect(run.status).toBe(400)
      expect(run.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: c.errorKey, entryFileName: c.entry } })
      expect(await inOther()).toEqual([])
    })
  }
})

describe('preflight', () => {
  it('lists objects, dependencies resolved by name or with candidates, replace targets and environments; writes nothing', async () => {
    await clearOther()
    const { bytes } = await legacyExport(svc, alice, 'payments', 'GLOBAL_POLICY', { names: ['block-bad'] })
    // `other` holds one of the two referenced IP groups and a similarly named one
    const projectId = await otherId()
    await svc.deps.prisma.storedObject.createMany({ data: [
      { projectId, type: 'IP_GROUP', name: 'office-ips', content: {} },
      { projectId, type: 'IP_GROUP', name: 'partner-ips-old', content: {} },
    ] })
    const pre = await preflight(svc, root, 'other', 'global_policy', bytes)
    expect(pre.status).toBe(200)
    expect(pre.body).toEqual({
      formatVersion: 1, type: 'GLOBAL_POLICY', detectedType: 'GLOBAL_POLICY',
      objects: [{ name: 'block-bad', kind: null, type: 'GLOBAL_POLICY' }],
      dependencies: [
        { type: 'IP_GROUP', kind: null, name: 'office-ips', secret: false, resolvedByName: true, candidateNames: [] },
        { type: 'IP_GROUP', kind: null, name: 'partner-ips', secret: false, resolvedByName: false, candidateNames: ['partner-ips-old', 'office-ips'] },
      ],
      replaceTargets: [], packageEnvironments: [], installationEnvironments: ['dev', 'prod'], blockers: [], advisories: [],
      preflightDigest: expect.stringMatching(/^sha256:/),
    })
    expect(await inOther()).toEqual(['office-ips', 'partner-ips-old'])

    // an unresolved reference is imported and reported
    const run = await importRun(svc, root, 'other', bytes, { type: 'GLOBAL_POLICY', preflightDigest: pre.body.preflightDigest })
    expect(run.status).toBe(200)
    expect(run.body.advisories).toEqual([
      { level: 'WARNING', key: 'transfer.unresolvedReference', params: { object: 'GLOBAL_POLICY/block-bad', type: 'IP_GROUP', kind: null, name: 'partner-ips' } },
    ])
    expect(run.body.unresolvedReferences).toEqual(['GLOBAL_POLICY/block-bad refers to IP_GROUP/partner-ips, which does not exist in the target'])
  })

  it('the type of the query must match the package; unknown types list the supported ones', async () => {
    const mismatch = await preflight(svc, root, 'other', 'CERTIFICATE', pkg)
    expect(mismatch.status).toBe(200)
    expect(mismatch.body).toMatchObject({ type: 'CERTIFICATE', detectedType: 'IP_GROUP', blockers: [{ code: 'packageTypeMismatch', entryFileName: null }] })
    const unknown = await preflight(svc, root, 'other', 'NOPE', pkg)
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'unknownType', supported: expect.arrayContaining(['CREDENTIAL', 'WEBHOOK_CONNECTION']) } })
    const missing = await preflight(svc, root, 'other', null, pkg)
    expect(missing.status).toBe(400)
    expect(missing.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'unknownType', field: 'type' } })
  })

  it('a standalone MCP/A2A connection is refused, even acknowledged', async () => {
    await clearOther()
    const mcp = (type: string, data: Record<string, unknown>) => fileOfJson({ formatVersion: 1, role: 'SELECTED', type, kind: null, name: 'tools', data, secrets: {}, dependencies: [] })
    for (const [type, data] of [['MCP_CONNECTION', { url: 'http://mcp.example.test' }], ['IP_GROUP', { connectionType: 'A2A' }]] as const) {
      const bytes = tamper(pkg, (f) => f.set('tools.json', mcp(type, data)))
      const pre = await preflight(svc, root, 'other', 'IP_GROUP', bytes)
      expect(pre.body.blockers).toContainEqual({ code: 'standaloneConnectionNotImportable', entryFileName: 'tools.json', detail: expect.stringContaining('MCP/A2A') })
      const run = await importRun(svc, root, 'other', bytes, { type: 'IP_GROUP', preflightDigest: pre.body.preflightDigest, acknowledgeChecksumMismatch: true })
      expect(run.status).toBe(400)
      expect(run.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'standaloneConnectionNotImportable' } })
    }
    expect(await inOther()).toEqual([])
  })

  it('scope and permissions: out of scope 404, platform project 400, lacking EXPORT_IMPORT 403', async () => {
    expect((await preflight(svc, bob, 'other', 'IP_GROUP', pkg)).status).toBe(404)
    const platform = await preflight(svc, root, 'admin', 'IP_GROUP', pkg)
    expect(platform.status).toBe(400)
    expect(platform.body.params.reason).toBe('platformScopeNotSupported')
    const denied = await preflight(svc, frank, 'payments', 'IP_GROUP', pkg)
    expect(denied.status).toBe(403)
    expect(denied.body).toMatchObject({ errorKey: 'permissionDenied', params: { category: 'IP_GROUP', level: 'EXPORT_IMPORT' } })
    // every packaged object needs EXPORT_IMPORT on its own category: erin holds GLOBAL_POLICY only
    const erin = await svc.tokenFor('erin', 'erin-pass-1')
    const withDeps = (await legacyExport(svc, alice, 'payments', 'GLOBAL_POLICY', { names: ['block-bad'] }, { withDependencies: true })).bytes
    const carried = await preflight(svc, erin, 'payments', 'GLOBAL_POLICY', withDeps)
    expect(carried.status).toBe(403)
    expect(carried.body).toMatchObject({ errorKey: 'permissionDenied', params: { category: 'IP_GROUP', object: 'IP_GROUP/office-ips' } })
    const run = await importRun(svc, erin, 'payments', withDeps, { type: 'GLOBAL_POLICY', preflightDigest: 'sha256:x' })
    expect(run.status).toBe(403)
  })
})

describe('import run', () => {
  it('drift: the target changed after the preflight gives 409 transfer.preflightDrift and imports nothing', async () => {
    await clearOther()
    const pre = await preflight(svc, root, 'other', 'IP_GROUP', pkg)
    await svc.deps.prisma.storedObject.create({ data: { projectId: await otherId(), type: 'IP_GROUP', name: 'office-ips', content: { ips: [] } } })
    const run = await importRun(svc, root, 'other', pkg, { type: 'IP_GROUP', preflightDigest: pre.body.preflightDigest, conflictPolicy: 'REPLACE' })
    expect(run.status).toBe(409)
    expect(run.body).toMatchObject({ errorKey: 'dependencyConflict', params: { reason: 'transfer.preflightDrift', expectedPreflightDigest: pre.body.preflightDigest } })
    expect(await inOther()).toEqual(['office-ips'])
    // the same package preflighted twice on the same state gives the same digest
    const again = await preflight(svc, root, 'other', 'IP_GROUP', pkg)
    expect((await preflight(svc, root, 'other', 'IP_GROUP', pkg)).body.preflightDigest).toBe(again.body.preflightDigest)
  })

  it('one transaction: a failure on the last object leaves nothing of the others', async () => {
    await clearOther()
    // a database-level failure on the second object's insert: an engine error mid-import
    await svc.deps.prisma.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION transfer_test_boom() RETURNS trigger AS $$ BEGIN IF NEW.name = 'partner-ips' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`)
    await svc.deps.prisma.$executeRawUnsafe(`CREATE TRIGGER transfer_test_boom BEFORE INSERT ON "StoredObject" FOR EACH ROW EXECUTE FUNCTION transfer_test_boom()`)
    try {
      const key = crypto.randomUUID()
      const pre = await preflight(svc, root, 'other', 'IP_GROUP', pkg)
      const options = { type: 'IP_GROUP', preflightDigest: pre.body.preflightDigest }
      const failed = await importRun(svc, root, 'other', pkg, options, { key })
      expect(failed.status).toBe(500)
      expect(await inOther()).toEqual([])
      // the claim of a failed import is released: the same key may be used again
      await svc.deps.prisma.$executeRawUnsafe(`DROP TRIGGER transfer_test_boom ON "StoredObject"`)
      const retried = await importRun(svc, root, 'other', pkg, options, { key })
      expect(retried.status, JSON.stringify(retried.body)).toBe(200)
      expect(await inOther()).toEqual(['office-ips', 'partner-ips'])
    } finally {
      await svc.deps.prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS transfer_test_boom ON "StoredObject"`)
      await svc.deps.prisma.$executeRawUnsafe(`DROP FUNCTION IF EXISTS transfer_test_boom()`)
    }
  })

  it('a name taken between the analysis and the write is a collision, not an engine error', async () => {
    await clearOther()
    // the database reports a unique violation on the second insert, as when another import won the race
    await svc.deps.prisma.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION transfer_test_race() RETURNS trigger AS $$ BEGIN IF NEW.name = 'partner-ips' THEN RAISE unique_violation USING MESSAGE = 'duplicate key value violates unique constraint "StoredObject_projectId_type_kind_name_key"'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`)
    await svc.deps.prisma.$executeRawUnsafe(`CREATE TRIGGER transfer_test_race BEFORE INSERT ON "StoredObject" FOR EACH ROW EXECUTE FUNCTION transfer_test_race()`)
    try {
      const pre = await preflight(svc, root, 'other', 'IP_GROUP', pkg)
      const raced = await importRun(svc, root, 'other', pkg, { type: 'IP_GROUP', preflightDigest: pre.body.preflightDigest })
      expect(raced.status).toBe(400)
      expect(raced.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'importNameCollision' } })
      expect(await inOther()).toEqual([])
    } finally {
      await svc.deps.prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS transfer_test_race ON "StoredObject"`)
      await svc.deps.prisma.$executeRawUnsafe(`DROP FUNCTION IF EXISTS transfer_test_race()`)
    }
  })

  it('refuses missing parts and bad options with nothing written', async () => {
    await clearOther()
    const pre = await preflight(svc, root, 'other', 'IP_GROUP', pkg)
    const digest = pre.body.preflightDigest
    const cases: [Buffer | undefined, unknown, number, Record<string, unknown>][] = [
      [pkg, undefined, 400, { errorKey: 'malformedRequest', params: { reason: 'optionsRequired', field: 'options' } }],
      [undefined, { type: 'IP_GROUP', preflightDigest: digest }, 400, { errorKey: 'malformedRequest', params: { reason: 'exportFileRequired', field: 'exportFile' } }],
      [pkg, 'not json', 400, { errorKey: 'malformedRequest', params: { field: 'options' } }],
      [pkg, { type: 'IP_GROUP' }, 400, { errorKey: 'malformedRequest', params: { field: 'preflightDigest' } }],
      [pkg, { type: 'IP_GROUP', preflightDigest: digest, formatVersion: 2 }, 400, { errorKey: 'malformedRequest', params: { reason: 'transfer.formatVersionUnsupported' } }],
      [pkg, { type: 'IP_GROUP', preflightDigest: digest, conflictPolicy: 'MERGE' }, 400, { errorKey: 'malformedRequest', params: { field: 'conflictPolicy' } }],
      [pkg, { type: 'IP_GROUP', preflightDigest: digest, surprise: true }, 400, { errorKey: 'malformedRequest', params: { field: 'surprise' } }],
      [pkg, { preflightDigest: digest }, 400, { errorKey: 'malformedRequest', params: { reason: 'unknownType' } }],
      [pkg, { type: 'IP_GROUP', preflightDigest: 'sha256:stale' }, 409, { errorKey: 'dependencyConflict', params: { reason: 'transfer.preflightDrift' } }],
    ]
    for (const [file, options, status, expected] of cases) {
      const r = await importRun(svc, root, 'other', file, options)
      expect(r.status, JSON.stringify(options)).toBe(status)
      expect(r.body).toMatchObject(expected)
    }
    expect(await inOther()).toEqual([])
    expect(await svc.deps.prisma.idempotencyClaim.count({ where: { operation: 'transfer.importRun' } })).toBe(await svc.deps.prisma.idempotencyClaim.count({ where: { operation: 'transfer.importRun', state: 'COMPLETED' } }))
  })

  describe('the Idempotency-Key table (spec §4.4)', () => {
    it('missing header 400; new key imports; finished 409 replay expired; other options 409 reused; running 409 in progress', async () => {
      await clearOther()
      const pre = await preflight(svc, root, 'other', 'IP_GROUP', pkg)
      const options = { type: 'IP_GROUP', preflightDigest: pre.body.preflightDigest }

      const missing = await importRun(svc, root, 'other', pkg, options, { key: null })
      expect(missing.status).toBe(400)
      expect(missing.body.errorKey).toBe('idempotencyKeyRequired')
      const blank = await importRun(svc, root, 'other', pkg, options, { key: '  ' })
      expect(blank.body.errorKey).toBe('idempotencyKeyRequired')

      const key = crypto.randomUUID()
      const first = await importRun(svc, root, 'other', pkg, options, { key })
      expect(first.status).toBe(200)
      const replay = await importRun(svc, root, 'other', pkg, options, { key })
      expect(replay.status).toBe(409)
      expect(replay.body).toMatchObject({ errorKey: 'idempotencyReplayExpired', params: { resource: 'IP_GROUP:office-ips,partner-ips' } })
      const reused = await importRun(svc, root, 'other', pkg, { ...options, conflictPolicy: 'REPLACE' }, { key })
      expect(reused.status).toBe(409)
      expect(reused.body.errorKey).toBe('idempotencyKeyReused')
      const otherPackage = (await legacyExport(svc, alice, 'payments', 'IP_GROUP', { names: ['office-ips'] })).bytes
      expect((await importRun(svc, root, 'other', otherPackage, options, { key })).body.errorKey).toBe('idempotencyKeyReused')

      // a claim still running (another instance holds it): same package and options → in progress
      const running = crypto.randomUUID()
      const body = { packageSha256: sha256Hex(pkg), options: { ...parseImportOptions(options), type: 'IP_GROUP' } }
      await svc.deps.prisma.idempotencyClaim.create({
        data: { scope: await otherId(), operation: 'transfer.importRun', key: running, bodyHash: canonicalHash(body), state: 'IN_PROGRESS' },
      })
      const inProgress = await importRun(svc, root, 'other', pkg, options, { key: running })
      expect(inProgress.status).toBe(409)
      expect(inProgress.body.errorKey).toBe('idempotencyInProgress')
      expect(await svc.deps.prisma.idempotencyClaim.count({ where: { key: running } })).toBe(1)
    })
  })
})
