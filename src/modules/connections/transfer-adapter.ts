import type { Connection } from '../../generated/prisma/client.js'
import type { AdapterContext, Advisory, PortableObject, TransferAdapter } from '../../platform/transfer/registry.js'
import { deployImportedConnections, writeImportedConnection } from './service.js'
import { TYPE_DEFS } from './types/index.js'
import { clearSecrets } from './views.js'

/**
 * Typed connections (email, kafka, database, …) travel as CONNECTION objects: the page's fields in `data`
 * (type as discriminator), their secret fields as secrets (per secretHandling). Webhook connections are the
 * WEBHOOK_CONNECTION type of modules/webhooks and keep travelling as such. Names are unique per project
 * case-insensitively, so lookups go by the lower-cased name key.
 */
const TYPE = 'CONNECTION'

function toPortable(ctx: AdapterContext, row: Connection): PortableObject {
  const data = { type: row.type, description: row.description, enabled: row.enabled, deployToWorker: row.deployToWorker, ...(row.config as Record<string, unknown>) }
  return { type: TYPE, kind: null, name: row.name, data, secrets: clearSecrets(ctx.deps.keyring, row), dependencies: [] }
}

export const connectionTransferAdapter: TransferAdapter = {
  type: TYPE,
  category: 'CONNECTION',
  kinds: null,
  secretFields: [...new Set(Object.values(TYPE_DEFS).flatMap((d) => d.secrets))].sort(),
  scope: 'project',
  source: 'connections',

  async findByName(ctx, name) {
    const row = await ctx.db.connection.findUnique({ where: { projectId_nameKey: { projectId: ctx.access.project.id, nameKey: name.trim().toLowerCase() } } })
    return row ? [toPortable(ctx, row)] : []
  },

  async listNames(ctx) {
    const rows = await ctx.db.connection.findMany({ where: { projectId: ctx.access.project.id }, select: { name: true }, orderBy: { nameKey: 'asc' } })
    return rows.map((r) => r.name)
  },

  async write(ctx, object, existing): Promise<Advisory[]> {
    await writeImportedConnection(ctx.db, ctx.deps, ctx.access, { ...object.data, ...object.secrets, name: object.name }, existing)
    return []
  },

  async afterImport(deps, access, written) {
    await deployImportedConnections(deps, access, written.filter((o) => o.type === TYPE).map((o) => o.name))
    return []
  },
}
