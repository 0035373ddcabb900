import fs from 'node:fs'
import path from 'node:path'
import { Writable } from 'node:stream'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { parseBootstrap } from '../../src/bootstrap/apply.js'
import { loadConfig } from '../../src/config.js'
import { startService } from '../../src/service.js'
import { startTestService, TEST_SECRET_KEY } from '../support/app.js'
import { freshDatabase, type FreshDatabase } from '../support/database.js'
import { sampleBootstrap } from '../support/fixtures.js'

const EXAMPLE = path.join(import.meta.dirname, '../../examples/bootstrap.json')
const passwordFile = (dataDir: string) => path.join(dataDir, 'initial-admin-password')

/** The service with a logger whose lines the test can read. */
async function startLogged(db: FreshDatabase, env: Record<string, string> = {}) {
  const lines: string[] = []
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(...String(chunk).split('\n').filter(Boolean)), done()) })
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: db.dataDir, GATEWAY_SECRET_KEY: TEST_SECRET_KEY,
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}), ...env,
  })
  const svc = await startService(config, pino({ level: 'info' }, sink))
  return { svc, lines }
}

async function signIn(url: string, username: string, password: string) {
  return fetch(`${url}/apiops/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: username, client_secret: password }),
  })
}

async function graphql(url: string, token: string, query: string, variables: object = {}) {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }) })
  return (await res.json()) as { data?: any; errors?: any[] }
}

describe('first run without any user (RUNTIME.md §3.1)', () => {
  it('creates admin with a generated password in DATA_DIR/initial-admin-password, named by one warning line', async () => {
    const db = await freshDatabase()
    const { svc, lines } = await startLogged(db)
    try {
      const file = passwordFile(db.dataDir)
      expect(fs.statSync(file).mode & 0o777).toBe(0o600)
      const password = fs.readFileSync(file, 'utf8').trim()
      expect(password).toMatch(/^[A-Za-z0-9]{24}$/)
      const warnings = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40)
      expect(warnings).toHaveLength(1)
      expect(warnings[0].msg).toContain(file)
      expect(lines.join('\n')).not.toContain(password)

      const admin = await svc.deps.prisma.user.findMany()
      expect(admin.map((u) => [u.username, u.role])).toEqual([['admin', 'ADMIN']])
      const res = await signIn(svc.url, 'admin', password)
      expect(res.status).toBe(200)
      const { access_token: token } = (await res.json()) as { access_token: string }
      expect((await graphql(svc.url, token, '{ me { username role } }')).data).toEqual({ me: { username: 'admin', role: 'ADMIN' } })
      expect(await svc.deps.prisma.auditEvent.count({ where: { operation: 'bootstrap.firstRunAdmin' } })).toBe(1)

      // another user's password change keeps the file; admin's own change removes it
      const created = await graphql(svc.url, token, 'mutation { createUser(input: { username: "ops", password: "ops-pass-1" }) { username } }')
      expect(created.errors).toBeUndefined()
      await graphql(svc.url, token, 'mutation { updateUser(username: "ops", input: { password: "ops-pass-2" }) { username } }')
      expect(fs.existsSync(file)).toBe(true)
      const changed = await graphql(svc.url, token, 'mutation { updateUser(username: "admin", input: { password: "my-own-admin-pass" }) { username } }')
      expect(changed.errors).toBeUndefined()
      expect(fs.existsSync(file)).toBe(false)
      expect((await signIn(svc.url, 'admin', password)).status).toBe(401)
      expect((await signIn(svc.url, 'admin', 'my-own-admin-pass')).status).toBe(200)
    } finally {
      await svc.stop()
      await db.cleanup()
    }
  })

  it('restarting on the same data creates nothing again and writes no file', async () => {
    const db = await freshDatabase()
    const first = await startLogged(db)
    const password = fs.readFileSync(passwordFile(db.dataDir), 'utf8').trim()
    await first.svc.stop()
    fs.rmSync(passwordFile(db.dataDir))
    const second = await startLogged(db)
    try {
      expect(fs.existsSync(passwordFile(db.dataDir))).toBe(false)
      expect(second.lines.filter((l) => JSON.parse(l).level === 40)).toEqual([])
      expect(await second.svc.deps.prisma.user.count()).toBe(1)
      expect((await signIn(second.svc.url, 'admin', password)).status).toBe(200)
    } finally {
      await second.svc.stop()
      await db.cleanup()
    }
  })

  it('uses GATEWAY_ADMIN_PASSWORD when set: the token endpoint accepts it and no file is written', async () => {
    const db = await freshDatabase()
    const secret = 'Env admin p@ss: with spaces & symbols=+%'
    const { svc, lines } = await startLogged(db, { GATEWAY_ADMIN_PASSWORD: secret })
    try {
      expect(fs.existsSync(passwordFile(db.dataDir))).toBe(false)
      expect(lines.join('\n')).not.toContain(secret)
      const res = await signIn(svc.url, 'admin', secret)
      expect(res.status).toBe(200)
      expect((await signIn(svc.url, 'admin', 'wrong')).status).toBe(401)
    } finally {
      await svc.stop()
      await db.cleanup()
    }
  })

  it('creates no admin when the bootstrap file lists users', async () => {
    const svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }), env: { GATEWAY_ADMIN_PASSWORD: 'x-admin-pass' } })
    try {
      expect(await svc.deps.prisma.user.findUnique({ where: { username: 'admin' } })).toBeNull()
      expect(fs.existsSync(passwordFile(svc.db.dataDir))).toBe(false)
    } finally {
      await svc.close()
    }
  })

  it('creates admin when the bootstrap file lists no users', async () => {
    const svc = await startTestService({ bootstrap: { environments: [{ name: 'dev' }] }, env: { GATEWAY_ADMIN_PASSWORD: 'x-admin-pass' } })
    try {
      expect(await svc.deps.prisma.user.count()).toBe(1)
      await svc.tokenFor('admin', 'x-admin-pass')
    } finally {
      await svc.close()
    }
  })

  it.runIf(process.env.TEST_DATABASE_URL)('two instances starting together on one empty PostgreSQL create exactly one admin', async () => {
    const db = await freshDatabase()
    const started = await Promise.all([startLogged(db), startLogged(db)])
    try {
      const users = await started[0].svc.deps.prisma.user.findMany()
      expect(users.map((u) => u.username)).toEqual(['admin'])
      const warned = started.flatMap((s) => s.lines.filter((l) => JSON.parse(l).level === 40))
      expect(warned).toHaveLength(1)
      const password = fs.readFileSync(passwordFile(db.dataDir), 'utf8').trim()
      for (const s of started) expect((await signIn(s.svc.url, 'admin', password)).status).toBe(200)
    } finally {
      for (const s of started) await s.svc.stop()
      await db.cleanup()
    }
  })
})

describe('examples/bootstrap.json', () => {
  it('validates and applies: two environments, a project with members, credentials, an application, an API proxy', async () => {
    const text = fs.readFileSync(EXAMPLE, 'utf8')
    const file = parseBootstrap(text)
    expect(file.environments).toHaveLength(2)
    const svc = await startTestService({ bootstrap: JSON.parse(text) })
    try {
      const p = svc.deps.prisma
      expect(await p.environment.count()).toBe(2)
      expect(await p.membership.count({ where: { project: { name: 'payments' } } })).toBe(2)
      expect(await p.credential.count()).toBe(2)
      expect(await p.application.count()).toBe(1)
      expect(await p.apiClient.count()).toBe(1)
      expect(await p.apiProxy.count()).toBe(1)
      const token = await svc.tokenFor('dana', 'change-me-at-once-2')
      const res = await svc.http('/apiops/projects/payments/credentials/', { headers: { authorization: `Bearer ${token}` } })
      expect(res.status).toBe(200)
      expect(await p.user.findUnique({ where: { username: 'admin' } })).toBeNull()
    } finally {
      await svc.close()
    }
  })
})
