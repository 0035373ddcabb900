import { beforeAll, describe, expect, it } from 'vitest'
import { CRUD_DATABASE } from '../connections/examples.js'
import { jsonOf } from '../support/http.js'
import { useTestbed } from '../support/testbed.js'
import { importPackage, jsonOfFile, transferExport, unzip } from '../support/zip-fixtures.js'
import { CREATOR_USERS, creatorBootstrap } from './support.js'

// The creators travel through the transfer engine as API_CREATOR objects of their kind (spec §4.3: a multi-kind
// type), with the stored-object serializer; a DB2API's database connections are its dependencies.
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: creatorBootstrap, tokens: CREATOR_USERS })

const post = (path: string, body: unknown) =>
  bed.svc.http(path, { method: 'POST', headers: { authorization: `Bearer ${bed.root}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
const METHOD = { name: '/employees', httpMethod: 'GET', connectionName: 'my-db-connection', sqlStatementType: 'SELECT', sql: 'select * from employees' }

beforeAll(async () => {
  expect((await post(`/apiops/projects/payments/connections/${CRUD_DATABASE.name}/`, CRUD_DATABASE)).status).toBe(200)
  expect((await post('/apiops/projects/payments/db2apis/employees-api/', { description: 'HR', endpointList: [METHOD] })).status).toBe(200)
  expect((await post('/apiops/projects/payments/script2apis/hello/', { endpointList: [{ name: '/hello', httpMethod: 'GET', scriptLanguage: 'JAVASCRIPT', script: '"hi"' }] })).status).toBe(200)
})

describe('creators through export and import', () => {
  it('declares the creator kinds under API_CREATOR, owned by this module', async () => {
    const { body } = await bed.svc.graphql('query { transferObjectTypes { type kinds source } }', {}, bed.root)
    expect(body.data.transferObjectTypes.find((t: any) => t.type === 'API_CREATOR')).toEqual({
      type: 'API_CREATOR', kinds: ['OPENAPI', 'WSDL', 'GRPC_PROTO', 'GRAPHQL_SDL', 'DB2API', 'MOCKAPI', 'SCRIPT2API'], source: 'creators',
    })
  })

  it('packages a DB2API with its database connection as a dependency and lands both in another project', async () => {
    const { bytes } = await transferExport(bed.svc, bed.root, 'payments', { formatVersion: 1, type: 'API_CREATOR', kind: 'DB2API', names: ['employees-api'], withDependencies: true })
    const files = unzip(bytes)
    const object = jsonOfFile(files, 'employees-api.json')
    expect(object).toMatchObject({ type: 'API_CREATOR', kind: 'DB2API', name: 'employees-api', data: { description: 'HR', endpointList: [METHOD] }, secrets: {} })
    expect(object.dependencies).toEqual([{ type: 'CONNECTION', kind: null, name: 'my-db-connection' }])

    const imported = await importPackage(bed.svc, bed.root, 'other', 'API_CREATOR', bytes)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    const read = await jsonOf(await bed.svc.http('/apiops/projects/other/db2apis/employees-api/', { headers: { authorization: `Bearer ${bed.root}` } }))
    expect(read.resultList[0]).toMatchObject({ name: 'employees-api', description: 'HR', endpointList: [METHOD] })
    const connection = await bed.svc.deps.prisma.connection.findFirst({ where: { name: 'my-db-connection', project: { name: 'other' } } })
    expect(connection?.type).toBe('database')
  })

  it('refuses, writing nothing, a DB2API whose connection the target lacks and the package does not carry', async () => {
    const { bytes } = await transferExport(bed.svc, bed.root, 'payments', { formatVersion: 1, type: 'API_CREATOR', kind: 'DB2API', names: ['employees-api'] })
    await bed.svc.deps.prisma.project.create({ data: { name: 'empty' } })
    const before = await bed.svc.deps.prisma.storedObject.count()
    const pre = await bed.svc.http('/apiops/projects/empty/transfer-import-preflights?type=API_CREATOR', { method: 'POST', headers: { authorization: `Bearer ${bed.root}` }, body: (() => { const f = new FormData(); f.append('exportFile', new Blob([new Uint8Array(bytes)]), 'p.zip'); return f })() })
    const preflight = await jsonOf(pre)
    const run = await bed.svc.http('/apiops/projects/empty/transfer-import-runs', {
      method: 'POST',
      headers: { authorization: `Bearer ${bed.root}`, 'Idempotency-Key': 'creator-import-1' },
      body: (() => { const f = new FormData(); f.append('exportFile', new Blob([new Uint8Array(bytes)]), 'p.zip'); f.append('options', JSON.stringify({ formatVersion: 1, type: 'API_CREATOR', preflightDigest: preflight.preflightDigest })); return f })(),
    })
    const answer = await jsonOf(run)
    expect(run.status, JSON.stringify(answer)).toBe(400)
    expect(answer).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'creatorReferenceMissing', creator: 'employees-api', connection: 'my-db-connection' } })
    expect(answer.message).toMatch(/^DB2API 'employees-api': endpointList\[0\]\.connectionName: Database connection \(my-db-connection\) is not found in the project!/)
    expect(await bed.svc.deps.prisma.storedObject.count()).toBe(before)
  })

  it('exports a Script2API by kind and replaces the target one on REPLACE', async () => {
    const { bytes } = await transferExport(bed.svc, bed.root, 'payments', { formatVersion: 1, type: 'API_CREATOR', kind: 'SCRIPT2API', names: ['hello'] })
    expect((await post('/apiops/projects/other/script2apis/hello/', { description: 'target copy' })).status).toBe(200)
    const imported = await importPackage(bed.svc, bed.root, 'other', 'API_CREATOR', bytes, { conflictPolicy: 'REPLACE' })
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    const read = await jsonOf(await bed.svc.http('/apiops/projects/other/script2apis/hello/', { headers: { authorization: `Bearer ${bed.root}` } }))
    expect(read.resultList[0]).toMatchObject({ description: null, endpointList: [{ name: '/hello', scriptLanguage: 'JAVASCRIPT' }], revision: 2 })
  })
})
