import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { resolveTarget, TestFailure, type TestLimits } from './net.js'

export interface HttpProbe {
  url: string
  field: string
  method: string
  headers: Record<string, string>
  body?: string
  /** accept any certificate (elasticsearch disableHostnameVerification) */
  insecure?: boolean
  /** TLS options instead (a webhook's trust and key stores: webhooks/tls.ts) */
  tls?: https.RequestOptions
}

/** One HTTP(S) request to the checked address; answers the status and up to 64 KiB of the body. */
export async function httpProbe(probe: HttpProbe, limits: TestLimits): Promise<{ status: number; body: string }> {
  const url = new URL(probe.url)
  const address = await resolveTarget(url.hostname, probe.field, limits)
  const family = net.isIP(address) === 6 ? 6 : 4
  const lookup: net.LookupFunction = (_h, options, callback) =>
    (options as { all?: boolean }).all ? (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]) : callback(null, address, family)
  return new Promise((resolve, reject) => {
    const headers = { ...probe.headers }
    if (probe.body !== undefined) headers['content-length'] = String(Buffer.byteLength(probe.body))
    const req = (url.protocol === 'https:' ? https : http).request(url, { method: probe.method, headers, lookup, agent: false, rejectUnauthorized: !probe.insecure, timeout: limits.timeoutMs, ...probe.tls }, (res) => {
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (c: Buffer) => {
        if (size < 65_536) chunks.push(c)
        size += c.length
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new TestFailure(`${url.host}: no answer within ${limits.timeoutMs} ms`)))
    req.on('error', reject)
    req.end(probe.body)
  })
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`

/** Webhook: one request with the connection's method and headers (a small JSON body for POST/PUT/PATCH). */
export async function testWebhook(config: Record<string, unknown>, name: string, limits: TestLimits, tls: https.RequestOptions): Promise<string> {
  const method = String(config.httpMethod)
  const headers: Record<string, string> = {}
  for (const h of config.headerList as { name: string; value: string }[]) headers[h.name] = h.value
  const withBody = ['POST', 'PUT', 'PATCH'].includes(method)
  if (withBody && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json'
  const body = withBody ? JSON.stringify({ event: 'connectionTest', connection: name, time: new Date().toISOString() }) : undefined
  // the connection's trust and key stores (testers/index.ts): without a trust store the certificate is not verified
  const res = await httpProbe({ url: String(config.fullUrl), field: 'fullUrl', method, headers, body, tls }, limits)
  if (res.status < 200 || res.status >= 300) throw new TestFailure(`${method} ${config.fullUrl} answered HTTP ${res.status}`)
  return `${method} ${config.fullUrl} answered HTTP ${res.status}`
}

/** Elasticsearch: GET / on each host with the connection's credentials; the cluster name and version when shown. */
export async function testElasticsearch(config: Record<string, unknown>, secrets: Record<string, string>, limits: TestLimits): Promise<string> {
  const hosts = config.elasticHostList as { scheme: string; host: string; port: number }[]
  const headers: Record<string, string> = { accept: 'application/json' }
  if (config.authenticate) headers.authorization = basic(String(config.elasticUsername), secrets.elasticPassword ?? '')
  const lines: string[] = []
  for (const [i, h] of hosts.entries()) {
    const url = `${h.scheme}://${h.host.includes(':') && !h.host.startsWith('[') ? `[${h.host}]` : h.host}:${h.port}/`
    const res = await httpProbe({ url, field: `elasticHostList[${i}].host`, method: 'GET', headers, insecure: !!config.disableHostnameVerification || !config.encryptCommunication }, limits)
    if (res.status === 401 || res.status === 403) throw new TestFailure(`${url} refused the credentials (HTTP ${res.status})`)
    if (res.status < 200 || res.status >= 300) throw new TestFailure(`${url} answered HTTP ${res.status}`)
    let about = ''
    try {
      const info = JSON.parse(res.body) as { cluster_name?: string; version?: { number?: string } }
      about = [info.cluster_name && `cluster ${info.cluster_name}`, info.version?.number && `version ${info.version.number}`].filter(Boolean).join(', ')
    } catch {
      about = 'not an Elasticsearch answer'
    }
    lines.push(`${url} answered HTTP ${res.status}${about ? ` (${about})` : ''}`)
  }
  return lines.join('; ')
}
