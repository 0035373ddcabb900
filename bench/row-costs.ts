// Where a bulk run's microseconds per row go (issue 31 §4), measured on the database the run used, right after it:
// the bare floor (a logged table with a primary key, one INSERT … SELECT of N rows), then the assignment table built
// up part by part — the row's width (the real table with its primary key only, no triggers), its two unique keys,
// its other indexes, its foreign keys, its statement-level counter trigger — each one INSERT … SELECT of the same N
// rows the run wrote (same columns and values, other keys), and the other per-subject writes of a run (its ledger's
// insert and outcome update, the deployment records' upsert). Every statement but the bare floor runs in a
// transaction that is rolled back (the parts left out are dropped or disabled inside it), each the best of `repeat`
// (the bare floor the best of at least 5). On a loaded machine the differences move by several µs from run to run.
import type pg from 'pg'

export interface RowCosts {
  rows: number
  /** µs per row */
  bare: number
  width: number
  uniqueKeys: number
  otherIndexes: number
  foreignKeys: number
  counterTrigger: number
  sameTable: number
  ledgerInsert: number
  ledgerUpdate: number
  deploymentRecords: number
  /** the secondary indexes and foreign keys the table has, for the labels */
  indexCount: number
  foreignKeyCount: number
}

const UNIQUE_KEYS = ['LimitAssignment_bindingKey_key', 'LimitAssignment_liveScopeKey_key']

async function best(client: pg.Client, repeat: number, setup: string[], statement: string, params: unknown[] = [], keep = false): Promise<number> {
  let min = Infinity
  for (let i = 0; i < repeat; i++) {
    await client.query('BEGIN')
    try {
      for (const s of setup) await client.query(s)
      const t0 = performance.now()
      await client.query(statement, params)
      min = Math.min(min, performance.now() - t0)
    } finally {
      await client.query(keep ? 'COMMIT' : 'ROLLBACK')
    }
  }
  return min
}

/**
 * The cost per row of the parts of a bulk run's writes. `projectName`'s consumers are the rows' subjects; `runId`
 * (the internal id of a finished run of theirs) owns the ledger rows measured.
 */
export async function rowCosts(client: pg.Client, projectName: string, runId: string, repeat = 3, parts = true): Promise<RowCosts> {
  const bareRepeat = Math.max(repeat, 5)
  await client.query(`DROP TABLE IF EXISTS bench_row_src`)
  // the rows' values, as the run writes them (bulk.ts bulkInsertSql): computed once, outside the timed statements
  await client.query(`
    CREATE TABLE bench_row_src AS
    SELECT c.id AS subject_id, c."projectId" AS project_id, 'lbx_' || md5(c.id) AS binding_key,
           'sha256:' || md5(c.id || 'scope') || md5(c.id || 'more') AS scope_key, row_number() OVER (ORDER BY c.username)::integer AS n
      FROM "Credential" c JOIN "Project" p ON p.id = c."projectId" WHERE p.name = $1`, [projectName])
  const { rows: [{ n }] } = await client.query<{ n: string }>('SELECT count(*) AS n FROM bench_row_src')
  const rows = Number(n)
  const { rows: [spec] } = await client.query<{ spec: unknown }>(`SELECT "customRuleSpec" AS spec FROM "LimitAssignment" WHERE "bulkRunId" IS NOT NULL LIMIT 1`)
  const insert = `
    INSERT INTO "LimitAssignment" ("id", "bindingKey", "projectId", "subjectType", "credentialId", "family", "actorScope", "targetType", "targetHttpMethods",
      "mode", "planKeys", "customRuleSpec", "source", "status", "assignedBy", "bulkRunId", "liveScopeKey", "assignedAt", "createdAt", "updatedAt")
    SELECT gen_random_uuid()::text, s.binding_key, s.project_id, 'CONSUMER', s.subject_id, 'REQUEST_RATE', 'ANY', 'ALL', '{}', 'CUSTOM', '{}', $1::jsonb,
           'BULK', 'ACTIVE', 'bench-admin', 'bench-floor', s.scope_key, now(), now(), now()
      FROM bench_row_src s`
  const params = [JSON.stringify(spec?.spec ?? { requestRate: { windows: [{ permittedMessageCount: 1000, interval: 'ONE_MINUTE' }] } })]
  const { rows: indexes } = await client.query<{ name: string }>(`
    SELECT i.relname AS name FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     WHERE x.indrelid = '"LimitAssignment"'::regclass AND NOT x.indisprimary`)
  const { rows: fks } = await client.query<{ name: string }>(`SELECT conname AS name FROM pg_constraint WHERE conrelid = '"LimitAssignment"'::regclass AND contype = 'f'`)
  const dropIndexes = (which: string[]) => which.length ? [`DROP INDEX ${which.map((i) => `"${i}"`).join(', ')}`] : []
  const others = indexes.map((i) => i.name).filter((i) => !UNIQUE_KEYS.includes(i))
  const noFks = fks.length ? [`ALTER TABLE "LimitAssignment" ${fks.map((f) => `DROP CONSTRAINT "${f.name}"`).join(', ')}`] : []
  const noCounter = [`ALTER TABLE "LimitAssignment" DISABLE TRIGGER USER`]
  const ms: Record<string, number> = {}
  await client.query('CREATE TABLE IF NOT EXISTS bench_bare (id uuid PRIMARY KEY, n integer)')
  await client.query('TRUNCATE bench_bare')
  ms.bare = Infinity
  for (let i = 0; i < bareRepeat; i++) {
    const t0 = performance.now()
    await client.query('INSERT INTO bench_bare (id, n) SELECT gen_random_uuid(), n FROM generate_series(1, $1::integer) AS n', [rows])
    ms.bare = Math.min(ms.bare, performance.now() - t0)
    await client.query('TRUNCATE bench_bare')
  }
  if (!parts) {
    // the bare floor only (a million rows' parts take minutes): the parts NaN
    await client.query('DROP TABLE bench_row_src')
    await client.query('DROP TABLE bench_bare')
    const nan = NaN
    return { rows, bare: (ms.bare * 1000) / rows, width: nan, uniqueKeys: nan, otherIndexes: nan, foreignKeys: nan, counterTrigger: nan, sameTable: nan, ledgerInsert: nan, ledgerUpdate: nan, deploymentRecords: nan, indexCount: indexes.length, foreignKeyCount: fks.length }
  }
  ms.width = await best(client, repeat, [...noCounter, ...noFks, ...dropIndexes(indexes.map((i) => i.name))], insert, params)
  ms.uniqueKeys = await best(client, repeat, [...noCounter, ...noFks, ...dropIndexes(others)], insert, params)
  ms.otherIndexes = await best(client, repeat, [...noCounter, ...noFks], insert, params)
  ms.foreignKeys = await best(client, repeat, noCounter, insert, params)
  ms.sameTable = await best(client, repeat, [], insert, params)
  // the ledger: PREPARE's insert of the run's subjects (as new seqs of the finished run), a chunk's outcome update
  ms.ledgerInsert = await best(client, repeat, [], `
    INSERT INTO "LimitBulkRunSubject" ("runId", "seq", "subjectType", "subjectId", "subjectName")
    SELECT $1, 10000000 + s.n, 'CONSUMER', s.subject_id, s.binding_key FROM bench_row_src s`, [runId])
  ms.ledgerUpdate = await best(client, repeat, [], `
    UPDATE "LimitBulkRunSubject" SET "outcome" = 'CREATED', "bindingKey" = "subjectName" WHERE "runId" = $1`, [runId])
  ms.deploymentRecords = await best(client, repeat, [], `
    INSERT INTO "DeploymentRecord" ("projectName", "environmentName", "kind", "name", "action", "revision", "acknowledged", "at")
    SELECT $1, 'bench-floor', 'LIMIT_ASSIGNMENT', s.binding_key, 'DEPLOY', 1, true, now() FROM bench_row_src s
    ON CONFLICT ("projectName", "environmentName", "kind", "name") DO UPDATE SET "revision" = excluded."revision", "at" = excluded."at"`, [projectName])
  await client.query('DROP TABLE bench_row_src')
  await client.query('DROP TABLE bench_bare')
  const us = (v: number) => (v * 1000) / rows
  return {
    rows,
    bare: us(ms.bare),
    width: us(ms.width - ms.bare),
    uniqueKeys: us(ms.uniqueKeys - ms.width),
    otherIndexes: us(ms.otherIndexes - ms.uniqueKeys),
    foreignKeys: us(ms.foreignKeys - ms.otherIndexes),
    counterTrigger: us(ms.sameTable - ms.foreignKeys),
    sameTable: us(ms.sameTable),
    ledgerInsert: us(ms.ledgerInsert),
    ledgerUpdate: us(ms.ledgerUpdate),
    deploymentRecords: us(ms.deploymentRecords),
    indexCount: indexes.length,
    foreignKeyCount: fks.length,
  }
}

/** The breakdown as a table: µs per row and its multiple of the bare floor, the run's remainder last. */
export function printRowCosts(c: RowCosts, runMs: number): string[] {
  const runUs = (runMs * 1000) / c.rows
  const measured = c.sameTable + c.ledgerInsert + c.ledgerUpdate + c.deploymentRecords
  const line = (label: string, us: number) => `| ${label} | ${us.toFixed(1)} µs | ${(us / c.bare).toFixed(1)}× |`
  return [
    `| per row (${c.rows.toLocaleString('en')} rows) | µs | × bare |`,
    '|---|---|---|',
    line('bare table: uuid primary key + integer, one `INSERT … SELECT`', c.bare),
    line('+ the assignment row\'s width (its table, primary key only, no triggers)', c.width),
    line('+ its 2 unique keys (bindingKey, liveScopeKey)', c.uniqueKeys),
    line(`+ its ${c.indexCount - UNIQUE_KEYS.length} other indexes`, c.otherIndexes),
    line(`+ its ${c.foreignKeyCount} foreign keys`, c.foreignKeys),
    line('+ the statement-level counter trigger', c.counterTrigger),
    line('**= the same-table floor** (the table as it is)', c.sameTable),
    line('ledger: PREPARE\'s insert', c.ledgerInsert),
    line('ledger: the outcome update', c.ledgerUpdate),
    line('deployment records: upsert', c.deploymentRecords),
    line('the rest of the run (chunk statements\' other parts, outbox, round trips, the service, the pushes)', runUs - measured),
    line('**= the bulk run, from outside**', runUs),
  ]
}
