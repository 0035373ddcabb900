// The embedded database's autovacuum. PGlite runs PostgreSQL as a single backend with no autovacuum launcher, so
// nothing ever analyzes or vacuums its tables: the planner keeps the statistics of an empty database (at 200,000
// consumers the subject picker's 1 % search took 13× its page 0 instead of 1.8×, issue 31 §1) and index-only scans
// keep visiting the heap. This applies autovacuum's own rules (PostgreSQL's default thresholds) to the table
// statistics the backend keeps, one table at a time, between requests.
import type { Logger } from '../http/logger.js'

/** What one maintenance pass did to one table: analyzed it, after vacuuming it when `vacuum`. */
export interface TableMaintenance { table: string; vacuum: boolean; durationMs: number }

/** The few calls of the embedded client a pass needs (the statements bypass Prisma and the statement log). */
export interface MaintenanceClient {
  query<T>(sql: string): Promise<{ rows: T[] }>
  exec(sql: string): Promise<unknown>
}

// PostgreSQL's default autovacuum thresholds (autovacuum_vacuum_threshold and _scale_factor, the _insert_ ones, the
// _analyze_ ones) over the backend's counters. PGlite does not keep those counters across a restart (nor across the
// reopen after a large bootstrap file), so a table is also due when its file has grown past a fifth over the pages
// its last vacuum or analyze saw (or it was never analyzed): what was written before a restart is not forgotten.
const DUE_TABLES = `
  WITH t AS (
    SELECT s.relname, s.n_dead_tup, s.n_ins_since_vacuum, s.n_mod_since_analyze, greatest(c.reltuples, 0) AS tuples,
           c.relpages, pg_relation_size(c.oid) / current_setting('block_size')::int AS pages
      FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     WHERE s.schemaname = 'public')
  SELECT relname AS "table",
         n_dead_tup > 50 + 0.2 * tuples OR n_ins_since_vacuum > 1000 + 0.2 * tuples OR pages > 1.2 * relpages + 8 AS vacuum
    FROM t
   WHERE n_dead_tup > 50 + 0.2 * tuples OR n_ins_since_vacuum > 1000 + 0.2 * tuples OR pages > 1.2 * relpages + 8
      OR n_mod_since_analyze > 50 + 0.1 * tuples
   ORDER BY pages DESC`

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`

/** One pass: every table past a threshold is vacuumed (and analyzed) or analyzed, one statement each. */
export async function maintainEmbedded(client: MaintenanceClient): Promise<TableMaintenance[]> {
  // the backend publishes its table counters at most once a second when idle; a pass reads them as of the last flush
  await client.query('SELECT pg_stat_force_next_flush()')
  const due = (await client.query<{ table: string; vacuum: boolean }>(DUE_TABLES)).rows
  const done: TableMaintenance[] = []
  for (const t of due) {
    const started = performance.now()
    // VACUUM (ANALYZE) also refreshes the statistics, which the vacuum's new row count would otherwise skew
    await client.exec(t.vacuum ? `VACUUM (ANALYZE) ${quoted(t.table)}` : `ANALYZE ${quoted(t.table)}`)
    done.push({ table: t.table, vacuum: t.vacuum, durationMs: Math.round(performance.now() - started) })
  }
  return done
}

/** Passes every `intervalMs` (none when 0) until stopped; a pass in flight finishes before `stop` resolves. */
export function startEmbeddedMaintenance(client: MaintenanceClient, logger: Logger, intervalMs: number): { stop(): Promise<void> } {
  if (intervalMs <= 0) return { stop: async () => undefined }
  let running: Promise<void> | undefined
  let stopped = false
  const pass = () => {
    if (running || stopped) return
    running = maintainEmbedded(client)
      .then((tables) => { if (tables.length) logger.info({ tables }, 'embedded database maintained (vacuum and analyze)') })
      .catch((err) => logger.warn({ err }, 'embedded database maintenance failed; retried at the next pass'))
      .finally(() => (running = undefined))
  }
  const timer = setInterval(pass, intervalMs)
  timer.unref()
  return {
    stop: async () => {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
