import { z } from 'zod'
import type { WebhookConnection } from '../../generated/prisma/client.js'
import type { ProjectAccess } from '../../platform/auth/permissions.js'
import type { Tx } from '../../platform/context.js'
import { projectEnvironments } from '../../platform/deploy/project.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { httpUrl } from '../../platform/validation/common.js'
import { normalizeNested, toData, valuesOf, WEBHOOK_DEFAULTS, WEBHOOK_METHODS, webhookConnectionInput, webhookName } from '../webhooks/service.js'
import type { CommonValues } from './body.js'
import { findObject } from '../keys/store.js'
import { bool, enumOf, optional, positive, required, text, withDefault } from './types/common.js'

/**
 * The `webhook` type of /apiops IS the webhook connection of modules/webhooks (one row, two doors): its
 * projectId says which project's /apiops shows it; the GraphQL webhook API (system administrators) sees it
 * too. The page's fields map onto the webhook's: httpMethod → method, headerList → headers,
 * connectionPoolMaxConnectionPerHost → connectionsPerHost, connectionPoolMaxConnectionTotal →
 * totalPoolConnections. The webhook's own rules (name characters, timeouts, pool) apply through its one input
 * schema; fields only the GraphQL door knows (batching, retry, circuit breaker…) are kept by an /apiops update.
 * `environment` (the spec §2.17 link) is ours: optional, an environment of the project, by default its first.
 */
export const webhookFields = z.object({
  httpMethod: withDefault(enumOf(WEBHOOK_METHODS), 'GET'),
  fullUrl: httpUrl,
  headerList: withDefault(z.array(z.object({ name: required(255), value: text(8000).min(1, 'must not be empty') }), { error: 'must be a list of {name, value}' }), []),
  timeout: withDefault(positive(), WEBHOOK_DEFAULTS.timeout),
  connectionPoolMaxConnectionPerHost: withDefault(positive(), WEBHOOK_DEFAULTS.connectionsPerHost),
  connectionPoolMaxConnectionTotal: withDefault(positive(), WEBHOOK_DEFAULTS.totalPoolConnections),
  environment: optional(required(200)),
  /** spec §2.17: keystores of the project (trust: the server's authorities; key: the client certificate) */
  trustStoreName: optional(required(200)),
  keyStoreName: optional(required(200)),
  serverNameVerification: bool(false),
})

/** The webhook row's data for a create (stored null) or an update over `stored`. */
export async function webhookData(db: Tx, access: ProjectAccess, common: CommonValues, fields: Record<string, unknown>, stored: WebhookConnection | null) {
  parseInput(z.object({ name: webhookName }), { name: common.name })
  const before = stored ? valuesOf(stored) : null
  const merged = before
    ? {
      httpMethod: before.method, fullUrl: before.fullUrl, headerList: before.headers, timeout: before.timeout, connectionPoolMaxConnectionPerHost: before.connectionsPerHost,
      connectionPoolMaxConnectionTotal: before.totalPoolConnections, environment: before.environment, trustStoreName: before.trustStoreName, keyStoreName: before.keyStoreName,
      serverNameVerification: before.serverNameVerification, ...fields,
    }
    : fields
  const v = parseInput(webhookFields, merged)
  const environments = (await projectEnvironments(db, access.project.id)).map((e) => e.name)
  const environment = v.environment ?? environments[0]
  if (!environment) throw malformed(`environment: is required: project '${access.project.name}' has no environment`, { field: 'environment' })
  if (!environments.includes(environment)) throw malformed(`environment: '${environment}' is not an environment of project '${access.project.name}'`, { field: 'environment' })
  // a store named anew must be a keystore of the project (one kept from before is checked where it is used)
  for (const field of ['trustStoreName', 'keyStoreName'] as const) {
    const name = v[field]
    if (name && name !== before?.[field] && !(await findObject(db, access.project.id, 'KEY_STORE', name))) {
      throw new DomainError('validation', 'keystoreNotFound', `${field}: Keystore (name: ${name}) is not found!`, { field, keyStoreName: name })
    }
  }
  const values = parseInput(
    webhookConnectionInput,
    normalizeNested({
      ...(before ?? {}),
      name: common.name,
      description: common.description,
      enabled: common.enabled,
      method: v.httpMethod,
      fullUrl: v.fullUrl,
      headers: v.headerList,
      timeout: v.timeout,
      connectionsPerHost: v.connectionPoolMaxConnectionPerHost,
      totalPoolConnections: v.connectionPoolMaxConnectionTotal,
      environment,
      trustStoreName: v.trustStoreName,
      keyStoreName: v.keyStoreName,
      serverNameVerification: v.serverNameVerification,
    }),
  )
  return { ...toData(values), projectId: access.project.id, deployToWorker: common.deployToWorker }
}
