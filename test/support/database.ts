// A migrated database that no other test sees, cloned from the run's template (global-setup.ts).
// Usage: const t = await freshDatabase(); const db = await openDatabase(t); … await db.close(); await t.cleanup()
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { inject } from 'vitest'
import { adminQuery } from './global-setup.js'
import { testTmpRoot } from './tmp-root.js'

export interface FreshDatabase {
  /** postgresql://… when the run uses PostgreSQL; undefined for PGlite under dataDir */
  databaseUrl?: string
  /** a new empty-but-for-the-database directory, usable as DATA_DIR */
  dataDir: string
  /** drops the database / removes dataDir; close the Database first */
  cleanup(): Promise<void>
}

export async function freshDatabase(): Promise<FreshDatabase> {
  const tpl = inject('testDbTemplate')
  const dataDir = fs.mkdtempSync(path.join(testTmpRoot(), 'gw-test-db-'))
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true })

  if (tpl.kind === 'pglite') {
    fs.cpSync(tpl.pgliteDir, path.join(dataDir, 'pglite'), { recursive: true })
    return { dataDir, cleanup: async () => removeDir() }
  }

  const name = `${tpl.prefix}_${crypto.randomBytes(6).toString('hex')}`
  await adminQuery(tpl.url, `CREATE DATABASE "${name}" TEMPLATE "${tpl.template}"`)
  const u = new URL(tpl.url)
  u.pathname = `/${name}`
  return {
    databaseUrl: u.toString(),
    dataDir,
    cleanup: async () => {
      await adminQuery(tpl.url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      removeDir()
    },
  }
}
