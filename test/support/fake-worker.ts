import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedDeployment {
  action: string
  project: string
  kind: string
  name: string
  revision: number
  config: Record<string, unknown>
}

/**
 * A gateway worker on loopback: a real HTTP server that records every POST /deployments and answers
 * with the status it is told to (200 by default), optionally after a delay.
 */
export class FakeWorker {
  readonly received: ReceivedDeployment[] = []
  status = 200
  delayMs = 0
  private server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/deployments') this.received.push(JSON.parse(body))
      setTimeout(() => {
        res.statusCode = req.url === '/deployments' ? this.status : 404
        res.end('{}')
      }, this.delayMs)
    })
  })

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  static async start(): Promise<FakeWorker> {
    const worker = new FakeWorker()
    await new Promise<void>((resolve) => worker.server.listen(0, '127.0.0.1', resolve))
    return worker
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
