import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'
import { startTestService } from '../support/app.js'
import { freshDatabase } from '../support/database.js'

// PASSWORD_SCRYPT_COST (README, Configuration): scrypt's cost for new user passwords as log2 N, 10–20, default 14; a
// stored hash names its own cost, so passwords set under one cost still sign in after a restart under another.

const base = { PORT: '0', DATA_DIR: '/nonexistent-never-opened' }

describe('PASSWORD_SCRYPT_COST', () => {
  it('defaults to 14 and takes 10 to 20', () => {
    expect(loadConfig(base).passwordScryptCost).toBe(14)
    expect(loadConfig({ ...base, PASSWORD_SCRYPT_COST: '10' }).passwordScryptCost).toBe(10)
    expect(loadConfig({ ...base, PASSWORD_SCRYPT_COST: '20' }).passwordScryptCost).toBe(20)
  })

  it.each(['9', '21', '12.5', 'cheap'])('refuses %s before anything is opened, naming the variable', (value) => {
    expect(() => loadConfig({ ...base, PASSWORD_SCRYPT_COST: value })).toThrow(ConfigError)
    expect(() => loadConfig({ ...base, PASSWORD_SCRYPT_COST: value })).toThrow(/^Invalid environment variable PASSWORD_SCRYPT_COST: /)
  })

  it('hashes new passwords at the set cost; a hash made under another cost still signs in', async () => {
    const db = await freshDatabase()
    const users = [{ username: 'cost-admin', password: 'cost-admin-pw', role: 'ADMIN' as const }]
    try {
      const first = await startTestService({ db, env: { PASSWORD_SCRYPT_COST: '11' }, bootstrap: { users } })
      const [stored] = await first.deps.prisma.user.findMany({ where: { username: 'cost-admin' }, select: { passwordHash: true } })
      expect(stored.passwordHash).toMatch(/^scrypt\$2048\$8\$1\$/)
      await first.close()

      const second = await startTestService({ db, env: { PASSWORD_SCRYPT_COST: '12' }, bootstrap: { users } })
      try {
        expect(await second.tokenFor('cost-admin', 'cost-admin-pw')).toEqual(expect.any(String))
        const [kept] = await second.deps.prisma.user.findMany({ where: { username: 'cost-admin' }, select: { passwordHash: true } })
        expect(kept.passwordHash).toBe(stored.passwordHash)
      } finally {
        await second.close()
      }
    } finally {
      await db.cleanup()
    }
  })
})
