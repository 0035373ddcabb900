import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { jsonOf } from '../support/http.js'

// Issue 11 §6: a door's audit event is written in the transaction of the call's write, so a committed write
// always has its event and a rolled-back one never does. The failures below are real database failures
// raised inside that transaction (a genuine duplicate key, a refusing trigger), not mocks.

let svc: TestService
let dev: FakeWorker
let root: string

beforeAll(async () => {
  dev = await FakeWorker.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [dev.url] }) })
  root = await svc.tokenFor('root', 's3cret-root')
})
afterAll(async () => {
  await svc?.close()
  await dev?.stop()
})

const sql = (text: string) => svc.deps.prisma.$executeRawUnsafe(text)
const eventsOf = (where: { correlationId?: string; objectName?: string }) => svc.deps.prisma.auditEvent.findMany({ where, orderBy: { id: 'asc' } })
/** the audit id sequence (nextval is never rolled back: a jump shows an event insert was attempted) */
const sequenceNow = async () => {
  const [row] = await svc.deps.prisma.$queryRawUnsafe<{ v: string }[]>(`SELECT nextval(pg_get_serial_sequence('"AuditEvent"', 'id'))::text AS v`)
  return BigInt(row.v)
}

const rest = (method: string, path: string, body: unknown, correlationId: string) =>
  svc.http(path, {
    method,
    headers: { authorization: `Bearer ${root}`, 'content-type': 'application/json', 'x-correlation-id': correlationId },
    body: JSON.stringify(body),
  })
const createOrganization = (code: string) =>
  svc.graphql(`mutation($input: OrganizationInput!) { createOrganization(projectName: "payments", input: $input) { code } }`, { input: { code, name: code } }, root)
const DLP = '/apiops/projects/payments/ai-dlp-presets/'
const rule = { ruleValue: 'ATM-[0-9]{4}', action: 'FLAG' }

/** For the row named `name`, an AFTER INSERT trigger inserts the same row again: a real primary-key violation. */
async function withDuplicateOnInsert(table: string, column: string, name: string, run: () => Promise<void>) {
  const fn = `audit_test_dup_${table.toLowerCase()}`
  await sql(`CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger AS $$ BEGIN
    EXECUTE format('INSERT INTO %I SELECT * FROM %I WHERE "id" = $1', TG_TABLE_NAME, TG_TABLE_NAME) USING NEW."id";
    RETURN NEW; END $$ LANGUAGE plpgsql`)
  await sql(`CREATE TRIGGER ${fn} AFTER INSERT ON "${table}" FOR EACH ROW WHEN (NEW."${column}" = '${name}') EXECUTE FUNCTION ${fn}()`)
  try {
    await run()
  } finally {
    await sql(`DROP TRIGGER IF EXISTS ${fn} ON "${table}"`)
    await sql(`DROP FUNCTION IF EXISTS ${fn}()`)
  }
}

describe('the audit event shares the transaction of the write', () => {
  it('a committed write has exactly one event: a bare write, a write in a service transaction, a GraphQL mutation', async () => {
    const created = await rest('POST', `${DLP}atomic-one/`, rule, 'atomic-rest-1')
    expect(created.status).toBe(200)
    expect(await eventsOf({ correlationId: 'atomic-rest-1' })).toEqual([expect.objectContaining({
      surface: 'REST_APIOPS', actor: 'root', projectName: 'payments', operation: 'POST /apiops/projects/:projectName/ai-dlp-presets/:presetName/',
      objectName: 'atomic-one', outcome: 'SUCCEEDED', httpStatus: 200,
    })])

    const projectId = (await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })).id
    const budget = await rest('PUT', '/apiops/projects/payments/ai-budgets/', { targetType: 'PROJECT', targetId: projectId, budget: { enabled: true, tokensPerDay: 5 } }, 'atomic-rest-2')
    expect(budget.status, await budget.clone().text()).toBe(200)
    expect(await eventsOf({ correlationId: 'atomic-rest-2' })).toEqual([expect.objectContaining({ operation: 'PUT /apiops/projects/:projectName/ai-budgets/', outcome: 'SUCCEEDED', httpStatus: 200 })])

    const org = await createOrganization('atomic-org')
    expect(org.body.errors).toBeUndefined()
    expect(await eventsOf({ objectName: 'atomic-org' })).toEqual([expect.objectContaining({ surface: 'GRAPHQL', operation: 'createOrganization', outcome: 'SUCCEEDED' })])
  })

  it('a write whose transaction rolls back after the event was inserted leaves neither the change nor the event', async () => {
    await withDuplicateOnInsert('AiPreset', 'name', 'rolled-back', async () => {
      const before = await sequenceNow()
      const res = await rest('POST', `${DLP}rolled-back/`, rule, 'atomic-rollback-rest')
      expect(res.status).toBe(400)
      expect(await svc.deps.prisma.aiPreset.count({ where: { name: 'rolled-back' } })).toBe(0)
      expect(await eventsOf({ correlationId: 'atomic-rollback-rest' })).toEqual([])
      // the event had been inserted in that transaction (its id was drawn), and went with the rollback
      expect(await sequenceNow()).toBeGreaterThan(before + 1n)
    })
    await withDuplicateOnInsert('Organization', 'code', 'rolled-back-org', async () => {
      const before = await sequenceNow()
      const res = await createOrganization('rolled-back-org')
      expect(res.body.errors?.length).toBe(1)
      expect(await svc.deps.prisma.organization.count({ where: { code: 'rolled-back-org' } })).toBe(0)
      expect(await eventsOf({ objectName: 'rolled-back-org' })).toEqual([])
      expect(await sequenceNow()).toBeGreaterThan(before + 1n)
    })
    // the same writes, once the database accepts them, commit with their one event
    expect((await rest('POST', `${DLP}rolled-back/`, rule, 'atomic-rollback-again')).status).toBe(200)
    expect(await eventsOf({ correlationId: 'atomic-rollback-again' })).toHaveLength(1)
  })

  it('when the event cannot be stored, the change is not committed either', async () => {
    await sql(`CREATE OR REPLACE FUNCTION audit_test_refuse() RETURNS trigger AS $$ BEGIN
      RAISE unique_violation USING MESSAGE = 'duplicate key value violates unique constraint "AuditEvent_pkey"'; END $$ LANGUAGE plpgsql`)
    await sql(`CREATE TRIGGER audit_test_refuse BEFORE INSERT ON "AuditEvent" FOR EACH ROW WHEN (NEW."objectName" LIKE 'unrecordable%') EXECUTE FUNCTION audit_test_refuse()`)
    try {
      const res = await rest('POST', `${DLP}unrecordable/`, rule, 'atomic-unrecordable')
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(await jsonOf(res)).toMatchObject({ status: 'FAILURE' })
      expect(await svc.deps.prisma.aiPreset.count({ where: { name: 'unrecordable' } })).toBe(0)
      const org = await createOrganization('unrecordable-org')
      expect(org.body.errors?.length).toBe(1)
      expect(await svc.deps.prisma.organization.count({ where: { code: 'unrecordable-org' } })).toBe(0)
      expect(await svc.deps.prisma.auditEvent.count({ where: { objectName: { startsWith: 'unrecordable' } } })).toBe(0)
    } finally {
      await sql(`DROP TRIGGER IF EXISTS audit_test_refuse ON "AuditEvent"`)
      await sql(`DROP FUNCTION IF EXISTS audit_test_refuse()`)
    }
  })
})
