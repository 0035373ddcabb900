import { expect } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'

// Shared by the test/llm-*.test.ts files: the service they run against, a legacy-envelope client that keeps
// every answer for the secret scan, and the failure assertion.

/** The sample installation plus `vic`, who may only view AI_DEVELOPMENT in `payments`. */
/** sampleBootstrap plus vic, who may only view AI_DEVELOPMENT in payments */
export function llmBootstrap(workers: { dev: string[]; prod?: string[] }) {
  const bootstrap = sampleBootstrap(workers)
  bootstrap.users.push({ username: 'vic', password: 'vic-pass-1' })
  bootstrap.projects[0].members!.push({ username: 'vic', permissions: [{ category: 'AI_DEVELOPMENT', level: 'VIEW' }] })
  return bootstrap
}

export async function startLlmService(workerUrl: string): Promise<TestService> {
  return startTestService({ bootstrap: llmBootstrap({ dev: [workerUrl] }) })
}

export interface LegacyAnswer { status: number; body: any }

/** JSON calls as `token` (the default one when omitted); every answer text lands in `bodies`. */
export function legacyClient(service: () => TestService, defaultToken: () => string) {
  const bodies: string[] = []
  async function call(method: string, path: string, token: string | null, body?: unknown): Promise<LegacyAnswer> {
    const res = await service().http(path, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    bodies.push(text)
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  }
  return {
    bodies,
    call,
    get: (path: string, token = defaultToken()) => call('GET', path, token),
    post: (path: string, body?: unknown, token = defaultToken()) => call('POST', path, token, body),
    put: (path: string, body: unknown, token = defaultToken()) => call('PUT', path, token, body),
    del: (path: string, token = defaultToken()) => call('DELETE', path, token),
  }
}

export function expectFailure(res: LegacyAnswer, message: RegExp) {
  expect(res.status).toBe(400)
  expect(res.body.status).toBe('FAILURE')
  expect(res.body.resultMessage).toMatch(message)
}

/** The end of every suite: no answer carried a seeded secret. */
export function expectNoSecrets(bodies: string[], secrets: string[], atLeast: number) {
  expect(bodies.length).toBeGreaterThan(atLeast)
  const all = bodies.join('\n')
  for (const secret of secrets) expect(all).not.toContain(secret)
}
