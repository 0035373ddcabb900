// npm run bench: prints figures, asserts nothing. Runs on PGlite, and also on PostgreSQL when
// BENCH_DATABASE_URL is set (a scratch database is created and dropped there).
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureBuilt, spawnService } from '../test/support/process.js'
import { withScratchDatabase } from './scratch-database.js'
import { benchTransfer } from './transfer.js'
import { benchConsumerList } from './consumers.js'
import { benchLists } from './lists.js'
import { benchScale } from './scale.js'
import { benchLimitBulk } from './limit-bulk.js'
import { benchPresets } from './presets.js'
import { benchApiProxies } from './apiproxies.js'
import { benchLlm } from './llm.js'
import { benchDeclarative } from './declarative.js'
import { benchStartup } from './startup.js'
import { median, ms, p95, timed } from './measure.js'

const BOOTSTRAP = {
  environments: [{ name: 'dev', workerUrls: [] }],
  users: [{ username: 'bench', password: 'bench-password-1', role: 'ADMIN' }],
  projects: [{ name: 'bench', environments: ['dev'], credentials: [{ username: 'bench-cred', password: 'x' }] }],
}
const KEY = crypto.randomBytes(32).toString('base64')



async function startAndWait(env: Record<string, string>) {
  const t0 = performance.now()
  const proc = spawnService(env, { compiled: true }) // what `npm start` runs
  const url = await proc.listening
  // ready = /healthz answers 200
  while ((await fetch(`${url}/healthz`)).status !== 200) await new Promise((r) => setTimeout(r, 10))
  return { proc, url, readyMs: performance.now() - t0 }
}

async function run(label: string, env: Record<string, string>) {
  console.log(`\n== ${label} ==`)
  const first = await startAndWait(env)
  console.log(`start-up to ready (new data, bootstrap applied): ${ms(first.readyMs)}`)
  const { url } = first
  const form = (user: string, pw: string) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: user, client_secret: pw }),
  })
  await fetch(`${url}/apiops/auth/token`, form('bench', 'bench-password-1')) // warm-up
  const ok = await timed(40, () => fetch(`${url}/apiops/auth/token`, form('bench', 'bench-password-1')).then((r) => r.arrayBuffer()))
  const wrong = await timed(20, () => fetch(`${url}/apiops/auth/token`, form('bench', 'wrong')).then((r) => r.arrayBuffer()))
  const unknown = await timed(20, () => fetch(`${url}/apiops/auth/token`, form(`ghost-${Math.random()}`, 'wrong')).then((r) => r.arrayBuffer()))
  console.log(`token endpoint, success:       median ${ms(median(ok))}, p95 ${ms(p95(ok))} (n=${ok.length})`)
  console.log(`token endpoint, wrong password: median ${ms(median(wrong))} (n=${wrong.length})`)
  console.log(`token endpoint, unknown user:   median ${ms(median(unknown))} (n=${unknown.length})`)

  const token = ((await (await fetch(`${url}/apiops/auth/token`, form('bench', 'bench-password-1'))).json()) as { access_token: string }).access_token
  const auth = { headers: { authorization: `Bearer ${token}` } }
  await timed(20, () => fetch(`${url}/api/session`, auth).then((r) => r.arrayBuffer()))
  const open = await timed(300, () => fetch(`${url}/healthz`).then((r) => r.arrayBuffer()))
  const guarded = await timed(300, () => fetch(`${url}/api/session`, auth).then((r) => r.arrayBuffer()))
  console.log(`GET /healthz (no auth):         median ${ms(median(open))}, p95 ${ms(p95(open))}`)
  console.log(`GET /api/session (token + 1 read): median ${ms(median(guarded))}, p95 ${ms(p95(guarded))}`)
  console.log(`authenticated request overhead: ~${ms(median(guarded) - median(open))} (token lookup, user state check, session read)`)
  const reset = await timed(50, () => fetch(`${url}/apiops/projects/bench/credentials/bench-cred/token/`, { method: 'DELETE', ...auth }).then((r) => r.arrayBuffer()))
  console.log(`credential reset (save + push to 1 env without workers): median ${ms(median(reset))}, p95 ${ms(p95(reset))}`)

  first.proc.child.kill('SIGTERM')
  await first.proc.exited
  const second = await startAndWait({ ...env, GATEWAY_BOOTSTRAP: env.GATEWAY_BOOTSTRAP })
  console.log(`start-up to ready (existing data, bootstrap re-applied): ${ms(second.readyMs)}`)
  second.proc.child.kill('SIGTERM')
  await second.proc.exited
}

ensureBuilt()
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-'))
const bootstrapFile = path.join(dir, 'bootstrap.json')
fs.writeFileSync(bootstrapFile, JSON.stringify(BOOTSTRAP))
try {
  await run('embedded (PGlite)', { DATA_DIR: path.join(dir, 'data'), GATEWAY_BOOTSTRAP: bootstrapFile, LOG_LEVEL: 'info' })
  const pgUrl = process.env.BENCH_DATABASE_URL
  if (pgUrl) {
    await withScratchDatabase(pgUrl, 'gw_bench', (url) =>
      run('PostgreSQL', { DATABASE_URL: url, GATEWAY_SECRET_KEY: KEY, DATA_DIR: path.join(dir, 'pgdata'), GATEWAY_BOOTSTRAP: bootstrapFile, LOG_LEVEL: 'info' }),
    )
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
await benchStartup()
await benchConsumerList()
await benchLists()
await benchScale()
await benchLimitBulk()
await benchPresets()
await benchApiProxies()
await benchTransfer()
await benchLlm()
await benchDeclarative()
process.exit(0)
