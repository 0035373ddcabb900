import { z } from 'zod'
import { malformed } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { objectName } from '../../platform/validation/common.js'
import { bool, KEPT_SECRET, optionalText } from './types/common.js'
import { CONNECTION_TYPES, connectionTypeOf, type ConnectionType, type ConnectionTypeDef } from './types/index.js'
import { ELASTIC_ACCESS_TYPES } from './types/logging.js'

/** The fields every type shares (create-connection page, "Common Fields"). */
export const commonFields = z.object({
  name: objectName,
  description: optionalText(1000),
  deployToWorker: bool(true),
  enabled: bool(true),
})
export type CommonValues = z.output<typeof commonFields>
const COMMON = new Set(['type', 'name', 'description', 'deployToWorker', 'enabled'])

/** The JSON body as an object, or a 400. */
export function bodyObject(raw: unknown): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw malformed('The body must be a JSON object', { field: 'body' })
  return { ...(raw as Record<string, unknown>) }
}

/**
 * The discriminator of a body. The elasticsearch page's examples carry `type` twice ("elasticsearch", then the
 * access mode "READ_WRITE"); JSON keeps the last, so a body whose type is an access mode and that has an
 * elasticHostList is read as an elasticsearch connection with that `accessType`. `existing` (an update) is
 * the stored type: the access-mode reading applies to it too.
 */
export function typeOfBody(body: Record<string, unknown>, existing: ConnectionType | null = null): ConnectionType {
  const raw = body.type
  if ((ELASTIC_ACCESS_TYPES as readonly unknown[]).includes(raw) && (existing === 'elasticsearch' || (existing === null && 'elasticHostList' in body))) {
    body.accessType ??= raw
    return 'elasticsearch'
  }
  if (raw === undefined || raw === null || raw === '') throw malformed(`type: is required (one of ${CONNECTION_TYPES.join(', ')})`, { field: 'type' })
  const type = connectionTypeOf(raw)
  if (!type) throw malformed(`type: must be one of ${CONNECTION_TYPES.join(', ')}`, { field: 'type', value: typeof raw === 'string' ? raw : null })
  return type
}

/** The type-specific part of a body (common fields removed). */
export const ownFields = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([k]) => !COMMON.has(k)))

export interface TypedValues {
  /** validated non-secret fields, as stored in `config` */
  config: Record<string, unknown>
  /** per secret field: a new clear value, KEPT_SECRET (keep the stored one) or null (none) */
  secrets: Record<string, string | null>
}

/**
 * Validates a type's own fields. `stored` is the set of secret fields the connection already holds: a secret
 * the body leaves out or null keeps its stored value (reads never return secrets).
 */
export function parseTyped(def: ConnectionTypeDef, fields: Record<string, unknown>, stored: ReadonlySet<string>): TypedValues {
  const input = { ...fields }
  for (const s of def.secrets) if ((input[s] === undefined || input[s] === null) && stored.has(s)) input[s] = KEPT_SECRET
  const parsed = parseInput(def.fields, input)
  const config: Record<string, unknown> = {}
  const secrets: Record<string, string | null> = {}
  for (const [k, v] of Object.entries(parsed)) {
    if (def.secrets.includes(k)) secrets[k] = (v as string | null) ?? null
    else config[k] = v
  }
  return { config, secrets }
}

export const parseCommon = (body: Record<string, unknown>): CommonValues => parseInput(commonFields, body)
