import { z } from 'zod'

export const TOKEN_EXPIRY_UNITS = ['MILLI_SECONDS', 'SECONDS', 'MINUTES', 'HOURS', 'DAYS', 'WEEKS', 'MONTHS', 'YEARS'] as const

/** A credential's token settings (spec §2.3). */
export const tokenSettingsSchema = z.object({
  grantType: z.string().min(1).nullable(),
  tokenNeverExpires: z.boolean().nullable(),
  tokenExpiresInAmount: z.number().int().min(1).nullable(),
  tokenExpiresInUnit: z.enum(TOKEN_EXPIRY_UNITS).nullable(),
  refreshTokenAllowed: z.boolean().nullable(),
  refreshTokenCount: z.number().int().min(0).nullable(),
  refreshTokenExpiresInAmount: z.number().int().min(1).nullable(),
  refreshTokenExpiresInUnit: z.enum(TOKEN_EXPIRY_UNITS).nullable(),
  allowUrlParameters: z.boolean().nullable(),
  managedFromThisPolicy: z.boolean().nullable(),
  jwtSignatureAlgorithm: z.string().min(1).nullable(),
  deletePrevious: z.boolean().nullable(),
  enumPolicyAuthenticationType: z.string().min(1).nullable(),
})
export type TokenSettings = z.output<typeof tokenSettingsSchema>

/** The values a reset leaves (spec §2.3); SECRET_MANAGER is the required authentication type. */
export const TOKEN_SETTINGS_AFTER_RESET: TokenSettings = {
  grantType: 'PASSWORD',
  tokenNeverExpires: true,
  tokenExpiresInAmount: null,
  tokenExpiresInUnit: null,
  refreshTokenAllowed: null,
  refreshTokenCount: null,
  refreshTokenExpiresInAmount: null,
  refreshTokenExpiresInUnit: null,
  allowUrlParameters: false,
  managedFromThisPolicy: true,
  jwtSignatureAlgorithm: 'RS256',
  deletePrevious: false,
  enumPolicyAuthenticationType: 'SECRET_MANAGER',
}

/** Settings given in part are completed with nulls, so a stored document always has every field. */
export const partialTokenSettings = tokenSettingsSchema.partial().transform((s): TokenSettings => ({
  ...Object.fromEntries(Object.keys(tokenSettingsSchema.shape).map((k) => [k, null])),
  ...s,
}) as TokenSettings)

export const GRANT_TYPES = ['PASSWORD', 'CLIENT_CREDENTIALS', 'AUTHORIZATION_CODE', 'IMPLICIT', 'REFRESH_TOKEN'] as const
export const JWT_SIGNATURE_ALGORITHMS = ['HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'] as const
/** The page lists the refresh units in the singular (SECOND, …): read as the spec's plural units. */
const unit = z.preprocess(
  (v) => (typeof v === 'string' && (TOKEN_EXPIRY_UNITS as readonly string[]).includes(`${v}S`) ? `${v}S` : v),
  z.enum(TOKEN_EXPIRY_UNITS),
)

/**
 * The body of PUT …/credentials/{username}/token/ (api-reference/credentials/token-settings/set-token-settings):
 * every field optional, only the given ones change; the authentication type is always SECRET_MANAGER.
 */
export const tokenSettingsBody = z.object({
  grantType: z.enum(GRANT_TYPES).nullish(),
  tokenNeverExpires: z.boolean().nullish().describe('true: the expiry fields are cleared'),
  tokenExpiresInAmount: z.number().int().min(1).nullish().describe('required when the token expires'),
  tokenExpiresInUnit: unit.nullish().describe(`one of ${TOKEN_EXPIRY_UNITS.join(', ')}; required when the token expires`),
  refreshTokenAllowed: z.boolean().nullish().describe('false: the refresh fields are cleared'),
  refreshTokenCount: z.number().int().min(1).nullish().describe('required when refresh tokens are allowed'),
  refreshTokenExpiresInAmount: z.number().int().min(1).nullish().describe('required when refresh tokens are allowed'),
  refreshTokenExpiresInUnit: unit.nullish().describe(`one of ${TOKEN_EXPIRY_UNITS.join(', ')} (or the singular); required when refresh tokens are allowed`),
  allowUrlParameters: z.boolean().nullish(),
  jwtSignatureAlgorithm: z.enum(JWT_SIGNATURE_ALGORITHMS).nullish(),
  deletePrevious: z.boolean().nullish(),
}).meta({ id: 'CredentialTokenSettingsBody' })

/** The stored settings (or the reset values) with the given fields applied; the rules of the page checked on the result. */
export function mergeTokenSettings(stored: unknown, given: z.output<typeof tokenSettingsBody>): TokenSettings | { field: string; message: string } {
  const base = tokenSettingsSchema.safeParse(stored)
  const next: TokenSettings = { ...(base.success ? base.data : TOKEN_SETTINGS_AFTER_RESET) }
  for (const [k, v] of Object.entries(given)) if (v !== undefined && v !== null) (next as Record<string, unknown>)[k] = v
  next.managedFromThisPolicy = true
  next.enumPolicyAuthenticationType = 'SECRET_MANAGER'
  if (next.tokenNeverExpires) Object.assign(next, { tokenExpiresInAmount: null, tokenExpiresInUnit: null })
  else if (next.tokenExpiresInAmount === null) return { field: 'tokenExpiresInAmount', message: 'tokenExpiresInAmount is required when tokenNeverExpires is false' }
  else if (next.tokenExpiresInUnit === null) return { field: 'tokenExpiresInUnit', message: 'tokenExpiresInUnit is required when tokenNeverExpires is false' }
  if (!next.refreshTokenAllowed) Object.assign(next, { refreshTokenCount: null, refreshTokenExpiresInAmount: null, refreshTokenExpiresInUnit: null })
  else {
    for (const field of ['refreshTokenCount', 'refreshTokenExpiresInAmount', 'refreshTokenExpiresInUnit'] as const) {
      if (next[field] === null) return { field, message: `${field} is required when refreshTokenAllowed is true` }
    }
  }
  return next
}
