import { z } from 'zod'
import { objectName } from '../../platform/validation/common.js'

// One schema per input, shared by REST and GraphQL (DESIGN.md). Objects are strict: a state, a secret or a
// misspelt field in a body is refused rather than silently ignored; states change through actions only.

export const TOKEN_UNITS = ['MILLI_SECONDS', 'SECONDS', 'MINUTES', 'HOURS', 'DAYS', 'WEEKS', 'MONTHS', 'YEARS'] as const
/** spec §2.5: a client gets tokens with client_credentials and refresh_token only; password never */
export const CLIENT_GRANT_TYPES = ['client_credentials', 'refresh_token'] as const
export const JWS_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'HS256', 'HS384', 'HS512'] as const

const long = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)
const label = z.string().trim().min(1).max(100)

/** Issuance fields of spec §2.5: settable on the manager surface only; null clears a stored value. */
export const issuanceFields = {
  allowedGrantTypes: z
    .array(z.enum(CLIENT_GRANT_TYPES, { error: 'an API client may use client_credentials and refresh_token only (password is never accepted for a client)' }))
    .nullish(),
  tokenEndpointAuthMethod: label.nullish(),
  tokenIssuanceProfile: label.nullish(),
  tokenNeverExpires: z.boolean().nullish(),
  tokenExpiresInAmount: long.nullish(),
  tokenExpiresInUnit: z.enum(TOKEN_UNITS).nullish(),
  refreshTokenAllowed: z.boolean().nullish(),
  refreshTokenCount: z.number().int().min(0).max(2_147_483_647).nullish(),
  refreshTokenExpiresInAmount: long.nullish(),
  refreshTokenExpiresInUnit: z.enum(TOKEN_UNITS).nullish(),
  jwtSignatureAlgorithm: z.enum(JWS_ALGORITHMS).nullish(),
}
export type IssuanceInput = { [K in keyof typeof issuanceFields]?: z.output<(typeof issuanceFields)[K]> }

export const clientIdField = z.string().trim().min(1).max(200).regex(/^[A-Za-z0-9._~-]+$/, 'may contain letters, digits, . _ ~ and - only')

const ownerRef = z.string().trim().min(1).max(200)
export const OWNER_FIELDS = ['applicationKey', 'applicationName', 'consumerKey', 'consumerUsername'] as const

export const createApiClientInput = z
  .strictObject({
    projectName: z.string().trim().min(1, 'must not be blank'),
    name: objectName,
    /** minted when absent */
    clientId: clientIdField.optional(),
    applicationKey: ownerRef.optional(),
    applicationName: ownerRef.optional(),
    consumerKey: ownerRef.optional(),
    consumerUsername: ownerRef.optional(),
    validFrom: z.coerce.date().nullish(),
    expiresAt: z.coerce.date().nullish(),
    /** false: no material yet (readiness PENDING_SECRET until rotate-secret issues the first version) */
    issueSecret: z.boolean().default(true),
    ...issuanceFields,
  })
  .refine((b) => OWNER_FIELDS.filter((f) => b[f] !== undefined).length === 1, {
    message: `give exactly one owner: ${OWNER_FIELDS.join(', ')}`,
    path: ['applicationKey'],
  })
export type CreateApiClientInput = z.input<typeof createApiClientInput>

export const updateApiClientInput = z.strictObject({
  name: objectName.optional(),
  validFrom: z.coerce.date().nullish(),
  expiresAt: z.coerce.date().nullish(),
  /** optimistic concurrency: when given it must equal the stored version */
  version: z.number().int().min(1).optional(),
  ...issuanceFields,
})
export type UpdateApiClientInput = z.input<typeof updateApiClientInput>

/**
 * An API client as an application declares it in a state document (docs/declarative.md): the update body with its
 * client id (the natural key) and name required. States and secrets are not declared: they change through actions.
 */
export const declaredApiClientInput = updateApiClientInput.omit({ version: true }).extend({ name: objectName, clientId: clientIdField })
export type DeclaredApiClientInput = z.input<typeof declaredApiClientInput>
