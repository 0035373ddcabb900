import crypto from 'node:crypto'
import { expect } from 'vitest'
import type { TestService } from '../support/app.js'
import { jsonOf } from '../support/http.js'

// Shared by the limit plan and limit assignment tests: calls, bodies and a snapshot of every limits table so
// that a refusal can be shown to have written nothing.

export const USERS: [string, string][] = [
  ['root', 's3cret-root'], ['alice', 'alice-pass-1'], ['bob', 'bob-pass-1'], ['carol', 'carol-pass-1'], ['erin', 'erin-pass-1'], ['vera', 'vera-pass-1'],
]

/** The sample bootstrap plus erin (IDENTITY MANAGE in `other`) and vera (AI_BUDGETS MANAGE in `payments`). */
export function limitsBootstrap(bootstrap: any) {
  bootstrap.users.push({ username: 'erin', password: 'erin-pass-1' }, { username: 'vera', password: 'vera-pass-1' })
  bootstrap.projects[0].members.push({ username: 'vera', permissions: [{ category: 'AI_BUDGETS', level: 'MANAGE' }] })
  bootstrap.projects[0].apiProxies.push({ name: 'billing-api', groups: ['retail', 'finance'], kind: 'REST' })
  bootstrap.projects[0].credentials.push({ username: 'mobile-app', password: 'pw-3', fullName: 'Mobile', organizationCode: 'acme-eu' })
  bootstrap.projects[1].members = [{ username: 'erin', permissions: [{ category: 'IDENTITY', level: 'MANAGE' }] }]
  return bootstrap
}

export function caller(svc: TestService, tokens: Record<string, string>) {
  return async (method: string, path: string, user: string, body?: unknown, headers: Record<string, string> = {}) => {
    const h: Record<string, string> = { authorization: `Bearer ${tokens[user]}`, ...headers }
    if (body !== undefined) h['content-type'] = 'application/json'
    const res = await svc.http(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await res.text()
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
  }
}

export const key = (): string => crypto.randomUUID()

export const rateSpec = (count = 100, extra: object = {}) => ({ requestRate: { windows: [{ permittedMessageCount: count, interval: 'ONE_MINUTE' }], ...extra } })
export const aiSpec = (tokensPerDay = 1000) => ({ aiBudget: { enabled: true, tokensPerDay } })

/** Every row of the limits tables and the idempotency claims, in a stable order. */
export async function limitsSnapshot(svc: TestService) {
  const p = svc.deps.prisma
  const [plans, revisions, assignments, links, claims] = await Promise.all([
    p.limitPlan.findMany({ orderBy: { id: 'asc' } }),
    p.limitPlanRevision.findMany({ orderBy: { id: 'asc' } }),
    p.limitAssignment.findMany({ orderBy: { id: 'asc' } }),
    p.limitAssignmentPlan.findMany({ orderBy: [{ assignmentId: 'asc' }, { planId: 'asc' }] }),
    p.idempotencyClaim.findMany({ orderBy: [{ scope: 'asc' }, { operation: 'asc' }, { key: 'asc' }] }),
  ])
  return JSON.parse(JSON.stringify({ plans, revisions, assignments, links, claims }))
}

/** Runs a call that must be refused and checks status, errorKey, params and that nothing was written. */
export async function expectRefused(svc: TestService, call: () => Promise<{ status: number; body: any }>, status: number, errorKey: string, params: object = {}) {
  const before = await limitsSnapshot(svc)
  const res = await call()
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  expect(res.body).toMatchObject({ errorKey, params, correlationId: expect.any(String) })
  expect(await limitsSnapshot(svc)).toEqual(before)
  return res.body
}

export { jsonOf }
