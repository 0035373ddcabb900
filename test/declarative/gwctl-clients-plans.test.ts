import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { bundleGwctl, runCli } from './gwctl-support.js'
import { key, rateSpec } from '../limits/limit-plans-helpers.js'

// Issue 29 through the real CLI against the real service (PGlite, or PostgreSQL with TEST_DATABASE_URL), for API client
// secrets and limit plans: a client secret is never dumped, `--secrets refs` writes `${env:NAME}` with the documented
// derived name, the plan marks a changed secret `(sensitive)` from the keyed fingerprint and never shows a value, an
// unset variable is an error naming it; a client the file leaves out is undeployed (exit 4 when the worker did not
// acknowledge, the outbox retrying it); limit plans sync, plan and refuse with the exit codes of §6.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' }, env: { OUTBOX_POLL_INTERVAL_MS: '50' } })
let cli: { file: string; dir: string }
let issued = ''
const SECRET_VAR = 'APPLICATIONS_ORDERS_API_CLIENTS_ORDERS_BACKEND_CLIENT_SECRET'

const gwctl = (args: string[], env: Record<string, string> = {}) =>
  runCli(cli.file, args, { cwd: cli.dir, env: { GWCTL_URL: bed.svc.url, GWCTL_TOKEN: bed.root, ...env } })
const file = (name: string, doc: unknown) => {
  const p = path.join(cli.dir, name)
  fs.writeFileSync(p, JSON.stringify(doc))
  return p
}
const rest = async (method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await bed.svc.http(pathname, { method, headers: { authorization: `Bearer ${bed.root}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers }, body: body ? JSON.stringify(body) : undefined })
  return { status: res.status, body: (await res.json().catch(() => null)) as any }
}
const secretsOf = (clientId: string) => bed.svc.deps.prisma.apiClientSecret.findMany({ where: { apiClient: { clientId } }, orderBy: { version: 'asc' }, select: { version: true, origin: true, retiredAt: true } })
type Doc = Record<string, any>

async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

beforeAll(async () => {
  cli = await bundleGwctl()
  const app = await bed.svc.graphql('mutation { createApplication(projectName: "payments", input: { name: "orders" }) { name } }', {}, bed.root)
  expect(app.body.errors).toBeUndefined()
  for (const clientId of ['orders-backend', 'orders-legacy']) {
    const made = await rest('POST', '/api/api-clients', { projectName: 'payments', name: clientId, clientId, applicationName: 'orders' })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    if (clientId === 'orders-backend') issued = made.body.clientSecret
  }
  expect(issued).toMatch(/^acs_/)
})
afterAll(() => fs.rmSync(cli.dir, { recursive: true, force: true }))

describe('gwctl: API client secrets and limit plans', { timeout: 300_000 }, () => {
  it('never dumps a client secret; --secrets refs writes the derived ${env:NAME}; the same value plans no change (exit 0)', async () => {
    const plain = await gwctl(['dump', '--project', 'payments', '--format', 'json'])
    expect(plain.code).toBe(0)
    expect(plain.stdout).not.toContain(issued)
    expect(plain.stdout).not.toMatch(/clientSecret/)
    const refs = await gwctl(['dump', '--project', 'payments', '--format', 'json', '--secrets', 'refs', '-o', 'refs.json'])
    expect(refs).toMatchObject({ code: 0, stderr: '' })
    const text = fs.readFileSync(path.join(cli.dir, 'refs.json'), 'utf8')
    expect(text).not.toContain(issued)
    const doc = JSON.parse(text) as Doc
    const orders = doc.applications.find((a: Doc) => a.name === 'orders')
    expect(orders.apiClients.map((c: Doc) => [c.clientId, c.clientSecret])).toEqual([
      ['orders-backend', `\${env:${SECRET_VAR}}`], ['orders-legacy', '${env:APPLICATIONS_ORDERS_API_CLIENTS_ORDERS_LEGACY_CLIENT_SECRET}'],
    ])
    const only = file('orders.json', { ...doc, applications: [orders], credentials: undefined })

    const unset = await gwctl(['plan', '--project', 'payments', '-f', only])
    expect(unset.code).toBe(1)
    expect(unset.stderr).toMatch(new RegExp(`\\$\\{env:${SECRET_VAR}\\} is not set`))

    // the other client's secret was shown once to its creator, not here: rotated, it is known
    const rotated = await rest('POST', `/api/api-clients/${(await bed.svc.deps.prisma.apiClient.findUniqueOrThrow({ where: { clientId: 'orders-legacy' } })).apiClientKey}/actions/rotate-secret`, {})
    const legacySecret = rotated.body.clientSecret as string
    const same = await gwctl(['plan', '--project', 'payments', '-f', only], { [SECRET_VAR]: issued, APPLICATIONS_ORDERS_API_CLIENTS_ORDERS_LEGACY_CLIENT_SECRET: legacySecret })
    expect(same.stderr).toBe('')
    expect(same.stdout).toMatch(/No changes/)
    expect(same.code).toBe(0)
  })

  it('plans a changed client secret as (sensitive), applies it as a new secret version, and never prints a value (exit 2, then 0)', async () => {
    const orders = { name: 'orders', apiClients: [{ clientId: 'orders-backend', name: 'orders-backend', clientSecret: `\${env:${SECRET_VAR}}` }, { clientId: 'orders-legacy', name: 'orders-legacy' }] }
    const f = file('rotate.json', { formatVersion: 1, project: 'payments', applications: [orders] })
    const env = { [SECRET_VAR]: 'rotated-by-file-0123456789' }
    const plan = await gwctl(['plan', '--project', 'payments', '-f', f], env)
    expect(plan.code).toBe(2)
    expect(plan.stdout).toMatch(/apiClients\/orders-backend\/clientSecret: changed \(sensitive\)/)
    expect(plan.stdout + plan.stderr).not.toMatch(/rotated-by-file|acs_/)
    const json = await gwctl(['plan', '--project', 'payments', '-f', f, '--json'], env)
    expect(JSON.parse(json.stdout).changes).toEqual([expect.objectContaining({ action: 'update', type: 'applications', name: 'orders', fields: ['apiClients/orders-backend/clientSecret'], sensitive: true })])
    expect(json.stdout).not.toMatch(/rotated-by-file/)

    bed.dev.received.length = 0
    const applied = await gwctl(['apply', '--project', 'payments', '-f', f], env)
    expect(applied.stderr).toBe('')
    expect(applied.code).toBe(0)
    expect(applied.stdout).not.toMatch(/rotated-by-file/)
    expect(await secretsOf('orders-backend')).toEqual([
      { version: 1, origin: 'ISSUED', retiredAt: expect.any(Date) },
      { version: 2, origin: 'CARRIED', retiredAt: null },
    ])
    // pushed with its new secret version (never the value)
    expect(bed.dev.received).toContainEqual(expect.objectContaining({ kind: 'API_CLIENT', name: 'orders-backend', action: 'DEPLOY', config: expect.objectContaining({ secretVersion: 2 }) }))
    expect(JSON.stringify(bed.dev.received)).not.toMatch(/rotated-by-file/)
    // the same value again: nothing to change; a too short one is refused naming its field, nothing written
    expect((await gwctl(['plan', '--project', 'payments', '-f', f], env)).code).toBe(0)
    const short = await gwctl(['apply', '--project', 'payments', '-f', f], { [SECRET_VAR]: 'short' })
    expect(short.code).toBe(1)
    expect(short.stderr).toMatch(/applications\[0\]\.apiClients\[0\]\.clientSecret/)
    expect(short.stderr).not.toMatch(/short:/)
    expect(await secretsOf('orders-backend')).toHaveLength(2)
  })

  it('undeploys a client the file leaves out; exit 4 when the worker did not acknowledge, the outbox delivering it later', async () => {
    const f = file('drop.json', { formatVersion: 1, project: 'payments', applications: [{ name: 'orders', apiClients: [{ clientId: 'orders-backend', name: 'orders-backend' }] }] })
    bed.dev.status = 500
    const applied = await gwctl(['apply', '--project', 'payments', '-f', f])
    expect(applied.code).toBe(4)
    expect(await bed.svc.deps.prisma.apiClient.findUnique({ where: { clientId: 'orders-legacy' } })).toBeNull()
    bed.dev.received.length = 0
    bed.dev.status = 200
    await until('the undeploy of orders-legacy from the outbox', () => bed.dev.received.some((m) => m.kind === 'API_CLIENT' && m.name === 'orders-legacy' && m.action === 'UNDEPLOY'))
  })

  it('syncs limit plans (exit 0), plans them against themselves (exit 0) and refuses an invalid one, nothing written (exit 1)', async () => {
    expect((await rest('POST', '/apiops/projects/payments/limit-plans', { family: 'REQUEST_RATE', name: 'Gold', initialRuleSpec: rateSpec(10) }, { 'idempotency-key': key() })).status).toBe(201)
    const dump = await gwctl(['dump', '--project', 'payments', '--format', 'json'])
    const doc = JSON.parse(dump.stdout) as Doc
    expect(doc.limitPlans).toEqual([{ planKey: 'gold', family: 'REQUEST_RATE', name: 'Gold', nameTr: null, description: null, labels: [], lifecycle: 'DRAFT', ruleSpec: rateSpec(10) }])
    const f = file('plans.json', { formatVersion: 1, project: 'payments', limitPlans: [{ ...doc.limitPlans[0], lifecycle: 'PUBLISHED' }, { planKey: 'silver', family: 'REQUEST_RATE', name: 'Silver', ruleSpec: rateSpec(5) }] })
    expect((await gwctl(['plan', '--project', 'payments', '-f', f, '--mode', 'sync'])).code).toBe(2)
    const synced = await gwctl(['sync', '--project', 'payments', '-f', f])
    expect(synced.stderr).toBe('')
    expect(synced.code).toBe(0)
    expect((await rest('GET', '/apiops/projects/payments/limit-plans/gold')).body).toMatchObject({ lifecycle: 'PUBLISHED', currentPublishedRevision: 1 })
    expect((await gwctl(['plan', '--project', 'payments', '-f', f, '--mode', 'sync'])).code).toBe(0)

    const before = await bed.svc.deps.prisma.limitPlan.count()
    const bad = file('bad-plan.json', { formatVersion: 1, project: 'payments', limitPlans: [{ planKey: 'bronze', family: 'REQUEST_RATE', name: 'Bronze', ruleSpec: { aiBudget: { tokensPerDay: 1 } } }] })
    const refused = await gwctl(['apply', '--project', 'payments', '-f', bad])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/limitPlans\[0\]\.ruleSpec/)
    expect(await bed.svc.deps.prisma.limitPlan.count()).toBe(before)
  })
})
