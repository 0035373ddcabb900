import DataLoader from 'dataloader'
import type { Actor } from '../auth/actor.js'
import type { Deps } from '../context.js'
import { unauthenticated } from '../errors/domain-error.js'
import type { Logger } from '../http/logger.js'

/**
 * Per-request DataLoaders, one per relation, created on first use: a list of N parents costs one query per
 * relation instead of N.
 */
export class Loaders {
  private readonly loaders = new Map<string, DataLoader<unknown, unknown>>()

  get<K, V>(name: string, batch: (keys: readonly K[]) => Promise<(V | Error)[]>): DataLoader<K, V> {
    let loader = this.loaders.get(name)
    if (!loader) {
      loader = new DataLoader<K, V>(batch) as DataLoader<unknown, unknown>
      this.loaders.set(name, loader)
    }
    return loader as DataLoader<K, V>
  }
}

export interface GqlContext {
  deps: Deps
  actor: Actor | null
  correlationId: string
  logger: Logger
  clientAddress: string
  loaders: Loaders
  /** the token the caller presented (subscriptions re-check it on every event) */
  token?: string
}

export function requireViewer(ctx: GqlContext): Actor {
  if (!ctx.actor) throw unauthenticated('Sign in: send a token as Authorization: Bearer <token>')
  return ctx.actor
}

/** Groups rows by a key in the order DataLoader asked for them. */
export function byKey<T, K>(keys: readonly K[], rows: T[], keyOf: (row: T) => K): T[][] {
  const groups = new Map<K, T[]>()
  for (const row of rows) {
    const k = keyOf(row)
    const list = groups.get(k)
    if (list) list.push(row)
    else groups.set(k, [row])
  }
  return keys.map((k) => groups.get(k) ?? [])
}

/** One row per key (or null), in the order DataLoader asked for them. */
export function oneByKey<T, K>(keys: readonly K[], rows: T[], keyOf: (row: T) => K): (T | null)[] {
  const map = new Map<K, T>()
  for (const row of rows) map.set(keyOf(row), row)
  return keys.map((k) => map.get(k) ?? null)
}
