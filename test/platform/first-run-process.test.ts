import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { TEST_SECRET_KEY } from '../support/app.js'
import { freshDatabase, type FreshDatabase } from '../support/database.js'
import { ensureBuilt, spawnService } from '../support/process.js'

// The first minute of a new user (issue 18 §1) on the build `npm start` runs: sign in through the real token
// endpoint with the first-run admin's password, from GATEWAY_ADMIN_PASSWORD and from the generated file.
beforeAll(() => ensureBuilt())

const envFor = (db: FreshDatabase, extra: Record<string, string> = {}) => ({
  DATA_DIR: db.dataDir, LOG_LEVEL: 'info',
  ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl, GATEWAY_SECRET_KEY: TEST_SECRET_KEY } : {}), ...extra,
})

async function signIn(url: string, password: string) {
  const res = await fetch(`${url}/apiops/auth/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'admin', client_secret: password }),
  })
  return { status: res.status, body: (await res.json()) as { access_token?: string } }
}

describe('first-run admin from the `npm start` bundle (RUNTIME.md §3.1)', () => {
  for (const source of ['GATEWAY_ADMIN_PASSWORD', 'initial-admin-password'] as const) {
    it(`signs in with the password from ${source}`, async () => {
      const db = await freshDatabase()
      const fromEnv = 'bundle-admin pass:%&='
      const proc = spawnService(envFor(db, source === 'GATEWAY_ADMIN_PASSWORD' ? { GATEWAY_ADMIN_PASSWORD: fromEnv } : {}), { compiled: true })
      try {
        const url = await proc.listening
        const file = path.join(db.dataDir, 'initial-admin-password')
        const password = source === 'GATEWAY_ADMIN_PASSWORD' ? fromEnv : fs.readFileSync(file, 'utf8').trim()
        expect(fs.existsSync(file)).toBe(source !== 'GATEWAY_ADMIN_PASSWORD')
        const signedIn = await signIn(url, password)
        expect(signedIn.status).toBe(200)
        const me = await fetch(`${url}/graphql`, {
          method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${signedIn.body.access_token}` },
          body: JSON.stringify({ query: '{ me { username role } }' }),
        })
        expect(((await me.json()) as { data: unknown }).data).toEqual({ me: { username: 'admin', role: 'ADMIN' } })
        expect(proc.output()).not.toContain(password)
        proc.child.kill('SIGTERM')
        expect(await proc.exited).toBe(0)
      } finally {
        proc.child.kill('SIGKILL')
        await db.cleanup()
      }
    })
  }
})
