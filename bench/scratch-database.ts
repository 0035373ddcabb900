import crypto from 'node:crypto'
import pg from 'pg'
import { pgConnectionConfig } from '../src/platform/db/database.js'

/** Runs fn against a new database on the server of `serverUrl`, dropped afterwards whatever happens. */
export async function withScratchDatabase<T>(serverUrl: string, prefix: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `${prefix}_${crypto.randomBytes(4).toString('hex')}`
  const admin = new pg.Client(pgConnectionConfig(serverUrl))
  await admin.connect()
  await admin.query(`CREATE DATABASE "${name}"`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  try {
    return await fn(url.toString())
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await admin.end()
  }
}
