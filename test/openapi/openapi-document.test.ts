import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildOpenApi, openApiGaps } from '../../src/platform/http/openapi.js'
import { routeTables } from '../../src/routes.js'
import { startTestService, type TestService } from '../support/app.js'
import { checkAnswer } from '../support/openapi-check.js'
const knownGaps = JSON.parse(fs.readFileSync(new URL('./known-gaps.json', import.meta.url), 'utf8')) as unknown

// Issue 18 §2: the served document lints clean (redocly.yaml), names its shared shapes once in components, and its
// vague spots are a committed list that only shrinks.

const root = path.resolve(import.meta.dirname, '../..')
let svc: TestService
let served: ReturnType<typeof buildOpenApi>

beforeAll(async () => {
  svc = await startTestService()
  served = (await (await svc.http('/apiops/openapi.json')).json()) as ReturnType<typeof buildOpenApi>
})
afterAll(() => svc?.close())

describe('the OpenAPI document', () => {
  it('has servers, a license, and the shared shapes as components referenced by $ref', () => {
    expect(served.servers).toEqual([{ url: '/', description: 'this service' }])
    expect(served.info.license.name).toBeTruthy()
    const schemas = served.components.schemas as Record<string, unknown>
    for (const name of ['LegacySuccess', 'LegacyList', 'PagedEnvelope', 'LegacyError', 'CommonError', 'OAuthError', 'DeploymentResult', 'EnvironmentResult']) {
      expect(schemas[name], name).toBeDefined()
    }
    const text = JSON.stringify(served)
    // every reference resolves, and the error bodies and envelopes are referenced, not copied
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) expect(schemas[name!], name).toBeDefined()
    expect(text).not.toContain('#/$defs/')
    const deploy = served.paths['/apiops/projects/{projectName}/credentials/']!.post as any
    expect(deploy.responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/LegacyError' })
    expect(JSON.stringify(deploy.responses['200'])).toContain('"$ref":"#/components/schemas/DeploymentResult"')
    // a download names its media types; a report answers JSON or CSV; a validation's 200 has no body
    const exported = served.paths['/apiops/projects/{projectName}/certificates/{certificateName}/export/']!.get as any
    expect(Object.keys(exported.responses['200'].content)).toEqual(['application/octet-stream', 'application/x-pem-file', 'application/pkix-cert'])
    const report = served.paths['/apiops/reports/api-proxies']!.get as any
    expect(Object.keys(report.responses['200'].content)).toEqual(['application/json', 'text/csv'])
    const validated = served.paths['/api/limit-defaults/actions/validate']!.post as any
    expect(validated.responses['200']).toMatchObject({ headers: { 'Content-Length': { schema: { const: 0 } } } })
    expect(validated.responses['200'].content).toBeUndefined()
  })

  it('lists exactly the known gaps (test/openapi/known-gaps.json: fix one, then npm run openapi:gaps)', () => {
    const gaps = openApiGaps(served)
    const listed = knownGaps as { untypedResponses: string[]; bareBodies: string[] }
    const diff = (a: string[], b: string[]) => a.filter((x) => !b.includes(x))
    // a new route without a response schema shows here: give it `response` (response-schemas.ts) or list it
    expect(diff(gaps.untypedResponses, listed.untypedResponses), 'untyped answers not in known-gaps.json').toEqual([])
    expect(diff(gaps.bareBodies, listed.bareBodies), 'bare request bodies not in known-gaps.json').toEqual([])
    // one typed since: take it off the list (npm run openapi:gaps), so the list only shrinks
    expect(diff(listed.untypedResponses, gaps.untypedResponses), 'listed answers that have a schema now').toEqual([])
    expect(diff(listed.bareBodies, gaps.bareBodies), 'listed bodies that have a schema now').toEqual([])
    console.info(`OpenAPI: ${gaps.typedResponses} typed / ${gaps.untypedResponses.length} untyped success answers, ${gaps.typedBodies} typed / ${gaps.bareBodies.length} bare request bodies`)
  })

  it('is what the route tables describe (the same builder as the served one)', () => {
    expect(JSON.stringify(buildOpenApi(routeTables, served.info.version))).toEqual(JSON.stringify(served))
  })

  it('lints with 0 errors under redocly.yaml (recommended rules)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'))
    const file = path.join(dir, 'openapi.json')
    fs.writeFileSync(file, JSON.stringify(served))
    try {
      const { stdout } = await promisify(execFile)(path.join(root, 'node_modules/.bin/redocly'), ['lint', file, '--config', path.join(root, 'redocly.yaml'), '--format', 'json'], {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }))
      const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] }
      const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)
      expect(errors).toEqual([])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 600_000)

  it('fails the call whose answer drifts from its schema', async () => {
    const url = `${svc.url}/apiops/projects/`
    const answer = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
    await expect(checkAnswer('GET', url, answer({ status: 'SUCCESS', success: true, resultList: [{ name: 'p', description: null }], resultCount: 1 }))).resolves.toBeUndefined()
    await expect(checkAnswer('GET', url, answer({ status: 'SUCCESS', success: true, resultList: [{ name: 'p' }], resultCount: 1 }))).rejects.toThrow(/OpenAPI drift: GET \/apiops\/projects\/ answered 200/)
    await expect(checkAnswer('GET', url, answer({ status: 'SUCCESS', success: true, resultList: [], resultCount: 0, extra: 1 }))).rejects.toThrow(/OpenAPI drift/)
    const error = (body: unknown) => new Response(JSON.stringify(body), { status: 401, headers: { 'content-type': 'application/json' } })
    await expect(checkAnswer('GET', url, error({ status: 'FAILURE' }))).rejects.toThrow(/resultMessage/)
    // a 200 documented without a body (Content-Length 0) holds the answer to an empty one
    const validate = `${svc.url}/api/limit-defaults/actions/validate`
    await expect(checkAnswer('POST', validate, new Response(null, { status: 200 }))).resolves.toBeUndefined()
    await expect(checkAnswer('POST', validate, answer({ ok: true }))).rejects.toThrow(/OpenAPI drift: POST \/api\/limit-defaults\/actions\/validate answered 200 with a body; the document says it has none/)
  })
})
