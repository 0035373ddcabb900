// Issue 30 §2–4: the admin console at /console in a real browser (headless Chromium driven by playwright-core, as
// test/studio does), against the real service on this run's database, with a fake gateway worker on loopback.
// One browser for the file; each test opens its own page. Every page is screenshotted: into a temporary folder, or
// into docs/console/ (the README's pictures) with UPDATE_SCREENSHOTS=1, so that a test run leaves the checkout as it was.
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { AxeBuilder } from '@axe-core/playwright'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { seedConsumers } from '../limits/limit-bulk-helpers.js'
import { testTmpRoot } from '../support/tmp-root.js'

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p))
const repo = path.resolve(import.meta.dirname, '../..')
const shots = process.env.UPDATE_SCREENSHOTS === '1' ? path.join(repo, 'docs/console') : path.join(testTmpRoot(), `console-shots-${process.pid}`)
afterAll(() => {
  if (process.env.UPDATE_SCREENSHOTS !== '1') fs.rmSync(shots, { recursive: true, force: true })
})
const ROOT = { username: 'root', password: 's3cret-root' }
const T = { timeout: 20_000 }
/** the service, its fixture data and the browser: minutes on a loaded 2-core runner */
const SETUP_TIMEOUT = 300_000

/** GET without decompression: the bytes as served */
function raw(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
    }).on('error', reject)
  })
}

describe.skipIf(!CHROMIUM)('admin console in a browser', { timeout: 300_000 }, () => {
  let svc: TestService
  let worker: FakeWorker
  let browser: Browser
  let rootToken: string
  const pages: Page[] = []

  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const r = await svc.graphql(query, variables, rootToken)
    if (r.body.errors) throw new Error(JSON.stringify(r.body.errors))
    return r.body.data
  }

  async function open(signIn = true): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
    const page = await context.newPage()
    pages.push(page)
    page.setDefaultTimeout(20_000)
    await page.goto(`${svc.url}/console`)
    if (signIn) {
      await page.getByLabel('User name').fill(ROOT.username)
      await page.getByLabel('Password').fill(ROOT.password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('navigation', { name: 'Console' }).waitFor(T)
    }
    return page
  }

  const nav = async (page: Page, link: string, heading: string) => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: link, exact: true }).click()
    await page.getByRole('heading', { level: 1, name: heading }).waitFor(T)
  }

  /** axe finds no serious or critical violation; the page is saved as docs/console/<name>.png */
  async function check(page: Page, name: string) {
    const result = await new AxeBuilder({ page }).analyze()
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), name).toEqual([])
    await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true })
  }

  beforeAll(async () => {
    worker = await FakeWorker.start()
    svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }) })
    rootToken = await svc.tokenFor(ROOT.username, ROOT.password)
    // fixture data for the pages the bootstrap file leaves empty
    await gql(`mutation { createEnvironmentVariable(projectName: "payments", input: { name: "region", global: true, globalValue: "eu-west" }) { environmentVariable { name } } }`)
    await gql(`mutation { createConnection(projectName: "payments", name: "audit-syslog", type: "syslog", config: { syslogProtocolType: "UDP", syslogServerHostname: "127.0.0.1", syslogPort: 9 }) { deploymentResult { success } } }`)
    const plan = await gql(`mutation { createLimitPlan(projectName: "payments", idempotencyKey: "console-gold", input: { name: "Gold", family: "REQUEST_RATE", initialRuleSpec: { requestRate: { windows: [{ permittedMessageCount: 100, interval: "ONE_MINUTE" }] } } }) { planKey } }`)
    await gql(`mutation { publishLimitPlanRevision(projectName: "payments", planKey: "${plan.createLimitPlan.planKey}", revision: 1) { status } }`)
    await seedConsumers(svc.deps.prisma, 'payments', 'bulk', 450)
    fs.mkdirSync(shots, { recursive: true })
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] })
  }, SETUP_TIMEOUT)
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
    await worker?.stop()
  })

  it('serves the built console gzip-compressed, its JavaScript within 250 KB gzipped', async () => {
    const page = await raw(`${svc.url}/console`, { 'accept-encoding': 'gzip' })
    expect(page.status).toBe(200)
    expect(page.headers['content-encoding']).toBe('gzip')
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'")
    const html = (await import('node:zlib')).gunzipSync(page.body).toString()
    const scripts = [...html.matchAll(/src="([^"]+\.js)"/g)].map((m) => m[1])
    expect(scripts.length).toBeGreaterThan(0)
    let total = 0
    for (const src of scripts) {
      const js = await raw(svc.url + src, { 'accept-encoding': 'gzip, deflate' })
      expect(js.status).toBe(200)
      expect(js.headers['content-encoding']).toBe('gzip')
      expect(js.headers['cache-control']).toContain('immutable')
      total += js.body.length
    }
    expect(total).toBeLessThanOrEqual(250 * 1024)
    // a client that takes no gzip gets the plain bytes; a deep link gets the page
    const plain = await raw(svc.url + scripts[0])
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.length).toBeGreaterThan(total / scripts.length)
    const deep = await raw(`${svc.url}/console/api-proxies/orders-api`)
    expect(deep.body.toString()).toContain('<div id="app">')
    expect((await raw(`${svc.url}/console/assets/nothing.js`)).status).toBe(404)
  })

  it('signs in (a wrong password shows the error), keeps the token in session storage only, signs out', async () => {
    const page = await open(false)
    await check(page, 'sign-in')
    await page.getByLabel('User name').fill('root')
    await page.getByLabel('Password').fill('wrong')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('alert').waitFor(T)
    expect(await page.getByRole('alert').textContent()).toMatch(/\S/)
    await page.getByLabel('Password').fill(ROOT.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    const navigation = page.getByRole('navigation', { name: 'Console' })
    await navigation.waitFor(T)
    for (const name of ['Projects', 'API proxies', 'Credentials', 'Applications', 'Consumers', 'API clients', 'Limits', 'Keys and connections', 'Environment variables', 'Audit trail', 'Plans']) {
      expect(await navigation.getByRole('link', { name, exact: true }).count(), name).toBe(1)
    }
    const project = page.getByRole('combobox', { name: 'Project' })
    expect(await project.inputValue()).toBe('admin') // the first project root may see, by name
    const storage = (await page.evaluate('({ session: { ...sessionStorage }, local: { ...localStorage }, cookie: document.cookie, url: location.href })')) as { session: Record<string, string>; local: Record<string, string>; cookie: string; url: string }
    const token = Object.values(storage.session).find((v) => v.length > 20)!
    expect(token).toBeTruthy()
    expect(storage.local).toEqual({})
    expect(storage.cookie).toBe('')
    expect(storage.url).not.toContain(token)
    // the token works on /graphql: a console session
    expect((await svc.graphql('{ me { username } }', {}, token)).body.data).toEqual({ me: { username: 'root' } })
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('button', { name: 'Sign in' }).waitFor(T)
    expect(await page.evaluate('sessionStorage.length')).toBe(0)
    // signing out revoked the session
    expect((await svc.graphql('{ me { username } }', {}, token)).body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED')
    await page.close()
  })

  it("renders every page with the fixture's data, one GraphQL request per page, no serious accessibility violation", async () => {
    const page = await open()
    const requests: string[] = []
    page.on('request', (r) => {
      if (r.url().endsWith('/graphql') && r.method() === 'POST') requests.push(r.postData() ?? '')
    })
    const visit = async (link: string, heading: string, expectText: string[], shot: string) => {
      requests.length = 0
      await nav(page, link, heading)
      for (const text of expectText) await page.getByRole('main').getByText(text, { exact: true }).first().waitFor(T)
      expect(requests.length, `${link}: GraphQL requests for its first data`).toBe(1)
      await check(page, shot)
    }
    await page.getByRole('combobox', { name: 'Project' }).selectOption('payments')
    await visit('API proxies', 'API proxies', ['orders-api'], 'api-proxies')
    requests.length = 0
    await page.getByRole('link', { name: 'orders-api' }).click()
    await page.getByRole('heading', { level: 1, name: 'API proxy orders-api' }).waitFor(T)
    await page.getByRole('button', { name: 'Deploy to dev' }).waitFor(T)
    expect(requests.length).toBe(1)
    expect(requests[0]).toMatch(/endpoints \{[^}]*policies/)
    await page.getByRole('table', { name: /^Endpoints/ }).waitFor(T)
    await page.getByRole('table', { name: 'Policies of every endpoint, by pipeline and order' }).waitFor(T)
    await check(page, 'api-proxy')
    await visit('Credentials', 'Credentials', ['bulk-0001'], 'credentials')
    await visit('Applications', 'Applications', ['checkout'], 'applications')
    await visit('Consumers', 'Consumers', ['bulk-0001'], 'consumers')
    await visit('API clients', 'API clients', ['checkout-web'], 'api-clients')
    await visit('Limits', 'Limits', ['Gold'], 'limits')
    await visit('Keys and connections', 'Keys and connections', ['audit-syslog', 'edge-ks'], 'keys-and-connections')
    await visit('Environment variables', 'Environment variables', ['region', 'eu-west'], 'environment-variables')
    await visit('Audit trail', 'Audit trail', ['createEnvironmentVariable'], 'audit-trail')
    await visit('Plans', 'Plans', ['Drift since the last apply', 'Plan changes'], 'plans')
    await visit('Projects', 'Projects', ['payments', 'other'], 'projects')
    // server-side paging and search: 452 consumers, 20 a page
    await nav(page, 'Consumers', 'Consumers')
    await page.getByText(/Page 1 of 23 \(452 in all\)/).waitFor(T)
    await page.getByRole('button', { name: 'Next page' }).click()
    await page.getByText(/Page 2 of 23/).waitFor(T)
    await page.getByLabel('Search consumers').fill('bulk-0449')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByText(/Page 1 of 1 \(1 in all\)/).waitFor(T)
    await page.getByRole('main').getByText('bulk-0449', { exact: true }).first().waitFor(T)
    await page.close()
  })

  it('creates, edits and deletes per resource family; a refused mutation shows its error and changes nothing', async () => {
    const page = await open()
    const main = page.getByRole('main')
    await page.getByRole('combobox', { name: 'Project' }).selectOption('payments')
    // credentials: create, edit, disable, delete
    await nav(page, 'Credentials', 'Credentials')
    const form = page.getByRole('form', { name: 'New credential' })
    await form.getByLabel('Credential user name').fill('console-made')
    await form.getByLabel('Full name').fill('Made Here')
    await form.getByRole('button', { name: 'Create credential' }).click()
    await main.getByText(/console-made created/).waitFor(T)
    await page.getByLabel('Search credentials').fill('console-')
    await page.getByRole('button', { name: 'Search' }).click()
    await main.getByText('Made Here', { exact: true }).waitFor(T)
    await page.getByRole('button', { name: 'Edit console-made' }).click()
    const edit = page.getByRole('form', { name: 'Edit credential console-made' })
    await edit.getByLabel('Full name').fill('Made And Edited')
    await edit.getByRole('button', { name: 'Save credential' }).click()
    await main.getByText('Made And Edited', { exact: true }).waitFor(T)
    await page.getByRole('button', { name: 'Disable console-made' }).click()
    await page.getByRole('button', { name: 'Enable console-made' }).waitFor(T)
    expect((await svc.deps.prisma.credential.findFirstOrThrow({ where: { username: 'console-made' } })).enabled).toBe(false)
    // refused: the user name exists; the server's message and field are shown, the table is unchanged
    const rowsBefore = await main.getByRole('row').count()
    const countBefore = await svc.deps.prisma.credential.count()
    await form.getByLabel('Credential user name').fill('shop-frontend')
    await form.getByRole('button', { name: 'Create credential' }).click()
    const alert = form.getByRole('alert')
    await alert.waitFor(T)
    expect(await alert.textContent()).toMatch(/shop-frontend.*\(field: username\)/)
    expect(await main.getByRole('row').count()).toBe(rowsBefore)
    expect(await svc.deps.prisma.credential.count()).toBe(countBefore)
    expect(await form.getByLabel('Credential user name').inputValue()).toBe('shop-frontend') // the form keeps what was typed
    await page.getByRole('button', { name: 'Delete console-made' }).click()
    await main.getByText('console-made deleted').waitFor(T)
    await main.getByText('None yet.').waitFor(T)
    expect(await svc.deps.prisma.credential.count({ where: { username: 'console-made' } })).toBe(0)
    await check(page, 'credentials-refused')

    // applications: create, suspend, delete
    await nav(page, 'Applications', 'Applications')
    await page.getByLabel('Application name').fill('console-app')
    await page.getByRole('button', { name: 'Create application' }).click()
    await page.getByRole('button', { name: 'Suspend console-app' }).click()
    await page.getByRole('button', { name: 'Resume console-app' }).waitFor(T)
    await page.getByRole('button', { name: 'Delete console-app' }).click()
    await page.getByRole('button', { name: 'Delete console-app' }).waitFor({ state: 'detached', ...T })

    // API clients: register (the secret shown once), rotate, delete
    await nav(page, 'API clients', 'API clients')
    await page.getByLabel('API client name').fill('console-client')
    await page.getByLabel('Owning application').fill('checkout')
    await page.getByRole('button', { name: 'Register API client' }).click()
    const secret = page.getByRole('status').filter({ hasText: 'shown this once' })
    await secret.waitFor(T)
    const first = await secret.locator('code').textContent()
    expect(first!.length).toBeGreaterThan(10)
    await page.getByRole('button', { name: 'I have copied it' }).click()
    await secret.waitFor({ state: 'detached', ...T })
    expect(await page.content()).not.toContain(first!)
    await page.getByRole('button', { name: 'Delete console-client' }).click()
    await page.getByRole('button', { name: 'Delete console-client' }).waitFor({ state: 'detached', ...T })

    // environment variables: create, edit, delete
    await nav(page, 'Environment variables', 'Environment variables')
    await page.getByLabel('Variable name').fill('console_var')
    await page.getByLabel('Value', { exact: true }).fill('one')
    await page.getByRole('button', { name: 'Create variable' }).click()
    await main.getByText('one', { exact: true }).waitFor(T)
    await page.getByRole('button', { name: 'Edit console_var' }).click()
    await page.getByLabel('Global value').fill('two')
    await page.getByRole('button', { name: 'Save variable' }).click()
    await main.getByText('two', { exact: true }).waitFor(T)
    await page.getByRole('button', { name: 'Delete console_var' }).click()
    await main.getByText(/console_var deleted/).waitFor(T)

    // connections: create, test, delete
    await nav(page, 'Keys and connections', 'Keys and connections')
    await page.getByLabel('Connection name').fill('console-syslog')
    await page.getByLabel('Syslog host').fill('127.0.0.1')
    await page.getByRole('button', { name: 'Create connection' }).click()
    await page.getByRole('button', { name: 'Test console-syslog' }).click()
    // the service refuses a loopback syslog host for the test: the page shows its message and field
    await main.getByRole('alert').getByText(/syslogServerHostname: 127.0.0.1 is a loopback.*\(field: syslogServerHostname\)/).waitFor(T)
    await page.getByRole('button', { name: 'Delete connection console-syslog' }).click()
    await page.getByRole('button', { name: 'Test console-syslog' }).waitFor({ state: 'detached', ...T })

    // limit plans: create and delete a draft; create and publish another
    await nav(page, 'Limits', 'Limits')
    await page.getByLabel('Plan name').fill('Console draft')
    await page.getByRole('button', { name: 'Create plan' }).click()
    await page.getByRole('button', { name: 'Delete plan Console draft' }).click()
    await page.getByRole('button', { name: 'Delete plan Console draft' }).waitFor({ state: 'detached', ...T })
    await page.getByLabel('Plan name').fill('Console plan')
    await page.getByRole('button', { name: 'Create plan' }).click()
    await page.getByRole('button', { name: 'Publish revision 1 of Console plan' }).click()
    await page.getByRole('button', { name: 'Publish revision 1 of Console plan' }).waitFor({ state: 'detached', ...T })
    await page.getByRole('row').filter({ hasText: 'Console plan' }).getByText(/^1 PUBLISHED/).waitFor(T)

    // API proxies and projects: create, delete
    await nav(page, 'API proxies', 'API proxies')
    await page.getByLabel('API proxy name').fill('console-proxy')
    await page.getByRole('button', { name: 'Create API proxy' }).click()
    await page.getByRole('heading', { level: 1, name: 'API proxy console-proxy' }).waitFor(T)
    await page.getByRole('button', { name: 'Delete API proxy' }).click()
    await page.getByRole('heading', { level: 1, name: 'API proxies' }).waitFor(T)
    expect(await main.getByRole('link', { name: 'console-proxy' }).count()).toBe(0)
    await nav(page, 'Projects', 'Projects')
    await page.getByLabel('Project name').fill('console-project')
    await page.getByRole('button', { name: 'Create project' }).click()
    await page.getByRole('button', { name: 'Delete project console-project' }).click()
    await page.getByRole('button', { name: 'Delete project console-project' }).waitFor({ state: 'detached', ...T })
    await page.close()
  })

  it('shows a new credential password once, creates and disables consumers, saves typed proxy settings, plans and applies', async () => {
    const page = await open()
    const main = page.getByRole('main')
    await page.getByRole('combobox', { name: 'Project' }).selectOption('payments')
    // a credential's new password: shown this once, then gone from the page
    await nav(page, 'Credentials', 'Credentials')
    await page.getByLabel('Search credentials').fill('shop-')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByText(/Page 1 of 1 \(1 in all\)/).waitFor(T)
    await page.getByRole('button', { name: 'New password for shop-frontend' }).click()
    const secret = page.getByRole('status').filter({ hasText: 'shown this once' })
    await secret.waitFor(T)
    const shown = (await secret.locator('code').textContent())!
    const stored = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })
    expect(svc.deps.keyring.decrypt(stored.passwordCipher!)).toBe(shown)
    await check(page, 'credentials-secret-once')
    await page.getByRole('button', { name: 'I have copied it' }).click()
    await secret.waitFor({ state: 'detached', ...T })
    expect(await page.content()).not.toContain(shown)

    // consumers: create, disable; a taken user name is refused with its field and nothing changes
    await nav(page, 'Consumers', 'Consumers')
    const form = page.getByRole('form', { name: 'New consumer' })
    await form.getByLabel('Consumer user name').fill('console-consumer')
    await form.getByLabel('Consumer full name').fill('Console Consumer')
    await form.getByRole('button', { name: 'Create consumer' }).click()
    await main.getByText(/console-consumer created/).waitFor(T)
    await page.getByLabel('Search consumers').fill('console-consumer')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('button', { name: 'Disable consumer console-consumer' }).click()
    await page.getByRole('button', { name: 'Enable consumer console-consumer' }).waitFor(T)
    expect((await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'console-consumer' } })).enabled).toBe(false)
    const rows = await main.getByRole('row').count()
    const count = await svc.deps.prisma.credential.count()
    await form.getByLabel('Consumer user name').fill('shop-frontend')
    await form.getByRole('button', { name: 'Create consumer' }).click()
    await form.getByRole('alert').getByText(/shop-frontend.*\(field: username\)/).waitFor(T)
    expect(await main.getByRole('row').count()).toBe(rows)
    expect(await svc.deps.prisma.credential.count()).toBe(count)

    // the API proxy's CORS page, saved by its typed mutation
    await nav(page, 'API proxies', 'API proxies')
    await page.getByLabel('Search API proxies').fill('ORDERS')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByText(/Page 1 of 1 \(1 in all\)/).waitFor(T)
    await page.getByRole('link', { name: 'orders-api' }).click()
    const cors = page.getByRole('form', { name: 'CORS' })
    await cors.getByLabel('CORS active').check()
    await cors.getByLabel('Allowed origins (comma-separated)').fill('https://shop.example.test, https://admin.example.test')
    await cors.getByRole('button', { name: 'Save CORS' }).click()
    await main.getByText('CORS saved').waitFor(T)
    const proxy = await svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'orders-api' } })
    expect((proxy.settings as any).cors).toMatchObject({ corsActive: true, allowOriginList: ['https://shop.example.test', 'https://admin.example.test'] })
    await check(page, 'api-proxy-settings')

    // a plan: its changes, then the apply and its outcome
    await nav(page, 'Plans', 'Plans')
    const documentField = page.getByLabel('State document (JSON)')
    await documentField.fill('{ not json')
    await page.getByRole('button', { name: 'Plan changes' }).click()
    await main.getByRole('alert').getByText(/not JSON.*\(field: document\)/).waitFor(T)
    await documentField.fill(JSON.stringify({ formatVersion: 1, project: 'payments', credentials: [{ username: 'planned-app', fullName: 'Planned App' }] }, null, 2))
    await page.getByRole('button', { name: 'Plan changes' }).click()
    const plan = page.getByRole('region', { name: 'Plan' })
    await plan.getByText('1 to create, 0 to update, 0 to delete (apply)').waitFor(T)
    await plan.getByRole('row').filter({ hasText: 'planned-app' }).getByRole('cell', { name: 'create', exact: true }).waitFor(T)
    expect(await svc.deps.prisma.credential.count({ where: { username: 'planned-app' } })).toBe(0)
    await check(page, 'plans')
    await plan.getByRole('button', { name: 'Apply plan' }).click()
    const outcome = page.getByRole('region', { name: 'Apply outcome' })
    await outcome.getByText(/^Applied: 1 create, 0 update, 0 delete/).waitFor(T)
    expect(await svc.deps.prisma.credential.count({ where: { username: 'planned-app' } })).toBe(1)
    await check(page, 'plans-applied')
    // the drift line, read anew: who applied, then the counts as their own sentence
    await nav(page, 'Projects', 'Projects')
    await nav(page, 'Plans', 'Plans')
    await main.getByText(/^Last apply .+ by [^ ]+\. 0 changed, 0 deleted outside the file\.$/).waitFor(T)

    // keys and connections: each list searched on its own, in the page's one query
    await nav(page, 'Keys and connections', 'Keys and connections')
    await page.getByLabel('Search connections').fill('audit')
    await page.getByRole('button', { name: 'Search connections' }).click()
    await page.getByRole('navigation', { name: 'Connections pages' }).getByText(/\(1 in all\)/).waitFor(T)
    await page.close()
  })

  it("shows a deployment's outcome per environment as it arrives from the worker", async () => {
    const page = await open()
    await page.getByRole('combobox', { name: 'Project' }).selectOption('payments')
    await nav(page, 'API proxies', 'API proxies')
    await page.getByRole('link', { name: 'orders-api' }).click()
    const deploy = page.getByRole('button', { name: 'Deploy to dev' })
    await deploy.waitFor(T)
    const row = page.getByRole('row').filter({ hasText: 'Deploy to dev' })
    worker.hold()
    await deploy.click()
    await worker.holding()
    expect(await row.textContent()).not.toContain('DEPLOY acknowledged')
    worker.release()
    await row.getByText(/DEPLOY acknowledged \(revision \d+/).waitFor(T)
    await row.getByRole('cell', { name: 'yes', exact: true }).waitFor(T)
    expect(worker.received.some((d) => d.kind === 'API_PROXY' && d.name.startsWith('orders-api') && d.action === 'DEPLOY')).toBe(true)
    await check(page, 'api-proxy-deployed')
    await page.close()
  })

  it("runs a bulk assignment from its preview and shows its progress live, without reload", async () => {
    const page = await open()
    await page.getByRole('combobox', { name: 'Project' }).selectOption('payments')
    await nav(page, 'Limits', 'Limits')
    const form = page.getByRole('form', { name: 'Bulk assignment' })
    await form.getByLabel('Subjects matching').fill('bulk-')
    await form.getByRole('button', { name: 'Preview' }).click()
    const preview = page.getByRole('region', { name: 'Preview' })
    await preview.getByText(/^450 subjects: 450 to create/).waitFor(T)
    let navigations = 0
    page.on('framenavigated', () => navigations++)
    worker.hold() // the run waits on its first chunk's push
    await preview.getByRole('button', { name: 'Start bulk run' }).click()
    const progress = page.getByRole('region', { name: 'Bulk run progress' })
    await worker.holding()
    await progress.getByText(/RUNNING, phase/).waitFor(T).catch(async (e) => {
      await page.screenshot({ path: path.join(svc.db.dataDir, 'bulk-failure.png'), fullPage: true })
      throw new Error(`${e}: ${await progress.textContent()}`)
    })
    const during = await progress.locator('p').textContent()
    expect(during).not.toContain('SUCCESS')
    await check(page, 'limits-bulk-running')
    worker.release()
    await progress.getByText(/SUCCESS, phase .*450 of 450 processed \(450 created/).waitFor({ timeout: 60_000 })
    expect(navigations).toBe(0)
    expect(await progress.getByRole('button', { name: 'Cancel bulk run' }).count()).toBe(0)
    // the cancel button while a run goes on: a second run over subjects that have no plan yet, so that it has pushes
    // to wait on (a run with nothing to change could end before the click), cancelled from the page
    await seedConsumers(svc.deps.prisma, 'payments', 'late', 450)
    await form.getByLabel('Subjects matching').fill('late-')
    await form.getByRole('button', { name: 'Preview' }).click()
    await preview.getByText(/^450 subjects: 450 to create/).waitFor(T)
    worker.hold()
    await preview.getByRole('button', { name: 'Start bulk run' }).click()
    await worker.holding()
    await progress.getByRole('button', { name: 'Cancel bulk run' }).click()
    await progress.getByText(/cancel requested|CANCELLED/).first().waitFor(T)
    worker.release()
    await progress.getByText(/CANCELLED|SUCCESS/).first().waitFor({ timeout: 60_000 })
    await page.close()
  })

  it('reaches every action by keyboard', async () => {
    const page = await open(false)
    // sign in with the keyboard only
    await page.keyboard.press('Tab')
    await page.keyboard.type(ROOT.username)
    await page.keyboard.press('Tab')
    await page.keyboard.type(ROOT.password)
    await page.keyboard.press('Enter')
    await page.getByRole('navigation', { name: 'Console' }).waitFor(T)
    // tab to the Environment variables link and follow it
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab')
      if ((await page.evaluate('document.activeElement?.textContent')) === 'Environment variables') break
    }
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { level: 1, name: 'Environment variables' }).waitFor(T)
    await page.getByRole('combobox', { name: 'Project' }).focus()
    await page.keyboard.press('ArrowDown') // admin → other (by name)
    await page.keyboard.press('ArrowDown') // → payments
    expect(await page.getByRole('combobox', { name: 'Project' }).inputValue()).toBe('payments')
    // every control of every page is in the tab order: no click-only element, nothing taken out of the order
    for (const [link, heading] of [['Projects', 'Projects'], ['Credentials', 'Credentials'], ['Limits', 'Limits'], ['Keys and connections', 'Keys and connections'], ['Audit trail', 'Audit trail'], ['Plans', 'Plans']]) {
      await nav(page, link, heading)
      await page.getByRole('main').locator('table, textarea').first().waitFor(T).catch(async (e) => {
        throw new Error(`${e}: ${await page.getByRole('main').textContent()}`)
      })
      const unreachable = await page.evaluate(`[...document.querySelectorAll('a, button, input, select, summary, [tabindex]')]
        .filter((el) => el.tabIndex < 0 && !el.disabled).map((el) => el.outerHTML.slice(0, 80))`)
      expect(unreachable, link).toEqual([])
    }
    await page.close()
  })
})

describe.skipIf(!CHROMIUM)('admin console: the first-run admin', { timeout: 180_000 }, () => {
  let svc: TestService
  let browser: Browser
  beforeAll(async () => {
    svc = await startTestService()
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] })
  }, SETUP_TIMEOUT)
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
  })

  it('is led to change its initial password, and then no longer', async () => {
    const file = path.join(svc.db.dataDir, 'initial-admin-password')
    const initial = fs.readFileSync(file, 'utf8').trim()
    const page = await (await browser.newContext()).newPage()
    await page.goto(`${svc.url}/console`)
    await page.getByLabel('User name').fill('admin')
    await page.getByLabel('Password').fill(initial)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { level: 1, name: 'Change password' }).waitFor(T)
    await page.getByText(/initial password of the first run/).waitFor(T)
    expect(new URL(page.url()).pathname).toBe('/console/password')
    await page.screenshot({ path: path.join(shots, 'change-password.png'), fullPage: true })
    // a wrong current password is refused by the service, with its field
    await page.getByLabel('Current password').fill('not-the-password')
    await page.getByLabel('New password', { exact: true }).fill('a-new-password-1')
    await page.getByLabel('Repeat the new password').fill('a-new-password-1')
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByRole('alert').getByText(/not your current password.*\(field: currentPassword\)/).waitFor(T)
    expect(fs.existsSync(file)).toBe(true)
    // two different entries are refused on the page, nothing sent
    await page.getByLabel('Current password').fill(initial)
    await page.getByLabel('Repeat the new password').fill('something else')
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByRole('alert').getByText('The two passwords differ').waitFor(T)
    expect(fs.existsSync(file)).toBe(true)
    await page.getByLabel('Repeat the new password').fill('a-new-password-1')
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByText('Password changed.').waitFor(T)
    expect(fs.existsSync(file)).toBe(false)
    await page.getByText(/initial password of the first run/).waitFor({ state: 'detached', ...T })
    // other pages are reachable now
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Projects', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor(T)
    await svc.tokenFor('admin', 'a-new-password-1')
    await page.close()
  })
})
