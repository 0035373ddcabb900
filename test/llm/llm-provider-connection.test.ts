import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { databaseDigest } from '../support/database-digest.js'
import type { TestService } from '../support/app.js'
import { FakeEmbeddings } from '../support/fake-embeddings.js'
import { FakeWorker } from '../support/fake-worker.js'
import { expectFailure, expectNoSecrets, legacyClient, startLlmService } from './llm-helpers.js'

// POST …/llm-providers/{providerName}/test-connection/ (apinizer/docs api-reference/llm-providers/
// test-llm-provider-connection): the stored provider probed from this service (GET {endpoint}/models with its
// credentials) against a fake provider on loopback; a body tests changed values, never saved.
const BASE = '/apiops/projects/payments/llm-providers'
const KEY = 'sk-SEEDED-provider-test-key-4242'

let svc: TestService
let worker: FakeWorker
let provider: FakeEmbeddings
let alice: string
let viewer: string
const { bodies, post } = legacyClient(() => svc, () => alice)
const probes = () => provider.received.filter((r) => r.url.startsWith('/v1/models'))

beforeAll(async () => {
  worker = await FakeWorker.start()
  provider = await FakeEmbeddings.start()
  svc = await startLlmService(worker.url)
  alice = await svc.tokenFor('alice', 'alice-pass-1')
  viewer = await svc.tokenFor('vic', 'vic-pass-1')
  const created = await post(`${BASE}/deepseek-primary/`, { _class: 'llm', name: 'deepseek-primary', providerType: 'OTHER', endpoint: `${provider.url}/v1`, authScheme: 'BEARER', apiKey: KEY })
  expect(created.status).toBe(200)
  worker.received.length = 0
})
afterEach(() => {
  provider.reset()
  worker.received.length = 0
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
  await provider?.stop()
})

describe('LLM provider connection test', () => {
  it('tests the stored provider as is (no body, or {}) with its stored credential, and writes and pushes nothing', async () => {
    provider.requiredAuthorization = `Bearer ${KEY}`
    const before = await databaseDigest(svc)
    for (const body of [undefined, {}]) {
      const res = await post(`${BASE}/deepseek-primary/test-connection/`, body)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ status: 'SUCCESS', success: true, deploymentResult: { success: true, envName: 'apimanager', detail: 'LLM provider connection test successful' } })
    }
    expect(probes().map((r) => [r.method, r.url, r.headers.authorization])).toEqual([['GET', '/v1/models', `Bearer ${KEY}`], ['GET', '/v1/models', `Bearer ${KEY}`]])
    expect(await databaseDigest(svc)).toEqual(before)
    expect(worker.received).toEqual([])
  })

  it("tests the page's example body (changed values with the credential re-entered) without saving it", async () => {
    provider.requiredAuthorization = 'Bearer sk-a-different-key-to-try'
    const before = await databaseDigest(svc)
    const res = await post(`${BASE}/deepseek-primary/test-connection/`, {
      _class: 'llm', name: 'deepseek-primary', providerType: 'DEEPSEEK', endpoint: `${provider.url}/v1`, authScheme: 'BEARER', authHeaderName: 'Authorization',
      apiKey: 'sk-a-different-key-to-try', deploymentType: 'CLOUD',
    })
    expect(res.body).toEqual({ status: 'SUCCESS', success: true, deploymentResult: { success: true, envName: 'apimanager', detail: 'LLM provider connection test successful' } })
    expect(probes()).toHaveLength(1)
    expect(await databaseDigest(svc)).toEqual(before)
  })

  it('answers a refused or unreachable provider as success false with the reason (still 200), the credential never echoed', async () => {
    provider.requiredAuthorization = 'Bearer something-else'
    const refused = await post(`${BASE}/deepseek-primary/test-connection/`)
    expect(refused.status).toBe(200)
    expect(refused.body).toEqual({
      status: 'SUCCESS', success: true,
      deploymentResult: { success: false, envName: 'apimanager', detail: `HTTP 401 from ${provider.url}/v1/models: {"error":{"message":"invalid api key"}}` },
    })
    const gone = await post(`${BASE}/deepseek-primary/test-connection/`, { _class: 'llm', endpoint: 'http://127.0.0.1:1/v1', apiKey: 'sk-another-key-for-port-one' })
    expect(gone.body.deploymentResult).toEqual({ success: false, envName: 'apimanager', detail: expect.stringMatching(/^unreachable: /) })
  })

  it('refuses a body that moves the connection target without the credential (the stored key would go there), an unknown provider, a body without _class, a viewer; nothing probed', async () => {
    const before = await databaseDigest(svc)
    expectFailure(await post(`${BASE}/deepseek-primary/test-connection/`, { _class: 'llm', endpoint: 'https://attacker.example/v1' }), /^Connection target changed — re-enter the credential before testing$/)
    expectFailure(await post(`${BASE}/deepseek-primary/test-connection/`, { _class: 'llm', providerType: 'DEEPSEEK', endpoint: `${provider.url}/v1` }), /^Connection target changed/)
    expectFailure(await post(`${BASE}/ghost/test-connection/`), /^LLM provider 'ghost' not found/)
    expectFailure(await post(`${BASE}/deepseek-primary/test-connection/`, { endpoint: `${provider.url}/v1` }), /^_class is required/)
    expectFailure(await post(`${BASE}/deepseek-primary/test-connection/`, { _class: 'llm', name: 'other-name' }), /does not match the name in the path/)
    expectFailure(await post(`${BASE}/deepseek-primary/test-connection/`, undefined, viewer), /lacks permission AI_DEVELOPMENT MANAGE/)
    expect(probes()).toEqual([])
    expect(await databaseDigest(svc)).toEqual(before)
  })

  it('is the GraphQL mutation testLlmProviderConnection too (same service)', async () => {
    provider.requiredAuthorization = `Bearer ${KEY}`
    const asStored = (await svc.graphql('mutation { testLlmProviderConnection(projectName: "payments", name: "deepseek-primary") { success envName detail } }', {}, alice)).body
    expect(asStored).toEqual({ data: { testLlmProviderConnection: { success: true, envName: 'apimanager', detail: 'LLM provider connection test successful' } } })
    const moved = (await svc.graphql('mutation { testLlmProviderConnection(projectName: "payments", name: "deepseek-primary", input: { endpoint: "https://attacker.example/v1" }) { success } }', {}, alice)).body
    expect(moved.errors?.[0]?.message).toBe('Connection target changed — re-enter the credential before testing')
    expect(probes()).toHaveLength(1)
  })

  it('no answer carried the stored credential', () => expectNoSecrets(bodies, [KEY], 8))
})
