import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'
import { automationBootstrap, legacy, PETSTORE } from '../apiproxies/automation-proxy-support.js'

// Promotion executions (the Promotion tag of the vendor's openapi.yaml; its body is ours, docs/promotion.md): API
// proxies carried from `payments` to `other` by the transfer engine, kept for GET …/executions/{executionId}.

const NTLM = 'ntlm-execution-pass-1'

function bootstrap(workers: { dev: string[]; prod: string[] }) {
  const doc = automationBootstrap(workers)
  // gina: EXPORT_IMPORT in both; erin: MANAGE in both (no EXPORT_IMPORT); frank: VIEW in other
  doc.projects[1]!.members = [
    { username: 'gina', permissions: [{ category: 'API_MANAGEMENT', level: 'MANAGE' }, { category: 'API_MANAGEMENT', level: 'EXPORT_IMPORT' }] },
    { username: 'erin', permissions: [{ category: 'API_MANAGEMENT', level: 'MANAGE' }] },
    { username: 'frank', permissions: [{ category: 'API_MANAGEMENT', level: 'VIEW' }] },
  ]
  return doc
}
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap, tokens: { gina: 'gina-pass-1', erin: 'erin-pass-1', frank: 'frank-pass-1', bob: 'bob-pass-1' } })

const run = (token: string | null, body?: unknown) => legacy(bed.svc, 'POST', '../promotion/executions', token, body)
const read = (token: string, id: string) => legacy(bed.svc, 'GET', `../promotion/executions/${id}`, token)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const state = async () => JSON.stringify(await bed.svc.deps.prisma.apiProxy.findMany({ orderBy: [{ projectId: 'asc' }, { name: 'asc' }], include: { endpoints: { orderBy: [{ path: 'asc' }, { method: 'asc' }] }, policies: true } }))
  + JSON.stringify(await bed.svc.deps.prisma.promotionExecution.findMany({ orderBy: { startedAt: 'asc' } }))
const expectRefused = (call: () => Promise<LegacyAnswer>, message: RegExp) => expectLegacyRefusal(call, message, { state, pushes })
const BODY = { sourceProjectName: 'payments', targetProjectName: 'other', apiProxyNames: ['MyAPI'], executionName: 'Release 1', executionNotes: 'first' }

beforeAll(async () => {
  const form = new FormData()
  form.append('metadata', JSON.stringify({ apiProxyName: 'MyAPI', apiProxyDescription: 'Pets', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/my-api'] }, routingInfo: { routingAddressList: [{ address: 'https://backend.example.com' }] } }))
  form.append('specFile', new Blob([JSON.stringify(PETSTORE)]), 'openapi.json')
  for (const step of [
    await legacy(bed.svc, 'POST', 'payments/apiProxies/file/', bed.gina, form),
    await legacy(bed.svc, 'PATCH', 'payments/apiProxies/MyAPI/settings/ntlm/', bed.gina, { enabled: true, domain: 'CORP', username: 'svc', password: NTLM }),
  ]) if (step.status !== 200) throw new Error(JSON.stringify(step.body))
})

describe('POST /apiops/promotion/executions and GET …/{executionId}', () => {
  it('carries the proxies with their secrets in one import, keeps the execution, reads it back', async () => {
    const res = await run(bed.gina, BODY)
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toMatchObject({
      status: 'SUCCESS', executionStatus: 'COMPLETED', executionId: expect.any(String), sourceProjectName: 'payments', targetProjectName: 'other', sourceApiName: 'MyAPI', targetApiName: 'MyAPI',
      executionName: 'Release 1', executionNotes: 'first', executedBy: 'gina', progress: 100, currentStep: 1, totalSteps: 1, approvalRequired: false, errorMessage: null,
      result: { type: 'API_PROXY', conflictPolicy: 'REPLACE', exportDigest: expect.any(String), preflightDigest: expect.any(String), imported: [{ type: 'API_PROXY', kind: null, name: 'MyAPI' }], advisories: [] },
    })
    const target = await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'MyAPI', project: { name: 'other' } }, include: { endpoints: true, deployments: true } })
    expect(target.endpoints).toHaveLength(3)
    expect(bed.svc.deps.keyring.decrypt((target.settings as any).ntlm.password)).toBe(NTLM)
    expect(target.deployments).toEqual([])
    expect(pushes()).toBe(0)
    const again = await read(bed.frank, res.body.executionId)
    expect(again.status).toBe(200)
    const { status: _s, success: _ok, ...view } = again.body
    const { status: _s2, success: _ok2, ...first } = res.body
    expect(view).toEqual(first)
    const audit = await bed.svc.deps.prisma.auditEvent.findFirst({ where: { operation: 'POST /apiops/promotion/executions' }, orderBy: { id: 'desc' } })
    expect(audit).toMatchObject({ actor: 'gina', objectType: 'PROMOTION_EXECUTION', objectName: 'other', outcome: 'SUCCEEDED' })
    // a second run replaces (REPLACE is the default): the target proxy's revision goes up
    expect((await run(bed.gina, BODY)).body.result.imported).toEqual([{ type: 'API_PROXY', kind: null, name: 'MyAPI' }])
    expect((await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'MyAPI', project: { name: 'other' } } })).revision).toBe(2)
  })

  it('refuses before writing: access first, then the body, the projects, the names', async () => {
    await expectRefused(() => run(bed.bob, { targetProjectName: 'other', apiProxyNames: 'x' }), /^Project 'other' not found$/)
    await expectRefused(() => run(bed.erin, { targetProjectName: 'other', apiProxyNames: 'x' }), /^User lacks permission PROJECT_MANAGEMENT EXPORT_IMPORT \(or API_MANAGEMENT EXPORT_IMPORT\) in project 'other'$/)
    await expectRefused(() => run(bed.gina), /body/i)
    await expectRefused(() => run(bed.gina, { ...BODY, apiProxyNames: [] }), /^apiProxyNames: needs at least one API proxy/)
    await expectRefused(() => run(bed.gina, { ...BODY, surprise: true }), /surprise/)
    await expectRefused(() => run(bed.gina, { ...BODY, conflictPolicy: 'MERGE' }), /^conflictPolicy: must be NEW or REPLACE/)
    await expectRefused(() => run(bed.gina, { ...BODY, targetProjectName: 'payments' }), /^targetProjectName: must differ from sourceProjectName/)
    await expectRefused(() => run(bed.gina, { ...BODY, sourceProjectName: 'nowhere' }), /Project 'nowhere' not found/)
    await expectRefused(() => run(bed.gina, { ...BODY, apiProxyNames: ['Ghost'] }), /API_PROXY 'Ghost' not found in project 'payments'/)
    await expectRefused(() => run(bed.gina, { ...BODY, conflictPolicy: 'NEW' }), /API_PROXY 'MyAPI' already exists/)
    expect((await run(null, BODY)).status).toBe(401)
  })

  it('an execution is read by its target project\'s members only; an unknown id is not found', async () => {
    const { executionId } = (await run(bed.gina, BODY)).body
    expect((await read(bed.bob, executionId)).body).toEqual({ status: 'FAILURE', resultMessage: `Promotion execution '${executionId}' not found` })
    expect((await read(bed.gina, 'no-such-execution')).body).toEqual({ status: 'FAILURE', resultMessage: "Promotion execution 'no-such-execution' not found" })
  })

  it('GraphQL: runPromotionExecution and promotionExecution answer as the REST doors', async () => {
    const m = await bed.svc.graphql('mutation($i: JSON!) { runPromotionExecution(input: $i) { executionId executionStatus totalSteps result } }', { i: BODY }, bed.gina)
    expect(m.body.errors).toBeUndefined()
    const id = m.body.data.runPromotionExecution.executionId
    const rest = await read(bed.gina, id)
    const q = await bed.svc.graphql('query($id: String!) { promotionExecution(executionId: $id) { executionId executionStatus sourceProjectName result } }', { id }, bed.frank)
    expect(q.body.data.promotionExecution).toEqual({ executionId: id, executionStatus: 'COMPLETED', sourceProjectName: 'payments', result: rest.body.result })
    const before = await state()
    const refused = await bed.svc.graphql('mutation($i: JSON!) { runPromotionExecution(input: $i) { executionId } }', { i: BODY }, bed.erin)
    expect(refused.body.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
    expect(await state()).toBe(before)
  })
})
