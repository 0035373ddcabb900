import { definePolicy, enumOf, flag, headerName, httpUrl, int, list, optText, positive, ref, refName, requireWhen, text, TIME_UNITS, envRef, variable, nonEmptyList } from './common.js'
import { z } from 'zod'

// Authentication family (vendor index "Authentication Policies"): who the caller is.

/** Beyond the pages: the LDAP or database connection holding the users, by name (absent: the gateway's own credentials). */
const identityConnection = { connectionName: refName.nullish() }
const identitySource = (name: unknown) => ref('connection', 'connectionName', name).map((r) => ({ ...r, types: ['ldap', 'database'] }))
const userHeader = { clearAuth: flag(), addUserToHeader: flag(), userHeaderName: headerName.nullish() }
const needsUserHeader = (p: { addUserToHeader?: boolean | null; userHeaderName?: string | null }, ctx: z.RefinementCtx) =>
  requireWhen(ctx, p.addUserToHeader === true, p.userHeaderName, ['userHeaderName'], 'is required when addUserToHeader is true')

export const authBasic = definePolicy({
  type: 'policy-auth-basic',
  family: 'authentication',
  title: 'Basic Authentication',
  description: 'Validates HTTP Basic credentials taken from usernameVar against an authentication source',
  fields: { usernameVar: variable, ...userHeader, ...identityConnection },
  refine: needsUserHeader,
  references: (p) => identitySource(p.connectionName),
})

export const authClearText = definePolicy({
  type: 'policy-auth-clear-text',
  family: 'authentication',
  title: 'Clear Text Authentication',
  description: 'Authenticates a username (and, with checkPassword, a password) taken from request variables',
  fields: { usernameVar: variable, passwordVar: variable.nullish(), checkPassword: flag(), ...userHeader, ...identityConnection },
  refine: (p, ctx) => {
    requireWhen(ctx, p.checkPassword !== false, p.passwordVar, ['passwordVar'], 'is required when checkPassword is true (the default)')
    needsUserHeader(p, ctx)
  },
  references: (p) => identitySource(p.connectionName),
})

export const authDigest = definePolicy({
  type: 'policy-auth-digest',
  family: 'authentication',
  title: 'Digest Authentication',
  description: 'Validates HTTP Digest credentials (username, password, optional nonce and created) from request variables',
  fields: { usernameVar: variable, passwordVar: variable, nonceVar: variable.nullish(), createdVar: variable.nullish(), ...userHeader, ...identityConnection },
  refine: needsUserHeader,
  references: (p) => identitySource(p.connectionName),
})

const tokenFields = {
  tokenNeverExpires: flag(),
  tokenExpiresInAmount: positive(Number.MAX_SAFE_INTEGER).nullish(),
  tokenExpiresInUnit: enumOf(TIME_UNITS).nullish(),
  refreshTokenAllowed: flag(),
  refreshTokenCount: int(0, 1_000_000).nullish(),
  refreshTokenExpiresInAmount: positive(Number.MAX_SAFE_INTEGER).nullish(),
  refreshTokenExpiresInUnit: enumOf(TIME_UNITS).nullish(),
  allowUrlParameters: flag(),
  managedFromThisPolicy: flag(),
  grantType: enumOf(['PASSWORD', 'CLIENT_CREDENTIALS'] as const).nullish(),
}
const tokenExpiry = (p: { tokenNeverExpires?: boolean | null; tokenExpiresInAmount?: number | null; tokenExpiresInUnit?: string | null }, ctx: z.RefinementCtx) => {
  // the pages default tokenNeverExpires to true
  const expires = p.tokenNeverExpires === false
  requireWhen(ctx, expires, p.tokenExpiresInAmount, ['tokenExpiresInAmount'], 'is required when tokenNeverExpires is false')
  requireWhen(ctx, expires, p.tokenExpiresInUnit, ['tokenExpiresInUnit'], 'is required when tokenNeverExpires is false')
}

export const JWT_ALGORITHMS = ['HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'EdDSA'] as const

export const authJwt = definePolicy({
  type: 'policy-auth-jwt',
  family: 'authentication',
  title: 'JWT Authentication',
  description: 'Issues, validates and refreshes JWTs signed with jwtSignatureAlgorithm',
  fields: { ...tokenFields, jwtSignatureAlgorithm: enumOf(JWT_ALGORITHMS) },
  refine: tokenExpiry,
})

export const authOauth2 = definePolicy({
  type: 'policy-auth-oauth2',
  family: 'authentication',
  title: 'OAuth2 Authentication',
  description: 'Issues, validates and refreshes OAuth2 access and refresh tokens',
  fields: { ...tokenFields, deletePrevious: flag() },
  refine: tokenExpiry,
})

export const oidc = definePolicy({
  type: 'policy-oidc',
  family: 'authentication',
  title: 'OIDC Authentication',
  description: 'Authenticates users with an external OpenID Connect provider (authorization code, implicit, hybrid flows)',
  fields: {
    issuer: httpUrl,
    authorizationEndpoint: httpUrl,
    tokenEndpoint: httpUrl,
    userInfoEndpoint: httpUrl.nullish(),
    jwksEndpoint: httpUrl.nullish(),
    introspectionEndpoint: httpUrl.nullish(),
    clientId: text(500),
    clientSecret: optText(2000),
    redirectUri: httpUrl,
    flowType: enumOf(['AUTHORIZATION_CODE', 'IMPLICIT', 'HYBRID', 'OAUTH2_AUTHORIZATION_CODE'] as const).nullish(),
    enablePKCE: flag(),
    scopes: nonEmptyList(text(200)),
    authenticationMode: enumOf(['EXTERNAL_ONLY', 'INTERNAL_ONLY', 'HYBRID'] as const).nullish(),
    validateJwtSignature: flag(),
    expectedJwtAuthSigningAlgs: list(enumOf(JWT_ALGORITHMS), 20).nullish(),
    tokenCacheTimeoutSeconds: int(0, 31_536_000).nullish(),
    jwkCacheTimeoutSeconds: int(0, 31_536_000).nullish(),
    roleMappings: list(z.looseObject({ claimPath: text(500), claimValue: optText(500), roleName: text(200), required: flag() })).nullish(),
    sessionTimeoutMinutes: int(1, 525_600).nullish(),
    validateAudience: flag(),
    expectedAudience: list(text(500)).nullish(),
    connectionTimeoutSeconds: int(1, 3600).nullish(),
    readTimeoutSeconds: int(1, 3600).nullish(),
    maxClockSkewSeconds: int(0, 86_400).nullish(),
    errorRedirectUrl: httpUrl.nullish(),
    userinfoHeaderName: headerName.nullish(),
  },
  refine: (p, ctx) => {
    if (p.flowType !== 'OAUTH2_AUTHORIZATION_CODE' && !p.scopes.includes('openid')) ctx.addIssue({ code: 'custom', path: ['scopes'], message: "must include 'openid' for OIDC flows" })
    requireWhen(ctx, p.validateJwtSignature === true, p.jwksEndpoint, ['jwksEndpoint'], 'is required when validateJwtSignature is true')
    requireWhen(ctx, p.validateAudience === true, p.expectedAudience, ['expectedAudience'], 'must contain at least one value when validateAudience is true')
  },
  references: (p) => envRef('clientSecret', p.clientSecret),
})

export const authMtls = definePolicy({
  type: 'policy-auth-mtls',
  family: 'authentication',
  title: 'mTLS Authentication',
  description: 'Authenticates clients by their X.509 certificate, optionally checking the issuer ACL',
  fields: { validateCertificate: flag(), validateACLForIssuer: flag() },
})

const AUTH_TYPES = ['BASIC', 'BASE64', 'DIGEST', 'API'] as const
const SEND_TYPES = ['HEADER', 'PARAM', 'BODY_MESSAGE', 'BODY_INJECTION'] as const

export const apiAuthentication = definePolicy({
  type: 'policy-api-authentication',
  family: 'authentication',
  title: 'API Authentication',
  description: 'Adds credentials to the request sent to the backend (header, parameter, body message or injection)',
  fields: {
    authType: enumOf(AUTH_TYPES).nullish(),
    sendType: enumOf(SEND_TYPES).nullish(),
    messageContentType: enumOf(['XML', 'JSON', 'ALL_BODY'] as const).nullish(),
    usernameFieldName: optText(200),
    passwordFieldName: optText(200),
    createdFieldName: optText(200),
    nonceFieldName: optText(200),
    bodyMessage: optText(64 * 1024),
    bodyMessageInjectionPath: optText(1000),
    usernameInjectionPath: optText(1000),
    passwordInjectionPath: optText(1000),
    createdInjectionPath: optText(1000),
    nonceInjectionPath: optText(1000),
    authApiId: optText(200),
    apiAuthCondExpressionList: list(z.looseObject({ id: z.number().int().nullish(), username: text(500), password: text(2000), policyCondition: z.unknown().nullish() })).nullish(),
  },
  refine: (p, ctx) => {
    const expressions = p.apiAuthCondExpressionList ?? []
    if (!p.authApiId && !expressions.length) ctx.addIssue({ code: 'custom', path: ['apiAuthCondExpressionList'], message: 'is required (at least one entry) when authApiId is not given' })
    if (!expressions.length) return
    requireWhen(ctx, true, p.authType, ['authType'], 'is required with apiAuthCondExpressionList')
    requireWhen(ctx, true, p.sendType, ['sendType'], 'is required with apiAuthCondExpressionList')
    const headerOrParam = p.sendType === 'HEADER' || p.sendType === 'PARAM'
    requireWhen(ctx, headerOrParam && (p.authType === 'BASIC' || p.authType === 'DIGEST'), p.usernameFieldName, ['usernameFieldName'], `is required for ${p.authType} with ${p.sendType}`)
    requireWhen(ctx, headerOrParam && p.authType !== 'API', p.passwordFieldName, ['passwordFieldName'], `is required for ${p.authType} with ${p.sendType}`)
    requireWhen(ctx, headerOrParam && p.authType === 'DIGEST', p.createdFieldName, ['createdFieldName'], 'is required for DIGEST with HEADER or PARAM')
    requireWhen(ctx, headerOrParam && p.authType === 'DIGEST', p.nonceFieldName, ['nonceFieldName'], 'is required for DIGEST with HEADER or PARAM')
    requireWhen(ctx, p.sendType === 'BODY_MESSAGE', p.bodyMessage, ['bodyMessage'], 'is required when sendType is BODY_MESSAGE')
    requireWhen(ctx, p.sendType === 'BODY_MESSAGE', p.bodyMessageInjectionPath, ['bodyMessageInjectionPath'], 'is required when sendType is BODY_MESSAGE')
    requireWhen(ctx, p.sendType === 'BODY_INJECTION', p.usernameInjectionPath, ['usernameInjectionPath'], 'is required when sendType is BODY_INJECTION')
    requireWhen(ctx, p.sendType === 'BODY_INJECTION', p.passwordInjectionPath, ['passwordInjectionPath'], 'is required when sendType is BODY_INJECTION')
  },
  references: (p) => (p.apiAuthCondExpressionList ?? []).flatMap((e: { password?: unknown }, i: number) => envRef(`apiAuthCondExpressionList[${i}].password`, e.password)),
})

/**
 * The SAML page since 2025-11-17/18 (47c8bc0, 94b8026) names the keystore with keyStoreName, resolved in the project
 * first, then globally (the admin project); keyStoreId, its earlier field, is still accepted (a name too).
 */
export const samlValidation = definePolicy({
  type: 'policy-saml-validation',
  family: 'authentication',
  title: 'SAML Validation',
  description: 'Validates SAML assertions against the signing certificates of a keystore (keyStoreName names it, in the project or globally)',
  fields: { keyStoreName: refName.nullish(), keyStoreId: refName.nullish(), allowUnknownSigner: flag(), clearSaml: flag(), clearSamlPath: optText(2000) },
  refine: (p, ctx) => {
    if (!p.keyStoreName && !p.keyStoreId) ctx.addIssue({ code: 'custom', path: ['keyStoreName'], message: 'is required (the keystore holding the SAML signing certificates)' })
    requireWhen(ctx, p.clearSaml === true, p.clearSamlPath, ['clearSamlPath'], 'is required when clearSaml is true')
  },
  references: (p) => [...ref('keystore', 'keyStoreName', p.keyStoreName), ...ref('keystore', 'keyStoreId', p.keyStoreId)].map((r) => ({ ...r, global: true })),
})

export const AUTHENTICATION = [authBasic, authClearText, authDigest, authJwt, authOauth2, oidc, authMtls, apiAuthentication, samlValidation]
