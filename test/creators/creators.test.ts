import { beforeAll, describe, expect, it } from 'vitest'
import { CRUD_DATABASE } from '../connections/examples.js'
import { jsonOf } from '../support/http.js'
import { useTestbed } from '../support/testbed.js'
import { CREATOR_USERS, creatorBootstrap } from './support.js'

// Vendor openapi.yaml (apinizer/docs cc9f74b) tags Db2Api, MockAPI, Script2Api: list, get, create or update. The bodies
// are the vendor schemas (id, name, description, projectId) plus the methods of the API Creator pages.
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: creatorBootstrap, tokens: CREATOR_USERS })
const P = '/apiops/projects/payments'

const call = (user: keyof typeof CREATOR_USERS | null, method: string, path: string, body?: unknown) =>
  bed.svc.http(path, {
    method,
    headers: { ...(user ? { authorization: `Bearer ${bed[user]}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const creators = () => bed.svc.deps.prisma.storedObject.findMany({ where: { type: 'API_CREATOR' }, orderBy: { id: 'asc' } })
const pushes = () => bed.dev.received.length + bed.prod.received.length

async function refused(user: keyof typeof CREATOR_USERS | null, method: string, path: string, body: unknown, status: number, message: RegExp) {
  const before = JSON.stringify(await creators())
  const res = await call(user, method, path, body)
  expect(res.status).toBe(status)
  expect(await jsonOf(res)).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
  expect(JSON.stringify(await creators())).toBe(before)
  expect(pushes()).toBe(0)
}

const EMPLOYEES = {
  name: 'employees-api',
  description: 'Employees from the HR database',
  endpointList: [
    { name: '/employees', httpMethod: 'GET', description: 'by first name', connectionName: 'my-db-connection', timeout: 30, sqlStatementType: 'SELECT', sql: 'select * from employees where first_name = :fName', parameterList: [{ name: 'fName', dataType: 'STRING', paramType: 'IN', testValue: 'Ada' }] },
    { name: '/employees', httpMethod: 'POST', connectionName: 'my-db-connection', sqlStatementType: 'INSERT', sql: 'insert into employees(first_name) values (:fName)' },
  ],
}
const PETS_MOCK = {
  name: 'pets-mock',
  description: 'Mock of the pet store',
  endpointList: [{ name: '/pets', httpMethod: 'GET', statusCode: 200, headerList: [{ name: 'X-Mock', value: 'yes' }], responseList: [{ contentType: 'application/json', body: '[{"id":1}]' }, { contentType: 'application/json', condition: "header('X-Empty') == 'true'", body: '[]' }] }],
}
const HELLO_SCRIPT = { name: 'hello-script', endpointList: [{ name: '/hello', httpMethod: 'GET', scriptLanguage: 'GROOVY', script: 'return "hello"' }] }

beforeAll(async () => {
  const res = await call('root', 'POST', `${P}/connections/${CRUD_DATABASE.name}/`, CRUD_DATABASE)
  expect(res.status, await res.clone().text()).toBe(200)
  bed.dev.received.length = 0
  bed.prod.received.length = 0
})

describe('POST …/{db2apis|mockapis|script2apis}/{name}/ (create or update)', () => {
  it('creates each kind from its body, answers its id, stores it as an API_CREATOR object of its kind, deploys nothing', async () => {
    for (const [segment, body, kind] of [['db2apis', EMPLOYEES, 'DB2API'], ['mockapis', PETS_MOCK, 'MOCKAPI'], ['script2apis', HELLO_SCRIPT, 'SCRIPT2API']] as const) {
      const res = await call('cora', 'POST', `${P}/${segment}/${body.name}/`, body)
      expect(res.status).toBe(200)
      const answer = await jsonOf(res)
      const row = await bed.svc.deps.prisma.storedObject.findFirstOrThrow({ where: { type: 'API_CREATOR', kind, name: body.name } })
      expect(answer).toEqual({ status: 'SUCCESS', success: true, resultList: [row.id], resultCount: 1 })
      const { name: _name, ...content } = body
      expect(row.content).toEqual(content)
      expect(row.revision).toBe(1)
    }
    expect(pushes()).toBe(0)
    const audit = await bed.svc.deps.prisma.auditEvent.findMany({ where: { objectName: { in: ['employees-api', 'pets-mock', 'hello-script'] } }, orderBy: { id: 'asc' } })
    expect(audit.map((a) => [a.surface, a.operation, a.objectType, a.objectName, a.actor])).toEqual([
      ['REST_APIOPS', 'POST /apiops/projects/:projectName/db2apis/:db2ApiName/', 'DB2API', 'employees-api', 'cora'],
      ['REST_APIOPS', 'POST /apiops/projects/:projectName/mockapis/:mockApiName/', 'MockAPI', 'pets-mock', 'cora'],
      ['REST_APIOPS', 'POST /apiops/projects/:projectName/script2apis/:script2ApiName/', 'Script2API', 'hello-script', 'cora'],
    ])
  })

  it("accepts the vendor schema's own fields (id and projectId of the source are not stored) and replaces on a second save", async () => {
    const vendor = { id: '68f3a1c95d4b2e7a91c04e99', name: 'pets-mock', description: 'Promoted mock', projectId: '66a1f0d25d4b2e7a91c04a01' }
    const res = await call('cid', 'POST', `${P}/mockapis/pets-mock/`, vendor)
    expect(res.status).toBe(200)
    const row = await bed.svc.deps.prisma.storedObject.findFirstOrThrow({ where: { kind: 'MOCKAPI', name: 'pets-mock' } })
    expect(row.content).toEqual({ description: 'Promoted mock', endpointList: [] })
    expect(row.revision).toBe(2)
    expect((await jsonOf(res)).resultList).toEqual([row.id])
    // without a name in the body, the path names it
    expect((await call('cora', 'POST', `${P}/mockapis/pets-mock/`, PETS_MOCK)).status).toBe(200)
    expect((await call('cora', 'POST', `${P}/script2apis/bare/`, {})).status).toBe(200)
  })

  it('refuses an invalid field (named), a name other than the path, a method twice and an unknown database connection; nothing written', async () => {
    const method = EMPLOYEES.endpointList[0]!
    await refused('cora', 'POST', `${P}/db2apis/x/`, { endpointList: [{ ...method, bogus: 1 }] }, 400, /^endpointList\[0\]\.bogus: unknown field$/)
    await refused('cora', 'POST', `${P}/db2apis/x/`, { endpointList: [{ ...method, httpMethod: 'FETCH' }] }, 400, /^endpointList\[0\]\.httpMethod: /)
    await refused('cora', 'POST', `${P}/db2apis/x/`, { endpointList: [{ ...method, timeout: 0 }] }, 400, /^endpointList\[0\]\.timeout: must be at least 1$/)
    await refused('cora', 'POST', `${P}/db2apis/x/`, { endpointList: [{ ...method, connectionName: 'nope-db' }] }, 400, /^endpointList\[0\]\.connectionName: Database connection \(nope-db\) is not found in the project!$/)
    await refused('cora', 'POST', `${P}/db2apis/x/`, { endpointList: [method, method] }, 400, /^endpointList\[1\]: GET \/employees is defined twice$/)
    await refused('cora', 'POST', `${P}/db2apis/x/`, { name: 'y' }, 400, /^name: the body's name \(y\) is not the name in the path \(x\)$/)
    await refused('cora', 'POST', `${P}/db2apis/x/`, { unknownTop: true }, 400, /^unknownTop: unknown field$/)
    await refused('cora', 'POST', `${P}/mockapis/x/`, { endpointList: [{ name: '/a', httpMethod: 'GET', statusCode: 700 }] }, 400, /^endpointList\[0\]\.statusCode: must be an HTTP status code/)
    await refused('cora', 'POST', `${P}/script2apis/x/`, { endpointList: [{ name: '/a', httpMethod: 'GET', scriptLanguage: 'PYTHON', script: 'x' }] }, 400, /^endpointList\[0\]\.scriptLanguage: /)
    await refused('cora', 'POST', `${P}/script2apis/x/`, { endpointList: [{ name: '/a', httpMethod: 'GET', scriptLanguage: 'GROOVY' }] }, 400, /^endpointList\[0\]\.script: /)
    await refused('cora', 'POST', `${P}/script2apis/x/`, [], 400, /.+/)
  })

  it('refuses a VIEW-only member, an outsider, an unknown project and a call without a token; nothing written', async () => {
    await refused('vic', 'POST', `${P}/db2apis/x/`, { endpointList: 'not a list' }, 400, /^User lacks permission API_MANAGEMENT MANAGE \(or API_CREATOR MANAGE\) in project 'payments'$/)
    await refused('olaf', 'POST', `${P}/mockapis/x/`, {}, 400, /^Project 'payments' not found$/)
    await refused('cora', 'POST', '/apiops/projects/nosuch/mockapis/x/', {}, 400, /^Project 'nosuch' not found$/)
    await refused(null, 'POST', `${P}/mockapis/x/`, {}, 401, /.+/)
  })
})

describe('GET …/{db2apis|mockapis|script2apis}/ and …/{name}/', () => {
  it('lists and reads the fields the vendor schema shows, with the methods as saved', async () => {
    const row = await bed.svc.deps.prisma.storedObject.findFirstOrThrow({ where: { kind: 'DB2API', name: 'employees-api' } })
    const expected = {
      id: row.id, name: 'employees-api', description: EMPLOYEES.description, projectId: row.projectId, endpointList: EMPLOYEES.endpointList,
      revision: 1, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(),
    }
    for (const user of ['cora', 'vic', 'cid'] as const) {
      expect(await jsonOf(await call(user, 'GET', `${P}/db2apis/employees-api/`))).toEqual({ status: 'SUCCESS', success: true, resultList: [expected], resultCount: 1 })
    }
    expect(await jsonOf(await call('vic', 'GET', `${P}/db2apis/`))).toEqual({ status: 'SUCCESS', success: true, resultList: [expected], resultCount: 1 })
    const mocks = await jsonOf(await call('vic', 'GET', `${P}/mockapis/`))
    expect(mocks.resultList.map((c: any) => [c.name, c.endpointList.length])).toEqual([['pets-mock', 1]])
    const scripts = await jsonOf(await call('vic', 'GET', `${P}/script2apis/`))
    expect(scripts.resultList.map((c: any) => c.name)).toEqual(['bare', 'hello-script'])
    expect((await jsonOf(await call('vic', 'GET', `${P}/script2apis/hello-script/`))).resultList[0].endpointList).toEqual(HELLO_SCRIPT.endpointList)
  })

  it('refuses an unknown name, a kind the name is not, an outsider and an unknown project', async () => {
    await refused('vic', 'GET', `${P}/db2apis/nope/`, undefined, 400, /^DB2API \(nope\) is not found!$/)
    await refused('vic', 'GET', `${P}/db2apis/pets-mock/`, undefined, 400, /^DB2API \(pets-mock\) is not found!$/)
    await refused('vic', 'GET', `${P}/script2apis/pets-mock/`, undefined, 400, /^Script2API \(pets-mock\) is not found!$/)
    await refused('olaf', 'GET', `${P}/db2apis/employees-api/`, undefined, 400, /^Project 'payments' not found$/)
    await refused('olaf', 'GET', `${P}/db2apis/`, undefined, 400, /^Project 'payments' not found$/)
    await refused('cora', 'GET', '/apiops/projects/nosuch/db2apis/', undefined, 400, /^Project 'nosuch' not found$/)
  })
})

describe('GET /apiops/utility/{db2apis|mockapis|script2apis}/{id} and POST /apiops/utility/creators/batch-names', () => {
  const idOf = async (kind: string, name: string) => (await bed.svc.deps.prisma.storedObject.findFirstOrThrow({ where: { kind, name } })).id

  it('answers id and name to a caller who may view the project; anyone else learns nothing (as an unknown id)', async () => {
    const id = await idOf('DB2API', 'employees-api')
    expect(await jsonOf(await call('vic', 'GET', `/apiops/utility/db2apis/${id}`))).toEqual({ status: 'SUCCESS', success: true, resultList: [{ id, name: 'employees-api' }], resultCount: 1 })
    const unknown = await jsonOf(await call('vic', 'GET', '/apiops/utility/db2apis/no-such-id'))
    expect(unknown).toEqual({ status: 'FAILURE', resultMessage: 'DB2API (no-such-id) is not found!' })
    await refused('olaf', 'GET', `/apiops/utility/db2apis/${id}`, undefined, 400, new RegExp(`^DB2API \\(${id}\\) is not found!$`))
    // the id of another kind is not a DB2API
    await refused('vic', 'GET', `/apiops/utility/mockapis/${id}`, undefined, 400, new RegExp(`^MockAPI \\(${id}\\) is not found!$`))
    const script = await idOf('SCRIPT2API', 'hello-script')
    expect((await jsonOf(await call('cid', 'GET', `/apiops/utility/script2apis/${script}`))).resultList).toEqual([{ id: script, name: 'hello-script' }])
  })

  it('batch: the names of the visible ids of the kind, in the order asked; the rest left out; nothing written', async () => {
    const mock = await idOf('MOCKAPI', 'pets-mock')
    const db = await idOf('DB2API', 'employees-api')
    const before = await bed.svc.deps.prisma.auditEvent.count()
    const res = await call('vic', 'POST', '/apiops/utility/creators/batch-names?type=mockapi', [mock, 'unknown', db, mock])
    expect(await jsonOf(res)).toEqual({ status: 'SUCCESS', success: true, resultList: [{ id: mock, name: 'pets-mock' }], resultCount: 1 })
    expect((await jsonOf(await call('olaf', 'POST', '/apiops/utility/creators/batch-names?type=MOCKAPI', [mock]))).resultList).toEqual([])
    expect(await bed.svc.deps.prisma.auditEvent.count()).toBe(before)
    await refused('vic', 'POST', '/apiops/utility/creators/batch-names?type=SOAP', [mock], 400, /^type: must be one of DB2API, MOCKAPI, SCRIPT2API$/)
    await refused('vic', 'POST', '/apiops/utility/creators/batch-names', [mock], 400, /^type: /)
    await refused('vic', 'POST', '/apiops/utility/creators/batch-names?type=DB2API', { ids: [mock] }, 400, /.+/)
    await refused(null, 'POST', '/apiops/utility/creators/batch-names?type=DB2API', [mock], 401, /.+/)
  })
})

describe('GraphQL twins', () => {
  it('saves, lists and looks up through the same service, audited as mutations', async () => {
    const saved = await bed.svc.graphql(
      'mutation($input: MockApiInput!) { saveMockApi(projectName: "payments", name: "gql-mock", input: $input) { id name kind description endpointList revision } }',
      { input: { description: 'from GraphQL', endpointList: [{ name: '/ping', httpMethod: 'GET', statusCode: 204 }] } },
      bed.cora,
    )
    expect(saved.body.errors).toBeUndefined()
    expect(saved.body.data.saveMockApi).toMatchObject({ name: 'gql-mock', kind: 'MOCKAPI', description: 'from GraphQL', revision: 1 })
    expect(saved.body.data.saveMockApi.endpointList).toEqual([{ name: '/ping', httpMethod: 'GET', statusCode: 204 }])
    const id = saved.body.data.saveMockApi.id
    const read = await bed.svc.graphql(`query { apiCreators(projectName: "payments", kind: "mockapi") { name } apiCreatorName(kind: "MOCKAPI", id: "${id}") { id name } apiCreatorNames(kind: "MOCKAPI", ids: ["${id}", "x"]) { name } }`, {}, bed.vic)
    expect(read.body.data).toEqual({ apiCreators: [{ name: 'gql-mock' }, { name: 'pets-mock' }], apiCreatorName: { id, name: 'gql-mock' }, apiCreatorNames: [{ name: 'gql-mock' }] })
    expect(await bed.svc.deps.prisma.auditEvent.count({ where: { surface: 'GRAPHQL', operation: 'saveMockApi' } })).toBe(1)

    const denied = await bed.svc.graphql('mutation { saveScript2Api(projectName: "payments", name: "g", input: {}) { id } }', {}, bed.vic)
    expect(denied.body.errors?.[0]?.message).toMatch(/lacks permission API_MANAGEMENT MANAGE/)
    const hidden = await bed.svc.graphql('query { apiCreator(projectName: "payments", kind: "MOCKAPI", name: "gql-mock") { id } }', {}, bed.olaf)
    expect(hidden.body.errors?.[0]?.message).toBe("Project 'payments' not found")
  })
})
