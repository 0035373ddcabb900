// The bootstrap file read as a stream (issue 31 §3): validated whole before anything is written, its credentials then
// applied batch by batch (1,000 a batch), so a large file's rules hold across batch boundaries.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { applyBootstrap, BootstrapError, CredentialLookAhead, parseBootstrap, readBootstrapFile } from '../../src/bootstrap/apply.js'
import { startTestService } from '../support/app.js'
import { freshDatabase } from '../support/database.js'
import { sampleBootstrap } from '../support/fixtures.js'

const N = 2600 // three batches
const FLEET = 2 // the index of the large project: after sampleBootstrap's payments and other

/** sampleBootstrap plus a project `fleet` of N credentials. */
function largeBootstrap(): any {
  const b = sampleBootstrap({ dev: [] }) as any
  const credentials = Array.from({ length: N }, (_, i) => ({ username: `fleet-${i}`, password: `pw-${i}`, fullName: `Fleet ${i}` }))
  b.projects.push({ name: 'fleet', environments: ['dev'], credentials })
  return b
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bootstrap-stream-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
let files = 0
function writeFile(text: string) {
  const file = path.join(dir, `bootstrap-${files++}.json`)
  fs.writeFileSync(file, text)
  return file
}

async function refusal(work: () => Promise<unknown> | unknown): Promise<BootstrapError> {
  try {
    await work()
  } catch (err) {
    expect(err).toBeInstanceOf(BootstrapError)
    return err as BootstrapError
  }
  return expect.unreachable('should have been refused')
}

describe('a large bootstrap file that does not validate', () => {
  it.each([
    ['an unknown field of a credential deep in the list', (b: any) => (b.projects[FLEET].credentials[2345].pasword = 'x'), '$.projects[2].credentials[2345].pasword'],
    ['a bad address of the last credential', (b: any) => (b.projects[FLEET].credentials[N - 1].ipList = ['10.0.0.300']), `$.projects[2].credentials[${N - 1}].ipList[0]`],
    ['a credential that is not an object', (b: any) => (b.projects[FLEET].credentials[1500] = 'fleet-1500'), '$.projects[2].credentials[1500]'],
    ['two bad credentials: the first in the list', (b: any) => ((b.projects[FLEET].credentials[2400].email = 'no'), (b.projects[FLEET].credentials[1200].email = 'no')), '$.projects[2].credentials[1200].email'],
    ['a bad credential and a bad proxy after it in the file', (b: any) => ((b.projects[FLEET].credentials[2000].email = 'no'), (b.projects[FLEET].apiProxies = [{ name: 'x', kind: 'NOPE' }])), '$.projects[2].credentials[2000].email'],
    ['a bad credential and a bad organization of an earlier project', (b: any) => ((b.projects[FLEET].credentials[10].email = 'no'), (b.projects[0].organizations[3].state = 'DEAD')), '$.projects[0].organizations[3].state'],
    ['a bad credential and a bad user listed after the projects', (b: any) => {
      b.projects[FLEET].credentials[10].email = 'no'
      const users = b.users
      delete b.users
      b.users = [...users, { username: 'x', password: 'y', role: 'ROOT' }] // now the last key of the document
    }, '$.users[6].role'],
  ])('refuses %s with the path a whole-document parse names', async (_case, mutate, expected) => {
    const b = largeBootstrap()
    mutate(b)
    const text = JSON.stringify(b)
    const streamed = await refusal(() => readBootstrapFile(writeFile(text)))
    expect(streamed.jsonPath).toBe(expected)
    // the same file parsed whole names the same problem
    const whole = await refusal(() => parseBootstrap(text))
    expect(streamed.message).toBe(whole.message)
  })

  it.each([
    ['an empty file', '', '$', /^\$: not valid JSON/],
    ['a file cut short in the credentials', JSON.stringify(largeBootstrap()).slice(0, 100_000), '$', /^\$: not valid JSON/],
    ['text after the document', `${JSON.stringify({ users: [] })} {}`, '$', /^\$: not valid JSON/],
    ['a top-level field listed twice', '{"users":[],"environments":[],"users":[]}', '$.users', /^\$\.users: field listed twice$/],
    ['a project listing its credentials twice', '{"projects":[{"name":"p","credentials":[{"username":"a"}],"credentials":[{"username":"b"}]}]}', '$.projects[0].credentials', /field listed twice/],
    ['a credential field listed twice', '{"projects":[{"name":"p","credentials":[{"username":"a"},{"username":"b","username":"c"}]}]}', '$.projects[0].credentials[1].username', /field listed twice/],
  ])('refuses %s', async (_case, text, expected, message) => {
    const err = await refusal(() => readBootstrapFile(writeFile(text)))
    expect(err.jsonPath).toBe(expected)
    expect(err.message).toMatch(message)
  })

  it('refuses a file that cannot be read', async () => {
    const err = await refusal(() => readBootstrapFile(path.join(dir, 'missing.json')))
    expect(err.message).toMatch(/^\$: cannot read .*missing\.json/)
  })
})

async function bootstrapWrites(svc: { deps: { prisma: any } }) {
  const p = svc.deps.prisma
  return {
    users: (await p.user.findMany({ select: { username: true } })).map((u: any) => u.username),
    projects: await p.project.count(),
    credentials: await p.credential.count(),
    events: await p.auditEvent.count({ where: { surface: 'BOOTSTRAP' } }),
  }
}

describe('a large bootstrap file applied in batches', () => {
  it.each([
    ['an invalid credential deep in the list', (b: any) => (b.projects[FLEET].credentials[2345].email = 'no'), /^\$\.projects\[2\]\.credentials\[2345\]\.email: /],
    ['a username of another project in the third batch', (b: any) => (b.projects[FLEET].credentials[2345].username = 'shop-frontend'),
      /^\$\.projects\[2\]\.credentials\[2345\]: Credential username 'shop-frontend' is already taken in project 'payments'$/],
    ['an unknown organization in the second batch', (b: any) => (b.projects[FLEET].credentials[1001].organizationCode = 'nope'),
      /^\$\.projects\[2\]\.credentials\[1001\]: Organization 'nope' not found/],
  ])('refuses start-up for %s and writes nothing', async (_case, mutate, message) => {
    const b = largeBootstrap()
    mutate(b)
    const db = await freshDatabase()
    try {
      await expect(startTestService({ bootstrap: b, db })).rejects.toThrow(message)
      const ok = await startTestService({ db })
      try {
        // nothing of the refused file: the first-run admin of a start without users, the platform project
        expect(await bootstrapWrites(ok)).toEqual({ users: ['admin'], projects: 1, credentials: 0, events: 1 })
        expect(await ok.deps.prisma.auditEvent.count({ where: { operation: 'bootstrap.firstRunAdmin' } })).toBe(1)
      } finally {
        await ok.close()
      }
    } finally {
      await db.cleanup()
    }
  })

  it('creates every credential once, keeps a username listed twice across batches, and re-applies idempotently', async () => {
    const b = largeBootstrap()
    // listed again in the third batch: the first (second batch) is stored, the second kept
    b.projects[FLEET].credentials[2500] = { username: 'fleet-1010', password: 'other', fullName: 'Second' }
    const db = await freshDatabase()
    try {
      const first = await startTestService({ bootstrap: b, db })
      let before: unknown[]
      try {
        const p = first.deps.prisma
        expect(await p.credential.count({ where: { project: { name: 'fleet' } } })).toBe(N - 1)
        const twice = await p.credential.findUniqueOrThrow({ where: { username: 'fleet-1010' } })
        expect(twice.fullName).toBe('Fleet 1010')
        expect(first.deps.keyring.decrypt(twice.passwordCipher!)).toBe('pw-1010')
        const last = await p.credential.findUniqueOrThrow({ where: { username: `fleet-${N - 1}` } })
        expect(first.deps.keyring.decrypt(last.passwordCipher!)).toBe(`pw-${N - 1}`)
        expect(last.consumerKey).toMatch(/^csm_/)
        // one audit event per created credential, in the bootstrap's one correlation
        const events = await p.auditEvent.findMany({ where: { surface: 'BOOTSTRAP', objectType: 'credentials', projectName: 'fleet' }, select: { objectName: true, correlationId: true } })
        expect(events).toHaveLength(N - 1)
        expect(new Set(events.map((e: any) => e.objectName)).size).toBe(N - 1)
        expect(new Set(events.map((e: any) => e.correlationId)).size).toBe(1)
        before = await p.credential.findMany({ orderBy: { username: 'asc' } })
      } finally {
        await first.close()
      }
      const eventsBefore = await (async () => {
        const again = await startTestService({ bootstrap: b, db })
        try {
          const p = again.deps.prisma
          expect(await p.credential.findMany({ orderBy: { username: 'asc' } })).toEqual(before)
          return await p.auditEvent.count({ where: { surface: 'BOOTSTRAP' } })
        } finally {
          await again.close()
        }
      })()
      // the re-apply created nothing, so it recorded nothing
      const counted = sampleBootstrapEvents + N - 1
      expect(eventsBefore).toBe(counted)
    } finally {
      await db.cleanup()
    }
  })

  it('refuses a file that changed between its validation and its apply, and writes nothing', async () => {
    const svc = await startTestService()
    try {
      const file = writeFile(JSON.stringify(largeBootstrap()))
      const streamed = await readBootstrapFile(file)
      expect(streamed.credentialCounts).toEqual([2, 0, N])
      const changed = largeBootstrap()
      changed.projects[FLEET].credentials[2222].password = 'changed'
      fs.writeFileSync(file, JSON.stringify(changed))
      await expect(applyBootstrap(svc.deps, streamed)).rejects.toThrow(new BootstrapError('$', `${file} changed while it was applied`))
      expect(await bootstrapWrites(svc)).toEqual({ users: ['admin'], projects: 1, credentials: 0, events: 1 })
      // the file as it now is applies
      const summary = await applyBootstrap(svc.deps, await readBootstrapFile(file))
      expect(summary.created).toBe(sampleBootstrapEvents + N)
      const c = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'fleet-2222' } })
      expect(svc.deps.keyring.decrypt(c.passwordCipher!)).toBe('changed')
    } finally {
      await svc.close()
    }
  })
})

describe('a restart with the same large file', () => {
  /** A service whose database holds largeBootstrap(), applied at its start. */
  async function applied() {
    const b = largeBootstrap()
    const svc = await startTestService({ bootstrap: b })
    return { b, svc, file: writeFile(JSON.stringify(b)) }
  }

  it('finds every credential stored while it validates, and applies without reading the file again', async () => {
    const { svc, file } = await applied()
    try {
      const before = await svc.deps.prisma.credential.findMany({ orderBy: { username: 'asc' } })
      const lookAhead = new CredentialLookAhead(svc.deps.prisma)
      const streamed = await readBootstrapFile(file, lookAhead.sink)
      const stored = await lookAhead.stored(streamed)
      // payments (2 credentials, stored) and fleet; `other` lists none
      expect([...stored.keys()].sort()).toEqual([0, FLEET])
      fs.rmSync(file) // a second read would fail
      const summary = await applyBootstrap(svc.deps, streamed, stored)
      expect(summary.created).toBe(0)
      expect(summary.kept).toBe(sampleBootstrapEvents + N) // every entry of the file
      expect(await svc.deps.prisma.credential.findMany({ orderBy: { username: 'asc' } })).toEqual(before)
    } finally {
      await svc.close()
    }
  })

  it('reads a project again when a credential of it was deleted after the look-ahead, and creates it again', async () => {
    const { svc, file } = await applied()
    try {
      const lookAhead = new CredentialLookAhead(svc.deps.prisma)
      const streamed = await readBootstrapFile(file, lookAhead.sink)
      const stored = await lookAhead.stored(streamed)
      expect(stored.has(FLEET)).toBe(true)
      await svc.deps.prisma.credential.delete({ where: { username: 'fleet-2001' } })
      const summary = await applyBootstrap(svc.deps, streamed, stored)
      expect(summary.created).toBe(1)
      const again = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'fleet-2001' } })
      expect(svc.deps.keyring.decrypt(again.passwordCipher!)).toBe('pw-2001')
      expect(await svc.deps.prisma.credential.count({ where: { project: { name: 'fleet' } } })).toBe(N)
    } finally {
      await svc.close()
    }
  })

  it('looks a project up no further than its first missing credential, and applies the missing ones', async () => {
    const { b, svc } = await applied()
    try {
      b.projects[FLEET].credentials.push({ username: 'fleet-new', password: 'pw-new' })
      const lookAhead = new CredentialLookAhead(svc.deps.prisma)
      const streamed = await readBootstrapFile(writeFile(JSON.stringify(b)), lookAhead.sink)
      const stored = await lookAhead.stored(streamed)
      expect([...stored.keys()]).toEqual([0])
      const summary = await applyBootstrap(svc.deps, streamed, stored)
      expect(summary.created).toBe(1)
      expect(await svc.deps.prisma.credential.count({ where: { project: { name: 'fleet' } } })).toBe(N + 1)
    } finally {
      await svc.close()
    }
  })
})

/** What sampleBootstrap alone creates, one audit event each. */
const sampleBootstrapEvents = (() => {
  const b = sampleBootstrap({ dev: [] }) as any
  const inProjects = b.projects.reduce((n: number, p: any) => n + 1 + (p.members?.length ?? 0) + (p.organizations?.length ?? 0) + (p.credentials?.length ?? 0) +
    (p.applications ?? []).reduce((m: number, a: any) => m + 1 + (a.apiClients?.length ?? 0), 0) + (p.apiProxies?.length ?? 0) + (p.objects?.length ?? 0), 0)
  return b.environments.length + b.users.length + inProjects + 1 // + the fleet project
})()
