import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { defaultMigrationsDir, openDatabase, type Database } from '../../src/platform/db/database.js'
import { freshDatabase, type FreshDatabase } from '../support/database.js'

const usesPostgres = !!process.env.TEST_DATABASE_URL
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function fresh(): Promise<FreshDatabase> {
  const t = await freshDatabase()
  cleanups.push(t.cleanup)
  return t
}
async function open(t: FreshDatabase, migrationsDir?: string): Promise<Database> {
  const db = await openDatabase({ ...t, migrationsDir })
  cleanups.push(() => db.close())
  return db
}
const applied = async (db: Database) =>
  (await db.prisma.$queryRaw<{ migration_name: string }[]>`SELECT migration_name FROM "_prisma_migrations" ORDER BY 1`).map((r) => r.migration_name)

describe('openDatabase', () => {
  it('opens a fresh, migrated database', async () => {
    const db = await open(await fresh())
    expect(db.kind).toBe(usesPostgres ? 'postgres' : 'embedded')
    expect(await db.prisma.user.count()).toBe(0)
    const names = fs.readdirSync(defaultMigrationsDir).filter((n) => fs.statSync(path.join(defaultMigrationsDir, n)).isDirectory())
    expect(await applied(db)).toEqual(names.sort())
  })

  it('applies nothing new when re-opened, and keeps the data', async () => {
    const t = await fresh()
    const first = await openDatabase(t)
    await first.prisma.user.create({ data: { username: 'alice', passwordHash: 'x' } })
    const before = await applied(first)
    await first.close()
    const again = await open(t)
    expect(await applied(again)).toEqual(before)
    expect(await again.prisma.user.count()).toBe(1)
  })

  it('refuses to start when an applied migration was edited, naming it', async () => {
    const t = await fresh()
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-migrations-'))
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }))
    fs.cpSync(defaultMigrationsDir, dir, { recursive: true })
    const [first] = fs.readdirSync(dir).filter((n) => n !== 'migration_lock.toml').sort()
    fs.appendFileSync(path.join(dir, first, 'migration.sql'), '\n-- edited\n')
    await expect(openDatabase({ ...t, migrationsDir: dir })).rejects.toThrow(new RegExp(`Migration ${first} was edited`))
    // The database is untouched and still opens with the committed files.
    const db = await open(t)
    expect(await db.prisma.user.count()).toBe(0)
  })

  it('applies a new migration once and records it', async () => {
    const t = await fresh()
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-migrations-'))
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }))
    fs.cpSync(defaultMigrationsDir, dir, { recursive: true })
    fs.mkdirSync(path.join(dir, '99990101000000_extra'))
    fs.writeFileSync(path.join(dir, '99990101000000_extra', 'migration.sql'), 'CREATE TABLE "Extra" ("id" TEXT PRIMARY KEY);\n')
    const db = await open(t, dir)
    expect(await applied(db)).toContain('99990101000000_extra')
    await db.prisma.$executeRaw`INSERT INTO "Extra" ("id") VALUES ('a')`
  })

  it('rolls back a failing migration and names it', async () => {
    const t = await fresh()
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-migrations-'))
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }))
    fs.cpSync(defaultMigrationsDir, dir, { recursive: true })
    fs.mkdirSync(path.join(dir, '99990101000000_broken'))
    fs.writeFileSync(path.join(dir, '99990101000000_broken', 'migration.sql'), 'CREATE TABLE "Half" ("id" TEXT);\nSELECT no_such_function();\n')
    await expect(openDatabase({ ...t, migrationsDir: dir })).rejects.toThrow(/Migration 99990101000000_broken failed/)
    const db = await open(t)
    expect(await applied(db)).not.toContain('99990101000000_broken')
    expect(await db.prisma.$queryRaw<unknown[]>`SELECT 1 FROM pg_tables WHERE tablename = 'Half'`).toEqual([])
  })

  it.skipIf(usesPostgres)('initialises a new embedded data directory, leaving only the database and its lock', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-test-initdb-'))
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }))
    fs.mkdirSync(path.join(dataDir, 'pglite.initdb-1')) // left behind by an interrupted first start
    const db = await openDatabase({ dataDir })
    expect(fs.readdirSync(dataDir).sort()).toEqual(['pglite', 'pglite.lock'])
    expect(await db.prisma.user.count()).toBe(0)
    await db.prisma.user.create({ data: { username: 'alice', passwordHash: 'x' } })
    await db.close()
    const again = await open({ dataDir, cleanup: async () => {} })
    expect(await again.prisma.user.count()).toBe(1)
  }, 180_000) // initdb and every migration: the slowest open there is

  it.skipIf(usesPostgres)('reopens the embedded database in a new thread with its data, listeners and wire port, holding queries sent meanwhile', async () => {
    const t = await fresh()
    const db = await openDatabase({ ...t, embeddedPg: { host: '127.0.0.1', port: 0 } })
    cleanups.push(() => db.close())
    await db.prisma.user.create({ data: { username: 'before', passwordHash: 'x' } })
    const heard: string[] = []
    await db.listen('reopen_test', (payload) => heard.push(payload))
    const wire = db.wire
    // a query sent while the old thread closes waits for the new one
    const reopened = db.reopen!()
    const meanwhile = db.prisma.user.count()
    expect(await reopened).toBe(true)
    expect(await meanwhile).toBe(1)
    expect(db.wire).toEqual(wire)
    await db.prisma.user.create({ data: { username: 'after', passwordHash: 'x' } })
    expect((await db.prisma.user.findMany({ orderBy: { username: 'asc' } })).map((u) => u.username)).toEqual(['after', 'before'])
    // the listener still hears the database, now the new thread's
    await db.prisma.$executeRaw`SELECT pg_notify('reopen_test', 'hello')`
    await expect.poll(() => heard, { timeout: 30_000 }).toEqual(['hello'])
    // the wire server answers on the same port
    const pg = (await import('pg')).default
    const client = new pg.Client({ host: wire!.host, port: wire!.port, user: 'postgres', database: 'postgres' })
    await client.connect()
    try {
      expect((await client.query('SELECT count(*)::int AS n FROM "User"')).rows[0].n).toBe(2)
    } finally {
      await client.end()
    }
  })

  it.skipIf(usesPostgres)('does not reopen while a transaction is open', async () => {
    const db = await open(await fresh())
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let begun!: () => void
    const inside = new Promise<void>((r) => (begun = r))
    const tx = db.prisma.$transaction(async (tx) => {
      await tx.user.create({ data: { username: 'in-tx', passwordHash: 'x' } })
      begun()
      await held
    })
    await inside
    expect(await db.reopen!()).toBe(false)
    release()
    await tx
    expect(await db.prisma.user.count()).toBe(1)
  })

  it.runIf(usesPostgres)('lets two instances start at once on one PostgreSQL database', async () => {
    const t = await fresh()
    // A brand-new database, so both instances race to apply every migration.
    const { adminQuery } = await import('../support/global-setup.js')
    const empty = new URL(t.databaseUrl!)
    const name = `${empty.pathname.slice(1)}_empty`
    await adminQuery(t.databaseUrl!, `CREATE DATABASE "${name}"`)
    cleanups.push(() => adminQuery(t.databaseUrl!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).then(() => {}))
    empty.pathname = `/${name}`
    const [a, b] = await Promise.all([0, 1].map(() => open({ ...t, databaseUrl: empty.toString() })))
    expect(await a.prisma.user.count()).toBe(0)
    expect(await applied(b)).toEqual(await applied(a))
  })
})

// The embedded database's queries send Parse, Bind, Describe, Execute and Sync in one call with parameters in text
// (bytes in binary) and let the server infer their types (pglite-one-trip.ts), as node-postgres does on PostgreSQL:
// every kind of value Prisma binds comes back as sent, and errors keep their SQLSTATE, on both databases.
describe('parameters and errors through the driver', () => {
  it('round-trips every kind of bound value', async () => {
    const db = await open(await fresh())
    const bytes = Uint8Array.from([0, 1, 254, 255, 92, 120])
    const TEXT = `it's "quoted" \\ text, {braces}`
    const rows = await db.prisma.$queryRaw<Record<string, unknown>[]>`
      SELECT ${TEXT}::text AS text, ${42}::int AS int, ${2n ** 62n}::bigint AS big, ${1.5}::float8 AS float,
             ${true}::boolean AS yes, ${false}::boolean AS no, ${null}::text AS nothing, ${bytes}::bytea AS bytes,
             ${['a', 'b "c"', 'd,e', '']}::text[] AS list, ${[1, 2, 3]}::int[] AS ints,
             ${new Date('2026-11-26T12:34:56.789Z')}::timestamptz AS at, ${JSON.stringify({ a: [1, 'x'] })}::jsonb AS doc`
    expect(rows[0]).toEqual({
      text: TEXT, int: 42, big: 2n ** 62n, float: 1.5, yes: true, no: false, nothing: null, bytes: expect.anything(),
      list: ['a', 'b "c"', 'd,e', ''], ints: [1, 2, 3], at: new Date('2026-11-26T12:34:56.789Z'), doc: { a: [1, 'x'] },
    })
    expect([...(rows[0].bytes as Uint8Array)]).toEqual([...bytes])
  })

  it('keeps a statement error its SQLSTATE, and the connection serves the next statement', async () => {
    const db = await open(await fresh())
    await db.prisma.user.create({ data: { username: 'alice', passwordHash: 'x' } })
    const err = await db.prisma.user.create({ data: { username: 'alice', passwordHash: 'y' } }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'P2002' }) // unique constraint, mapped from 23505 by the adapter
    await expect(db.prisma.$queryRawUnsafe('SELECT * FROM no_such_table')).rejects.toMatchObject({ meta: { driverAdapterError: { cause: { originalCode: '42P01' } } } })
    await expect(db.prisma.$transaction(async (tx) => {
      await tx.user.create({ data: { username: 'bob', passwordHash: 'x' } })
      await tx.user.create({ data: { username: 'alice', passwordHash: 'x' } })
    })).rejects.toMatchObject({ code: 'P2002' })
    expect((await db.prisma.user.findMany({ orderBy: { username: 'asc' } })).map((u) => u.username)).toEqual(['alice'])
  })

  it('runs a repeated statement again after its prepared form was dropped or its table changed shape', async () => {
    const db = await open(await fresh())
    await db.prisma.$executeRawUnsafe('CREATE TABLE "Shape" (id int PRIMARY KEY)')
    await db.prisma.$executeRawUnsafe('INSERT INTO "Shape" VALUES (1)')
    const read = () => db.prisma.$queryRawUnsafe<Record<string, unknown>[]>('SELECT * FROM "Shape" WHERE id = $1', 1)
    for (let i = 0; i < 6; i++) expect(await read()).toEqual([{ id: 1 }]) // past the generic plan's five runs
    await db.prisma.$executeRawUnsafe('DEALLOCATE ALL') // as a wire client (Studio, psql) may
    expect(await read()).toEqual([{ id: 1 }])
    await db.prisma.$executeRawUnsafe('ALTER TABLE "Shape" ADD COLUMN label text DEFAULT \'x\'')
    expect(await read()).toEqual([{ id: 1, label: 'x' }])
  })
})
