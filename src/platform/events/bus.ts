// Live events across instances (issue 18 §3): triggers (migration 20261126120000_event_notify) NOTIFY the channel
// `gateway_events` with ids only; every instance LISTENs once and fans the payloads out to its subscribers, who
// read the rows themselves, so a subscriber sees writes made on any instance.
import type { Logger } from '../http/logger.js'

export const EVENT_CHANNEL = 'gateway_events'

export type GatewayEvent =
  | { k: 'audit'; id: string; p: string | null }
  /** a: whether the environment acknowledged (absent in notifications written before migration bulk_at_floor) */
  | { k: 'deployment'; p: string; e: string; kind: string; n: string; r: number; a?: boolean }
  | { k: 'bulkRun'; id: string; s: string }

/**
 * What the DeploymentRecord trigger sends since migration 20261129600000_deployment_notify_per_statement: one
 * notification per statement, project, environment and acknowledgement, its records as [kind, name, revision].
 */
interface DeploymentsNotification { k: 'deployments'; p: string; e: string; a: boolean; d: [string, string, number][] }
/** What the AuditEvent trigger sends since migration 20261205400000_audit_notify_per_statement: one per statement and project. */
interface AuditsNotification { k: 'audits'; p: string | null; ids: string[] }

type Notification = GatewayEvent | DeploymentsNotification | AuditsNotification

/** The events a notification stands for: one, or a statement's audit events or deployment records one by one. */
export function eventsOf(payload: Notification): GatewayEvent[] {
  if (payload.k === 'deployments') return payload.d.map(([kind, n, r]) => ({ k: 'deployment', p: payload.p, e: payload.e, kind, n, r, a: payload.a }))
  if (payload.k === 'audits') return payload.ids.map((id) => ({ k: 'audit', id, p: payload.p }))
  return [payload]
}

export type Listen = (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>

export interface EventBus {
  /** calls `handler` for every event until the returned function is called */
  subscribe(handler: (event: GatewayEvent) => void): () => void
  close(): Promise<void>
}

export async function startEventBus(listen: Listen, logger: Logger): Promise<EventBus> {
  const handlers = new Set<(event: GatewayEvent) => void>()
  const unlisten = await listen(EVENT_CHANNEL, (payload) => {
    let events: GatewayEvent[]
    try {
      events = eventsOf(JSON.parse(payload) as Notification)
    } catch {
      logger.warn({ payload }, 'unreadable event notification ignored')
      return
    }
    for (const event of events) {
      for (const handler of handlers) {
        try {
          handler(event)
        } catch (err) {
          logger.error({ err }, 'event handler failed')
        }
      }
    }
  })
  return {
    subscribe(handler) {
      handlers.add(handler)
      return () => void handlers.delete(handler)
    },
    close: async () => {
      handlers.clear()
      await unlisten()
    },
  }
}

/** Events as an async iterable for one subscriber; buffered so a slow consumer loses nothing. */
export function eventStream(bus: EventBus, accept: (event: GatewayEvent) => boolean): AsyncIterableIterator<GatewayEvent> & { end(): void } {
  const queue: GatewayEvent[] = []
  let wake: (() => void) | null = null
  let ended = false
  const unsubscribe = bus.subscribe((event) => {
    if (!accept(event)) return
    queue.push(event)
    wake?.()
  })
  const end = () => {
    ended = true
    unsubscribe()
    wake?.()
  }
  const iterator: AsyncIterableIterator<GatewayEvent> & { end(): void } = {
    end,
    async next() {
      while (!queue.length && !ended) await new Promise<void>((resolve) => (wake = resolve))
      wake = null
      if (queue.length) return { value: queue.shift()!, done: false }
      return { value: undefined, done: true }
    },
    async return() {
      end()
      return { value: undefined, done: true }
    },
    [Symbol.asyncIterator]() {
      return iterator
    },
  }
  return iterator
}
