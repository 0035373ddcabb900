import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'
import { startTestService } from '../support/app.js'

// EMBEDDED_PG_SHARED_BUFFERS_MB (README, Configuration): the embedded database's shared_buffers in MB, 8–1024,
// default 64. PGlite zero-fills the whole segment at every start; the test suite's services run at 16.
// With DATABASE_URL the server's own setting applies and the variable is only validated.

const base = { PORT: '0', DATA_DIR: '/nonexistent-never-opened' }
const usesPostgres = !!process.env.TEST_DATABASE_URL

describe('EMBEDDED_PG_SHARED_BUFFERS_MB', () => {
  it('defaults to 64 and takes 8 to 1024', () => {
    expect(loadConfig(base).embeddedSharedBuffersMb).toBe(64)
    expect(loadConfig({ ...base, EMBEDDED_PG_SHARED_BUFFERS_MB: '' }).embeddedSharedBuffersMb).toBe(64)
    expect(loadConfig({ ...base, EMBEDDED_PG_SHARED_BUFFERS_MB: '8' }).embeddedSharedBuffersMb).toBe(8)
    expect(loadConfig({ ...base, EMBEDDED_PG_SHARED_BUFFERS_MB: '1024' }).embeddedSharedBuffersMb).toBe(1024)
  })

  it.each(['7', '0', '-16', '1025', '12.5', 'lots'])('refuses %s before anything is opened, naming the variable', (value) => {
    expect(() => loadConfig({ ...base, EMBEDDED_PG_SHARED_BUFFERS_MB: value })).toThrow(ConfigError)
    expect(() => loadConfig({ ...base, EMBEDDED_PG_SHARED_BUFFERS_MB: value })).toThrow(/^Invalid environment variable EMBEDDED_PG_SHARED_BUFFERS_MB: /)
  })

  it.skipIf(usesPostgres)('sizes the embedded database shared buffers: 64 MB unless set, the set size when set', async () => {
    const show = async (env: Record<string, string>) => {
      const svc = await startTestService({ env })
      try {
        const [row] = await svc.deps.prisma.$queryRawUnsafe<{ shared_buffers: string }[]>('SHOW shared_buffers')
        return row.shared_buffers
      } finally {
        await svc.close()
      }
    }
    // empty is unset (the default), overriding the test services' own 16 (test/support/app.ts)
    expect(await show({ EMBEDDED_PG_SHARED_BUFFERS_MB: '' })).toBe('64MB')
    expect(await show({ EMBEDDED_PG_SHARED_BUFFERS_MB: '8' })).toBe('8MB')
    expect(await show({ EMBEDDED_PG_SHARED_BUFFERS_MB: '16' })).toBe('16MB')
  })
})
