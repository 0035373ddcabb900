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
 *
 * It also takes POST /deployments/batch (RUNTIME.md §4.1): the messages of a batch are recorded in
 * `received` like single pushes (unless it answered 404/405: then it did not take them) (so a test reads what the gateway now holds the same way), and
 * every batch it was sent, acknowledged or not, in `batches`. `batchStatus` is its answer to a batch (by
 * default the same as `status`; 404 or 405 make it a worker that does not take batches), and
 * `batchStatusOnce` answers the next batches with the listed statuses first. `requests` counts every request.
 *
 * `hold()` closes a gate: requests are still recorded on arrival, but none is answered until `release()`, so a
 * test can keep a caller that waits on its push (a bulk run between two chunks) where it is while it acts.
 * `holding()` resolves once a request is waiting at the gate.
 */
export class FakeWorker {
  readonly received: ReceivedDeployment[] = []
  readonly batches: { status: number; messages: ReceivedDeployment[] }[] = []
  status = 200
  batchStatus: number | undefined = undefined
  batchStatusOnce: number[] = []
  requests = 0
  delayMs = 0
  private gate: { opened: Promise<void>; open: () => void } | null = null
  private heldCount = 0
  private onHeld: (() => void)[] = []
  private server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      this.requests++
      let status = 404
      if (req.method === 'POST' && req.url === '/deployments') {
        this.received.push(JSON.parse(body))
        status = this.status
      } else if (req.method === 'POST' && req.url === '/deployments/batch') {
        status = this.batchStatusOnce.shift() ?? this.batchStatus ?? this.status
        const messages = (JSON.parse(body) as { messages: ReceivedDeployment[] }).messages
        this.batches.push({ status, messages })
        // like a single push, a batch is recorded whatever the answer; one the worker does not take is not
        if (status !== 404 && status !== 405) this.received.push(...messages)
      }
      const answer = () =>
        setTimeout(() => {
          res.statusCode = req.url === '/deployments' ? this.status : status
          res.end('{}')
        }, this.delayMs)
      if (!this.gate) return answer()
      void this.gate.opened.then(answer)
      this.heldCount++
      for (const notify of this.onHeld.splice(0)) notify()
    })
  })

  /** from now on, answers wait until release() */
  hold(): void {
    if (this.gate) return
    let open!: () => void
    const opened = new Promise<void>((resolve) => (open = resolve))
    this.gate = { opened, open }
    this.heldCount = 0
  }

  /** answers every held request, and the ones that come later at once */
  release(): void {
    const gate = this.gate
    this.gate = null
    this.heldCount = 0
    gate?.open()
  }

  /** resolves once a request waits at the gate closed by hold() */
  holding(): Promise<void> {
    if (this.heldCount > 0) return Promise.resolve()
    return new Promise((resolve) => this.onHeld.push(resolve))
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  static async start(): Promise<FakeWorker> {
    const worker = new FakeWorker()
    await new Promise<void>((resolve) => worker.server.listen(0, '127.0.0.1', resolve))
    return worker
  }

  async stop(): Promise<void> {
    this.release()
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
