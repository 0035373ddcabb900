import type { Tx } from '../context.js'

/**
 * Names of the counters kept by the triggers of migration 20261126110000_list_counts. Each counts the rows of
 * its table per scope value exactly, in the writing transaction, so an unfiltered list's total is a key read
 * whose cost does not grow with the installation (issue 19 §3).
 */
export type CountedList = 'Credential' | 'Application' | 'LimitAssignment' | 'LimitBulkRun' | 'LimitPlan.unmanaged'

/** The exact number of rows of `list` in the given scopes (a missing counter is 0). */
export async function countedRows(db: Tx, list: CountedList, scopes: readonly string[]): Promise<number> {
  if (scopes.length === 1) {
    const row = await db.listCount.findUnique({ where: { list_scope: { list, scope: scopes[0]! } }, select: { n: true } })
    return row?.n ?? 0
  }
  const rows = await db.listCount.findMany({ where: { list, scope: { in: [...scopes] } }, select: { n: true } })
  return rows.reduce((sum, r) => sum + r.n, 0)
}

/** True when a where clause is the scope column alone (every filter absent), so a counter answers it. */
export function onlyScope(where: object, column: string): boolean {
  const keys = Object.keys(where)
  return keys.length === 1 && keys[0] === column && typeof (where as Record<string, unknown>)[column] === 'string'
}
