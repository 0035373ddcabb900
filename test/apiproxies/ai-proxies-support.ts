import { expect } from 'vitest'
import type { TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'

// Shared by the API proxy suites (ai-proxies*, gateway-endpoints): the sample installation with two API
// managers in payments, and the legacy REST call under /apiops/projects/payments/apiProxies/.

type ProxyKind = 'REST' | 'SOAP' | 'GRPC' | 'WEBSOCKET' | 'AI' | 'MCP' | 'A2A'

/** sampleBootstrap plus erin (API_MANAGEMENT MANAGE) and frank (VIEW) in payments, and the given proxies there. */
export function apiManagersBootstrap(workers: { dev: string[] }, proxies: [name: string, kind: ProxyKind][]) {
  const doc = sampleBootstrap(workers)
  doc.users.push({ username: 'erin', password: 'erin-pass-1' }, { username: 'frank', password: 'frank-pass-1' })
  doc.projects[0]!.members!.push(
    { username: 'erin', permissions: [{ category: 'API_MANAGEMENT', level: 'MANAGE' }] },
    { username: 'frank', permissions: [{ category: 'API_MANAGEMENT', level: 'VIEW' }] },
  )
  doc.projects[0]!.apiProxies!.push(...proxies.map(([name, kind]) => ({ name, groups: [], kind })))
  return doc
}

/** One legacy REST call; `text` is the raw body (for secret scans). */
export async function proxyCall(svc: TestService, method: string, path: string, token: string, body?: unknown) {
  const res = await svc.http(`/apiops/projects/payments/apiProxies/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text }
}

export const expectRefused = (res: { status: number; body: any }, message: RegExp | string) => {
  expect(res.status).toBe(400)
  expect(res.body.status).toBe('FAILURE')
  expect(res.body.resultMessage).toMatch(message)
}
