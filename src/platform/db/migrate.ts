// Applies the committed SQL migrations at start-up without Prisma's schema engine.
// Bookkeeping uses Prisma's own `_prisma_migrations` table and sha256 checksums, so the
// wasm engine used by `npm run db:migration` sees the same history.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import type pg from 'pg'

/** A single database session: a PGlite instance or one pg client (not a pool: the advisory lock is per session). */
export type MigrationTarget = PGlite | pg.ClientBase

interface Session {
  query<R extends object>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>
  script(sql: string): Promise<void>
}

function session(db: MigrationTarget): Session {
  // PGlite runs multi-statement scripts through exec(); pg's simple-query protocol through query().
  if ('exec' in db) return { query: (sql, params) => db.query(sql, params), script: async (sql) => void (await db.exec(sql)) }
  return {
    query: async <R extends object>(sql: string, params?: unknown[]) => (await db.query(sql, params)) as unknown as { rows: R[] },
    script: async (sql) => void (await db.query(sql)),
  }
}

// Arbitrary fixed key: serialises concurrent start-ups of several instances on one PostgreSQL database.
const LOCK_KEY = 7_301_964_221

const BOOKKEEPING_DDL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`

export interface MigrationFile { name: string; sql: string; checksum: string }

/** The migration folders of `dir` in name (= timestamp) order. */
export function readMigrationFiles(dir: string): MigrationFile[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8')
      return { name, sql, checksum: crypto.createHash('sha256').update(sql).digest('hex') }
    })
}

/**
 * Applies the pending migrations of `migrationsDir`, each in its own transaction, and returns
 * the names applied. Throws, before applying anything, if an applied migration's file changed.
 */
export async function runMigrations(db: MigrationTarget, migrationsDir: string): Promise<string[]> {
  const s = session(db)
  const files = readMigrationFiles(migrationsDir)
  await s.query('SELECT pg_advisory_lock($1)', [LOCK_KEY])
  try {
    // The DDL only where the table is missing: on a started-before database the check costs a quarter of the
    // CREATE TABLE IF NOT EXISTS (≈ 12 vs 55 ms CPU on PGlite, whose engine compiles each code path on first use).
    const [{ present }] = (await s.query<{ present: boolean }>(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS present`)).rows
    if (!present) await s.script(BOOKKEEPING_DDL)
    const { rows } = await s.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    )
    const applied = new Map(rows.map((r) => [r.migration_name, r]))
    for (const f of files) {
      const row = applied.get(f.name)
      if (!row) continue
      if (row.finished_at == null)
        throw new Error(`Migration ${f.name} failed in an earlier run and was not rolled back; fix the database by hand`)
      if (row.checksum !== f.checksum)
        throw new Error(`Migration ${f.name} was edited after it was applied (checksum mismatch); restore prisma/migrations/${f.name}/migration.sql and create a new migration instead`)
    }
    const ran: string[] = []
    for (const f of files.filter((m) => !applied.has(m.name))) {
      await s.script('BEGIN')
      try {
        await s.script(f.sql)
        await s.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), now(), 1)`,
          [crypto.randomUUID(), f.checksum, f.name],
        )
        await s.script('COMMIT')
      } catch (e) {
        await s.script('ROLLBACK').catch(() => {})
        throw new Error(`Migration ${f.name} failed: ${(e as Error).message}`, { cause: e })
      }
      ran.push(f.name)
    }
    return ran
  } finally {
    await s.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {})
  }
}
