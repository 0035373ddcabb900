import dns from 'node:dns/promises'
import net from 'node:net'
import tls from 'node:tls'
import { malformed } from '../../../platform/errors/domain-error.js'
import { isNonPublicAddress } from '../../../platform/http/outbound-fetch.js'

/** An expected failure of a connection test: its message is the test's answer (success false). */
export class TestFailure extends Error {}

export interface TestLimits {
  /** loopback and private addresses only when the installation allows them (CONNECTION_TEST_ALLOW_PRIVATE) */
  allowPrivateAddresses: boolean
  /** the whole test is bounded by this (CONNECTION_TEST_TIMEOUT_MS) */
  timeoutMs: number
}

/**
 * The address a test connects to: the host resolved once and every address checked (the same rule as specUrl:
 * loopback, private, link-local… only when the installation allows them), so the address checked is the one
 * used. A refused address is a 400 naming the field; a name that does not resolve is the test's answer.
 */
export async function resolveTarget(hostname: string, field: string, limits: TestLimits): Promise<string> {
  const host = hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  if (net.isIP(host)) addresses = [host]
  else {
    try {
      addresses = (await dns.lookup(host, { all: true })).map((a) => a.address)
    } catch (err) {
      throw new TestFailure(`${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
    }
  }
  const bad = addresses.find(isNonPublicAddress)
  if (bad && !limits.allowPrivateAddresses) {
    throw malformed(`${field}: ${host}${bad === host ? '' : ` resolves to ${bad}, which`} is a loopback or private address, which this installation does not connect to`, { field })
  }
  if (!addresses[0]) throw new TestFailure(`${host} has no address`)
  return addresses[0]
}

/** Rejects with a TestFailure when `promise` has not settled within `ms`; `cleanup` runs then. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string, cleanup?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      cleanup?.()
      reject(new TestFailure(`${what}: no answer within ${ms} ms`))
    }, ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** The text of a client error as a test answer: the client's message with its code. */
export function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { errors?: Error[] }
  const inner = e?.errors?.[0] as NodeJS.ErrnoException | undefined
  const code = e?.code ?? inner?.code
  const message = e?.message || inner?.message || String(err)
  return code && !message.includes(code) ? `${message} (${code})` : message
}

/** Opens a TCP (optionally TLS) connection and, when asked, reads the server's first line (an SSH banner). */
export function tcpProbe(address: string, port: number, options: { tls?: boolean; servername?: string; readLine?: boolean; timeoutMs: number }): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const socket = options.tls
      ? tls.connect({ host: address, port, servername: options.servername && !net.isIP(options.servername) ? options.servername : undefined, rejectUnauthorized: false })
      : net.connect({ host: address, port })
    const done = (err: Error | null, line: string | null = null) => {
      socket.destroy()
      clearTimeout(timer)
      if (err) reject(err)
      else resolve(line)
    }
    const timer = setTimeout(() => done(new TestFailure(`${address}:${port}: no answer within ${options.timeoutMs} ms`)), options.timeoutMs)
    socket.once(options.tls ? 'secureConnect' : 'connect', () => {
      if (!options.readLine) return done(null)
      let data = ''
      socket.on('data', (chunk: Buffer) => {
        data += chunk.toString('latin1')
        const end = data.indexOf('\n')
        if (end >= 0 || data.length > 255) done(null, data.slice(0, end >= 0 ? end : 255).trim())
      })
    })
    socket.once('error', (err) => done(err))
  })
}
