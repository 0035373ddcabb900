import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { ParseProxyToolsDocument } from '../generated/graphql.js'
import { apiManagersBootstrap, expectRefused, proxyCall } from './ai-proxies-support.js'

// parse-tools and parse-skills (spec §4.5, issue 4 bullet 6): preview-only discovery on both doors: the parsed
// list comes back, nothing is saved, pushed or audited.

// erin: API_MANAGEMENT MANAGE in payments; frank: API_MANAGEMENT VIEW in payments
const bed = useTestbed({ workers: ['dev'], bootstrap: (workers) => apiManagersBootstrap(workers, [['tools-gw', 'MCP'], ['chat-gw', 'AI'], ['agent-gw', 'A2A']]), tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1' } })
let paymentsId: string

const call = (method: string, path: string, token: string, body?: unknown) => proxyCall(bed.svc, method, path, token, body)
const gql = (query: string, variables: Record<string, unknown>, token: string) => bed.svc.graphql(query, variables, token).then((r) => r.body)
const proxyRow = (name: string) => bed.svc.deps.prisma.apiProxy.findFirst({ where: { projectId: paymentsId, name } })
const auditCount = () => bed.svc.deps.prisma.auditEvent.count()

beforeAll(async () => {
  paymentsId = (await bed.svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })).id
})

const MCP_TOOLS = {
  tools: [
    { name: 'get_weather', description: 'Current weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    { name: 'ping' },
  ],
}

const OPENAPI_YAML = `openapi: 3.0.3
info: { title: Orders, version: '1' }
paths:
  /orders/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: string } }
    get:
      operationId: getOrder
      summary: Read one order
  /orders:
    post:
      summary: Create an order
      parameters:
        - { name: dryRun, in: query, schema: { type: boolean } }
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, properties: { sku: { type: string } } }
`

describe('parse-tools and parse-skills (preview only)', () => {
  it('parses an MCP tools list and writes nothing (no save, no audit event, no push)', async () => {
    const audits = await auditCount()
    const before = await proxyRow('tools-gw')
    const res = await call('POST', 'tools-gw/policies/tool-guard/parse-tools/', bed.erin, MCP_TOOLS)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      status: 'SUCCESS', success: true,
      resultCount: 2,
      resultList: [
        { name: 'get_weather', description: 'Current weather', inputSchema: MCP_TOOLS.tools[0]!.inputSchema, source: 'MCP', method: null, path: null },
        { name: 'ping', description: null, inputSchema: { type: 'object', properties: {} }, source: 'MCP', method: null, path: null },
      ],
    })
    expect(await auditCount()).toBe(audits)
    expect(await proxyRow('tools-gw')).toEqual(before)
    expect(bed.dev.received).toHaveLength(0)
  })

  it('parses an OpenAPI document sent as YAML text into one tool per operation', async () => {
    const res = await call('POST', 'chat-gw/policies/p1/parse-tools/', bed.erin, { document: OPENAPI_YAML })
    expect(res.status).toBe(200)
    expect(res.body.resultList).toEqual([
      { name: 'getOrder', description: 'Read one order', source: 'OPENAPI', method: 'GET', path: '/orders/{id}', inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
      {
        name: 'post_orders', description: 'Create an order', source: 'OPENAPI', method: 'POST', path: '/orders',
        inputSchema: { type: 'object', properties: { dryRun: { type: 'boolean' }, body: { type: 'object', properties: { sku: { type: 'string' } } } }, required: ['body'] },
      },
    ])
  })

  it('refuses documents it cannot read, naming the problem', async () => {
    const parse = (body: unknown) => call('POST', 'tools-gw/policies/p1/parse-tools/', bed.erin, body)
    expectRefused(await parse({}), 'document: a tool or skill definition document is required')
    expectRefused(await parse({ document: '' }), 'document: is empty')
    expectRefused(await parse({ document: 'a: [1, 2' }), /^document: does not parse as JSON or YAML/)
    expectRefused(await parse({ document: `tools: []\n${'#'.repeat(2 * 1024 * 1024)}` }), /^document: is 2097162 characters long; at most 2097152/)
    expectRefused(await parse({ hello: 'world' }), /^document: not a tool definition document/)
    expectRefused(await parse({ tools: [{ name: 'a b' }] }), "document.tools[0].name: 'a b' is not a tool name")
    expectRefused(await parse({ tools: [{ name: 'x' }, { name: 'x' }] }), "document: tool name 'x' is defined twice")
    expectRefused(await parse({ tools: [{ name: 'x', inputSchema: { type: 'array' } }] }), "document.tools[0].inputSchema: must have type 'object'")
    expectRefused(await call('POST', 'agent-gw/policies/p1/parse-tools/', bed.erin, MCP_TOOLS), 'parse-tools applies to MCP and AI proxies; API proxy \'agent-gw\' is an A2A proxy')
    expectRefused(await call('POST', 'ghost/policies/p1/parse-tools/', bed.erin, MCP_TOOLS), "API proxy 'ghost' not found")
    expectRefused(await call('POST', 'tools-gw/policies/p1/parse-tools/', bed.frank, MCP_TOOLS), 'User lacks permission API_MANAGEMENT MANAGE')
  })

  it('parses skills of an agent card and of a SKILL.md file', async () => {
    const card = { name: 'Planner', skills: [{ id: 'plan', name: 'Plan', description: 'Plans trips', tags: ['travel'], examples: ['Plan Rome'] }, { id: 'book', name: 'Book' }] }
    const res = await call('POST', 'agent-gw/policies/skills/parse-skills/', bed.erin, card)
    expect(res.status).toBe(200)
    expect(res.body.resultCount).toBe(2)
    expect(res.body.resultList[0]).toEqual({ id: 'plan', name: 'Plan', description: 'Plans trips', tags: ['travel'], examples: ['Plan Rome'], inputModes: [], outputModes: [] })
    const md = await call('POST', 'agent-gw/policies/skills/parse-skills/', bed.erin, { document: '---\nname: pdf-filler\ndescription: Fills PDF forms\n---\n# Steps\n' })
    expect(md.body.resultList).toEqual([{ id: 'pdf-filler', name: 'pdf-filler', description: 'Fills PDF forms', tags: [], examples: [], inputModes: [], outputModes: [] }])
    expectRefused(await call('POST', 'agent-gw/policies/skills/parse-skills/', bed.erin, { skills: [{ id: 'a' }, { id: 'a' }] }), "document: skill id 'a' is defined twice")
    expectRefused(await call('POST', 'agent-gw/policies/skills/parse-skills/', bed.erin, [{ description: 'no id' }]), 'document[0].id: a skill needs an id')
    expectRefused(await call('POST', 'tools-gw/policies/skills/parse-skills/', bed.erin, card), 'parse-skills applies to A2A and AI proxies')
  })
})

describe('GraphQL', () => {
  it('previews tools and skills without an audit event', async () => {
    const audits = await auditCount()
    const tools = await bed.svc.op(ParseProxyToolsDocument, { projectName: 'payments', apiProxyName: 'tools-gw', policyName: 'p', document: JSON.stringify(MCP_TOOLS) }, bed.erin)
    expect(tools.errors).toBeUndefined()
    expect(tools.data!.parseProxyTools.map((t) => [t.name, t.source])).toEqual([['get_weather', 'MCP'], ['ping', 'MCP']])
    const skills = await gql(`mutation($d: String!) { parseProxySkills(projectName: "payments", apiProxyName: "agent-gw", policyName: "p", document: $d) { id name } }`, { d: '{"skills":[{"id":"s","name":"S"}]}' }, bed.erin)
    expect(skills.data.parseProxySkills).toEqual([{ id: 's', name: 'S' }])
    expect(await auditCount()).toBe(audits)
  })
})
