import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { TypedDocumentNode } from '@graphql-typed-document-node/core'
import { print } from 'graphql'
import { loadConfig } from '../../src/config.js'
import { startService, type RunningService } from '../../src/service.js'
import { createLogger } from '../../src/platform/http/logger.js'
import { freshDatabase, type FreshDatabase } from './database.js'
import { checkAnswer } from './openapi-check.js'

export interface TestService extends RunningService {
  db: FreshDatabase
  /** fetch against the service: path relative to its URL */
  http(pathname: string, init?: RequestInit): Promise<Response>
  /** a personal access token for a user of the bootstrap file */
  tokenFor(username: string, password: string): Promise<string>
  /** POST /graphql with a bearer token (or none) */
  graphql<T = any>(query: string, variables?: Record<string, unknown>, token?: string): Promise<{ status: number; body: { data?: T; errors?: any[] } }>
  /** a named operation from schema/operations, typed by codegen (test/generated/graphql.ts) */
  op<R, V>(document: TypedDocumentNode<R, V>, variables: V, token?: string): Promise<{ status: number; data?: R | null; errors?: any[] }>
  close(): Promise<void>
}

export interface TestServiceOptions {
  /** bootstrap document, written to a file in the data dir */
  bootstrap?: unknown
  /** extra environment, as the service would read it */
  env?: Record<string, string>
  /** reuse a database (e.g. to restart on the same data) */
  db?: FreshDatabase
}

/** The real service on an ephemeral loopback port, on its own fresh database (PGlite or PostgreSQL). */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const db = options.db ?? (await freshDatabase())
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: db.dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    GATEWAY_SECRET_KEY: TEST_SECRET_KEY,
    // generous: a loaded CI machine must not turn a fake worker's answer into a timeout; tests about a slow worker set their own
    DEPLOY_TIMEOUT_MS: '10000',
    // scrypt's cheapest cost: every start hashes its bootstrap users (a test of the production cost sets 14)
    PASSWORD_SCRYPT_COST: '10',
    // the embedded database zero-fills its shared buffers at every start: a test database's few MB fit in 16 (a test of
    // the default sets its own)
    EMBEDDED_PG_SHARED_BUFFERS_MB: '16',
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
    ...options.env,
  }
  if (options.bootstrap !== undefined) {
    const file = path.join(db.dataDir, `bootstrap-${crypto.randomUUID()}.json`)
    fs.writeFileSync(file, JSON.stringify(options.bootstrap))
    env.GATEWAY_BOOTSTRAP = file
  }
  const config = loadConfig(env)
  const service = await startService(config, createLogger(config.logLevel))
  const http = async (pathname: string, init?: RequestInit) => {
    const res = await fetch(service.url + pathname, init)
    await checkAnswer(init?.method ?? 'GET', service.url + pathname, res)
    return res
  }
  const graphql = async (query: string, variables?: Record<string, unknown>, token?: string) => {
    const res = await http('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    })
    return { status: res.status, body: (await res.json()) as { data?: any; errors?: any[] } }
  }
  return {
    ...service,
    db,
    http,
    async tokenFor(username, password) {
      const res = await http('/apiops/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: username, client_secret: password }),
      })
      if (res.status !== 200) throw new Error(`token for ${username}: HTTP ${res.status} ${await res.text()}`)
      return ((await res.json()) as { access_token: string }).access_token
    },
    graphql,
    async op(document, variables, token) {
      const { status, body } = await graphql(print(document), variables as Record<string, unknown>, token)
      return { status, data: body.data, errors: body.errors }
    },
    async close() {
      await service.stop()
      if (!options.db) await db.cleanup()
    },
  }
}

/** A fixed master key for tests (base64 of 32 bytes), so PostgreSQL runs start like production ones. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64')
