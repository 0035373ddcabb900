import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedRequest {
  method: string
  /** path and query as received */
  url: string
  headers: http.IncomingHttpHeaders
  body: any
}

/**
 * An OpenAI-compatible embeddings server on loopback: every POST to a path ending in /embeddings answers
 * { object: 'list', data: [{ index, embedding }], model } with a deterministic vector per input text
 * (the same text always gets the same vector). Any other request answers 200 `{"ok":true}`, or 401 when
 * `requiredAuthorization` is set and the request's Authorization header differs (for connection tests).
 * Records every request; can be told to fail with a status (the error body echoes the Authorization header).
 */
export class FakeEmbeddings {
  readonly received: ReceivedRequest[] = []
  dimension = 8
  /** answer every /embeddings call with this status and a JSON error body */
  failStatus: number | null = null
  /** characters put before the echoed credential in that error body (to place it where a message gets cut) */
  failPadding = 0
  /** when set, requests must carry exactly this Authorization header */
  requiredAuthorization: string | null = null
  private server = http.createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => (raw += c))
    req.on('end', () => {
      let body: any = raw
      try {
        body = raw ? JSON.parse(raw) : undefined
      } catch {
        /* keep text */
      }
      this.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      res.setHeader('content-type', 'application/json')
      if (this.requiredAuthorization !== null && req.headers.authorization !== this.requiredAuthorization) {
        res.statusCode = 401
        res.end(JSON.stringify({ error: { message: 'invalid api key' } }))
        return
      }
      const path = (req.url ?? '').split('?')[0]
      if (req.method === 'POST' && path.endsWith('/embeddings')) {
        if (this.failStatus !== null) {
          res.statusCode = this.failStatus
          // echoes the credential it got, as careless upstreams do: the service must not pass it on
          res.end(JSON.stringify({ error: { message: `upstream exploded${'.'.repeat(this.failPadding)}`, authorization: req.headers.authorization ?? null } }))
          return
        }
        const inputs: string[] = Array.isArray(body?.input) ? body.input : [body?.input]
        res.end(JSON.stringify({
          object: 'list',
          model: body?.model,
          // answered in reverse order: clients must order by index
          data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: FakeEmbeddings.vectorOf(String(text), this.dimension) })).reverse(),
          usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
        }))
        return
      }
      res.end('{"ok":true}')
    })
  })

  /** The vector this server gives a text: deterministic, in [-1, 1). */
  static vectorOf(text: string, dimension: number): number[] {
    const digest = crypto.createHash('sha256').update(text).digest()
    return Array.from({ length: dimension }, (_, i) => (digest[i % digest.length] - 128) / 128)
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  embeddingCalls(): ReceivedRequest[] {
    return this.received.filter((r) => r.method === 'POST' && r.url.split('?')[0].endsWith('/embeddings'))
  }

  reset(): void {
    this.received.length = 0
    this.failStatus = null
    this.failPadding = 0
    this.requiredAuthorization = null
    this.dimension = 8
  }

  static async start(): Promise<FakeEmbeddings> {
    const server = new FakeEmbeddings()
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve))
    return server
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
