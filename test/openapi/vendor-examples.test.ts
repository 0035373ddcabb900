import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import type { VendorExample } from '../../scripts/vendor-examples.js'

// Issue 32 §0: the newest vendor pages' request examples (api-reference/ of apinizer/docs, extracted into
// vendor-examples.json by scripts/vendor-examples.ts) are sent as ADMIN to one service on a fresh database with the
// sample bootstrap. An example refused by body validation (400 naming a field) is a defect unless listed below with
// its reason; refusals for another reason (a missing object, a conflict) are counted, not failed: the fixture does
// not hold every object the pages name.

const examples = JSON.parse(fs.readFileSync(new URL('./vendor-examples.json', import.meta.url), 'utf8')) as VendorExample[]

/** Validation refusals kept, by `page#index`: the reason ("open": not fixed yet, issue 32 §0; the list only shrinks). */
const KEPT: Record<string, string> = {
  'api-reference/api-proxies/crud/create-api-proxy-from-url.mdx#0': "specAuthorizationValueList[0].headerName: open: the from-URL page's spec-authorization entries and creation types differ from the create input; not examined yet",
  'api-reference/api-proxies/crud/create-api-proxy-from-url.mdx#1': "apiProxyCreationType: open: the from-URL page's spec-authorization entries and creation types differ from the create input; not examined yet",
  'api-reference/api-proxies/crud/update-api-proxy-from-url.mdx#0': "specAuthorizationValueList[0].headerName: open: the from-URL page's spec-authorization entries and creation types differ from the create input; not examined yet",
  'api-reference/api-proxies/crud/update-api-proxy-from-url.mdx#1': "apiProxyCreationType: open: the from-URL page's spec-authorization entries and creation types differ from the create input; not examined yet",
  'api-reference/api-proxies/settings/update-cache-settings.mdx#1': 'not a request body: the page shows one variableList entry ({ name, type, dataType }) of cacheSettings; the full body (#0) is accepted',
  'api-reference/api-proxies/settings/update-json-error-template.mdx#1': 'not a request body: the page shows the content of jsonValue (the template itself); the full body (#0) is accepted',
  'api-reference/knowledge-bases/create-knowledge-base.mdx#0': "embeddingProviderId: kept, the spec wins: §1 rule 2 makes a knowledge base's connection references stored ids (embeddingProviderId, vectorDbId), while the page names them (embeddingProviderRef, vectorDbRef)",
  'api-reference/llm-models/create-llm-model.mdx#0': "modelId: open: the page's modelId carries a '/' (openai/gpt-5-mini), which our object-name rule refuses; not decided yet",
  'api-reference/llm-models/update-llm-model.mdx#0': "modelId: open: the page's modelId carries a '/' (openai/gpt-5-mini), which our object-name rule refuses; not decided yet",
  'api-reference/llm-provider-definitions/create-llm-provider-definition.mdx#0': "code: open: the definition page's code field not mapped yet",
  'api-reference/rlcl/crud/create-rlcl.mdx#2': 'identitySource: open: the newest page adds identity sources (VARIABLE, AUTH_RESOLVED, which forces executionOrder) and general quotas (generalQuotaMode…), a rule change, not only a field; not done in this pass',
  'api-reference/vector-dbs/create-vector-db.mdx#0': "transport.requestTimeoutMs: open: the vector DB page's transport fields and dbType not mapped yet",
  'api-reference/vector-dbs/create-vector-db.mdx#1': "transport.connectTimeoutMs: open: the vector DB page's transport fields and dbType not mapped yet",
  'api-reference/vector-dbs/create-vector-db.mdx#2': "dbType: open: the vector DB page's transport fields and dbType not mapped yet",
}

/** Path parameters the fixture (sampleBootstrap) holds an object for. */
const FIXTURE: Record<string, string> = {
  projectName: 'payments',
  apiProxyName: 'orders-api',
  apiProxyGroupName: 'retail',
  ipGroupName: 'office-ips',
  username: 'shop-frontend',
  environmentName: 'dev',
  keystoreName: 'edge-ks',
  code: 'acme',
}

type Outcome = 'accepted' | 'validation' | 'rule' | 'other'
interface Answer { example: VendorExample; url: string; status: number; outcome: Outcome; message: string }

/** The example's path with fixture names (a create by POST keeps the name its body gives, so it does not conflict). */
function urlOf(e: VendorExample): string {
  const params = [...e.path.matchAll(/\{(\w+)\}/g)].map(([, p]) => p!)
  const body = (e.body && typeof e.body === 'object' && !Array.isArray(e.body) ? e.body : {}) as Record<string, unknown>
  return e.path.replace(/\{(\w+)\}/g, (_, p: string) => {
    // the object the path ends with is the one the body describes: a create keeps the body's name
    const last = p === params[params.length - 1] && e.path.endsWith(`{${p}}`)
    if (last && e.method === 'POST' && typeof body.name === 'string') return encodeURIComponent(body.name)
    return FIXTURE[p] ?? (typeof body.name === 'string' && last ? encodeURIComponent(body.name) : `example-${p}`)
  })
}

function classify(status: number, body: any): { outcome: Outcome; message: string } {
  const message = String(body?.resultMessage ?? body?.message ?? body?.errorKey ?? '').slice(0, 160)
  if (status >= 200 && status < 300) return { outcome: 'accepted', message: '' }
  const field = body?.params?.field ?? /^([\w.[\]]+): /.exec(message)?.[1]
  if ((status === 400 || status === 422) && field) {
    // the body's shape (an unknown field, a type, an enum, a required field) versus a rule on its values (an object it
    // names that the fixture does not hold, a state such as renaming a deployed proxy)
    const shape = /unknown field|Invalid input|must be one of|is required|expected|must be an? |must not|not supported|Too (big|small)/i.test(message)
    return { outcome: shape ? 'validation' : 'rule', message }
  }
  return { outcome: 'other', message }
}

let svc: TestService
let worker: FakeWorker
const answers: Answer[] = []

beforeAll(async () => {
  worker = await FakeWorker.start()
  // the pages deploy to an environment named production: the fixture has one (its worker the same fake one)
  const bootstrap = sampleBootstrap({ dev: [worker.url] })
  bootstrap.environments.push({ name: 'production', workerUrls: [worker.url] })
  bootstrap.projects[0]!.environments!.push('production')
  svc = await startTestService({ bootstrap })
  const token = await svc.tokenFor('root', 's3cret-root')
  // deletes last, so they do not remove what the other examples name
  const ordered = [...examples].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))
  for (const example of ordered) {
    const url = urlOf(example)
    const res = await fetch(svc.url + url, {
      method: example.method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(example.body),
    })
    const text = await res.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      body = { message: text }
    }
    answers.push({ example, url, status: res.status, ...classify(res.status, body) })
  }
  if (process.env.VENDOR_EXAMPLES_REPORT) fs.writeFileSync(process.env.VENDOR_EXAMPLES_REPORT, report())
}, 300_000)
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

function report(): string {
  const folders = new Map<string, Record<Outcome, number>>()
  for (const a of answers) {
    const folder = path.dirname(a.example.page)
    const row = folders.get(folder) ?? { accepted: 0, validation: 0, rule: 0, other: 0 }
    folders.set(folder, row)
    row[a.outcome]++
  }
  const total = { accepted: 0, validation: 0, rule: 0, other: 0 }
  for (const a of answers) total[a.outcome]++
  const line = (a: Answer) => `| \`${a.example.page.replace('api-reference/', '')}\`#${a.example.index} | ${a.example.method} \`${a.url}\` | ${a.status} | ${a.message.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`
  return [
    '# The newest vendor pages\' request examples, sent to the service',
    '',
    'Every JSON request example of `api-reference/` (apinizer/docs), sent as ADMIN to one service on a fresh database',
    'with the sample bootstrap (test/support/fixtures.ts); path parameters are the fixture\'s objects where it has one',
    '(project `payments`, API proxy `orders-api`, group `retail`, IP group `office-ips`, credential `shop-frontend`,',
    'environment `dev`, keystore `edge-ks`, organization `acme`), else the example\'s own name. Generated by',
    '`npx tsx scripts/vendor-examples.ts --docs <apinizer/docs git dir>` (test/openapi/vendor-examples.test.ts).',
    '',
    '- **accepted**: 2xx.',
    '- **validation**: 400 naming a field of the body: the defect class of issue 32 §0, unless kept on purpose (listed).',
    '- **rule**: 400 naming a field for a rule on its value, not its shape: an object it names that the fixture does not',
    '  hold (an environment, a role, a keystore id), a state (renaming a deployed proxy), a spec rule.',
    '- **other**: refused for another reason (a missing object, a conflict): the fixture does not hold every object the',
    '  pages name.',
    '',
    `Total: ${answers.length} examples: ${total.accepted} accepted, ${total.validation} refused by validation, ${total.rule} refused by a rule, ${total.other} other.`,
    '',
    '| Folder | Accepted | Validation | Rule | Other |',
    '|---|---|---|---|---|',
    ...[...folders].sort(([a], [b]) => a.localeCompare(b)).map(([f, r]) => `| ${f.replace('api-reference/', '') || '.'} | ${r.accepted} | ${r.validation} | ${r.rule} | ${r.other} |`),
    '',
    '## Refused by validation',
    '',
    'Each with its reason in test/openapi/vendor-examples.test.ts (KEPT); "open" means not fixed yet.',
    '',
    '| Page#example | Sent | Status | Answer | Reason kept |',
    '|---|---|---|---|---|',
    ...answers.filter((a) => a.outcome === 'validation').map((a) => `${line(a)} ${(KEPT[`${a.example.page}#${a.example.index}`] ?? '(none: a defect)').replace(/\|/g, '\\|')} |`),
    '',
    '## Refused by a rule on a value',
    '',
    '| Page#example | Sent | Status | Answer |',
    '|---|---|---|---|',
    ...answers.filter((a) => a.outcome === 'rule').map(line),
    '',
    '## Refused for another reason',
    '',
    '| Page#example | Sent | Status | Answer |',
    '|---|---|---|---|',
    ...answers.filter((a) => a.outcome === 'other').map(line),
    '',
  ].join('\n')
}

describe('the newest vendor pages\' request examples', () => {
  it('are all sent', () => {
    expect(answers).toHaveLength(examples.length)
  })

  it('are not refused by body validation, but for the reasoned exceptions', () => {
    const refused = answers.filter((a) => a.outcome === 'validation').map((a) => `${a.example.page}#${a.example.index}`)
    const unexpected = answers.filter((a) => a.outcome === 'validation' && !KEPT[`${a.example.page}#${a.example.index}`]).map((a) => `${a.example.page}#${a.example.index}: ${a.message}`)
    expect(unexpected).toEqual([])
    // an exception whose example is now accepted is taken off the list
    expect(Object.keys(KEPT).filter((k) => !refused.includes(k))).toEqual([])
  })
})
