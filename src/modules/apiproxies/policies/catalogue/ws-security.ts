import { z } from 'zod'
import { definePolicy, enumOf, envRef, flag, int, list, nonEmptyList, optText, ref, refName, requireWhen, text, type PolicyReference } from './common.js'

// WS-Security family (SOAP message security): keystores are named by the pages' *KeyStoreName fields.

const KEY_ID_TYPES = [
  'BINARY_SECURITY_TOKEN', 'ISSUER_NAME_AND_SERIAL_NUMBER', 'X509_CERTIFICATE', 'SUBJECT_KEY_IDENTIFIER', 'THUMBPRINT_SHA1_IDENTIFIER', 'EMBEDDED_KEY_INFO', 'EMBED_SECURITY_TOKEN_REFERENCE', 'CUSTOM_KEY_INFO',
] as const
const SYM_ALGORITHMS = ['AES_128_CBC', 'AES_192_CBC', 'AES_256_CBC'] as const
const KEY_ENC_ALGORITHMS = ['RSA', 'OAEP'] as const
const SIG_ALGORITHMS = [
  'RSA_SHA1', 'RSA_SHA256', 'RSA_SHA384', 'RSA_SHA512', 'DSA_SHA1', 'DSA_SHA256', 'ECDSA_SHA1', 'ECDSA_SHA256', 'ECDSA_SHA384', 'ECDSA_SHA512', 'HMAC_SHA1', 'HMAC_SHA256', 'HMAC_SHA384', 'HMAC_SHA512',
] as const
const C14N = ['C14N_OMIT_COMMENTS', 'C14N_WITH_COMMENTS', 'C14N_EXCL_OMIT_COMMENTS', 'C14N_EXCL_WITH_COMMENTS', 'C14N_11_OMIT_COMMENTS', 'C14N_11_WITH_COMMENTS'] as const
const DIGESTS = ['SHA1', 'SHA256', 'SHA384', 'SHA512', 'HMAC_SHA1', 'HMAC_SHA256', 'HMAC_SHA384', 'HMAC_SHA512', 'HMAC_MD5', 'MD5'] as const
const PASSWORD_TYPES = ['PasswordText', 'PasswordDigest'] as const
const ENTRY_TYPES = ['TIMESTAMP', 'USERNAME_TOKEN', 'ENCRYPTION', 'SIGNATURE'] as const

/** WsSecurityToTargetPart */
const part = z.looseObject({ name: text(200), namespace: text(1000), encodeType: enumOf(['CONTENT', 'ELEMENT'] as const) })

const encryptionFields = {
  encPartList: list(part).nullish(),
  encEmbeddedKeyName: optText(200),
  encKeyIdType: enumOf(KEY_ID_TYPES).nullish(),
  encSymEncAlgorithm: enumOf(SYM_ALGORITHMS).nullish(),
  encKeyEncAlgorithm: enumOf(KEY_ENC_ALGORITHMS).nullish(),
}
const signatureFields = {
  sigPartList: list(part).nullish(),
  sigCustomKeyIdentifier: optText(2000),
  sigCustomKeyIdentifierValueType: optText(2000),
  sigKeyIdType: enumOf(KEY_ID_TYPES).nullish(),
  sigUseSingleCert: flag(),
  sigWsiBSPCompliant: flag(),
}
const customKeyIdentifier = (p: { sigCustomKeyIdentifier?: string | null; sigCustomKeyIdentifierValueType?: string | null }, ctx: z.RefinementCtx) =>
  requireWhen(ctx, !!p.sigCustomKeyIdentifier, p.sigCustomKeyIdentifierValueType, ['sigCustomKeyIdentifierValueType'], 'is required when sigCustomKeyIdentifier is given')
const embeddedKey = (p: { encKeyIdType?: string | null; encEmbeddedKeyName?: string | null }, ctx: z.RefinementCtx) =>
  requireWhen(ctx, p.encKeyIdType === 'EMBEDDED_KEY_INFO', p.encEmbeddedKeyName, ['encEmbeddedKeyName'], 'is required when encKeyIdType is EMBEDDED_KEY_INFO')

const keystores = (p: Record<string, unknown>, ...fields: string[]): PolicyReference[] => fields.flatMap((f) => ref('keystore', f, p[f]))

export const wsSecurityEncrypt = definePolicy({
  type: 'policy-ws-security-encrypt',
  family: 'ws-security',
  title: 'WS-Security Encrypt',
  description: 'Encrypts parts of a SOAP message with keys of the keystore encKeyStoreName',
  fields: { mustUnderstand: flag(), ...encryptionFields, encKeyStoreName: refName },
  refine: embeddedKey,
  references: (p) => keystores(p, 'encKeyStoreName'),
})

export const wsSecurityDecrypt = definePolicy({
  type: 'policy-ws-security-decrypt',
  family: 'ws-security',
  title: 'WS-Security Decrypt',
  description: 'Decrypts WS-Security encrypted SOAP content with the keystore decKeyStoreName',
  fields: { allowCaseInsensitiveId: flag(), decKeyStoreName: refName },
  references: (p) => keystores(p, 'decKeyStoreName'),
})

export const wsSecuritySign = definePolicy({
  type: 'policy-ws-security-sign',
  family: 'ws-security',
  title: 'WS-Security Sign',
  description: 'Signs parts of a SOAP message with the keystore sigKeyStoreName',
  fields: { mustUnderstand: flag(), ...signatureFields, sigSigAlgorithm: enumOf(SIG_ALGORITHMS), sigC14n: enumOf(C14N), sigDigAlgorithm: enumOf(DIGESTS), sigKeyStoreName: refName },
  refine: customKeyIdentifier,
  references: (p) => keystores(p, 'sigKeyStoreName'),
})

export const wsSecuritySignValidation = definePolicy({
  type: 'policy-ws-security-sign-validation',
  family: 'ws-security',
  title: 'WS-Security Sign Validation',
  description: 'Verifies WS-Security signatures with the keystore verKeyStoreName',
  fields: { enableEnhancedSignatureValidation: flag(), enableSignatureRemovalForDereferencing: flag(), allowCaseInsensitiveId: flag(), verKeyStoreName: refName, removeSignature: flag() },
  references: (p) => keystores(p, 'verKeyStoreName'),
})

export const wsSecurityUsername = definePolicy({
  type: 'policy-ws-security-username',
  family: 'ws-security',
  title: 'WS-Security Username Token',
  description: 'Adds a UsernameToken (text or digest password, optional nonce and created) to SOAP messages',
  fields: { mustUnderstand: flag(), username: text(500), password: text(2000), passwordType: enumOf(PASSWORD_TYPES), nonce: flag(), created: flag() },
  references: (p) => envRef('password', p.password),
})

export const wsSecurityTimestamp = definePolicy({
  type: 'policy-ws-security-timestamp',
  family: 'ws-security',
  title: 'WS-Security Timestamp',
  description: 'Adds a Timestamp valid for timeToLive seconds to SOAP messages',
  fields: { mustUnderstand: flag(), timeToLive: int(0, 31_536_000) },
})

export const wsSecurityFromTarget = definePolicy({
  type: 'policy-ws-security-from-target',
  family: 'ws-security',
  title: 'WS-Security From Target',
  description: 'Decrypts and/or verifies WS-Security of backend messages (decKeyStoreName, verKeyStoreName)',
  fields: { decExists: flag(), verExists: flag(), decKeyStoreName: refName.nullish(), verKeyStoreName: refName.nullish(), allowCaseInsensitiveId: flag() },
  refine: (p, ctx) => {
    if (!p.decExists && !p.verExists) ctx.addIssue({ code: 'custom', path: ['decExists'], message: 'decExists or verExists must be true' })
    requireWhen(ctx, p.decExists === true, p.decKeyStoreName, ['decKeyStoreName'], 'is required when decExists is true')
    requireWhen(ctx, p.verExists === true, p.verKeyStoreName, ['verKeyStoreName'], 'is required when verExists is true')
  },
  references: (p) => keystores(p, 'decKeyStoreName', 'verKeyStoreName'),
})

export const wsSecurityToTarget = definePolicy({
  type: 'policy-ws-security-to-target',
  family: 'ws-security',
  title: 'WS-Security To Target',
  description: 'Adds Timestamp, UsernameToken, encryption and signature, in wsSecurityEntryOrderList order, to backend requests',
  fields: {
    mustUnderstand: flag(),
    tsTimeToLive: int(0, 31_536_000).nullish(),
    unUsername: optText(500),
    unPassword: optText(2000),
    unPasswordDecrypted: flag(),
    unNonce: flag(),
    unCreated: flag(),
    unPasswordType: enumOf(PASSWORD_TYPES).nullish(),
    ...encryptionFields,
    encKeyStoreName: refName.nullish(),
    ...signatureFields,
    sigSigAlgorithm: enumOf(SIG_ALGORITHMS).nullish(),
    sigC14n: enumOf(C14N).nullish(),
    sigDigAlgorithm: enumOf(DIGESTS).nullish(),
    sigKeyStoreName: refName.nullish(),
    wsSecurityEntryOrderList: nonEmptyList(enumOf(ENTRY_TYPES), 4),
  },
  refine: (p, ctx) => {
    const has = (e: (typeof ENTRY_TYPES)[number]) => p.wsSecurityEntryOrderList.includes(e)
    if (new Set(p.wsSecurityEntryOrderList).size !== p.wsSecurityEntryOrderList.length) ctx.addIssue({ code: 'custom', path: ['wsSecurityEntryOrderList'], message: 'must not repeat an entry' })
    requireWhen(ctx, has('TIMESTAMP'), p.tsTimeToLive, ['tsTimeToLive'], 'is required when TIMESTAMP is in wsSecurityEntryOrderList')
    for (const f of ['unUsername', 'unPassword', 'unPasswordType']) requireWhen(ctx, has('USERNAME_TOKEN'), p[f], [f], 'is required when USERNAME_TOKEN is in wsSecurityEntryOrderList')
    for (const f of ['encPartList', 'encKeyIdType', 'encSymEncAlgorithm', 'encKeyEncAlgorithm', 'encKeyStoreName']) requireWhen(ctx, has('ENCRYPTION'), p[f], [f], 'is required when ENCRYPTION is in wsSecurityEntryOrderList')
    for (const f of ['sigPartList', 'sigKeyIdType', 'sigKeyStoreName']) requireWhen(ctx, has('SIGNATURE'), p[f], [f], 'is required when SIGNATURE is in wsSecurityEntryOrderList')
    embeddedKey(p, ctx)
    customKeyIdentifier(p, ctx)
  },
  references: (p) => [
    ...(p.wsSecurityEntryOrderList.includes('ENCRYPTION') ? keystores(p, 'encKeyStoreName') : []),
    ...(p.wsSecurityEntryOrderList.includes('SIGNATURE') ? keystores(p, 'sigKeyStoreName') : []),
    ...(p.wsSecurityEntryOrderList.includes('USERNAME_TOKEN') ? envRef('unPassword', p.unPassword) : []),
  ],
})

export const WS_SECURITY = [wsSecurityEncrypt, wsSecurityDecrypt, wsSecuritySign, wsSecuritySignValidation, wsSecurityUsername, wsSecurityTimestamp, wsSecurityFromTarget, wsSecurityToTarget]
