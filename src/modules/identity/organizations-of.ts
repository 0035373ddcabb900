import type { Organization } from '../../generated/prisma/client.js'
import type { Tx } from '../../platform/context.js'

/**
 * Rows with their organization, as `include: { organization: true }` gives them, but without the organization
 * read when no row has one (an include always costs a second statement, even for none). A page of consumers or
 * applications is read this way (issue 19 §3: fewer round trips per request).
 */
export async function withOrganizations<R extends { organizationId: string | null }>(db: Tx, rows: R[]): Promise<(R & { organization: Organization | null })[]> {
  const ids = [...new Set(rows.flatMap((r) => (r.organizationId ? [r.organizationId] : [])))]
  if (!ids.length) return rows.map((r) => ({ ...r, organization: null }))
  const byId = new Map((await db.organization.findMany({ where: { id: { in: ids } } })).map((o) => [o.id, o]))
  return rows.map((r) => ({ ...r, organization: r.organizationId ? (byId.get(r.organizationId) ?? null) : null }))
}
