import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { malformed } from '../errors/domain-error.js'

/** The most a fetched document may hold unless the caller says otherwise (a definition document's limit). */
export const MAX_FETCHED_BYTES = 2 * 1024 * 1024

// specUrl is fetched by the service, so a caller could aim it at the installation's own network. Only http(s);
// every address a host name resolves to is checked at connect time (no DNS-rebinding window), redirects are
// followed by hand and checked again; the body and the whole exchange are bounded. Loopback and private
// addresses only when the installation allows them (SPEC_FETCH_ALLOW_PRIVATE=true).

export interface SpecFetchOptions {
  allowPrivateAddresses: boolean
  timeoutMs: number
  headers?: { headerName: string; headerValue: string }[]
  /** the request field errors name (default specUrl) */
  field?: string
  /** the largest body read (default the API document limit) */
  maxBytes?: number
  /** a bound on connecting alone, within timeoutMs (default none but timeoutMs) */
  connectTimeoutMs?: number
  /** POST sends `body` as application/json (a JSON-RPC probe) unless contentType says otherwise; default GET */
  method?: 'GET' | 'POST'
  body?: string
  contentType?: string
  /** https only: a client certificate to present (mTLS) and whether the server's certificate is verified */
  tls?: { key: string; cert: string; rejectUnauthorized: boolean }
  /** the Accept header (default: JSON, YAML, anything) */
  accept?: string
  /** told the headers of the answer read (after redirects), e.g. an MCP server's session id */
  answerHeaders?: (headers: http.IncomingHttpHeaders) => void
}

const MAX_REDIRECTS = 3

const blocked = new net.BlockList()
for (const [net4, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net4, bits, 'ipv4')
for (const [net6, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) blocked.addSubnet(net6, bits, 'ipv6')

/** True for loopback, private, link-local, multicast, documentation and other non-public addresses. */
export function isNonPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return blocked.check(mapped[1]!, 'ipv4')
  const family = net.isIP(address)
  if (family === 0) return true
  return blocked.check(address, family === 6 ? 'ipv6' : 'ipv4')
}

const refusedAs = (field: string) => (message: string) => malformed(`${field}: ${message}`, { field })

function checkedUrl(raw: string, allowPrivate: boolean, field = 'specUrl'): URL {
  const refused = refusedAs(field)
  if (!URL.canParse(raw)) throw refused('must be an absolute http(s) URL')
  const url = new URL(raw)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused(`scheme '${url.protocol.replace(':', '')}' is not allowed; use http or https`)
  if (url.username || url.password) throw refused('must not carry a user name or password; send credentials in specAuthorizationValueList')
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || (net.isIP(host) && isNonPublicAddress(host)))) {
    throw refused(`${url.host} is a loopback or private address, which this installation does not fetch from`)
  }
  return url
}

/** A resolver that refuses non-public addresses at connect time (the address checked is the address used). */
function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family as number | undefined }, (err, addresses) => {
      if (err) return callback(err, '', 4)
      const bad = allowPrivate ? undefined : addresses.find((a) => isNonPublicAddress(a.address))
      if (bad) return callback(Object.assign(new Error(`${hostname} resolves to ${bad.address}, a loopback or private address, which this installation does not fetch from`), { code: 'ENONPUBLIC' }), '', 4)
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses)
      const first = addresses[0]
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4)
      callback(null, first.address, first.family)
    })
  }
}

interface Answer { status: number; location: string | null; body: Buffer }

function request(url: URL, opts: SpecFetchOptions, deadline: number): Promise<Answer> {
  const refused = refusedAs(opts.field ?? 'specUrl')
  const maxBytes = opts.maxBytes ?? MAX_FETCHED_BYTES
  return new Promise((resolve, reject) => {
    const remaining = deadline - Date.now()
    if (remaining <= 0) return reject(refused(`did not answer within ${opts.timeoutMs} ms`))
    const headers: Record<string, string> = { accept: opts.accept ?? 'application/json, application/yaml, text/yaml, */*' }
    if (opts.body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json'
    for (const h of opts.headers ?? []) headers[h.headerName] = h.headerValue
    const client = url.protocol === 'https:' ? https : http
    const tls = url.protocol === 'https:' && opts.tls ? { key: opts.tls.key, cert: opts.tls.cert, rejectUnauthorized: opts.tls.rejectUnauthorized, agent: false as const } : {}
    const req = client.request(url, { method: opts.method ?? 'GET', headers, lookup: guardedLookup(opts.allowPrivateAddresses), ...tls }, (res) => {
      const status = res.statusCode ?? 0
      if (status >= 300 && status < 400) {
        res.resume()
        return resolve({ status, location: res.headers.location ?? null, body: Buffer.alloc(0) })
      }
      opts.answerHeaders?.(res.headers)
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (c: Buffer) => {
        size += c.length
        if (size > maxBytes) {
          req.destroy()
          reject(refused(`the document is larger than ${maxBytes} bytes`))
        } else chunks.push(c)
      })
      res.on('end', () => resolve({ status, location: null, body: Buffer.concat(chunks) }))
      res.on('error', (err) => reject(refused(`reading the document failed: ${err.message}`)))
    })
    const timer = setTimeout(() => {
      req.destroy()
      reject(refused(`did not answer within ${opts.timeoutMs} ms`))
    }, remaining)
    const connectTimer = opts.connectTimeoutMs === undefined ? undefined : setTimeout(() => {
      req.destroy()
      reject(refused(`did not connect within ${opts.connectTimeoutMs} ms`))
    }, Math.min(opts.connectTimeoutMs, remaining))
    req.on('socket', (socket) => socket.once('connect', () => clearTimeout(connectTimer)))
    req.on('close', () => {
      clearTimeout(timer)
      clearTimeout(connectTimer)
    })
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      reject(refused(err.code === 'ENONPUBLIC' ? err.message : `could not be fetched: ${err.message}`))
    })
    req.end(opts.body)
  })
}

/** The text of the document at `rawUrl` (a 2xx answer), or a 400 naming specUrl and the reason. */
export async function fetchSpecDocument(rawUrl: string, opts: SpecFetchOptions): Promise<string> {
  const deadline = Date.now() + opts.timeoutMs
  const field = opts.field ?? 'specUrl'
  const refused = refusedAs(field)
  let url = checkedUrl(rawUrl, opts.allowPrivateAddresses, field)
  for (let hop = 0; ; hop++) {
    const answer = await request(url, opts, deadline)
    if (answer.location !== null) {
      if (hop >= MAX_REDIRECTS) throw refused(`more than ${MAX_REDIRECTS} redirects`)
      const next = checkedUrl(new URL(answer.location, url).toString(), opts.allowPrivateAddresses, field)
      // the caller's authorization headers and client certificate are for the origin it named, not for wherever that redirects
      if (next.origin !== url.origin) opts = { ...opts, headers: [], tls: undefined }
      url = next
      continue
    }
    if (answer.status < 200 || answer.status >= 300) throw refused(`${url.origin}${url.pathname} answered HTTP ${answer.status}`)
    return answer.body.toString('utf8')
  }
}
