import { z } from 'zod'
import type { Tx } from '../../platform/context.js'
import { findOrganization } from '../projects/organizations.js'

// Query-string filters shared by the consumer and application lists. Each list has one schema that both
// doors validate with: REST passes the query string as is, GraphQL its (null-free) arguments.

/** A text filter; blank counts as absent. */
export const textFilter = z.string().trim().max(200, 'must be at most 200 characters').optional().transform((v) => v || undefined)

/** `true`/`false` from a query string, or a boolean from GraphQL. */
export const booleanFilter = z
  .union([z.boolean(), z.enum(['true', 'false'], { error: 'must be true or false' })])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === true || v === 'true'))

/** Paging parameters as documented in OpenAPI; parsePaging validates them. */
export const pagingQueryDocs = {
  page: z.string().optional().describe('page number from 0'),
  size: z.string().optional().describe('page size, default 20, at most 200'),
  sort: z.string().optional().describe('field,direction'),
}

/** The organization filter: an unknown code is 404 resourceNotFound with params.organization. */
export async function organizationIdFilter(db: Tx, projectId: string, code: string | undefined) {
  return code ? { organizationId: (await findOrganization(db, projectId, code)).id } : {}
}

export { containsText } from '../../platform/envelopes/paging.js'
