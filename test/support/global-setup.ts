// Once per test run: build one migrated template database that freshDatabase() clones.
// PGlite (default): a closed, migrated data directory that is copied per test (initdb costs seconds).
// PostgreSQL (TEST_DATABASE_URL set): a template database cloned with CREATE DATABASE … TEMPLATE.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { pgConnectionConfig, defaultMigrationsDir, pgliteExtensions } from '../../src/platform/db/database.js'
import { runMigrations } from '../../src/platform/db/migrate.js'
import { testTmpRoot } from './tmp-root.js'

export type TestDbTemplate =
  | { kind: 'pglite'; pgliteDir: string }
  | { kind: 'postgres'; url: string; template: string; prefix: string }

declare module 'vitest' {
  export interface ProvidedContext {
    testDbTemplate: TestDbTemplate
  }
}

export async function adminQuery(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client(pgConnectionConfig(url))
  await client.connect()
  try {
    return await client.query(sql)
  } finally {
    await client.end()
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now()
  const url = process.env.TEST_DATABASE_URL
  if (url) {
    // Every database of this run shares the prefix, so teardown also catches clones a crashed test leaked.
    const prefix = `gwt_${crypto.randomBytes(5).toString('hex')}`
    const template = `${prefix}_tpl`
    await adminQuery(url, `CREATE DATABASE "${template}"`)
    const u = new URL(url)
    u.pathname = `/${template}`
    const client = new pg.Client(pgConnectionConfig(u.toString()))
    await client.connect()
    try {
      await runMigrations(client, defaultMigrationsDir)
    } catch (e) {
      await client.end()
      await adminQuery(url, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`)
      throw e
    }
    await client.end()
    project.provide('testDbTemplate', { kind: 'postgres', url, template, prefix })
    log(`PostgreSQL template ${template} ready in ${Date.now() - started} ms`)
    return async () => {
      const { rows } = await adminQuery(url, `SELECT datname FROM pg_database WHERE datname LIKE '${prefix}%'`)
      for (const r of rows) await adminQuery(url, `DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`)
    }
  }

  const root = fs.mkdtempSync(path.join(testTmpRoot(), 'gw-test-template-'))
  const pgliteDir = path.join(root, 'pglite')
  const db = new PGlite(pgliteDir, { extensions: pgliteExtensions })
  try {
    await runMigrations(db, defaultMigrationsDir)
  } finally {
    await db.close() // a cleanly shut down directory is what makes a plain file copy valid
  }
  project.provide('testDbTemplate', { kind: 'pglite', pgliteDir })
  log(`PGlite template ready in ${Date.now() - started} ms`)
  return () => fs.rmSync(root, { recursive: true, force: true })
}

function log(msg: string) {
  if (process.env.TEST_DB_VERBOSE) console.log(`[test db] ${msg}`)
}
