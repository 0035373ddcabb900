import { expect } from 'vitest'
import type { TestService } from '../support/app.js'
import type { FakeWorker } from '../support/fake-worker.js'
import { automationBootstrap, legacy } from './automation-proxy-support.js'

// Shared by the settings suites of the newest vendor pages (settings-newest-*.test.ts): environments named as the
// pages' examples name them (production, staging), proxies of each kind, and the refusal check (nothing written,
// nothing pushed).

/** automationBootstrap with prod renamed production, a staging environment without workers, and MyAPI (REST), Grpc, Ws and Llm (AI). */
export function newestPagesBootstrap(workers: { dev: string[]; prod: string[] }) {
  const doc = automationBootstrap(workers)
  doc.environments[1]!.name = 'production'
  doc.environments.push({ name: 'staging', workerUrls: [] })
  doc.projects[0]!.environments = ['dev', 'production', 'staging']
  doc.projects[0]!.apiProxies!.push(
    { name: 'MyAPI', groups: [], kind: 'REST' },
    { name: 'Other', groups: [], kind: 'REST' },
    { name: 'Grpc', groups: [], kind: 'GRPC' },
    { name: 'Ws', groups: [], kind: 'WEBSOCKET' },
    { name: 'Llm', groups: [], kind: 'AI' },
  )
  return doc
}

interface Bed {
  svc: TestService
  dev: FakeWorker
  prod: FakeWorker
}

export function settingsCalls(bed: Bed) {
  const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, token, body)
  const pushes = () => bed.dev.received.length + bed.prod.received.length
  const stored = (name = 'MyAPI') => bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name } })
  const audits = () => bed.svc.deps.prisma.auditEvent.count()

  /** A refused write: 400, resultMessage matching, the proxy's settings and revision unchanged, nothing pushed or audited as succeeded. */
  async function expectRefused(path: string, token: string, body: unknown, message: RegExp, proxy = 'MyAPI') {
    const before = await stored(proxy)
    const pushesBefore = pushes()
    const res = await call('PATCH', `${proxy}/settings/${path}`, token, body)
    expect(res.status).toBe(400)
    expect(res.body.status).toBe('FAILURE')
    expect(res.body.resultMessage).toMatch(message)
    const after = await stored(proxy)
    expect(JSON.stringify(after.settings)).toBe(JSON.stringify(before.settings))
    expect(after.revision).toBe(before.revision)
    expect(pushes()).toBe(pushesBefore)
    return res
  }

  /** An accepted write without a deployment: success true alone, a new revision, nothing pushed, one audit event of the proxy. */
  async function expectStored(path: string, token: string, body: unknown, proxy = 'MyAPI') {
    const before = await stored(proxy)
    const pushesBefore = pushes()
    const auditsBefore = await audits()
    const res = await call('PATCH', `${proxy}/settings/${path}`, token, body)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect((await stored(proxy)).revision).toBe(before.revision + 1)
    expect(pushes()).toBe(pushesBefore)
    expect(await audits()).toBe(auditsBefore + 1)
    const event = await bed.svc.deps.prisma.auditEvent.findFirstOrThrow({ orderBy: { id: 'desc' } })
    expect(event).toMatchObject({ objectType: 'API_PROXY', objectName: proxy, outcome: 'SUCCEEDED' })
  }

  /** The proxy as GET …/apiProxies/{name}/ shows it to `token`. */
  const detail = async (token: string, name = 'MyAPI') => (await call('GET', `${name}/`, token)).body

  return { call, pushes, stored, audits, expectRefused, expectStored, detail }
}
