import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import createClient from 'openapi-fetch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { components, paths } from '../generated/openapi.js'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { checkAnswer } from '../support/openapi-check.js'
import { buildOpenApi } from '../../src/platform/http/openapi.js'
import { routeTables } from '../../src/routes.js'

// Issue 18 §2: a client generated from the served document (npm run openapi:types writes test/generated/openapi.d.ts)
// drives one pipeline through openapi-fetch; tsc compiles this file against those types, so a renamed field or path
// breaks the type check, and every answer is also checked against the document at run time.

let svc: TestService
let worker: FakeWorker
let client: ReturnType<typeof createClient<paths>>
const PROJECT = 'typed-client'

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }) })
  const root = await svc.tokenFor('root', 's3cret-root')
  // projects are created over GraphQL (the REST surface has no project write)
  const created = await svc.graphql('mutation ($input: ProjectInput!) { createProject(input: $input) { name } }', { input: { name: PROJECT, environments: ['dev'] } }, root)
  expect(created.body.errors).toBeUndefined()
  client = createClient<paths>({
    baseUrl: svc.url,
    headers: { authorization: `Bearer ${root}` },
    fetch: async (request) => {
      const res = await fetch(request)
      await checkAnswer(request.method, request.url, res)
      return res
    },
  })
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

describe('a typed client (openapi-typescript + openapi-fetch)', () => {
  it('creates a credential and a reverse proxy, deploys the proxy and lists what it made', async () => {
    const projectName = PROJECT
    const credential = await client.POST('/apiops/projects/{projectName}/credentials/', {
      params: { path: { projectName } },
      body: { username: 'typed-app', password: 'typed-app-secret-1', fullName: 'Typed App', email: 'typed-app@example.com', roleNameList: [] },
    })
    expect(credential.response.status).toBe(200)
    const credentialDeploy = credential.data!.deploymentResult
    expect(credentialDeploy.environmentResults.map((r) => [r.environmentName, r.success])).toEqual([['dev', true]])

    const proxy = await client.POST('/apiops/projects/{projectName}/apiProxies/url/', {
      params: { path: { projectName } },
      body: { apiProxyName: 'orders', apiProxyCreationType: 'REVERSE_PROXY', clientRoute: { relativePathList: ['/orders'] } },
    })
    expect(proxy.data?.success).toBe(true)

    const deployed = await client.POST('/apiops/projects/{projectName}/apiProxies/{apiProxyName}/environments/{environmentName}/', {
      params: { path: { projectName, apiProxyName: 'orders', environmentName: 'dev' } },
    })
    const pushes: { environmentName: string; success: boolean }[] = deployed.data!.deploymentResult.deploymentResults
    expect(pushes.map((r) => [r.environmentName, r.success])).toEqual([['dev', true]])

    const proxies = await client.GET('/apiops/projects/{projectName}/apiProxies/', { params: { path: { projectName } } })
    const rows: components['schemas']['ApiProxySummary'][] = proxies.data!.resultList
    const names: string[] = rows.map((p) => p.name)
    expect(names).toEqual(['orders'])

    const detail = await client.GET('/apiops/projects/{projectName}/apiProxies/{apiProxyName}/', { params: { path: { projectName, apiProxyName: 'orders' } } })
    expect(detail.data!.deploymentList.map((d) => [d.environmentName, d.deployed, d.redeployRequired])).toEqual([['dev', true, false]])

    const credentials = await client.GET('/apiops/projects/{projectName}/credentials/', { params: { path: { projectName } } })
    // openapi-fetch's Readable<> drops a field whose only type is null (NonNullable<null> is never, which it takes for
    // a write-only marker): the schema and the answer carry password: null, the client's type does not
    const credentialRows: Omit<components['schemas']['Credential'], 'password'>[] = credentials.data!.resultList
    expect(credentialRows.map((c) => [c.username, (c as { password?: unknown }).password])).toEqual([['typed-app', null]])

    const environments = await client.GET('/apiops/environments/{projectName}', { params: { path: { projectName } } })
    const states: components['schemas']['EnvironmentState'][] = environments.data!.resultList
    expect(states.map((e) => [e.name, e.status])).toEqual([['dev', 'PUBLISHED']])
  })

  it('gets the error body typed too', async () => {
    const missing = await client.GET('/apiops/projects/{projectName}/apiProxies/{apiProxyName}/', { params: { path: { projectName: PROJECT, apiProxyName: 'nope' } } })
    expect(missing.response.status).toBe(400)
    const message: string = missing.error!.resultMessage
    expect(message).toMatch(/nope/)
  })
})

describe('the generated types (test/generated/openapi.d.ts)', () => {
  it('equal a fresh generation from the served document (npm run openapi:types rewrites them)', async () => {
    const root = path.resolve(import.meta.dirname, '../..')
    const served = (await (await svc.http('/apiops/openapi.json')).json()) as ReturnType<typeof buildOpenApi>
    expect(JSON.stringify(served)).toEqual(JSON.stringify(buildOpenApi(routeTables, served.info.version)))
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-types-'))
    try {
      const input = path.join(dir, 'openapi.json')
      const output = path.join(dir, 'openapi.d.ts')
      // the version npm run openapi:types pins, run through npx (its typescript peer conflicts with TypeScript 7)
      const pinned = /openapi-typescript@(\d+\.\d+\.\d+)/.exec(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts['openapi:types'])![1]!
      // the script writes the document as emit-openapi does (indented, trailing newline): the types only depend on its content
      fs.writeFileSync(input, JSON.stringify(served, null, 2) + '\n')
      await promisify(execFile)('npx', ['--yes', `openapi-typescript@${pinned}`, input, '-o', output], {
        cwd: dir,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: '1' },
      })
      const committed = fs.readFileSync(path.join(root, 'test/generated/openapi.d.ts'), 'utf8')
      const fresh = fs.readFileSync(output, 'utf8')
      // compare without a diff of a megabyte in the failure: the first differing line is enough to find it
      const a = committed.split('\n')
      const b = fresh.split('\n')
      const at = a.findIndex((line, i) => line !== b[i])
      expect(at === -1 && a.length === b.length ? 'same' : `differs at line ${at + 1}: committed ${JSON.stringify(a[at])}, fresh ${JSON.stringify(b[at])} (run npm run openapi:types)`).toBe('same')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 300_000)
})
