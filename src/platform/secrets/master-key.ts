import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { ConfigError, type Config } from '../../config.js'
import type { Logger } from '../http/logger.js'
import { createKeyring, decodeMasterKey, type SecretKeyring } from './keyring.js'

/**
 * RUNTIME.md §1: GATEWAY_SECRET_KEY wins; without it the embedded database gets a key generated once
 * into DATA_DIR/secret.key (0600) with a warning, and PostgreSQL refuses to start.
 */
export function loadKeyring(config: Config, logger: Logger): SecretKeyring {
  const previous = config.previousSecretKeys.map((k) => decodeMasterKey(k, 'GATEWAY_SECRET_KEY_PREVIOUS'))
  if (config.secretKey) return createKeyring(decodeMasterKey(config.secretKey), previous)
  if (config.databaseUrl) {
    throw new ConfigError(
      'GATEWAY_SECRET_KEY is required with DATABASE_URL: set it to base64 of 32 random bytes (openssl rand -base64 32)',
    )
  }
  const file = path.join(config.dataDir, 'secret.key')
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true })
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' })
    logger.warn({ file }, 'GATEWAY_SECRET_KEY is not set: generated a master key for the embedded database; back it up')
  }
  return createKeyring(decodeMasterKey(fs.readFileSync(file, 'utf8').trim(), file), previous)
}
