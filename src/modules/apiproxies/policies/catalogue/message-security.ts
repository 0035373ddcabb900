import { z } from 'zod'
import { definePolicy, ENCODINGS, enumOf, flag, KEY_OR_CERTIFICATE, list, nonEmptyList, optText, positive, ref, refName, requireWhen, text, TIME_UNITS, variable, type PolicyReference } from './common.js'

// Message security family: JOSE tokens, digital signatures and field encryption. JWKs, certificates and crypto keys
// are named by the pages' *Id fields (jwkIdFor…, certificateId, cryptoKeyInfoId): here they hold the object's name.

const JOSE_TARGETS = ['BODY', 'AUTHORIZATION_HEADER', 'CHOOSE_FROM_VARIABLE'] as const
const ENCRYPTION_METHODS = ['A128CBC_HS256', 'A192CBC_HS384', 'A256CBC_HS512', 'A128CBC_HS256_DEPRECATED', 'A256CBC_HS512_DEPRECATED', 'A128GCM', 'A192GCM', 'A256GCM', 'XC20P'] as const
/** MapValue of additionalClaimMap / exactMatchClaimMap */
const claimMap = z.record(z.string(), z.looseObject({ value: z.unknown(), valueType: text(50) }), { error: 'must be an object of claims' })

const jwkRefs = (p: Record<string, unknown>, ...fields: string[]): PolicyReference[] => fields.flatMap((f) => ref('jwk', f, p[f]))

export const joseValidation = definePolicy({
  type: 'policy-jose-validation',
  family: 'message-security',
  title: 'JOSE Validation',
  description: 'Validates JWT/JWS/JWE tokens: signature, decryption, claims, audience and expiry',
  fields: {
    joseTarget: enumOf(JOSE_TARGETS),
    joseTargetVariable: variable.nullish(),
    clientSourcePart: enumOf(['HEADER', 'CLAIMS', 'VARIABLE'] as const),
    clientSourceVariable: variable.nullish(),
    clientFieldname: optText(200),
    acceptedAudienceList: list(text(500)).nullish(),
    exactMatchClaimMap: claimMap.nullish(),
    requiredClaimList: list(text(200)).nullish(),
    prohibitedClaimList: list(text(200)).nullish(),
    validateExpirationTime: flag(),
    validateSign: flag(),
    validateByIssuer: flag(),
    validateACLforIssuer: flag(),
    jwkIdForValidationAndSign: refName.nullish(),
    decrypt: flag(),
    decryptByIssuer: flag(),
    jwkIdForDecryptionAndEncryption: refName.nullish(),
    stripAndDecode: enumOf(['NONE', 'ALL', 'PARTIAL'] as const),
    jwtClaimsToDecode: optText(2000),
    decodedClaimsTargetForDataManipulation: enumOf(JOSE_TARGETS).nullish(),
    decodedClaimsTargetVariableForDataManipulation: variable.nullish(),
  },
  refine: (p, ctx) => {
    requireWhen(ctx, p.joseTarget === 'CHOOSE_FROM_VARIABLE', p.joseTargetVariable, ['joseTargetVariable'], 'is required when joseTarget is CHOOSE_FROM_VARIABLE')
    requireWhen(ctx, p.clientSourcePart === 'VARIABLE', p.clientSourceVariable, ['clientSourceVariable'], 'is required when clientSourcePart is VARIABLE')
    requireWhen(ctx, p.validateSign !== false && p.validateByIssuer === false, p.jwkIdForValidationAndSign, ['jwkIdForValidationAndSign'], 'is required when validateSign is true and validateByIssuer is false')
    requireWhen(ctx, p.decrypt !== false && p.decryptByIssuer === false, p.jwkIdForDecryptionAndEncryption, ['jwkIdForDecryptionAndEncryption'], 'is required when decrypt is true and decryptByIssuer is false')
    requireWhen(ctx, p.stripAndDecode === 'PARTIAL', p.jwtClaimsToDecode, ['jwtClaimsToDecode'], 'is required when stripAndDecode is PARTIAL')
    requireWhen(ctx, p.decodedClaimsTargetForDataManipulation === 'CHOOSE_FROM_VARIABLE', p.decodedClaimsTargetVariableForDataManipulation, ['decodedClaimsTargetVariableForDataManipulation'], 'is required when decodedClaimsTargetForDataManipulation is CHOOSE_FROM_VARIABLE')
  },
  references: (p) => jwkRefs(p, 'jwkIdForValidationAndSign', 'jwkIdForDecryptionAndEncryption'),
})

export const joseImplementation = definePolicy({
  type: 'policy-jose-implementation',
  family: 'message-security',
  title: 'JOSE Implementation',
  description: 'Generates signed and/or encrypted JWT/JWS/JWE tokens with standard and additional claims',
  fields: {
    joseTarget: enumOf([...JOSE_TARGETS, 'EMPTY'] as const),
    joseTargetVariable: variable.nullish(),
    jwtClaimsClaim: optText(200),
    escapeJsonString: flag(),
    addIssueTime: flag(),
    addJWTID: flag(),
    addIssuer: flag(),
    issuer: optText(1000),
    addAudience: flag(),
    audienceList: list(text(500)).nullish(),
    addSubject: flag(),
    subject: optText(1000),
    addTypeToHeader: flag(),
    typeValue: optText(100),
    addExpirationTime: flag(),
    expirationTimeValue: positive().nullish(),
    expirationTimeUnit: enumOf(TIME_UNITS).nullish(),
    additionalClaimMap: claimMap.nullish(),
    sign: flag(),
    signByIssuer: flag(),
    jwkIdForValidationAndSign: refName.nullish(),
    encrypt: flag(),
    encryptByIssuer: flag(),
    jwkIdForDecryptionAndEncryption: refName.nullish(),
    encryptionMethod: enumOf(ENCRYPTION_METHODS).nullish(),
    encodedClaimsTargetForDataManipulation: enumOf(JOSE_TARGETS).nullish(),
    decodedClaimsTargetVariableForDataManipulation: variable.nullish(),
  },
  refine: (p, ctx) => {
    // the page's defaults: every add*, sign and encrypt are true when absent
    const on = (v: boolean | null | undefined) => v !== false
    requireWhen(ctx, p.joseTarget === 'CHOOSE_FROM_VARIABLE', p.joseTargetVariable, ['joseTargetVariable'], 'is required when joseTarget is CHOOSE_FROM_VARIABLE')
    requireWhen(ctx, on(p.addIssuer), p.issuer, ['issuer'], 'is required when addIssuer is true')
    requireWhen(ctx, on(p.addAudience), p.audienceList, ['audienceList'], 'must contain at least one value when addAudience is true')
    requireWhen(ctx, on(p.addSubject), p.subject, ['subject'], 'is required when addSubject is true')
    requireWhen(ctx, on(p.addTypeToHeader), p.typeValue, ['typeValue'], 'is required when addTypeToHeader is true')
    requireWhen(ctx, on(p.addExpirationTime), p.expirationTimeValue, ['expirationTimeValue'], 'is required when addExpirationTime is true')
    requireWhen(ctx, on(p.addExpirationTime), p.expirationTimeUnit, ['expirationTimeUnit'], 'is required when addExpirationTime is true')
    requireWhen(ctx, on(p.sign) && p.signByIssuer === false, p.jwkIdForValidationAndSign, ['jwkIdForValidationAndSign'], 'is required when sign is true and signByIssuer is false')
    requireWhen(ctx, on(p.encrypt) && p.encryptByIssuer === false, p.jwkIdForDecryptionAndEncryption, ['jwkIdForDecryptionAndEncryption'], 'is required when encrypt is true and encryptByIssuer is false')
    requireWhen(ctx, on(p.encrypt), p.encryptionMethod, ['encryptionMethod'], 'is required when encrypt is true')
    requireWhen(ctx, p.encodedClaimsTargetForDataManipulation === 'CHOOSE_FROM_VARIABLE', p.decodedClaimsTargetVariableForDataManipulation, ['decodedClaimsTargetVariableForDataManipulation'], 'is required when encodedClaimsTargetForDataManipulation is CHOOSE_FROM_VARIABLE')
  },
  references: (p) => jwkRefs(p, 'jwkIdForValidationAndSign', 'jwkIdForDecryptionAndEncryption'),
})

const SIGNATURE_ALGORITHMS = [
  'NONEwithRSA', 'MD2withRSA', 'MD5withRSA', 'SHA1withRSA', 'SHA224withRSA', 'SHA256withRSA', 'SHA384withRSA', 'SHA512withRSA',
  'NONEwithDSA', 'SHA1withDSA', 'SHA224withDSA', 'SHA256withDSA',
  'NONEwithECDSA', 'SHA1withECDSA', 'SHA224withECDSA', 'SHA256withECDSA', 'SHA384withECDSA', 'SHA512withECDSA',
] as const
const CIPHERS = [
  'AES_CBC_NoPadding', 'AES_CBC_PKCS5Padding', 'AES_ECB_NoPadding', 'AES_ECB_PKCS5Padding', 'DES_CBC_NoPadding', 'DES_CBC_PKCS5Padding', 'DES_ECB_NoPadding', 'DES_ECB_PKCS5Padding',
  'DESede_CBC_NoPadding', 'DESede_CBC_PKCS5Padding', 'DESede_ECB_NoPadding', 'DESede_ECB_PKCS5Padding', 'RSA_ECB_PKCS1Padding', 'RSA_ECB_OAEPWithSHA_1AndMGF1Padding', 'RSA_ECB_OAEPWithSHA_256AndMGF1Padding',
] as const

/** cryptoKeyInfoId or certificateId, as enumKeyCertificateType (default KEY) says. */
const keyMaterial = { enumKeyCertificateType: enumOf(KEY_OR_CERTIFICATE).nullish(), cryptoKeyInfoId: refName.nullish(), certificateId: refName.nullish() }
function requireKeyMaterial(def: { enumKeyCertificateType?: string | null; cryptoKeyInfoId?: string | null; certificateId?: string | null }, ctx: z.RefinementCtx, at: (string | number)[]) {
  const certificate = def.enumKeyCertificateType === 'CERTIFICATE'
  requireWhen(ctx, !certificate, def.cryptoKeyInfoId, [...at, 'cryptoKeyInfoId'], 'is required when enumKeyCertificateType is KEY (the default)')
  requireWhen(ctx, certificate, def.certificateId, [...at, 'certificateId'], 'is required when enumKeyCertificateType is CERTIFICATE')
}
const keyMaterialRefs = (listField: string) => (p: Record<string, unknown>): PolicyReference[] =>
  ((p[listField] as Record<string, unknown>[] | undefined) ?? []).flatMap((d, i) =>
    d.enumKeyCertificateType === 'CERTIFICATE' ? ref('certificate', `${listField}[${i}].certificateId`, d.certificateId) : ref('cryptoKey', `${listField}[${i}].cryptoKeyInfoId`, d.cryptoKeyInfoId),
  )
const eachDef = (listField: string, check: (d: any, ctx: z.RefinementCtx, at: (string | number)[]) => void) => (p: any, ctx: z.RefinementCtx) =>
  (p[listField] as unknown[]).forEach((d, i) => check(d, ctx, [listField, i]))

export const digitalSign = definePolicy({
  type: 'policy-digital-sign',
  family: 'message-security',
  title: 'Digital Sign',
  description: 'Signs source variables with a crypto key or certificate and stores the signature in signatureVar',
  fields: {
    policyDigitalSignDefList: nonEmptyList(
      z.looseObject({ id: optText(200), description: optText(), sourceVar: variable, signatureVar: variable, signatureAlgorithm: enumOf(SIGNATURE_ALGORITHMS), signatureAlgorithmVar: variable.nullish(), ...keyMaterial, outputEncodingType: enumOf(ENCODINGS).nullish() }),
    ),
  },
  refine: eachDef('policyDigitalSignDefList', requireKeyMaterial),
  references: keyMaterialRefs('policyDigitalSignDefList'),
})

export const digitalSignVerification = definePolicy({
  type: 'policy-digital-sign-verification',
  family: 'message-security',
  title: 'Digital Sign Verification',
  description: 'Verifies signatures of source variables with a crypto key or certificate',
  fields: {
    policyDigitalSignVerificationDefList: nonEmptyList(
      z.looseObject({ id: optText(200), description: optText(), sourceVar: variable, signatureVar: variable, signatureAlgorithm: enumOf(SIGNATURE_ALGORITHMS).nullish(), signatureAlgorithmVar: variable.nullish(), ...keyMaterial, inputEncodingType: enumOf(ENCODINGS).nullish() }),
    ),
  },
  refine: eachDef('policyDigitalSignVerificationDefList', (d, ctx, at) => {
    if (!d.signatureAlgorithm && !d.signatureAlgorithmVar) ctx.addIssue({ code: 'custom', path: [...at, 'signatureAlgorithm'], message: 'signatureAlgorithm or signatureAlgorithmVar is required' })
    requireKeyMaterial(d, ctx, at)
  }),
  references: keyMaterialRefs('policyDigitalSignVerificationDefList'),
})

const cipherFields = { id: optText(200), description: optText(), sourceVar: variable, targetVar: variable, cipherAlgorithmVar: variable.nullish(), ...keyMaterial, ivVar: variable.nullish(), ivEncodingType: enumOf(ENCODINGS).nullish() }

export const encryption = definePolicy({
  type: 'policy-encryption',
  family: 'message-security',
  title: 'Encryption',
  description: 'Encrypts source variables with a cipher and a crypto key or certificate into target variables',
  fields: {
    policyEncryptionDefList: nonEmptyList(z.looseObject({ ...cipherFields, cipherAlgorithm: enumOf(CIPHERS), createIV: flag(), outputEncodingType: enumOf(ENCODINGS) })),
  },
  refine: eachDef('policyEncryptionDefList', (d, ctx, at) => {
    requireKeyMaterial(d, ctx, at)
    requireWhen(ctx, d.createIV === true, d.ivVar, [...at, 'ivVar'], 'is required when createIV is true')
  }),
  references: keyMaterialRefs('policyEncryptionDefList'),
})

export const decryption = definePolicy({
  type: 'policy-decryption',
  family: 'message-security',
  title: 'Decryption',
  description: 'Decrypts source variables with a cipher and a crypto key or certificate into target variables',
  fields: {
    policyDecryptionDefList: nonEmptyList(z.looseObject({ ...cipherFields, cipherAlgorithm: enumOf(CIPHERS).nullish(), ivExists: flag(), inputEncodingType: enumOf(ENCODINGS) })),
  },
  refine: eachDef('policyDecryptionDefList', (d, ctx, at) => {
    if (!d.cipherAlgorithm && !d.cipherAlgorithmVar) ctx.addIssue({ code: 'custom', path: [...at, 'cipherAlgorithm'], message: 'cipherAlgorithm or cipherAlgorithmVar is required' })
    requireKeyMaterial(d, ctx, at)
    requireWhen(ctx, d.ivExists === true, d.ivVar, [...at, 'ivVar'], 'is required when ivExists is true')
  }),
  references: keyMaterialRefs('policyDecryptionDefList'),
})

export const MESSAGE_SECURITY = [joseValidation, joseImplementation, digitalSign, digitalSignVerification, encryption, decryption]
