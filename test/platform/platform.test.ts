import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SYSTEM } from '../../src/platform/auth/actor.js'
import { createUser } from '../../src/modules/auth/users.js'
import { DomainError } from '../../src/platform/errors/domain-error.js'
import { z } from 'zod'
import { parseInput } from '../../src/platform/errors/validation.js'
import { canonicalHash, canonicalJson, canonicallyEqual } from '../../src/platform/hashing/canonical.js'
import { refusePlatformScope, resolveProjectAccess } from '../../src/platform/scope/project-scope.js'
import { claimIdempotencyKey, completeClaim, releaseClaim, withIdempotency } from '../../src/platform/idempotency/claims.js'
import { orderByFor, parsePaging } from '../../src/platform/envelopes/paging.js'
import { createKeyring, keyIdOf } from '../../src/platform/secrets/keyring.js'
import { UsersDocument } from '../generated/graphql.js'
import { startTestService, type TestService } from '../support/app.js'

let svc: TestService
let root: string

beforeAll(async () => {
  // the production cost (the suite's other services hash at 2^10), asserted below
  svc = await startTestService({ bootstrap: { users: [{ username: 'root', password: 's3cret-root', role: 'ADMIN' }, { username: 'plain', password: 'plain-pw' }] }, env: { PASSWORD_SCRYPT_COST: '14' } })
  root = await svc.tokenFor('root', 's3cret-root')
  // 43 users in all, so paging has several pages
  for (let i = 0; i < 41; i++) await svc.deps.prisma.user.create({ data: { username: `user-${String(i).padStart(2, '0')}`, passwordHash: 'x' } })
})
afterAll(async () => svc?.close())

const expectError = (fn: () => unknown, errorKey: string, params: Record<string, unknown> = {}) => {
  try {
    fn()
    expect.unreachable()
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError)
    expect((err as DomainError).errorKey).toBe(errorKey)
    expect((err as DomainError).params).toMatchObject(params)
  }
}

describe('paging and sorting (spec §2.1, §8)', () => {
  const policy = { defaultSort: 'username,asc', supported: ['username', 'role'] }

  it('defaults to page 0, size 20 and the default sort', () => {
    expect(parsePaging({}, policy)).toEqual({ page: 0, size: 20, sort: [{ field: 'username', direction: 'asc' }], skip: 0, take: 20 })
  })

  it('caps the size at 200 and computes the offset', () => {
    expect(parsePaging({ page: '3', size: '500' }, policy)).toMatchObject({ page: 3, size: 200, skip: 600, take: 200 })
  })

  it('refuses a negative page, a zero size and a bad direction as malformedRequest naming the field', () => {
    expectError(() => parsePaging({ page: '-1' }, policy), 'malformedRequest', { field: 'page' })
    expectError(() => parsePaging({ size: '0' }, policy), 'malformedRequest', { field: 'size' })
    expectError(() => parsePaging({ size: 'ten' }, policy), 'malformedRequest', { field: 'size' })
    expectError(() => parsePaging({ sort: 'username,sideways' }, policy), 'malformedRequest', { field: 'sort' })
  })

  it('refuses an unsupported sort field with unsupportedSortField and the supported list', () => {
    expectError(() => parsePaging({ sort: 'password,asc' }, policy), 'unsupportedSortField', { supported: ['username', 'role'] })
  })

  it('adds a unique tie-break to the database order', () => {
    expect(orderByFor(parsePaging({ sort: 'role,desc' }, policy), 'username')).toEqual([{ role: 'desc' }, { username: 'asc' }])
    expect(orderByFor(parsePaging({ sort: 'username,desc' }, policy), 'username')).toEqual([{ username: 'desc' }])
  })

  it('pages a real list through GraphQL with totals and sort echoed', async () => {
    const first = await svc.op(UsersDocument, {}, root)
    expect(first.data!.users).toMatchObject({ page: 0, size: 20, totalElements: 43, totalPages: 3, sort: ['username,asc'] })
    expect(first.data!.users.items).toHaveLength(20)
    const last = await svc.op(UsersDocument, { page: 2, size: 20, sort: ['username,desc'] }, root)
    expect(last.data!.users.items.map((u) => u.username)).toEqual(['user-00', 'root', 'plain'])
    const all = [...first.data!.users.items, ...(await svc.op(UsersDocument, { page: 1 }, root)).data!.users.items]
    expect(new Set(all.map((u) => u.username)).size).toBe(40)
  })

  it('answers an unsupported sort field through GraphQL with the errorKey and params', async () => {
    const res = await svc.op(UsersDocument, { sort: ['passwordHash,asc'] }, root)
    expect(res.errors?.[0].extensions).toMatchObject({ errorKey: 'unsupportedSortField', params: { supported: ['username', 'role', 'createdAt'] } })
  })

  it('filters with a case-insensitive search', async () => {
    const res = await svc.op(UsersDocument, { search: 'USER-4' }, root)
    expect(res.data!.users.items.map((u) => u.username)).toEqual(['user-40'])
  })
})

describe('Idempotency-Key claims (spec §4.8)', () => {
  const request = (key: string | undefined, body: unknown = { a: 1 }) => ({ scope: 'project-1', operation: 'test.create', key, body })

  it('requires a key', async () => {
    for (const key of [undefined, '', '   ']) {
      await expect(claimIdempotencyKey(svc.deps.prisma, request(key))).rejects.toMatchObject({ errorKey: 'idempotencyKeyRequired', kind: 'validation' })
    }
  })

  it('answers in progress, reused and replay-expired as the table says', async () => {
    const claim = await claimIdempotencyKey(svc.deps.prisma, request('k-1', { a: 1, b: [1, 2] }))
    // same body with keys in another order is the same request
    await expect(claimIdempotencyKey(svc.deps.prisma, request('k-1', { b: [1, 2], a: 1 }))).rejects.toMatchObject({ errorKey: 'idempotencyInProgress', kind: 'conflict' })
    await expect(claimIdempotencyKey(svc.deps.prisma, request('k-1', { a: 2 }))).rejects.toMatchObject({ errorKey: 'idempotencyKeyReused', kind: 'conflict' })
    await completeClaim(svc.deps.prisma, claim, 'plan-123')
    await expect(claimIdempotencyKey(svc.deps.prisma, request('k-1', { a: 1, b: [1, 2] }))).rejects.toMatchObject({
      errorKey: 'idempotencyReplayExpired',
      params: { resource: 'plan-123' },
    })
    // the same key in another scope or operation is a different claim
    await expect(claimIdempotencyKey(svc.deps.prisma, { ...request('k-1'), scope: 'project-2' })).resolves.toBeTruthy()
    await expect(claimIdempotencyKey(svc.deps.prisma, { ...request('k-1'), operation: 'test.other' })).resolves.toBeTruthy()
  })

  it('releases the claim of a failed call so the key can be used again', async () => {
    await expect(withIdempotency(svc.deps.prisma, request('k-2'), async () => { throw new Error('engine failure') })).rejects.toThrow('engine failure')
    const result = await withIdempotency(svc.deps.prisma, request('k-2'), async () => ({ result: 'done', resource: 'r-1' }))
    expect(result).toBe('done')
    expect(await svc.deps.prisma.idempotencyClaim.findMany({ where: { key: 'k-2' } })).toMatchObject([{ state: 'COMPLETED', resource: 'r-1' }])
  })

  it('lets exactly one of 20 concurrent claims with one key win', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => claimIdempotencyKey(svc.deps.prisma, request('k-race'))))
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    for (const o of outcomes.filter((o) => o.status === 'rejected')) expect((o as PromiseRejectedResult).reason.errorKey).toBe('idempotencyInProgress')
    await releaseClaim(svc.deps.prisma, { scope: 'project-1', operation: 'test.create', key: 'k-race' })
    expect(await svc.deps.prisma.idempotencyClaim.count({ where: { key: 'k-race' } })).toBe(0)
  })

  it('hashes bodies canonically', () => {
    expect(canonicalHash({ a: 1, b: { c: 2, d: undefined } })).toBe(canonicalHash({ b: { c: 2 }, a: 1 }))
    expect(canonicalHash([1, 2])).not.toBe(canonicalHash([2, 1]))
  })

  it('compares values in place exactly as their canonical texts compare', () => {
    const when = new Date('2026-01-02T03:04:05.000Z')
    const values: unknown[] = [
      null, undefined, 0, -0, 1, '1', 'a', true, false, NaN, Infinity, [], {}, [null], [undefined], [1, 2], [2, 1], [[1], { a: 1 }],
      { a: 1 }, { a: 1, b: undefined }, { b: undefined, a: 1 }, { a: 2 }, { a: '1' }, { a: null }, { a: [] }, { a: {} }, { a: { b: [1, { c: true }] } },
      { a: { b: [1, { c: false }] } }, { a: { b: [1, { c: true }] }, z: 0 }, when, when.toISOString(), { at: when }, { at: when.toISOString() },
      { a: NaN }, { a: null, f: () => 1 }, [() => 1], [null], { f: () => 1 }, Object.assign(Object.create(null), { a: 1 }),
      { v: { toJSON: () => 'x' } }, { v: 'x' },
    ]
    for (const a of values) for (const b of values) {
      expect(canonicallyEqual(a, b), `${String(canonicalJson(a))} vs ${String(canonicalJson(b))}`).toBe(canonicalJson(a) === canonicalJson(b))
    }
  })
})

describe('secrets at rest', () => {
  const keyA = Buffer.alloc(32, 1)
  const keyB = Buffer.alloc(32, 2)

  it('seals with authenticated encryption, the key id inside, a fresh IV each time', () => {
    const ring = createKeyring(keyA)
    const sealed = ring.encrypt('pw-1')
    expect(sealed.split('.')[0]).toBe('v1')
    expect(sealed.split('.')[1]).toBe(keyIdOf(keyA))
    expect(sealed).not.toContain('pw-1')
    expect(ring.encrypt('pw-1')).not.toBe(sealed)
    expect(ring.decrypt(sealed)).toBe('pw-1')
  })

  it('decrypts values of a previous key after a rotation and tells them apart', () => {
    const old = createKeyring(keyA).encrypt('legacy')
    const rotated = createKeyring(keyB, [keyA])
    expect(rotated.decrypt(old)).toBe('legacy')
    expect(rotated.isCurrent(old)).toBe(false)
    expect(rotated.isCurrent(rotated.encrypt('x'))).toBe(true)
  })

  it('refuses tampered values and unknown keys', () => {
    const ring = createKeyring(keyA)
    const sealed = ring.encrypt('secret')
    const [v, id, payload] = sealed.split('.')
    const flipped = Buffer.from(payload, 'base64url')
    flipped[flipped.length - 1] ^= 1
    expect(() => ring.decrypt([v, id, flipped.toString('base64url')].join('.'))).toThrow()
    expect(() => createKeyring(keyB).decrypt(sealed)).toThrow(/unknown key/)
  })

  it('fingerprints secrets with a key of the installation, so a fingerprint cannot be checked against guesses elsewhere', () => {
    const ring = createKeyring(keyA)
    expect(ring.fingerprint('pw-1')).toBe(createKeyring(keyA).fingerprint('pw-1'))
    expect(ring.fingerprint('pw-1')).not.toBe(ring.fingerprint('pw-2'))
    expect(ring.fingerprint('pw-1')).not.toBe(createKeyring(keyB).fingerprint('pw-1'))
    expect(ring.fingerprint('pw-1')).not.toBe(crypto.createHash('sha256').update('pw-1').digest('hex'))
  })

  it('never stores a credential password in clear', async () => {
    const project = await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'admin' } })
    await svc.deps.prisma.credential.create({
      data: { username: 'sealed-cred', consumerKey: 'csm_sealed', projectId: project.id, passwordCipher: svc.deps.keyring.encrypt('very-secret') },
    })
    const rows = await svc.deps.prisma.$queryRaw<{ passwordCipher: string }[]>`SELECT "passwordCipher" FROM "Credential" WHERE username = 'sealed-cred'`
    expect(rows[0].passwordCipher).not.toContain('very-secret')
  })

  it('hashes user passwords with scrypt and never keeps them', async () => {
    const user = await createUser(svc.deps.prisma, SYSTEM, { username: 'hashed-user', password: 'clear-text-pw' })
    expect(user.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/)
    expect(JSON.stringify(await svc.deps.prisma.user.findMany())).not.toContain('clear-text-pw')
  })
})

describe('input validation', () => {
  it('names an unknown field itself', () => {
    expectError(() => parseInput(z.strictObject({ name: z.string() }), { name: 'x', bogus: 1 }), 'malformedRequest', { field: 'bogus' })
    expectError(() => parseInput(z.object({ inner: z.strictObject({ a: z.number() }) }), { inner: { a: 1, b: 2 } }), 'malformedRequest', { field: 'inner.b' })
  })
})

describe('project scope', () => {
  it('refuses the admin platform project where an area works per project', () => {
    expectError(() => refusePlatformScope('admin'), 'malformedRequest', { reason: 'platformScopeNotSupported' })
    expect(() => refusePlatformScope('payments')).not.toThrow()
  })

  it('answers unknown and out-of-scope projects alike, and an empty name as malformed', async () => {
    const plain = await svc.deps.prisma.user.findUniqueOrThrow({ where: { username: 'plain' } })
    const actor = { kind: 'user' as const, userId: plain.id, username: 'plain', role: 'USER' as const, tokenId: 'n/a', audience: 'PERSONAL' as const }
    await expect(resolveProjectAccess(svc.deps.prisma, actor, 'admin')).rejects.toMatchObject({ errorKey: 'resourceNotFound', message: "Project 'admin' not found" })
    await expect(resolveProjectAccess(svc.deps.prisma, actor, 'nope')).rejects.toMatchObject({ errorKey: 'resourceNotFound', message: "Project 'nope' not found" })
    await expect(resolveProjectAccess(svc.deps.prisma, actor, ' ')).rejects.toMatchObject({ errorKey: 'malformedRequest', params: { field: 'projectName' } })
    await expect(resolveProjectAccess(svc.deps.prisma, SYSTEM, 'admin')).resolves.toMatchObject({ systemAdmin: true })
  })
})
