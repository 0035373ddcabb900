import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKeyring } from '../../src/platform/secrets/keyring.js'
import { startTestService, TEST_SECRET_KEY, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { jsonOf } from '../support/http.js'

const foreignSealed = createKeyring(Buffer.alloc(32, 9)).encrypt('sealed-elsewhere')
// sealed under the installation's own key, then damaged: the key is known but it will not open
const ours = createKeyring(Buffer.from(TEST_SECRET_KEY, 'base64')).encrypt('will-not-open')
const corrupt = ours.slice(0, -4) + (ours.endsWith('AAAA') ? 'BBBB' : 'AAAA')

function bootstrap(workerUrl: string) {
  const b = sampleBootstrap({ dev: [workerUrl] }) as any
  b.projects.push({
    name: 'migrate',
    environments: ['dev'],
    members: [
      { username: 'alice', permissions: [{ category: 'IDENTITY', level: 'MANAGE' }] },
      { username: 'carol', permissions: [{ category: 'IDENTITY', level: 'VIEW' }] },
    ],
    credentials: [
      { username: 'c-sealed', password: 'pw-sealed' },
      { username: 'c-plain', legacyPassword: { format: 'PLAIN', value: 'plain-pw' } },
      { username: 'c-foreign', legacyPassword: { format: 'SEALED_ELSEWHERE', value: foreignSealed } },
      { username: 'c-ref', password: '${vault.checkout.secret}' },
      { username: 'c-blank' },
      { username: 'c-synced', password: 'pw-synced', syncManaged: true },
      { username: 'c-corrupt', legacyPassword: { format: 'SEALED_ELSEWHERE', value: corrupt } },
      { username: 'c-long', legacyPassword: { format: 'PLAIN', value: 'x'.repeat(2000) } },
      { username: 'c-revoked', password: 'pw-revoked' },
      { username: 'c-has', password: 'pw-has' },
      { username: 'c-gone', password: 'pw-gone' },
      { username: 'c-off', password: 'pw-off', enabled: false },
    ],
    // c-gone's client goes to its application and so outlives the credential (SOURCE_MISSING)
    applications: [{ name: 'gone-app', consumers: ['c-gone'] }],
  })
  return b
}

let svc: TestService
let worker: FakeWorker
let alice: string
let root: string

const call = (path: string, token: string, method = 'POST') => svc.http(path, { method, headers: { authorization: `Bearer ${token}`, 'x-correlation-id': 'carry' } })
const clientOf = (username: string) => svc.deps.prisma.apiClient.findFirstOrThrow({ where: { clientId: username } })
const secretCount = () => svc.deps.prisma.apiClientSecret.count()

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: bootstrap(worker.url) })
  alice = await svc.tokenFor('alice', 'alice-pass-1')
  root = await svc.tokenFor('root', 's3cret-root')
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

describe('backfill and inventory', () => {
  it('plans without writing, then creates one DRAFT client per credential, once', async () => {
    const before = await svc.deps.prisma.apiClient.count()
    const dry = await jsonOf(await call('/api/api-clients/migration/backfill?projectId=migrate', alice))
    expect(dry).toMatchObject({ apply: false, scanned: 12, createdCount: 0, wouldCreateCount: 12 })
    expect(dry.rows[0]).toEqual({ consumerKey: expect.stringMatching(/^csm_/), username: 'c-blank', clientId: 'c-blank', outcome: 'WOULD_CREATE' })
    expect(await svc.deps.prisma.apiClient.count()).toBe(before)

    const applied = await jsonOf(await call('/api/api-clients/migration/backfill?projectId=migrate&apply=true', alice))
    expect(applied).toMatchObject({ apply: true, createdCount: 12 })
    const client = await clientOf('c-sealed')
    const credential = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'c-sealed' } })
    expect(client).toMatchObject({ operationalState: 'DRAFT', readiness: 'PENDING_SECRET', migratedFromCredentialId: credential.consumerKey, clientId: 'c-sealed' })

    const again = await jsonOf(await call('/api/api-clients/migration/backfill?projectId=migrate&apply=true', alice))
    expect(again.createdCount).toBe(0)
    expect(again.rows.every((r: any) => r.outcome === 'ALREADY_MIGRATED')).toBe(true)

    const inventory = await jsonOf(await call('/api/api-clients/migration/inventory?projectId=migrate', alice, 'GET'))
    expect(inventory).toEqual({ credentials: 12, migratedCredentials: 12, unmigrated: [], migratedClients: 12, clientsWithoutSecret: 12, draftClients: 12 })
  })
})

describe('secret carry-over (spec §2.6)', () => {
  beforeAll(async () => {
    await svc.deps.prisma.apiClient.update({ where: { id: (await clientOf('c-revoked')).id }, data: { operationalState: 'REVOKED' } })
    const has = await clientOf('c-has')
    await svc.deps.prisma.apiClientSecret.create({ data: { apiClientId: has.id, version: 1, secretCipher: svc.deps.keyring.encrypt('existing') } })
    await svc.deps.prisma.credential.delete({ where: { username: 'c-gone' } })
  })

  it('reports what it would do in a dry run and writes nothing', async () => {
    const secrets = await secretCount()
    const res = await call('/api/api-clients/migration/secrets/carry-over?projectId=migrate&activate=true', alice)
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body).toMatchObject({ apply: false, activate: false, recoverySupported: true, scanned: 12, activatedCount: 0 })
    expect(body.counts).toEqual({
      WOULD_CARRY: 6, ALREADY_HAS_MATERIAL: 1, SOURCE_MISSING: 1, SKIPPED_EXTERNAL_IDENTITY_SOURCE: 1,
      SKIPPED_BLANK_SECRET: 1, SKIPPED_REVOKED: 1, FAILED_DECRYPT: 1,
    })
    expect(body.rows.find((r: any) => r.clientId === 'c-ref').detail).toMatch(/CARRIED_REFERENCE/)
    expect(await secretCount()).toBe(secrets)
    expect((await clientOf('c-sealed')).operationalState).toBe('DRAFT')
  })

  it('carries every kind of password with its outcome, activates DRAFT clients and pushes them', async () => {
    worker.received.length = 0
    const body = await jsonOf(await call('/api/api-clients/migration/secrets/carry-over?projectId=migrate&apply=true&activate=true', alice))
    expect(body).toMatchObject({ apply: true, activate: true, scanned: 12, activatedCount: 4 })
    expect(body.counts).toEqual({
      CARRIED: 2, CARRIED_RAW: 2, CARRIED_REFERENCE: 1, FAILED_ISSUE: 1, ALREADY_HAS_MATERIAL: 1, SOURCE_MISSING: 1,
      SKIPPED_EXTERNAL_IDENTITY_SOURCE: 1, SKIPPED_BLANK_SECRET: 1, SKIPPED_REVOKED: 1, FAILED_DECRYPT: 1,
    })
    const byClient = Object.fromEntries(body.rows.map((r: any) => [r.clientId, r]))
    const sealed = byClient['c-sealed']
    expect(sealed).toEqual({
      apiClientKey: expect.stringMatching(/^acl_/), clientId: 'c-sealed', projectId: 'migrate', migratedFromCredentialId: expect.stringMatching(/^csm_/),
      operationalState: 'ACTIVE', outcome: 'CARRIED', detail: expect.any(String), secretVersionId: `${sealed.apiClientKey}:v1`,
      recoveryState: 'AVAILABLE', activated: true,
    })
    expect(byClient['c-plain']).toMatchObject({ outcome: 'CARRIED_RAW', recoveryState: 'AVAILABLE', activated: true })
    expect(byClient['c-foreign']).toMatchObject({ outcome: 'CARRIED_RAW', recoveryState: 'UNAVAILABLE', activated: true })
    expect(byClient['c-ref']).toMatchObject({ outcome: 'CARRIED_REFERENCE', recoveryState: 'UNAVAILABLE', activated: true })
    for (const skipped of ['c-blank', 'c-synced', 'c-corrupt', 'c-long', 'c-revoked', 'c-has', 'c-gone']) {
      expect(byClient[skipped].activated).toBe(false)
      expect(byClient[skipped]).not.toHaveProperty('secretVersionId')
      expect(byClient[skipped]).not.toHaveProperty('recoveryState')
    }
    // a disabled credential's client gets its material but is not activated
    expect(byClient['c-off']).toMatchObject({ outcome: 'CARRIED', activated: false, operationalState: 'DRAFT', recoveryState: 'AVAILABLE' })
    expect(byClient['c-long']).toMatchObject({ outcome: 'FAILED_ISSUE', operationalState: 'DRAFT', detail: expect.stringMatching(/longer than 1024/) })

    // the material is sealed at rest and is exactly what the credential held
    const secretOf = async (u: string) => svc.deps.prisma.apiClientSecret.findFirstOrThrow({ where: { apiClientId: (await clientOf(u)).id } })
    expect(svc.deps.keyring.decrypt((await secretOf('c-sealed')).secretCipher)).toBe('pw-sealed')
    expect(svc.deps.keyring.decrypt((await secretOf('c-plain')).secretCipher)).toBe('plain-pw')
    expect(svc.deps.keyring.decrypt((await secretOf('c-foreign')).secretCipher)).toBe(foreignSealed)
    expect(svc.deps.keyring.decrypt((await secretOf('c-ref')).secretCipher)).toBe('${vault.checkout.secret}')
    expect((await secretOf('c-ref')).origin).toBe('CARRIED_REFERENCE')
    expect((await clientOf('c-sealed')).readiness).toBe('READY')
    expect(JSON.stringify(body)).not.toContain('pw-sealed')

    const pushed = worker.received.filter((m) => m.kind === 'API_CLIENT').map((m) => m.name).sort()
    expect(pushed).toEqual(['c-foreign', 'c-plain', 'c-ref', 'c-sealed'])

    const second = await jsonOf(await call('/api/api-clients/migration/secrets/carry-over?projectId=migrate&apply=true', alice))
    expect(second.counts.ALREADY_HAS_MATERIAL).toBe(6)
    expect(second.activate).toBe(false)
  })

  it('covers the whole installation only for a system administrator', async () => {
    const refused = await call('/api/api-clients/migration/secrets/carry-over', alice)
    expect(refused.status).toBe(403)
    expect(await jsonOf(refused)).toMatchObject({ errorKey: 'permissionDenied', params: { reason: 'systemAdminRequired' }, correlationId: 'carry' })
    const all = await jsonOf(await call('/api/api-clients/migration/secrets/carry-over', root))
    expect(all.scanned).toBe(12)
  })

  it('refuses a viewer, an unknown project and a bad flag, writing nothing', async () => {
    const secrets = await secretCount()
    const carol = await svc.tokenFor('carol', 'carol-pass-1')
    const viewer = await call('/api/api-clients/migration/secrets/carry-over?projectId=migrate&apply=true', carol)
    expect(viewer.status).toBe(403)
    expect((await jsonOf(viewer)).errorKey).toBe('permissionDenied')
    const unknown = await call('/api/api-clients/migration/backfill?projectId=nowhere&apply=true', alice)
    expect(unknown.status).toBe(404)
    expect(await jsonOf(unknown)).toMatchObject({ errorKey: 'resourceNotFound', params: { project: 'nowhere' } })
    const bad = await call('/api/api-clients/migration/secrets/carry-over?projectId=migrate&apply=yes', alice)
    expect(bad.status).toBe(400)
    expect(await jsonOf(bad)).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'apply' } })
    expect(await secretCount()).toBe(secrets)
  })
})
