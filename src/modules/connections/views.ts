import type { Connection, WebhookConnection } from '../../generated/prisma/client.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'
import { toView as webhookView } from '../webhooks/service.js'
import { TYPE_DEFS, type ConnectionType } from './types/index.js'

/** A connection in either store: a typed row, or a project's webhook connection (the webhook module's row). */
export type StoredConnection = { type: Exclude<ConnectionType, 'webhook'>; row: Connection } | { type: 'webhook'; row: WebhookConnection }

/** A connection as every door shows it: the page's fields; secrets null with a `<field>Set` presence flag. */
export type ConnectionView = { type: ConnectionType; name: string; description: string | null; deployToWorker: boolean; enabled: boolean } & Record<string, unknown>

export const sealedOf = (row: Connection) => (row.secrets ?? {}) as Record<string, string>

/** The /apiops fields of a webhook connection, beside the webhook module's own (kept by both doors). */
export function webhookFields(row: WebhookConnection) {
  const v = webhookView(row)
  return {
    httpMethod: v.method,
    fullUrl: v.fullUrl,
    headerList: v.headers,
    timeout: v.timeout,
    connectionPoolMaxConnectionPerHost: v.connectionsPerHost,
    connectionPoolMaxConnectionTotal: v.totalPoolConnections,
    environment: v.environment,
    trustStoreName: v.trustStoreName,
    keyStoreName: v.keyStoreName,
    serverNameVerification: v.serverNameVerification,
  }
}

export function connectionView(c: StoredConnection): ConnectionView {
  const common = { type: c.type, name: c.row.name, description: c.row.description, deployToWorker: c.row.deployToWorker, enabled: c.row.enabled }
  if (c.type === 'webhook') return { ...common, ...webhookFields(c.row) }
  const sealed = sealedOf(c.row)
  const out: ConnectionView = { ...common, ...(c.row.config as Record<string, unknown>) }
  for (const s of TYPE_DEFS[c.type].secrets) {
    out[s] = null
    out[`${s}Set`] = s in sealed
  }
  return out
}

/** The runtime form pushed to the gateway: every field, secrets decrypted (RUNTIME.md §4). */
export function deployConfig(keyring: SecretKeyring, c: StoredConnection): Record<string, unknown> {
  const common = { type: c.type, name: c.row.name, description: c.row.description, enabled: c.row.enabled }
  if (c.type === 'webhook') {
    const { id: _i, createdAt: _c, updatedAt: _u, ...rest } = webhookView(c.row)
    return { ...common, ...rest, ...webhookFields(c.row) }
  }
  const out: Record<string, unknown> = { ...common, ...(c.row.config as Record<string, unknown>) }
  const sealed = sealedOf(c.row)
  for (const s of TYPE_DEFS[c.type].secrets) out[s] = sealed[s] ? keyring.decrypt(sealed[s]) : null
  return out
}

/** The clear secrets of a typed connection (the connection test and export use them). */
export function clearSecrets(keyring: SecretKeyring, row: Connection): Record<string, string> {
  return Object.fromEntries(Object.entries(sealedOf(row)).map(([k, v]) => [k, keyring.decrypt(v)]))
}
