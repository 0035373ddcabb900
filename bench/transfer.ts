// Export packages and transfer (issue 6): 1,000 IDENTITY_SERVICE objects, each with a sealed secret and a
// CERTIFICATE dependency that has a secret of its own, exported with their dependencies (2,000 objects)
// through preview + run, then preflighted and imported into another project, unencrypted and encrypted.
// Prints MB/s (uncompressed object JSON and package bytes) and the process's peak RSS.
// Runs the service in process on PGlite, and on PostgreSQL when BENCH_DATABASE_URL is set.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import AdmZip from 'adm-zip'
import { loadConfig } from '../src/config.js'
import { createLogger } from '../src/platform/http/logger.js'
import { startService, type RunningService } from '../src/service.js'
import { withScratchDatabase } from './scratch-database.js'

const OBJECTS = 1_000
const KEY = crypto.randomBytes(32).toString('base64')
const USER = { username: 'bench-admin', password: 'bench-password-1', role: 'ADMIN' }
const PASSPHRASE = 'bench passphrase'

const mb = (bytes: number) => bytes / (1024 * 1024)
const peakRssMb = () => process.resourceUsage().maxRSS / 1024

async function seed(svc: RunningService) {
  const prisma = svc.deps.prisma
  const { id: projectId } = await prisma.project.findUniqueOrThrow({ where: { name: 'bench-source' } })
  const filler = 'x'.repeat(600) // a realistic object: about 1 KB of configuration each
  const names = Array.from({ length: OBJECTS }, (_, i) => `ldap-${String(i).padStart(4, '0')}`)
  await prisma.storedObject.createMany({
    data: names.map((name, i) => ({
      projectId, type: 'CERTIFICATE', kind: 'CERTIFICATE', name: `cert-${name}`,
      content: { pem: `-----BEGIN CERTIFICATE-----${filler}`, privateKey: svc.deps.keyring.encrypt(`private-key-${i}`), environments: { dev: { alias: name } } },
    })),
  })
  await prisma.storedObject.createMany({
    data: names.map((name, i) => ({
      projectId, type: 'IDENTITY_SERVICE', kind: 'LDAP', name,
      content: { url: `ldaps://ldap-${i}.example.test`, baseDn: `ou=${filler}`, bindPassword: svc.deps.keyring.encrypt(`bind-${i}`), certificateName: `cert-${name}` },
    })),
  })
  return names
}

async function call(svc: RunningService, token: string, pathname: string, init: RequestInit & { json?: unknown }) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) }
  let body = init.body
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(init.json)
  }
  const t0 = performance.now()
  const res = await fetch(svc.url + pathname, { ...init, headers, body })
  const bytes = Buffer.from(await res.arrayBuffer())
  const seconds = (performance.now() - t0) / 1000
  if (res.status !== 200) throw new Error(`${pathname}: HTTP ${res.status} ${bytes.toString().slice(0, 500)}`)
  return { bytes, seconds, json: () => JSON.parse(bytes.toString()) }
}

function multipart(pkg: Buffer, options?: unknown) {
  const form = new FormData()
  form.append('exportFile', new Blob([new Uint8Array(pkg)], { type: 'application/zip' }), 'package.zip')
  if (options) form.append('options', JSON.stringify(options))
  return form
}

const uncompressedBytes = (pkg: Buffer) => new AdmZip(pkg).getEntries().reduce((n, e) => n + e.header.size, 0)

async function measure(label: string, env: Record<string, string>) {
  console.log(`\n== transfer of ${OBJECTS.toLocaleString('en')} objects with dependencies, ${label} ==`)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-transfer-'))
  const bootstrapFile = path.join(dir, 'bootstrap.json')
  fs.writeFileSync(bootstrapFile, JSON.stringify({
    environments: [{ name: 'dev', workerUrls: [] }],
    users: [USER],
    projects: [{ name: 'bench-source', environments: ['dev'] }, { name: 'bench-target', environments: ['dev'] }, { name: 'bench-target-2', environments: ['dev'] }],
  }))
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: path.join(dir, 'data'), GATEWAY_BOOTSTRAP: bootstrapFile, GATEWAY_SECRET_KEY: KEY, ...env,
  })
  const svc = await startService(config, createLogger('warn'))
  try {
    const names = await seed(svc)
    const tokenRes = await fetch(`${svc.url}/apiops/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: USER.username, client_secret: USER.password }),
    })
    const { access_token: token } = (await tokenRes.json()) as { access_token: string }
    const selection = { formatVersion: 1, type: 'IDENTITY_SERVICE', kind: 'LDAP', names, withDependencies: true }

    const preview = await call(svc, token, '/apiops/projects/bench-source/transfer-export-previews', { method: 'POST', json: selection })
    const digest = preview.json().exportDigest as string
    console.log(`export preview (${preview.json().objects.length} objects, ${preview.json().dependencies.length} dependencies): ${preview.seconds.toFixed(2)} s`)

    for (const encrypted of [false, true]) {
      const kind = encrypted ? 'encrypted' : 'plain'
      const run = await call(svc, token, `/apiops/projects/bench-source/transfer-export-runs${encrypted ? '?encrypt=true' : ''}`, {
        method: 'POST',
        json: { ...selection, expectedExportDigest: digest },
        headers: encrypted ? { 'X-Service-Package-Passphrase': Buffer.from(PASSPHRASE).toString('base64') } : {},
      })
      const pkg = run.bytes
      const plainBytes = encrypted ? null : uncompressedBytes(pkg)
      console.log(`export run, ${kind}: ${run.seconds.toFixed(2)} s, package ${mb(pkg.length).toFixed(2)} MB` +
        (plainBytes ? `, ${mb(plainBytes).toFixed(2)} MB of object JSON → ${(mb(plainBytes) / run.seconds).toFixed(2)} MB/s` : `, ${(mb(pkg.length) / run.seconds).toFixed(2)} MB/s of package`))

      const target = encrypted ? 'bench-target-2' : 'bench-target'
      const passphraseHeader: Record<string, string> = encrypted ? { 'X-Service-Package-Passphrase': Buffer.from(PASSPHRASE).toString('base64') } : {}
      const pre = await call(svc, token, `/apiops/projects/${target}/transfer-import-preflights?type=IDENTITY_SERVICE`, { method: 'POST', body: multipart(pkg), headers: passphraseHeader })
      console.log(`import preflight, ${kind}: ${pre.seconds.toFixed(2)} s (${(mb(pkg.length) / pre.seconds).toFixed(2)} MB/s of package)`)
      const imp = await call(svc, token, `/apiops/projects/${target}/transfer-import-runs`, {
        method: 'POST',
        body: multipart(pkg, { formatVersion: 1, type: 'IDENTITY_SERVICE', preflightDigest: pre.json().preflightDigest }),
        headers: { 'Idempotency-Key': crypto.randomUUID(), ...passphraseHeader },
      })
      const imported = imp.json().imported.length as number
      console.log(`import run, ${kind}: ${imported} objects in ${imp.seconds.toFixed(2)} s → ${(imported / imp.seconds).toFixed(0)} objects/s, ${(mb(pkg.length) / imp.seconds).toFixed(2)} MB/s of package` +
        (plainBytes ? `, ${(mb(plainBytes) / imp.seconds).toFixed(2)} MB/s of object JSON` : ''))
    }
    console.log(`peak RSS of the process (service + bench): ${peakRssMb().toFixed(0)} MB`)
  } finally {
    await svc.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function benchTransfer() {
  await measure('embedded (PGlite)', {})
  const pgUrl = process.env.BENCH_DATABASE_URL
  if (pgUrl) await withScratchDatabase(pgUrl, 'gw_bench_transfer', (url) => measure('PostgreSQL', { DATABASE_URL: url }))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchTransfer()
  process.exit(0)
}
