import type { StoredObject } from '../../../generated/prisma/client.js'

/** What every read and write answers (the pages: never the policy list, so no secret in any form). */
export interface PolicyGroupView { id: string; name: string; targetPipeline: string | null }

export function policyGroupView(row: StoredObject): PolicyGroupView {
  const content = (row.content ?? {}) as Record<string, unknown>
  return { id: row.id, name: row.name, targetPipeline: typeof content.targetPipeline === 'string' ? content.targetPipeline : null }
}
