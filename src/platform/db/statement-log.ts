// Which SQL statements a piece of work sent: wraps the Prisma driver adapter (PGlite or PostgreSQL) so that every
// statement sent while a log is in scope (AsyncLocalStorage) is appended to it. Nothing is recorded outside such a
// scope, so the cost for the service is one store lookup per statement. Tests use it to show that a GraphQL
// request's statements stay flat in the number of rows it returns (issue 30 §1).
import { AsyncLocalStorage } from 'node:async_hooks'
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils'

const storage = new AsyncLocalStorage<string[]>()

/** Runs `work` and returns its result with the SQL of every statement it (and whatever it awaits) sent. */
export async function recordStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = []
  const result = await storage.run(statements, work)
  return { result, statements }
}

const note = (q: SqlQuery) => storage.getStore()?.push(q.sql)

function observed<A extends SqlDriverAdapter | Transaction>(target: A): A {
  return new Proxy(target, {
    get(t, prop, receiver) {
      if (prop === 'queryRaw') return (q: SqlQuery) => (note(q), t.queryRaw(q))
      if (prop === 'executeRaw') return (q: SqlQuery) => (note(q), t.executeRaw(q))
      if (prop === 'startTransaction') {
        return async (...args: unknown[]) => observed(await (t as SqlDriverAdapter).startTransaction(...(args as [])))
      }
      const value = Reflect.get(t, prop, receiver)
      return typeof value === 'function' ? value.bind(t) : value
    },
  })
}

/** The adapter factory with every connection's statements (and those of its transactions) observed. */
export function observedStatements<F extends SqlDriverAdapterFactory>(factory: F): F {
  return new Proxy(factory, {
    get(target, prop, receiver) {
      if (prop === 'connect') return async () => observed(await target.connect())
      const value = Reflect.get(target, prop, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
