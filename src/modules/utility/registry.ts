import type { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import type { Tx } from '../../platform/context.js'
import { malformed } from '../../platform/errors/domain-error.js'

/**
 * The kinds of object the /apiops/utility lookups resolve by id (vendor tag Utility). One entry per kind: its path
 * segment, which lookups it serves, and how it finds the objects the caller may see. A module adds a kind by
 * registering it (kinds.ts holds this module's five); the routes and the GraphQL fields are built from the registry.
 */

/** An object a lookup found: its id as our answers show it, its name, and what its single lookup returns. */
export interface FoundObject {
  id: string
  name: string
  /** the single lookup's resultList entry (the vendor's DTO of the kind) */
  view: Record<string, unknown>
}

export interface LookupKind {
  /** the path segment after /apiops/utility/, e.g. apiProxies */
  segment: string
  /** the single lookup's path parameter, e.g. apiProxyId */
  idParam: string
  /** how messages and documentation name one object, e.g. API proxy */
  label: string
  /** POST …/batch-names is served */
  batch: boolean
  /** GET …/{id} is served, answering entries of this schema */
  single: z.ZodType | null
  /** the single lookup's path under /apiops/utility/ when it is not `<segment>/:<idParam>` */
  singlePath?: string
  /**
   * The objects with these ids that the caller may see: an id that is unknown, malformed, or names an object in a
   * project the caller cannot see (or lacks VIEW on its category) is simply absent, so a caller outside a project
   * learns nothing of its objects.
   */
  find(db: Tx, actor: Actor, ids: string[]): Promise<FoundObject[]>
}

const kinds = new Map<string, LookupKind>()

export function registerLookupKind(kind: LookupKind): void {
  if (kinds.has(kind.segment)) throw new Error(`utility lookup kind ${kind.segment} already registered`)
  kinds.set(kind.segment, kind)
}

export const lookupKinds = (): LookupKind[] => [...kinds.values()]

export function lookupKind(segment: string): LookupKind {
  const kind = kinds.get(segment)
  if (!kind) throw malformed(`kind: must be one of ${[...kinds.keys()].join(', ')}`, { field: 'kind', kind: segment })
  return kind
}
