import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery } from '@prisma/driver-adapter-utils'
import { isDatabaseOutage } from './outage.js'

/**
 * A plain read outside any transaction: retrying it changes nothing. Statements that lock, take advisory locks or
 * advance sequences are not plain reads, whatever their first word.
 */
const READ = /^\s*SELECT\b/i
const NOT_PLAIN = /\bFOR\s+(?:NO\s+KEY\s+)?(?:UPDATE|SHARE)\b|\bpg_(?:try_)?advisory|\bnextval\s*\(|\bsetval\s*\(|\bset_config\s*\(/i
export const isPlainRead = (sql: string) => READ.test(sql) && !NOT_PLAIN.test(sql)

/** Pause before the one retry: a restarting server refuses connections for a few hundred milliseconds. */
const RETRY_AFTER_MS = 300

/**
 * The pool's connections die together when the server restarts; a read outside a transaction that meets a dead
 * or refused connection is sent once more, on a fresh connection (node-postgres drops a connection that failed),
 * before the request is answered 503. Writes and statements inside transactions are never retried here: a
 * transaction whose connection died was rolled back by the server, and its request answers 503.
 */
function retryingConnection(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return new Proxy(adapter, {
    get(target, prop, receiver) {
      if (prop === 'queryRaw') {
        return async (q: SqlQuery) => {
          try {
            return await target.queryRaw(q)
          } catch (err) {
            if (!isPlainRead(q.sql) || !isDatabaseOutage(err)) throw err
            await new Promise((r) => setTimeout(r, RETRY_AFTER_MS))
            return target.queryRaw(q)
          }
        }
      }
      const value = Reflect.get(target, prop, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

export function retryingReads<F extends SqlDriverAdapterFactory>(factory: F): F {
  return new Proxy(factory, {
    get(target, prop, receiver) {
      if (prop === 'connect') return async () => retryingConnection(await target.connect())
      const value = Reflect.get(target, prop, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
