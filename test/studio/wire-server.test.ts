// Issue 21: the embedded database served over the PostgreSQL wire protocol while the service runs.
import { execFile } from 'node:child_process'
import { getTablesQuery } from '@prisma/studio-core/data/postgres-core'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'

describe('EMBEDDED_PG_HOST', () => {
  it('refuses a non-loopback address at start, naming the variable', () => {
    for (const host of ['0.0.0.0', '192.168.1.5', '::']) {
      expect(() => loadConfig({ EMBEDDED_PG_PORT: '5433', EMBEDDED_PG_HOST: host })).toThrow(ConfigError)
      expect(() => loadConfig({ EMBEDDED_PG_PORT: '5433', EMBEDDED_PG_HOST: host })).toThrow(/EMBEDDED_PG_HOST: .* is not a loopback address/)
    }
    expect(loadConfig({ EMBEDDED_PG_PORT: '5433' }).embeddedPg).toEqual({ host: '127.0.0.1', port: 5433 })
    expect(loadConfig({}).embeddedPg).toBeUndefined()
  })
})

describe.skipIf(!!process.env.TEST_DATABASE_URL)('embedded database over the wire while the service runs', () => {
  let svc: TestService
  const clients: pg.Client[] = []
  const connect = async (options?: string) => {
    const c = new pg.Client({ host: svc.embeddedPg!.host, port: svc.embeddedPg!.port, user: 'postgres', database: 'postgres', options })
    await c.connect()
    clients.push(c)
    return c
  }
  beforeAll(async () => {
    svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }), env: { EMBEDDED_PG_PORT: '0' } })
  })
  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => {})
    await svc?.close()
  })

  it("runs Studio's catalog query, from concurrent connections, and gets the tables and their columns", async () => {
    const q = getTablesQuery({}) as unknown as { sql: string; parameters: unknown[] }
    const [a, b] = await Promise.all([connect(), connect()])
    // both at once, and the service's own queries in between: each connection's messages stay together
    const results = await Promise.all([a.query(q.sql, q.parameters), b.query(q.sql, q.parameters), svc.deps.prisma.credential.count(), a.query(q.sql, q.parameters)])
    for (const r of [results[0], results[1], results[3]] as pg.QueryResult[]) {
      const tables = r.rows as { schema: string; name: string; columns: { name: string; datatype: string; pk: number | null }[] }[]
      const credential = tables.find((t) => t.schema === 'public' && t.name === 'Credential')
      expect(credential).toBeDefined()
      expect(credential!.columns.map((c) => c.name)).toEqual(expect.arrayContaining(['id', 'username', 'consumerKey', 'passwordCipher']))
      expect(credential!.columns.find((c) => c.name === 'id')).toMatchObject({ datatype: 'text', pk: 1 })
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['Project', 'Credential', '_prisma_migrations']))
    }
    expect(results[2]).toBeGreaterThan(0)
    // named prepared statements of two connections with the same name do not collide
    await a.query({ name: 'same', text: 'select 1 as n' })
    await b.query({ name: 'same', text: "select 'two' as n" })
    expect((await a.query({ name: 'same', text: 'select 1 as n' })).rows).toEqual([{ n: 1 }])
    expect((await b.query({ name: 'same', text: "select 'two' as n" })).rows).toEqual([{ n: 'two' }])
  })

  it('is read-only by default, like a psql session with default_transaction_read_only: writes are refused, nothing written', async () => {
    const before = await svc.deps.prisma.credential.count()
    const c = await connect()
    expect((await c.query('show default_transaction_read_only')).rows).toEqual([{ default_transaction_read_only: 'on' }])
    await expect(c.query('delete from "Credential"')).rejects.toMatchObject({ code: '25006', message: 'cannot execute DELETE in a read-only transaction' })
    await expect(c.query('update "Credential" set "username" = $1', ['x'])).rejects.toMatchObject({ code: '25006' })
    // the connection goes on working after the refusal
    expect((await c.query('select count(*)::int as n from "Credential"')).rows).toEqual([{ n: before }])
    // the service's own session is not read-only
    const stamp = `wire-${Date.now()}`
    const p = await svc.deps.prisma.project.findFirstOrThrow()
    await svc.deps.prisma.project.update({ where: { id: p.id }, data: { description: stamp } })
    expect((await c.query('select description from "Project" where id = $1', [p.id])).rows).toEqual([{ description: stamp }])
    expect(await svc.deps.prisma.credential.count()).toBe(before)
  })

  it('refuses writes from psql too', async () => {
    const psql = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        'psql',
        ['-h', svc.embeddedPg!.host, '-p', String(svc.embeddedPg!.port), '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-c', 'delete from "Credential"'],
        { env: { PATH: process.env.PATH ?? '' } },
        (err, _out, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      )
    })
    if (psql.stderr.includes('ENOENT') || (psql.code as unknown) === 'ENOENT') return // no psql on this machine: the pg client above covers it
    expect(psql.stderr).toContain('cannot execute DELETE in a read-only transaction')
    expect(psql.code).not.toBe(0)
    expect(await svc.deps.prisma.credential.count()).toBeGreaterThan(0)
  })

  it('writes when the session asks for it (npm run studio -- --write)', async () => {
    const c = await connect('-c default_transaction_read_only=off')
    const p = await svc.deps.prisma.project.findFirstOrThrow()
    await c.query('begin')
    await c.query('update "Project" set description = $1 where id = $2', ['from-wire', p.id])
    await c.query('commit')
    expect((await svc.deps.prisma.project.findUniqueOrThrow({ where: { id: p.id } })).description).toBe('from-wire')
  })
})
