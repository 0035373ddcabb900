import type { Actor } from '../../platform/auth/actor.js'
import type { Tx } from '../../platform/context.js'
import { parseInput } from '../../platform/errors/validation.js'
import { batchIds } from './inputs.js'
import { lookupKind } from './registry.js'

// The /apiops/utility lookups (vendor tag Utility, openapi.yaml of apinizer/docs): names by id, one or in a batch.
// The vendor document gives these operations no answer but 200 (and 401, 500): an id that is unknown, or names an
// object the caller may not see, is answered like one that does not exist, with no entry (single: an empty
// resultList; batch: the id left out), so a caller outside a project learns nothing of its objects.

/** GET /apiops/utility/{kind}/{id}: the object's entry, or none. */
export async function lookupById(db: Tx, actor: Actor, segment: string, rawId: string): Promise<Record<string, unknown>[]> {
  const kind = lookupKind(segment)
  const id = rawId.trim()
  if (!id || id.length > 200) return []
  return (await kind.find(db, actor, [id])).map((f) => f.view)
}

/** POST /apiops/utility/{kind}/batch-names: { id, name } of each id found, in the order asked, once each. */
export async function lookupNames(db: Tx, actor: Actor, segment: string, body: unknown): Promise<{ id: string; name: string }[]> {
  const kind = lookupKind(segment)
  const ids = [...new Set(parseInput(batchIds, body))]
  if (!ids.length) return []
  const found = new Map((await kind.find(db, actor, ids)).map((f) => [f.id, f.name]))
  return ids.filter((id) => found.has(id)).map((id) => ({ id, name: found.get(id)! }))
}
