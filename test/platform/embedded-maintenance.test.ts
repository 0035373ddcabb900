import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'
import { startTestService, type TestService } from '../support/app.js'
import { freshDatabase } from '../support/database.js'

// EMBEDDED_MAINTENANCE_INTERVAL_SECONDS (README, Configuration): PGlite has no autovacuum, so the service vacuums and
// analyzes the embedded database's tables where autovacuum's default thresholds say so, every interval (0: never).
// On PostgreSQL the server's autovacuum does it and the setting has no effect.

const base = { PORT: '0', DATA_DIR: '/nonexistent-never-opened' }
const onServer = Boolean(process.env.TEST_DATABASE_URL)

describe('EMBEDDED_MAINTENANCE_INTERVAL_SECONDS', () => {
  it('defaults to 60 s and takes 0 (never) to a day', () => {
    expect(loadConfig(base).embeddedMaintenanceIntervalMs).toBe(60_000)
    expect(loadConfig({ ...base, EMBEDDED_MAINTENANCE_INTERVAL_SECONDS: '0' }).embeddedMaintenanceIntervalMs).toBe(0)
    expect(loadConfig({ ...base, EMBEDDED_MAINTENANCE_INTERVAL_SECONDS: '86400' }).embeddedMaintenanceIntervalMs).toBe(86_400_000)
  })

  it.each(['-1', '86401', '1.5', 'hourly'])('refuses %s before anything is opened, naming the variable', (value) => {
    expect(() => loadConfig({ ...base, EMBEDDED_MAINTENANCE_INTERVAL_SECONDS: value })).toThrow(ConfigError)
    expect(() => loadConfig({ ...base, EMBEDDED_MAINTENANCE_INTERVAL_SECONDS: value })).toThrow(/^Invalid environment variable EMBEDDED_MAINTENANCE_INTERVAL_SECONDS: /)
  })
})

interface TableStats { relname: string; last_vacuum: Date | null; last_analyze: Date | null; reltuples: number }

const bootstrap = {
  environments: [{ name: 'dev', workerUrls: [] }],
  projects: [{ name: 'maint', environments: ['dev'], credentials: Array.from({ length: 300 }, (_, i) => ({ username: `maint-${i}`, password: `pw-${i}` })) }],
}

async function tableStats(service: TestService, table: string): Promise<TableStats> {
  const [row] = await service.deps.prisma.$queryRaw<TableStats[]>`
    SELECT s.relname, s.last_vacuum, s.last_analyze, c.reltuples::float8 AS reltuples
      FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     WHERE s.schemaname = 'public' AND s.relname = ${table}`
  return row!
}

/** The table's statistics once a maintenance pass has analyzed it (or after a minute, for the assertions to say so). */
async function analyzed(service: TestService, table: string): Promise<TableStats> {
  let stats = await tableStats(service, table)
  for (let waited = 0; !stats.last_analyze && waited < 60_000; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    stats = await tableStats(service, table)
  }
  return stats
}

describe.skipIf(onServer)('the embedded database, which has no autovacuum', () => {
  it('is vacuumed and analyzed where autovacuum would: a table past the thresholds, not a table of a few rows', async () => {
    const service = await startTestService({ bootstrap, env: { EMBEDDED_MAINTENANCE_INTERVAL_SECONDS: '1' } })
    try {
      const credential = await analyzed(service, 'Credential')
      // 300 new rows: past the analyze threshold (50 + 10 % of none), and the file grown past the pages last seen
      expect(credential.last_analyze).toBeInstanceOf(Date)
      expect(credential.reltuples).toBeGreaterThanOrEqual(300)
      // the project and its environment: two rows, under every threshold
      expect(await tableStats(service, 'Project')).toMatchObject({ last_vacuum: null, last_analyze: null })
      // the service answers as before
      expect((await service.http('/healthz')).status).toBe(200)
    } finally {
      await service.close()
    }
  })

  it('is maintained after a restart, which forgets the counters: by the growth of a table since its last analyze', async () => {
    const db = await freshDatabase()
    const first = await startTestService({ db, bootstrap, env: { EMBEDDED_MAINTENANCE_INTERVAL_SECONDS: '0' } })
    await first.close()
    const service = await startTestService({ db, env: { EMBEDDED_MAINTENANCE_INTERVAL_SECONDS: '1' } })
    try {
      const credential = await analyzed(service, 'Credential')
      // the file's pages (300 credentials) against none seen by an analyze: vacuumed and analyzed
      expect(credential.last_vacuum).toBeInstanceOf(Date)
      expect(credential.last_analyze).toBeInstanceOf(Date)
      expect(credential.reltuples).toBeGreaterThanOrEqual(300)
      expect(await tableStats(service, 'Project')).toMatchObject({ last_vacuum: null, last_analyze: null })
    } finally {
      await service.close()
      await db.cleanup()
    }
  })

  it('is left alone with the interval 0', async () => {
    const service = await startTestService({ bootstrap, env: { EMBEDDED_MAINTENANCE_INTERVAL_SECONDS: '0' } })
    try {
      // longer than several passes would have taken at a 1 s interval
      for (let i = 0; i < 12; i++) {
        expect((await service.http('/healthz')).status).toBe(200)
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
      expect(await tableStats(service, 'Credential')).toMatchObject({ last_vacuum: null, last_analyze: null })
    } finally {
      await service.close()
    }
  })
})
