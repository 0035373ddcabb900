// Issue 28 §6: access is decided before validation, by the router (src/platform/http/access.ts). Every route of the
// route tables (the tables that generate the OpenAPI document) is called with an invalid body by (a) a caller
// without access to the project and (b) a member holding only VIEW, on every write; each answers the access refusal
// of its envelope (spec §5, §7.1, §7.3) and nothing is written or pushed: the caller learns nothing of the body's
// rules or of the objects the path names. (c) A route that declares its permission lets a member holding exactly
// that permission past the router (the declaration is no wider than what the operation checks). Routes whose project
// is not in the path or the query (accessProject: named in the body, or owning the object a key names) get bodies
// naming the project and keys of real objects of it: the refusal must not tell whether the key exists.
// One service, one database, every call in sequence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routeTables } from '../../src/routes.js'
import { ASSET_CATEGORIES } from '../../src/platform/auth/permissions.js'
import type { RouteDef } from '../../src/platform/http/routes.js'
import { customRate } from '../limits/limit-bulk-helpers.js'
import { databaseDigest } from '../support/database-digest.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { startTestbed, type StartedTestbed } from '../support/testbed.js'

const PASSWORDS = {
  root: 's3cret-root', outsider: 'outsider-pass-1', viewer: 'viewer-pass-1',
  apiManager: 'api-manager-pass-1', apiViewer: 'api-viewer-pass-1', projectViewer: 'project-viewer-pass-1', projectManager: 'project-manager-pass-1', identityManager: 'identity-manager-pass-1', identityViewer: 'identity-viewer-pass-1', aiManager: 'ai-manager-pass-1', exporter: 'exporter-pass-1',
  secretsManager: 'secrets-manager-pass-1', secretsViewer: 'secrets-viewer-pass-1', secretsExporter: 'secrets-exporter-pass-1',
} as const
type User = keyof typeof PASSWORDS
/** (c): the member holding exactly one permission in the project, by `CATEGORY LEVEL` */
const HOLDERS: Record<string, User> = {
  'API_MANAGEMENT MANAGE': 'apiManager',
  'API_MANAGEMENT VIEW': 'apiViewer',
  'PROJECT_MANAGEMENT VIEW': 'projectViewer',
  'PROJECT_MANAGEMENT MANAGE': 'projectManager',
  'IDENTITY MANAGE': 'identityManager',
  'IDENTITY VIEW': 'identityViewer',
  'AI_DEVELOPMENT MANAGE': 'aiManager',
  'PROJECT_MANAGEMENT EXPORT_IMPORT': 'exporter',
  'CERTIFICATE MANAGE': 'secretsManager',
  'CERTIFICATE VIEW': 'secretsViewer',
  'CERTIFICATE EXPORT_IMPORT': 'secretsExporter',
}

let started: StartedTestbed<'dev', User>
const bed = () => started.bed

beforeAll(async () => {
  started = await startTestbed({
    workers: ['dev'],
    bootstrap: (workers) => {
      const doc = sampleBootstrap(workers) as ReturnType<typeof sampleBootstrap> & { projects: { members?: unknown[] }[] }
      for (const [username, password] of Object.entries(PASSWORDS)) if (username !== 'root') doc.users.push({ username, password })
      // the outsider holds every permission in another project, and nothing in this one
      doc.projects[1]!.members = [{ username: 'outsider', permissions: ASSET_CATEGORIES.flatMap((category) => ['MANAGE', 'DEPLOY_UNDEPLOY', 'EXPORT_IMPORT'].map((level) => ({ category, level }))) }]
      doc.projects[0]!.members!.push({ username: 'viewer', permissions: ASSET_CATEGORIES.map((category) => ({ category, level: 'VIEW' })) })
      for (const [grant, username] of Object.entries(HOLDERS)) {
        const [category, level] = grant.split(' ')
        doc.projects[0]!.members!.push({ username, permissions: [{ category, level }] })
      }
      return doc
    },
    tokens: PASSWORDS,
  })
})
afterAll(async () => started?.close())

/** Real objects of the project named by key (an API client of the sample installation, a limit default made here). */
beforeAll(async () => {
  VALUES.apiClientKey = (await bed().svc.deps.prisma.apiClient.findFirstOrThrow({ where: { clientId: 'checkout-web-id' } })).apiClientKey
  const created = await bed().svc.http('/api/limit-defaults', {
    method: 'POST',
    headers: { authorization: `Bearer ${bed().root}`, 'content-type': 'application/json' },
    body: JSON.stringify({ owner: { type: 'PROJECT', projectId: 'payments' }, content: customRate() }),
  })
  expect(created.status).toBe(201)
  VALUES.defaultKey = ((await created.json()) as { defaultKey: string }).defaultKey
})

/** Path values naming objects of the sample installation: whether they exist must not show. */
const VALUES: Record<string, string> = {
  projectName: 'payments', apiProxyName: 'orders-api', apiProxyGroupName: 'retail', username: 'shop-frontend', keystoreName: 'edge-ks',
  ipGroupName: 'office-ips', environmentName: 'dev', consumerKey: 'shop-frontend', applicationKey: 'checkout',
}
const paramsOf = (route: RouteDef) => Object.fromEntries([...route.path.matchAll(/:(\w+)/g)].map(([, name]) => [name, VALUES[name!] ?? `probe-${name}`]))
const urlOf = (route: RouteDef) => {
  const path = route.path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(paramsOf(route)[name]!))
  // the manager surface names the project in the query, where the route takes it there
  return route.path.startsWith('/api/') && route.query?.shape.projectId ? `${path}?projectId=payments` : path
}

const inProject = (route: RouteDef) => route.path.includes('/:projectName')
/** Manager-surface routes whose project is the owner of the object a key of the path names (not named in the query). */
const byKey = (route: RouteDef) => route.path.startsWith('/api/') && /\/:\w+Key(\/|$)/.test(route.path) && !route.query?.shape.projectId
/** Manager-surface routes whose project is named in the body (a field naming it, at any depth), not in the query. */
const byBody = (route: RouteDef) => route.path.startsWith('/api/') && !byKey(route) && !route.query?.shape.projectId && namesProject(shapeOf(route.body?.schema))
/** Every route but GET, less the reads sent as POST that declare VIEW (the body-identified endpoint reads). */
const writes = (route: RouteDef) => route.method !== 'get' && !(typeof route.access === 'object' && route.access.level === 'VIEW')

/** Body fields that name the project: they name it, so that the access decision has a project to decide on. */
const PROJECT_FIELDS = new Set(['projectName', 'projectId'])
type Shape = Record<string, unknown>
/** The object shape of a body schema, through optional, default and refinement wrappers (zod 4 definitions). */
function shapeOf(schema: unknown): Shape | undefined {
  let s = schema as { _zod?: { def: { type: string; shape?: Shape; innerType?: unknown; in?: unknown } } } | undefined
  while (s?._zod && s._zod.def.type !== 'object') s = (s._zod.def.innerType ?? s._zod.def.in) as typeof s
  return s?._zod?.def.shape
}
const namesProject = (shape: Shape | undefined): boolean => Object.entries(shape ?? {}).some(([f, schema]) => PROJECT_FIELDS.has(f) || namesProject(shapeOf(schema)))
/** Every field of the wrong kind, nested objects field by field, the project's fields naming the project. */
const invalidFields = (shape: Shape): Record<string, unknown> =>
  Object.fromEntries(Object.entries(shape).map(([f, schema]) => {
    const nested = shapeOf(schema)
    return [f, PROJECT_FIELDS.has(f) ? 'payments' : f === 'email' ? 'not-an-email' : nested && Object.keys(nested).length ? invalidFields(nested) : { probe: [1] }]
  }))

/** A body no route accepts: every declared field of the wrong kind (an object where a string, a number, a list goes). */
function invalidBody(route: RouteDef): { headers: Record<string, string>; body?: string | FormData } {
  const kind = route.body?.kind
  if (!kind) return { headers: {} }
  if (kind === 'multipart') {
    const data = new FormData()
    data.set('probe', 'x')
    return { headers: {}, body: data }
  }
  if (kind === 'form') return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'probe=x' }
  const shape = shapeOf(route.body?.schema)
  const body = invalidFields(shape && Object.keys(shape).length ? shape : { name: null, email: null, type: null })
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
}

interface Answer { route: string; style: RouteDef['style']; status: number; body: any }

async function call(route: RouteDef, user: User, url = urlOf(route)): Promise<Answer> {
  const { headers, body } = invalidBody(route)
  const res = await bed().svc.http(url, {
    method: route.method.toUpperCase(),
    headers: { authorization: `Bearer ${bed()[user]}`, 'idempotency-key': 'access-first-probe', ...headers },
    body,
  })
  const text = await res.text()
  let json: unknown = text
  try {
    json = JSON.parse(text)
  } catch {
    // kept as text: the comparison shows it
  }
  return { route: `${route.method.toUpperCase()} ${route.path}`, style: route.style, status: res.status, body: json }
}

/** Calls every route as the user and keeps the answers that are not the expected refusal. */
async function refusalsOtherThan(routes: RouteDef[], user: User, expected: (a: Answer) => boolean): Promise<string[]> {
  const wrong: string[] = []
  for (const route of routes) {
    const answer = await call(route, user)
    if (!expected(answer)) wrong.push(`${answer.route} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 240)}`)
  }
  return wrong
}

// The refusals of spec §5 and §7: the legacy envelope answers 400 with the message, Common Contract 404
// resourceNotFound (out of scope) or 403 permissionDenied.
const unknownProject = (a: Answer) =>
  a.style === 'common'
    ? a.status === 404 && a.body?.errorKey === 'resourceNotFound' && a.body?.message === "Project 'payments' not found" && a.body?.params?.project === 'payments'
    : a.status === 400 && a.body?.status === 'FAILURE' && a.body?.resultMessage === "Project 'payments' not found" && Object.keys(a.body).length === 2
const PERMISSION_MESSAGE = /^User lacks permission [A-Z_]+ (VIEW|MANAGE|DEPLOY_UNDEPLOY|EXPORT_IMPORT)( \(or [^)]+\))* in project 'payments'$/
const lacksPermission = (a: Answer) =>
  a.style === 'common'
    ? a.status === 403 && a.body?.errorKey === 'permissionDenied' && PERMISSION_MESSAGE.test(a.body?.message) && typeof a.body?.params?.category === 'string'
    : a.status === 400 && a.body?.status === 'FAILURE' && PERMISSION_MESSAGE.test(a.body?.resultMessage) && Object.keys(a.body).length === 2
const notAdministrator = (a: Answer) => a.status === 400 && a.body?.status === 'FAILURE' && a.body?.resultMessage === 'Only a system administrator may do this'

describe('access before validation on every route of the route tables (issue 28 §6)', () => {
  let before: Record<string, string>
  beforeAll(async () => {
    before = await databaseDigest(bed().svc)
  })

  it('(a) a caller outside the project gets the unknown-project answer on every route under a project, whatever the body and the path name', async () => {
    const routes = routeTables.filter(inProject)
    expect(routes.length).toBeGreaterThan(200)
    expect(await refusalsOtherThan(routes, 'outsider', unknownProject)).toEqual([])
  })

  it('(a) a caller who is not a system administrator is refused on every installation setting, whatever the body', async () => {
    const routes = routeTables.filter((r) => r.path.startsWith('/apiops/settings/'))
    expect(routes.length).toBeGreaterThan(30)
    expect(await refusalsOtherThan(routes, 'outsider', notAdministrator)).toEqual([])
    expect(await refusalsOtherThan(routes.filter(writes), 'viewer', notAdministrator)).toEqual([])
  })

  it('(a) on the manager surface, a projectId the caller cannot see is the unknown project, whatever the body', async () => {
    const routes = routeTables.filter((r) => r.path.startsWith('/api/') && r.query?.shape.projectId)
    expect(routes.length).toBeGreaterThan(20)
    expect(await refusalsOtherThan(routes, 'outsider', unknownProject)).toEqual([])
  })

  it('(a) on the manager surface, a project named in the body the caller cannot see is the unknown project, whatever else the body holds', async () => {
    const routes = routeTables.filter(byBody)
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['post /api/api-clients', 'post /api/limit-defaults', 'post /api/limit-defaults/actions/validate']))
    expect(await refusalsOtherThan(routes, 'outsider', unknownProject)).toEqual([])
  })

  it('(a) on the manager surface, an object of a project the caller cannot see is not found, the same answer as for an unknown key, whatever the body', async () => {
    const routes = routeTables.filter(byKey)
    expect(routes.length).toBeGreaterThanOrEqual(13)
    const wrong: string[] = []
    for (const route of routes) {
      const [, param] = /:(\w+Key)/.exec(route.path)!
      const key = VALUES[param!]!
      expect(key, `a real ${param} for ${route.path}`).toMatch(/^[a-z]+_/)
      const unknown = `${key}x`
      const seen = await call(route, 'outsider')
      const unseen = await call(route, 'outsider', urlOf(route).replace(key, unknown))
      const sameAnswer = JSON.stringify({ ...unseen, body: { ...unseen.body, correlationId: undefined } }).replaceAll(unknown, key) === JSON.stringify({ ...seen, body: { ...seen.body, correlationId: undefined } })
      if (seen.status !== 404 || seen.body?.errorKey !== 'resourceNotFound' || !seen.body?.message.endsWith(`'${key}' not found`) || !sameAnswer) {
        wrong.push(`${seen.route} → ${seen.status} ${JSON.stringify(seen.body).slice(0, 240)} / unknown key → ${unseen.status} ${JSON.stringify(unseen.body).slice(0, 240)}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('(b) a member holding only VIEW is refused on every write under a project, whatever the body and the path name', async () => {
    const routes = routeTables.filter((r) => (inProject(r) || byBody(r) || byKey(r)) && writes(r))
    expect(routes.length).toBeGreaterThan(150)
    expect(await refusalsOtherThan(routes, 'viewer', lacksPermission)).toEqual([])
  })

  it('wrote nothing and pushed nothing', async () => {
    expect(await databaseDigest(bed().svc)).toEqual(before)
    expect(bed().dev.received).toEqual([])
  })

  it('(c) a declared permission lets a member holding exactly it past the router', async () => {
    const declared = routeTables.filter((r) => typeof r.access === 'object')
    expect(declared.length).toBeGreaterThan(10)
    const wrong: string[] = []
    for (const route of declared) {
      const { category, level } = route.access as Exclude<RouteDef['access'], string | undefined>
      const first = (typeof category === 'function' ? category(paramsOf(route), {}) : typeof category === 'string' ? [category] : category)[0]
      const holder = HOLDERS[`${first} ${level}`]
      if (!holder) {
        wrong.push(`${route.method} ${route.path}: no member holds ${first} ${level} here (add one to HOLDERS)`)
        continue
      }
      const a = await call(route, holder)
      // past the router, the operation may still ask for a second permission (an import: MANAGE beside EXPORT_IMPORT)
      const refusedAsDeclared = lacksPermission(a) && new RegExp(`^User lacks permission ${first} ${level}\\b`).test(a.body?.resultMessage ?? a.body?.message)
      if (refusedAsDeclared || unknownProject(a)) wrong.push(`${a.route} → ${a.status} ${JSON.stringify(a.body).slice(0, 240)}`)
    }
    expect(wrong).toEqual([])
  })
})
