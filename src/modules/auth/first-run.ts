import crypto from 'node:crypto'
import fs from 'node:fs'
import type { Deps, Tx } from '../../platform/context.js'
import { SYSTEM } from '../../platform/auth/actor.js'
import { FIRST_RUN_ADMIN, initialPasswordFile } from './initial-password.js'
import { createUser } from './users.js'


const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'

/** 24 characters drawn without modulo bias (rejection sampling over random bytes). */
function randomPassword(length = 24): string {
  let out = ''
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      if (byte < 256 - (256 % ALPHABET.length) && out.length < length) out += ALPHABET[byte % ALPHABET.length]
    }
  }
  return out
}

/**
 * Creates `admin` when no user exists. Runs inside the bootstrap transaction, under its advisory lock, so instances
 * starting together on one empty database create exactly one. The generated password is written before the
 * transaction commits: a failed commit leaves a stale file that the next start overwrites, never an admin whose
 * password nobody can read.
 */
export async function ensureFirstRunAdmin(deps: Deps, tx: Tx): Promise<{ created: boolean; passwordFile?: string }> {
  if ((await tx.user.count()) > 0) return { created: false }
  const fromEnv = deps.config.adminPassword
  const password = fromEnv ?? randomPassword()
  await createUser(tx, SYSTEM, { username: FIRST_RUN_ADMIN, password, role: 'ADMIN' })
  if (fromEnv !== undefined) {
    deps.logger.info({ username: FIRST_RUN_ADMIN }, 'first run: created user admin with the password of GATEWAY_ADMIN_PASSWORD')
    return { created: true }
  }
  const file = initialPasswordFile(deps.config.dataDir)
  fs.mkdirSync(deps.config.dataDir, { recursive: true })
  fs.rmSync(file, { force: true }) // a new file gets mode 0600 from the start; an old one might be wider
  fs.writeFileSync(file, password + '\n', { mode: 0o600, flag: 'wx' })
  deps.logger.warn({ username: FIRST_RUN_ADMIN, file }, `first run: created user admin; its initial password is in ${file} (read it, then change the password)`)
  return { created: true, passwordFile: file }
}
