// Measuring helpers shared by every benchmark: they print figures and assert nothing.
import fs from 'node:fs'
import path from 'node:path'

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
export const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!
export const ms = (n: number) => `${n.toFixed(2).padStart(9)} ms`

/** Wall times of n sequential runs of an async operation. */
export async function timed(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    await fn()
    out.push(performance.now() - t0)
  }
  return out
}

/** Median wall time of an operation (sync or async) after one warm-up run (plan caches, connections, JIT). */
export async function medianOf(runs: number, fn: () => unknown): Promise<number> {
  await fn()
  return median(await timed(runs, async () => fn()))
}

/**
 * PGlite runs in the service's thread, in process with the bench: a kept-alive socket can be closed under a
 * request. Such a request is sent again once, and counted (shown, not hidden).
 */
let resent = 0
export const resentCount = () => resent
export async function retried<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (e) {
    const code = (e as { cause?: { code?: string } }).cause?.code
    if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw e
    resent++
    return call()
  }
}

/** The authorization header of a token for a user of the service (client credentials at the token endpoint). */
export async function bearer(url: string, user: { username: string; password: string }): Promise<{ authorization: string }> {
  const res = await fetch(`${url}/apiops/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: user.username, client_secret: user.password }),
  })
  const { access_token: token } = (await res.json()) as { access_token: string }
  return { authorization: `Bearer ${token}` }
}

/** The start script's node flags and environment (package.json `start`), so a bench runs the service as `npm start` does. */
export function startFlags(): { env: Record<string, string>; flags: string[] } {
  const start = (JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  const words = start.split(/\s+/)
  const env = Object.fromEntries(words.filter((w) => /^[A-Z_]+=/.test(w)).map((w) => w.split('=') as [string, string]))
  return { env, flags: words.filter((w) => w.startsWith('--')) }
}
