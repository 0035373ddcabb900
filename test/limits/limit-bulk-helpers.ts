// Shared by the limit-bulk tests (not a test file itself): seeding many subjects fast, and calling the bulk API.
import crypto from 'node:crypto'
import type { PrismaClient } from '../../src/generated/prisma/client.js'
import { mintPublicKey } from '../../src/platform/keys.js'

/** n consumers `<prefix>-0001…` in the project (optionally in an organization), inserted in one statement. */
export async function seedConsumers(prisma: PrismaClient, projectName: string, prefix: string, n: number, organizationCode?: string): Promise<string[]> {
  const project = await prisma.project.findUniqueOrThrow({ where: { name: projectName } })
  const org = organizationCode ? await prisma.organization.findUniqueOrThrow({ where: { projectId_code: { projectId: project.id, code: organizationCode } } }) : null
  const names = Array.from({ length: n }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`)
  await prisma.$executeRaw`
    INSERT INTO "Credential" (id, "projectId", username, "consumerKey", "fullName", enabled, "organizationId", "updatedAt")
    SELECT gen_random_uuid(), ${project.id}, u, k, u, true, ${org?.id ?? null}, now()
      FROM unnest(${names}::text[], ${names.map(() => mintPublicKey('csm'))}::text[]) AS t(u, k)`
  return names
}

export const customRate = (permittedMessageCount = 100) => ({
  family: 'REQUEST_RATE',
  mode: 'CUSTOM',
  customRuleSpec: { requestRate: { windows: [{ permittedMessageCount, interval: 'ONE_MINUTE' }] } },
})

export const customBudget = () => ({
  family: 'AI_TOKEN_BUDGET',
  mode: 'CUSTOM',
  customRuleSpec: { aiBudget: { enabled: true, tokensPerDay: 100000 } },
})

export const newKey = () => crypto.randomUUID()

type Http = (path: string, init?: RequestInit) => Promise<Response>

export function bulkClient(http: Http, token: string, project = 'payments', base = `/apiops/projects/${project}`) {
  const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra })
  const call = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
    const res = await http(`${base}${path}`, { method, headers: headers(extra), body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await res.text()
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
  }
  return {
    call,
    preview: (body: unknown) => call('POST', '/limit-assignment-previews', body),
    run: (body: unknown, key: string | null = newKey()) => call('POST', '/limit-assignment-runs', body, key === null ? {} : { 'idempotency-key': key }),
    get: (runId: string) => call('GET', `/limit-assignment-runs/${runId}`),
    list: (query = '') => call('GET', `/limit-assignment-runs${query}`),
    issues: (runId: string, query = '') => call('GET', `/limit-assignment-runs/${runId}/issues${query}`),
    cancel: (runId: string) => call('POST', `/limit-assignment-runs/${runId}/actions/cancel`),
    rollback: (runId: string, key: string | null = newKey()) => call('POST', `/limit-assignment-runs/${runId}/actions/rollback`, undefined, key === null ? {} : { 'idempotency-key': key }),
    retry: (runId: string, key: string | null = newKey()) => call('POST', `/limit-assignment-runs/${runId}/actions/retry-failed`, undefined, key === null ? {} : { 'idempotency-key': key }),
    /** previews, then queues a run confirming that preview */
    async previewAndRun(body: { selector: unknown; content: unknown; conflictPolicy?: string }, key = newKey()) {
      const preview = await call('POST', '/limit-assignment-previews', body)
      if (preview.status !== 200) throw new Error(`preview: ${preview.status} ${JSON.stringify(preview.body)}`)
      const run = await call('POST', '/limit-assignment-runs', { ...body, previewFingerprint: preview.body.selectorFingerprint, expectedCount: preview.body.expectedCount }, { 'idempotency-key': key })
      return { preview, run }
    },
    /** polls the run until it has finished */
    async finished(runId: string, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs
      for (;;) {
        const res = await call('GET', `/limit-assignment-runs/${runId}`)
        if (!['QUEUED', 'RUNNING'].includes(res.body.runStatus)) return res.body
        if (Date.now() > until) throw new Error(`run ${runId} still ${res.body.runStatus}: ${JSON.stringify(res.body)}`)
        await new Promise((r) => setTimeout(r, 50))
      }
    },
  }
}
