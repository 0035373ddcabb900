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
