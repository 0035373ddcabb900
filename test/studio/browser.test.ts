// Issue 21: Prisma Studio in a real browser (headless Chromium driven by playwright-core), as an operator uses it:
// `npm run studio` on the database of this run (embedded, with the service running and serving it; or PostgreSQL).
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p))
const repo = path.resolve(import.meta.dirname, '../..')

async function freePort(): Promise<number> {
  const s = net.createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()))
  const { port } = s.address() as net.AddressInfo
  await new Promise((r) => s.close(r))
  return port
}

describe.skipIf(!CHROMIUM)('Prisma Studio in a browser', () => {
  let svc: TestService
  let studio: ChildProcess
  let output = ''
  let browser: Browser
  let url: string
  let credentialId: string

  beforeAll(async () => {
    svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }), env: { EMBEDDED_PG_PORT: '0' } })
    // the grid renders the columns in view: the first one, id, is the cell the test reads and edits
    credentialId = (await svc.deps.prisma.credential.findFirstOrThrow({ orderBy: { id: 'asc' } })).id
    const port = await freePort()
    studio = spawn(process.execPath, ['--import', 'tsx', 'scripts/studio.ts'], {
      cwd: repo,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        STUDIO_PORT: String(port),
        DATA_DIR: svc.db.dataDir,
        ...(svc.db.databaseUrl ? { DATABASE_URL: svc.db.databaseUrl } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    studio.stdout!.on('data', (d) => (output += d))
    studio.stderr!.on('data', (d) => (output += d))
    url = `http://127.0.0.1:${port}`
    // ready when Studio answers
    for (;;) {
      if (studio.exitCode !== null) throw new Error(`studio exited: ${output}`)
      const ok = await fetch(url).then((r) => r.ok, () => false)
      if (ok) break
      await new Promise((r) => setTimeout(r, 200))
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] })
  })
  afterAll(async () => {
    await browser?.close()
    if (studio && studio.exitCode === null) {
      studio.kill('SIGTERM')
      await new Promise((r) => studio.once('exit', r))
    }
    await svc?.close()
  })

  it('says which database it uses, read-only', () => {
    expect(output).toContain(svc.db.databaseUrl ? 'the PostgreSQL server of DATABASE_URL' : `the running service's embedded database, served on 127.0.0.1:${svc.embeddedPg!.port}`)
    expect(output).toContain('read-only (npm run studio -- --write to edit)')
  })

  it("lists the tables, shows Credential's rows, and an edit is refused", async () => {
    const page = await browser.newPage()
    await page.goto(url)
    const table = page.getByText('Credential', { exact: true }).first()
    await table.waitFor({ timeout: 60_000 })
    await expect(page.getByText('Project', { exact: true }).first().isVisible()).resolves.toBe(true)
    await table.click()
    const cell = page.getByText(credentialId, { exact: true }).first()
    await cell.waitFor({ timeout: 60_000 })
    await page.screenshot({ path: path.join(svc.db.dataDir, 'rows.png') }).catch(() => {})
    // edit the cell and save: the read-only session refuses the UPDATE
    await cell.dblclick()
    await page.keyboard.press('Control+A')
    await page.keyboard.type(`${credentialId}-edited`)
    await page.keyboard.press('Enter')
    const save = page.getByRole('button', { name: /save/i }).first()
    if (await save.isVisible().catch(() => false)) await save.click()
    // Studio asks before it commits: say yes, and let the database refuse
    await page.getByRole('button', { name: /yes, write to db/i }).click({ timeout: 10_000 })
    // Studio reports the failed update; its console holds the database's reason
    await page.getByText(/"update" operation failed/).first().waitFor({ timeout: 30_000 })
    // its console lists the refused statement (the read-only session's reason itself is checked over the wire in
    // wire-server.test.ts: Studio shows an empty details box for it)
    await page.getByRole('button', { name: 'Console' }).click()
    await page.getByText(/update "public"\."Credential" set "id" = \$1/).first().waitFor({ timeout: 10_000 })
    expect(await svc.deps.prisma.credential.count({ where: { id: `${credentialId}-edited` } })).toBe(0)
    expect(await svc.deps.prisma.credential.count({ where: { id: credentialId } })).toBe(1)
  })
})
