import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'

// Issue 29 for the `environmentVariables` collection, written through the envvars service: a value that is not visible
// (global or per environment) is a secret: never in a dump or a plan, a `${env:NAME}` with `secrets=refs`, absent = keep
// the stored one, a changed one is a sensitive change. Round trip, invalid objects (field paths, nothing written), a sync
// that deletes only what its namespace owns, one audit event per change with the plan id.

const bed = useTestbed({ workers: ['dev', 'prod'], tokens: { root: 's3cret-root' } })
const base = '/apiops/projects/payments'

async function call(method: string, pathname: string, body?: unknown) {
  const res = await bed.svc.http(pathname, { method, headers: { authorization: `Bearer ${bed.root}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined })
  return { status: res.status, body: (await res.json()) as any }
}
const plan = (document: unknown, mode = 'apply', project = 'payments') => call('POST', `/apiops/projects/${project}/declarative-plans`, { mode, document })
const apply = (id: string, project = 'payments') => call('POST', `/apiops/projects/${project}/declarative-plans/${id}/apply`)
/** the variables as the REST list shows them (secret values null, with valueSet); entries by environment name (a copy stores them sorted) */
const listed = async (project: string) => {
  const res = await call('GET', `/apiops/projects/${project}/environmentVariables/`)
  expect(res.status).toBe(200)
  const rows = (res.body.resultList ?? res.body) as any[]
  return rows.map(({ name, description, global, globalValue, globalVisible, globalValueSet, environmentValueList }) => ({ name, description, global, globalValue, globalVisible, globalValueSet, environmentValueList: environmentValueList && [...environmentValueList].sort((x: any, y: any) => x.environmentName.localeCompare(y.environmentName)) }))
    .sort((a, b) => a.name.localeCompare(b.name))
}
const stored = (name: string, project = 'payments') => bed.svc.deps.prisma.environmentVariable.findFirstOrThrow({ where: { name, project: { name: project } } })
const SECRETS = /prod-secret-1|token-secret-1/

beforeAll(async () => {
  const made = [
    await call('POST', `${base}/environmentVariables/DB_URL/`, { name: 'DB_URL', description: 'database', global: false, environmentValueList: [{ environmentName: 'prod', value: 'prod-secret-1', visible: false }, { environmentName: 'dev', value: 'postgres://dev', visible: true }] }),
    await call('POST', `${base}/environmentVariables/API_TOKEN/`, { name: 'API_TOKEN', global: true, globalVisible: false, globalValue: 'token-secret-1' }),
    await call('POST', `${base}/environmentVariables/LOG_LEVEL/`, { name: 'LOG_LEVEL', global: true, globalVisible: true, globalValue: 'info' }),
  ]
  for (const m of made) expect(m.status, JSON.stringify(m.body)).toBe(200)
})

describe('environment variables as a declarative collection', { timeout: 180_000 }, () => {
  it('dumps without secrets (or with references), plans the dump to 0 changes, and syncs into a new project', async () => {
    const dump = await call('GET', `${base}/declarative-state?collections=environmentVariables`)
    expect(dump.status).toBe(200)
    expect(JSON.stringify(dump.body)).not.toMatch(SECRETS)
    expect(dump.body.environmentVariables).toEqual([
      { name: 'API_TOKEN', description: null, global: true, globalVisible: false, globalValue: null, environmentValueList: [] },
      { name: 'DB_URL', description: 'database', global: false, globalVisible: true, globalValue: null, environmentValueList: [{ environmentName: 'dev', visible: true, value: 'postgres://dev' }, { environmentName: 'prod', visible: false }] },
      { name: 'LOG_LEVEL', description: null, global: true, globalVisible: true, globalValue: 'info', environmentValueList: [] },
    ])
    const self = await plan(dump.body, 'sync')
    expect(self.status, JSON.stringify(self.body)).toBe(200)
    expect(self.body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })

    const refs = await call('GET', `${base}/declarative-state?collections=environmentVariables&secrets=refs`)
    expect(JSON.stringify(refs.body)).not.toMatch(SECRETS)
    const byName = Object.fromEntries(refs.body.environmentVariables.map((v: any) => [v.name, v]))
    expect(byName.API_TOKEN.globalValue).toBe('${env:ENVIRONMENT_VARIABLES_API_TOKEN_GLOBAL_VALUE}')
    expect(byName.DB_URL.environmentValueList[1]).toEqual({ environmentName: 'prod', visible: false, value: '${env:ENVIRONMENT_VARIABLES_DB_URL_ENVIRONMENTS_PROD_VALUE}' })
    // the references resolved as gwctl resolves them: the same values are no change, another one a sensitive change
    const resolve = (token: string, prod: string) => JSON.parse(JSON.stringify(refs.body)
      .replace('${env:ENVIRONMENT_VARIABLES_API_TOKEN_GLOBAL_VALUE}', token).replace('${env:ENVIRONMENT_VARIABLES_DB_URL_ENVIRONMENTS_PROD_VALUE}', prod))
    expect((await plan(resolve('token-secret-1', 'prod-secret-1'))).body.changes).toEqual([])
    const rotated = await plan(resolve('token-secret-1', 'prod-secret-2'))
    expect(JSON.stringify(rotated.body)).not.toMatch(/prod-secret/)
    expect(rotated.body.changes).toEqual([{ action: 'update', type: 'environmentVariables', name: 'DB_URL', fields: ['environments/prod/value'], details: [{ field: 'environments/prod/value', sensitive: true }], sensitive: true }])

    // into a new project with the secrets
    const created = await bed.svc.graphql('mutation { createProject(input: { name: "vars-copy", environments: ["dev", "prod"] }) { name } }', {}, bed.root)
    expect(created.body.errors).toBeUndefined()
    const copy = await plan({ ...resolve('token-secret-1', 'prod-secret-1'), project: 'vars-copy' }, 'sync', 'vars-copy')
    expect(copy.status, JSON.stringify(copy.body)).toBe(200)
    expect(copy.body.summary).toEqual({ create: 3, update: 0, delete: 0 })
    expect(JSON.stringify(copy.body)).not.toMatch(SECRETS)
    const applied = await apply(copy.body.id, 'vars-copy')
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(applied.body.pushFailed).toBe(false)
    expect(await listed('vars-copy')).toEqual(await listed('payments'))
    const [a, b] = [await stored('DB_URL'), await stored('DB_URL', 'vars-copy')]
    const prodValue = (v: typeof a) => bed.svc.deps.keyring.decrypt((v.environmentValues as any[]).find((e) => e.environmentName === 'prod').valueCipher)
    expect(prodValue(b)).toBe(prodValue(a))
    expect(bed.svc.deps.keyring.decrypt((await stored('API_TOKEN', 'vars-copy')).globalValueCipher!)).toBe('token-secret-1')
    // the copy planned against the references again: 0 changes
    expect((await plan({ ...resolve('token-secret-1', 'prod-secret-1'), project: 'vars-copy' }, 'sync', 'vars-copy')).body.summary).toEqual({ create: 0, update: 0, delete: 0 })
  })

  it('an edit without the secret keeps it; one audit event with the plan id', async () => {
    const before = await stored('DB_URL')
    const p = await plan({ formatVersion: 1, project: 'payments', environmentVariables: [{ name: 'DB_URL', environmentValueList: [{ environmentName: 'prod' }, { environmentName: 'dev', visible: true, value: 'postgres://dev-2' }] }] })
    expect(p.body.changes).toEqual([expect.objectContaining({ action: 'update', name: 'DB_URL', fields: ['environmentValueList'] })])
    expect((await apply(p.body.id)).status).toBe(200)
    const after = await stored('DB_URL')
    const cipherOf = (v: typeof before) => (v.environmentValues as any[]).find((e) => e.environmentName === 'prod').valueCipher
    expect(cipherOf(after)).toBe(cipherOf(before))
    expect((after.environmentValues as any[]).find((e) => e.environmentName === 'dev').value).toBe('postgres://dev-2')
    const audit = await bed.svc.deps.prisma.auditEvent.findMany({ where: { declarativePlanId: p.body.id }, select: { objectType: true, objectName: true, declarativeAction: true } })
    expect(audit).toEqual([{ objectType: 'environmentVariables', objectName: 'DB_URL', declarativeAction: 'update' }])
  })

  it('refuses invalid objects with their field paths, nothing written', async () => {
    const count = () => bed.svc.deps.prisma.environmentVariable.count()
    const before = await count()
    const shape = await plan({ formatVersion: 1, project: 'payments', environmentVariables: [{ name: 'X', environmentValueList: [{ environmentName: 'dev', colour: 'red' }] }] })
    expect(shape.status).toBe(400)
    expect(shape.body.params).toMatchObject({ reason: 'declarativeDocumentInvalid', field: 'document.environmentVariables[0].environmentValueList[0]' })

    const many = Array.from({ length: 20 }, (_, i) => ({ name: `BULK_${i}`, global: true, globalValue: `v${i}` }))
    const p = await plan({ formatVersion: 1, project: 'payments', environmentVariables: [...many, { name: 'STAGING_ONLY', environmentValueList: [{ environmentName: 'staging', visible: true, value: 'x' }] }, { name: 'NO_SECRET', environmentValueList: [{ environmentName: 'prod' }] }] })
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    const applied = await apply(p.body.id)
    expect(applied.status).toBe(400)
    expect(applied.body.params.errors.map((e: any) => e.path)).toEqual(['environmentVariables[20].environmentValueList[0].environmentName', 'environmentVariables[21].environmentValueList[0].value'])
    expect(await count()).toBe(before)
  })

  it('a sync deletes only the variables its namespace owns', async () => {
    const owned = { formatVersion: 1, project: 'payments', namespace: 'team-vars', environmentVariables: [{ name: 'TEAM_FLAG', global: true, globalValue: 'on' }] }
    const created = await plan(owned, 'sync')
    expect(created.body.summary).toEqual({ create: 1, update: 0, delete: 0 })
    expect((await apply(created.body.id)).status).toBe(200)
    // a rename would leave the old name running at the gateway: refused, the REST update renames
    const renamed = await plan({ ...owned, environmentVariables: [{ name: 'TEAM_FLAG_2', renamedFrom: 'TEAM_FLAG', global: true, globalValue: 'on' }] }, 'sync')
    expect(renamed.status).toBe(400)
    expect(renamed.body.params).toMatchObject({ reason: 'declarativeRenameUnsupported', field: 'document.environmentVariables[0].renamedFrom' })
    const emptied = await plan({ ...owned, environmentVariables: [] }, 'sync')
    expect(emptied.body.changes).toEqual([{ action: 'delete', type: 'environmentVariables', name: 'TEAM_FLAG', fields: [], details: [] }])
    const applied = await apply(emptied.body.id)
    expect(applied.status).toBe(200)
    expect(applied.body.pushes).toEqual([{ type: 'environmentVariables', name: 'TEAM_FLAG', success: true }])
    expect((await listed('payments')).map((v) => v.name)).toEqual(['API_TOKEN', 'DB_URL', 'LOG_LEVEL'])
    const audit = await bed.svc.deps.prisma.auditEvent.findMany({ where: { declarativePlanId: emptied.body.id }, select: { declarativeAction: true, objectName: true } })
    expect(audit).toEqual([{ declarativeAction: 'delete', objectName: 'TEAM_FLAG' }])
  })
})
