import crypto from 'node:crypto'
import { promisify } from 'node:util'

const scrypt = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions) => Promise<Buffer>

// scrypt is memory-hard: 16 MiB and tens of milliseconds per hash at the default cost (N = 2^14).
const PARAMS = { N: 16384, r: 8, p: 1 }

/**
 * N for the hashes made from now on (PASSWORD_SCRYPT_COST, set at start-up). A hash names its own parameters, so
 * hashes made at another cost still verify. The test suite starts its services at the minimum (2^10): a service
 * start hashes every user of its bootstrap file, and hundreds of starts a run paid ≈ 0.1 s per hash under load.
 */
export function setPasswordScryptCost(log2N: number): void {
  PARAMS.N = 2 ** log2N
}
const KEY_LENGTH = 32
const maxmem = 64 * 1024 * 1024

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16)
  const hash = await scrypt(password, salt, KEY_LENGTH, { ...PARAMS, maxmem })
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64')
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem,
  })
  return crypto.timingSafeEqual(actual, expected)
}

/** A hash of a random password: verifying against it makes an unknown user cost what a wrong password costs. */
let decoy: Promise<string> | undefined
export const decoyHash = () => (decoy ??= hashPassword(crypto.randomBytes(24).toString('base64')))
