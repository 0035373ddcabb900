import type { StoredObject } from '../../generated/prisma/client.js'

/** A creator as GET answers it: the vendor schema's id, name, description and projectId, and its methods. */
export interface CreatorView {
  id: string
  name: string
  description: string | null
  projectId: string
  endpointList: unknown[]
  revision: number
  createdAt: Date
  updatedAt: Date
}

/** One answer of the /apiops/utility name lookups (the vendor's NameByIdDTO). */
export interface NameById {
  id: string
  name: string
}

const contentOf = (row: StoredObject): Record<string, unknown> =>
  row.content && typeof row.content === 'object' && !Array.isArray(row.content) ? (row.content as Record<string, unknown>) : {}

export function creatorView(row: StoredObject): CreatorView {
  const content = contentOf(row)
  return {
    id: row.id,
    name: row.name,
    description: typeof content.description === 'string' ? content.description : null,
    projectId: row.projectId,
    endpointList: Array.isArray(content.endpointList) ? content.endpointList : [],
    revision: row.revision,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}
