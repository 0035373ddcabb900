// Sorting of every paged list (issue 11 §3): for every supported sort field of every list, both directions,
// the order the service answers is the order computed here from the rows it returned: the field's value as the
// client sees it (an enum by its constant's name, text by its characters, times by instant, false before true,
// nulls last ascending and first descending), then the list's tie-break ascending where the client can see it.
// Rows are seeded straight into the database with ties and distinct values on every sortable field. The test
// databases collate by code point (C), as the comparison here does.
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintPublicKey } from '../../src/platform/keys.js'
import { startTestService, type TestService } from '../support/app.js'

let svc: TestService
let root: string
let projectId: string
let runId: string
const PROJECT = 'sorting'

beforeAll(async () => {
  svc = await startTestService({
    bootstrap: {
      environments: [{ name: 'dev', workerUrls: [] }],
      users: [{ username: 'root', password: 's3cret-root', role: 'ADMIN' }],
      projects: [{ name: PROJECT, environments: ['dev'] }],
    },
  })
  root = await svc.tokenFor('root', 's3cret-root')
  projectId = (await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: PROJECT } })).id
  await seed()
})

afterAll(async () => {
  await svc?.close()
})

// Values use one letter case and no punctuation where they differ, so byte order and any linguistic
// collation of the database agree on them.
const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute))
const pick = <T>(values: T[], i: number) => values[i % values.length]!
const N = 7

async function seed() {
  const db = svc.deps.prisma
  const idx = Array.from({ length: N }, (_, i) => i)
  const words = ['delta', 'alpha', 'gamma', 'beta']
  await db.credential.createMany({
    data: idx.map((i) => ({
      projectId, username: `csort${i}`, consumerKey: mintPublicKey('csm'), fullName: i === 3 ? null : pick(words, i), enabled: i % 3 !== 0,
    })),
  })
  await db.application.createMany({
    data: idx.map((i) => ({
      projectId, applicationKey: mintPublicKey('app'), name: `app${pick(['q', 'c', 'x', 'm', 'a', 'k', 'e'], i)}`,
      appStatus: pick(['SUSPENDED', 'ACTIVE', 'PENDING_DELETION', 'ARCHIVED'] as const, i),
    })),
  })
  await db.apiClient.createMany({
    data: idx.map((i) => ({
      projectId, apiClientKey: `ackey${i}`, clientId: `client${pick(['k', 'b', 'x', 'a', 'q', 'd', 'm'], i)}`, name: pick(words, i),
      operationalState: pick(['SUSPENDED', 'DRAFT', 'REVOKED', 'ACTIVE'] as const, i), createdAt: at(pick([5, 1, 5, 3], i)),
    })),
  })
  await db.organization.createMany({
    data: idx.map((i) => ({
      projectId, code: `org${pick(['k', 'b', 'x', 'a', 'q', 'd', 'm'], i)}`, name: pick(words, i),
      state: pick(['TOMBSTONED', 'ACTIVE', 'DELETE_IN_PROGRESS'] as const, i), createdAt: at(pick([5, 1, 5, 3], i)),
    })),
  })
  await db.user.createMany({
    data: idx.map((i) => ({ username: `usort${pick(['k', 'b', 'x', 'a', 'q', 'd', 'm'], i)}`, passwordHash: 'x', role: pick(['USER', 'ADMIN'] as const, i), createdAt: at(pick([5, 1, 5, 3], i)) })),
  })
  await db.project.createMany({ data: idx.map((i) => ({ name: `psort${pick(['k', 'b', 'x', 'a', 'q', 'd', 'm'], i)}`, createdAt: at(pick([5, 1, 5, 3], i)) })) })
  await db.environment.createMany({ data: idx.map((i) => ({ name: `esort${pick(['k', 'b', 'x', 'a', 'q', 'd', 'm'], i)}`, createdAt: at(pick([5, 1, 5, 3], i)) })) })
  await db.apiProxy.createMany({
    data: idx.map((i) => ({ projectId, name: `proxy${pick(['k', 'b', 'x', 'a', 'q', 'd', 'm'], i)}`, kind: pick(['REST', 'AI', 'SOAP'], i), createdAt: at(pick([5, 1, 5, 3], i)) })),
  })
  await db.storedObject.createMany({
    data: idx.map((i) => ({
      projectId, type: pick(['IP_GROUP', 'CERTIFICATE', 'GLOBAL_POLICY'], i), kind: pick(['KEY_STORE', 'TRUST_STORE'], i), name: pick(words, i), content: {},
      createdAt: at(pick([5, 1, 5, 3], i)), updatedAt: at(pick([2, 9, 4], i)),
    })),
  })
  await db.auditEvent.createMany({
    data: idx.map((i) => ({
      projectName: PROJECT, surface: 'REST_APIOPS' as const, actor: pick(['root', 'alice', 'bob'], i), operation: pick(['update', 'create', 'delete'], i),
      objectType: pick(['plan', 'consumer'], i), objectName: pick(words, i), outcome: 'SUCCESS', correlationId: crypto.randomUUID(), at: at(pick([5, 1, 5, 3], i)),
    })),
  })
  await db.limitPlan.createMany({
    data: idx.map((i) => ({
      scope: projectId, planKey: `plan${i}`, family: pick(['REQUEST_RATE', 'AI_TOKEN_BUDGET'] as const, i),
      name: pick(['delta', 'alpha', 'gamma', 'beta', 'alpha', 'delta', 'beta'], i), // names tie across families only
      lifecycle: pick(['RETIRED', 'DRAFT', 'PUBLISHED'] as const, i), createdBy: 'root',
    })),
  })
  await db.limitAssignment.createMany({
    data: idx.map((i) => ({
      bindingKey: `bind${i}`, projectId, subjectType: 'PROJECT' as const, family: pick(['REQUEST_RATE', 'AI_TOKEN_BUDGET'] as const, i), mode: 'OFF' as const,
      assignedBy: 'root', status: pick(['ENDED', 'DRAFT', 'ACTIVE'] as const, i), assignedAt: at(pick([5, 1, 5, 3], i)),
    })),
  })
  await db.limitDefault.createMany({
    data: idx.map((i) => ({
      defaultKey: `default${i}`, ownerType: 'PLATFORM' as const, family: pick(['REQUEST_RATE', 'AI_TOKEN_BUDGET'] as const, i), mode: 'OFF' as const,
      name: pick(words, i), status: pick(['DISABLED', 'ACTIVE'] as const, i), createdBy: 'root', updatedBy: 'root', createdAt: at(pick([5, 1, 5, 3], i)),
    })),
  })
  const nameKeyed = (i: number) => ({ projectId, name: `n${pick(['k', 'b', 'x', 'a', 'q', 'd', 'm'], i)}`, nameKey: `n${pick(['k', 'b', 'x', 'a', 'q', 'd', 'm'], i)}`, createdAt: at(pick([5, 1, 5, 3], i)), updatedAt: at(pick([2, 9, 4], i)) })
  await db.vectorDb.createMany({ data: idx.map((i) => ({ ...nameKeyed(i), dbType: 'PGVECTOR', transportFamily: 'HTTP', transport: {} })) })
  await db.aiPreset.createMany({ data: idx.map((i) => ({ ...nameKeyed(i), presetKey: mintPublicKey('prs'), family: 'DLP' as const, content: {} })) })
  const proxy = await db.apiProxy.findFirstOrThrow({ where: { projectId }, orderBy: { name: 'asc' } })
  await db.gatewayEndpoint.createMany({
    data: idx.map((i) => {
      const path = `/${pick(['k', 'b', 'x', 'a', 'q', 'd', 'm'], i)}`
      return {
        apiProxyId: proxy.id, method: pick(['PUT', 'GET', 'POST'], i), path, pathKey: path, operationId: `op${pick(['m', 'c', 'x', 'a', 'q', 'd', 'k'], i)}`,
        version: pick(['v2', 'v1'], i), kind: 'REST', parameters: [], responses: [], rewriteRules: [], policies: [], createdAt: at(pick([5, 1, 5, 3], i)),
      }
    }),
  })
  // never QUEUED or RUNNING: the runner would take those
  await db.limitBulkRun.createMany({
    data: idx.map((i) => ({
      runId: `run${i}`, projectId, kind: pick(['ROLLBACK', 'ASSIGN', 'RETRY'] as const, i), trigger: 'REST', triggeredBy: 'root',
      runStatus: pick(['SUCCESS', 'CANCELLED', 'PARTIAL', 'LICENSE_REVOKED', 'FAILED', 'INTERRUPTED'] as const, i), startedAt: at(pick([5, 1, 5, 3], i)),
    })),
  })
  const run = await db.limitBulkRun.findUniqueOrThrow({ where: { runId: 'run0' } })
  runId = run.runId
  await db.limitBulkRunIssue.createMany({
    data: idx.map((i) => ({
      runId: run.id, seq: pick([4, 9, 2, 7, 1, 8, 3], i), subjectType: 'CONSUMER', subjectName: `c${i}`,
      outcome: pick(['SKIPPED_LICENSE', 'CREATED', 'REPLACED', 'FAILED', 'SKIPPED_EXISTING', 'ENDED', 'RESTORED'] as const, i), occurredAt: at(pick([5, 1, 5, 3], i)),
    })),
  })
}

type Item = Record<string, unknown>
interface ListCase {
  list: string
  /** the items of the whole list sorted by `sort` (size 200 holds every row seeded here) */
  fetch(sort: string): Promise<Item[]>
  /** client sort field → the item property holding its value */
  fields: Record<string, string>
  /** the tie-break, when the client sees it */
  tieBreak?: string
}

async function rest(path: string, sort: string, items = (b: any) => b.items): Promise<Item[]> {
  const sep = path.includes('?') ? '&' : '?'
  const res = await svc.http(`${path}${sep}size=200&sort=${encodeURIComponent(sort)}`, { headers: { authorization: `Bearer ${root}` } })
  const body = await res.json()
  expect(res.status, JSON.stringify(body)).toBe(200)
  return items(body)
}

async function graphql(field: string, args: string, selection: string, sort: string): Promise<Item[]> {
  const query = `query($sort: [String!]) { ${field}(${args ? `${args}, ` : ''}size: 200, sort: $sort) { items { ${selection} } } }`
  const { status, body } = await svc.graphql(query, { sort: [sort] }, root)
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined()
  expect(status).toBe(200)
  return body.data[field].items
}

const P = `/apiops/projects/${PROJECT}`
const CASES: ListCase[] = [
  { list: 'REST consumers', fetch: (s) => rest(`${P}/consumers`, s), fields: { username: 'username', fullName: 'fullName', enabled: 'enabled' }, tieBreak: 'username' },
  { list: 'REST applications', fetch: (s) => rest(`${P}/applications`, s), fields: { name: 'name', appStatus: 'appStatus' }, tieBreak: 'name' },
  { list: 'REST limit plans', fetch: (s) => rest(`${P}/limit-plans`, s), fields: { name: 'name', family: 'family', lifecycle: 'lifecycle' }, tieBreak: 'planKey' },
  { list: 'REST limit assignments', fetch: (s) => rest(`${P}/limit-assignments`, s), fields: { assignedAt: 'assignedAt', status: 'status', family: 'family' }, tieBreak: 'bindingKey' },
  { list: 'REST limit defaults', fetch: (s) => rest('/api/limit-defaults', s), fields: { createdAt: 'createdAt', family: 'family', status: 'status', name: 'name' }, tieBreak: 'defaultKey' },
  { list: 'REST bulk runs', fetch: (s) => rest(`${P}/limit-assignment-runs`, s), fields: { startedAt: 'startedAt', status: 'runStatus', kind: 'kind' }, tieBreak: 'runId' },
  { list: 'REST bulk run issues', fetch: (s) => rest(`${P}/limit-assignment-runs/${runId}/issues`, s), fields: { seq: 'seq', outcome: 'outcome', occurredAt: 'occurredAt' }, tieBreak: 'seq' },
  { list: 'REST audit events', fetch: (s) => rest(`${P}/audit-events`, s), fields: { at: 'at', actor: 'actor', operation: 'operation', objectType: 'objectType', objectName: 'objectName' } },
  {
    list: 'GraphQL API clients', fetch: (s) => graphql('apiClients', `projectName: "${PROJECT}"`, 'apiClientKey name clientId operationalState createdAt', s),
    fields: { name: 'name', clientId: 'clientId', operationalState: 'operationalState', createdAt: 'createdAt' }, tieBreak: 'apiClientKey',
  },
  {
    list: 'GraphQL organizations', fetch: (s) => graphql('organizations', `projectName: "${PROJECT}"`, 'code name state createdAt', s),
    fields: { code: 'code', name: 'name', state: 'state', createdAt: 'createdAt' }, tieBreak: 'code',
  },
  { list: 'GraphQL users', fetch: (s) => graphql('users', '', 'username role createdAt', s), fields: { username: 'username', role: 'role', createdAt: 'createdAt' }, tieBreak: 'username' },
  { list: 'GraphQL projects', fetch: (s) => graphql('projects', '', 'name createdAt', s), fields: { name: 'name', createdAt: 'createdAt' }, tieBreak: 'name' },
  { list: 'GraphQL environments', fetch: (s) => graphql('environments', '', 'name createdAt', s), fields: { name: 'name', createdAt: 'createdAt' }, tieBreak: 'name' },
  { list: 'GraphQL API proxies', fetch: (s) => graphql('apiProxies', `projectName: "${PROJECT}"`, 'name kind createdAt', s), fields: { name: 'name', kind: 'kind', createdAt: 'createdAt' }, tieBreak: 'name' },
  {
    list: 'GraphQL stored objects', fetch: (s) => graphql('storedObjects', `projectName: "${PROJECT}"`, 'name type kind createdAt updatedAt', s),
    fields: { name: 'name', type: 'type', kind: 'kind', createdAt: 'createdAt', updatedAt: 'updatedAt' },
  },
  // the LLM providers, models and knowledge bases page through the same namedPage as the vector databases
  { list: 'GraphQL vector databases', fetch: (s) => graphql('vectorDbs', `projectName: "${PROJECT}"`, 'id name createdAt updatedAt', s), fields: { name: 'name', createdAt: 'createdAt', updatedAt: 'updatedAt' }, tieBreak: 'id' },
  // built-in presets of the admin catalog are listed too; the tie-break (the row id) is not shown
  { list: 'GraphQL DLP presets', fetch: (s) => graphql('aiDlpPresets', `projectName: "${PROJECT}"`, 'name updatedAt', s), fields: { name: 'name', updatedAt: 'updatedAt' } },
  {
    list: 'GraphQL gateway endpoints', fetch: (s) => graphql('gatewayEndpoints', `projectName: "${PROJECT}", apiProxyName: "proxya"`, 'path method operationId version createdAt', s),
    fields: { path: 'path', method: 'method', operationId: 'operationId', version: 'version', createdAt: 'createdAt' },
  },
]

/** Ascending order of two values as the client sees them; null is greater than any value (PostgreSQL's NULLS LAST). */
function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0
  if (a === null || a === undefined) return 1
  if (b === null || b === undefined) return -1
  if (typeof a === 'boolean' || typeof a === 'number') return Number(a) - Number(b)
  const [x, y] = [String(a), String(b)]
  // ISO times of one format compare as text too; every other text here is compared by character code
  return x < y ? -1 : x > y ? 1 : 0
}

describe('every paged list sorts on every supported field, both directions', () => {
  for (const c of CASES) {
    for (const [field, property] of Object.entries(c.fields)) {
      for (const direction of ['asc', 'desc'] as const) {
        it(`${c.list}: ${field},${direction}`, async () => {
          const items = await c.fetch(`${field},${direction}`)
          // the seeded rows make every field able to fail: more than one value, and ties
          const values = items.map((item) => item[property])
          expect(items.length).toBeGreaterThanOrEqual(N)
          expect(new Set(values).size).toBeGreaterThan(1)
          const sign = direction === 'asc' ? 1 : -1
          const expected = [...items].sort(
            (a, b) => sign * compareValues(a[property], b[property]) || (c.tieBreak ? compareValues(a[c.tieBreak], b[c.tieBreak]) : 0),
          )
          const key = (item: Item) => JSON.stringify([item[property], c.tieBreak ? item[c.tieBreak] : null])
          expect(items.map(key)).toEqual(expected.map(key))
        })
      }
    }
  }

  it('an enum sorts by its constant name: family,desc puts REQUEST_RATE before AI_TOKEN_BUDGET', async () => {
    const families = (await rest(`${P}/limit-plans`, 'family,desc')).map((p) => p.family)
    expect(families.indexOf('REQUEST_RATE')).toBe(0)
    expect(families.lastIndexOf('REQUEST_RATE')).toBeLessThan(families.indexOf('AI_TOKEN_BUDGET'))
  })
})
