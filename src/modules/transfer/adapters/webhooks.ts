import type { WebhookConnection } from '../../../generated/prisma/client.js'
import { createWebhookConnection, toView } from '../../webhooks/service.js'
import { safeFileStem } from '../../../platform/transfer/package/names.js'
import type { ObjectRef, PortableObject, TransferAdapter } from '../../../platform/transfer/registry.js'

const TYPE = 'WEBHOOK_CONNECTION'
/** trust and key stores are key-store objects of the CERTIFICATE family, in the project of the call */
const KEY_STORE = { type: 'CERTIFICATE', kind: 'KEY_STORE' } as const

/** Fields of the read view that are derived or volatile, not configuration. */
const VIEW_ONLY = [
  'id', 'name', 'createdAt', 'updatedAt', 'effectiveConnectTimeoutSeconds', 'effectiveResponseTimeoutSeconds',
  'effectiveConnectionRequestTimeoutSeconds', 'effectiveSocketTimeoutSeconds', 'effectiveTotalPoolConnections', 'writeStallGuardEnabled',
]

function toPortable(row: WebhookConnection): PortableObject {
  const view = toView(row) as unknown as Record<string, unknown>
  const data = Object.fromEntries(Object.entries(view).filter(([k]) => !VIEW_ONLY.includes(k)))
  const dependencies: ObjectRef[] = []
  if (row.trustStoreName) dependencies.push({ ...KEY_STORE, name: row.trustStoreName })
  if (row.keyStoreName && row.keyStoreName !== row.trustStoreName) dependencies.push({ ...KEY_STORE, name: row.keyStoreName })
  return { type: TYPE, kind: null, name: row.name, data, secrets: {}, dependencies }
}

/**
 * Webhook connections (modules/webhooks) are installation-wide: one name space for the whole installation,
 * whichever project path the transfer goes through; only system administrators export or import them. The
 * project of the call is where their trust and key stores (CERTIFICATE KEY_STORE objects) are resolved and
 * imported. Header values are configuration (the webhook module stores and shows them), not secrets.
 */
export const webhookConnectionAdapter: TransferAdapter = {
  type: TYPE,
  category: TYPE,
  kinds: null,
  secretFields: [],
  scope: 'installation',
  source: 'webhooks',

  async findByName(ctx, name) {
    const row = await ctx.db.webhookConnection.findUnique({ where: { name } })
    return row ? [toPortable(row)] : []
  },

  async listNames(ctx) {
    return (await ctx.db.webhookConnection.findMany({ select: { name: true }, orderBy: { name: 'asc' } })).map((r) => r.name)
  },

  environmentsRequired: true,
  environmentsOf: (o) => (typeof o.data.environment === 'string' ? [o.data.environment] : []),

  mapEnvironments: (o, map) => (typeof o.data.environment === 'string' ? { ...o, data: { ...o.data, environment: map(o.data.environment) } } : o),

  /** REPLACE writes the packaged configuration exactly: the old row goes, the package's takes its name. */
  async write(ctx, object, existing) {
    if (existing) await ctx.db.webhookConnection.delete({ where: { name: object.name } })
    await createWebhookConnection(ctx.db, ctx.actor, { ...(object.data as object), name: object.name })
    return []
  },

  /** spec §2.17: `<date>-<connection-name>-export.zip`, the date in UTC as YYYY-MM-DD */
  packageFileName: (object, exportedAt) => `${exportedAt.toISOString().slice(0, 10)}-${safeFileStem(object.name)}-export.zip`,
}
