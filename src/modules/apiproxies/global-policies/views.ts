import type { StoredObject } from '../../../generated/prisma/client.js'
import { classOf } from './inputs.js'

/** What every read and write answers (the pages: never the body, so no secret in any form). */
export interface GlobalPolicyView { id: string; name: string; policyType: string; policyTypeLabel: string }

const contentOf = (row: StoredObject) => (row.content && typeof row.content === 'object' && !Array.isArray(row.content) ? (row.content as Record<string, unknown>) : {})

/** The catalogue type of a stored global policy (objects imported before this module may have none). */
export const typeOf = (row: StoredObject) => (typeof contentOf(row).type === 'string' ? (contentOf(row).type as string) : '')

export function globalPolicyView(row: StoredObject): GlobalPolicyView {
  const policyType = classOf(typeOf(row))
  return { id: row.id, name: row.name, policyType, policyTypeLabel: policyType }
}
