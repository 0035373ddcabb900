import { automationBootstrap } from './automation-proxy-support.js'

// The policy catalogue suite's data: one valid and one invalid policy per type of the vendor's folder
// 02-api-reference/05-policies/policies/ (the field the refusal names is in `refused`), and the objects the valid
// ones refer to by name.

/** automationBootstrap plus rita: API_MANAGEMENT MANAGE and DEPLOY_UNDEPLOY, and PROJECT_MANAGEMENT VIEW (to name IP groups and variables). */
export function catalogueBootstrap(workers: { dev: string[]; prod: string[] }) {
  const doc = automationBootstrap(workers)
  doc.users.push({ username: 'rita', password: 'rita-pass-1' })
  doc.projects[0]!.members!.push({
    username: 'rita',
    permissions: [{ category: 'API_MANAGEMENT', level: 'MANAGE' }, { category: 'API_MANAGEMENT', level: 'DEPLOY_UNDEPLOY' }, { category: 'PROJECT_MANAGEMENT', level: 'VIEW' }],
  })
  return doc
}

/** The objects of project payments the valid policies name (written straight to the store: this suite is not about them). */
export const FIXTURES = {
  keystore: 'soap-keystore',
  certificate: 'signing-cert',
  aesKey: 'aes-key',
  signingKey: 'signing-key',
  jwk: 'proxy-jwk',
  ldap: 'users-ldap',
  kafka: 'events-kafka',
  ipGroup: 'office',
  variable: 'OIDC_SECRET',
} as const

const header = (name: string) => ({ type: 'HEADER', headerName: name })
const BODY_PART = { name: 'Body', namespace: 'http://schemas.xmlsoap.org/soap/envelope/' }

export interface CatalogueCase {
  valid: Record<string, unknown>
  invalid: Record<string, unknown>
  /** what the refusal of `invalid` says, from its start: `policy.<field>: …` */
  refused: RegExp
}

export const CASES: Record<string, CatalogueCase> = {
  // authentication
  'policy-auth-basic': {
    valid: { usernameVar: header('Authorization'), clearAuth: false, addUserToHeader: true, userHeaderName: 'X-Authenticated-User' },
    invalid: { usernameVar: header('Authorization'), addUserToHeader: true },
    refused: /^policy\.userHeaderName: is required when addUserToHeader is true/,
  },
  'policy-auth-clear-text': {
    valid: { usernameVar: header('X-Username'), passwordVar: header('X-Password'), checkPassword: true, addUserToHeader: false },
    invalid: { usernameVar: header('X-Username'), checkPassword: true },
    refused: /^policy\.passwordVar: is required when checkPassword is true/,
  },
  'policy-auth-digest': {
    valid: { usernameVar: header('Authorization'), passwordVar: header('Authorization'), nonceVar: header('Authorization'), clearAuth: true },
    invalid: { usernameVar: header('Authorization') },
    refused: /^policy\.passwordVar: /,
  },
  'policy-auth-jwt': {
    valid: { tokenNeverExpires: false, tokenExpiresInAmount: 3600, tokenExpiresInUnit: 'SECONDS', refreshTokenAllowed: true, refreshTokenCount: 5, grantType: 'PASSWORD', jwtSignatureAlgorithm: 'HS256' },
    invalid: { tokenNeverExpires: true, jwtSignatureAlgorithm: 'HS999' },
    refused: /^policy\.jwtSignatureAlgorithm: must be one of HS256, /,
  },
  'policy-auth-oauth2': {
    valid: { tokenNeverExpires: false, tokenExpiresInAmount: 3600, tokenExpiresInUnit: 'SECONDS', grantType: 'CLIENT_CREDENTIALS', deletePrevious: true },
    invalid: { tokenNeverExpires: false, tokenExpiresInAmount: 3600 },
    refused: /^policy\.tokenExpiresInUnit: is required when tokenNeverExpires is false/,
  },
  'policy-oidc': {
    valid: {
      issuer: 'https://accounts.google.com', authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth', tokenEndpoint: 'https://oauth2.googleapis.com/token',
      clientId: 'my-client', clientSecret: 'client-secret', redirectUri: 'https://api.example.com/oidc/callback', flowType: 'AUTHORIZATION_CODE', enablePKCE: true, scopes: ['openid', 'profile', 'email'],
    },
    invalid: { issuer: 'https://accounts.google.com', authorizationEndpoint: 'https://a.example.com/auth', tokenEndpoint: 'https://a.example.com/token', clientId: 'c', redirectUri: 'https://api.example.com/cb', scopes: ['profile'] },
    refused: /^policy\.scopes: must include 'openid' for OIDC flows/,
  },
  'policy-auth-mtls': {
    valid: { validateCertificate: true, validateACLForIssuer: false },
    invalid: { validateCertificate: 'yes' },
    refused: /^policy\.validateCertificate: must be true or false/,
  },
  'policy-api-authentication': {
    valid: { authType: 'BASIC', sendType: 'HEADER', usernameFieldName: 'X-Username', passwordFieldName: 'X-Password', messageContentType: 'XML', apiAuthCondExpressionList: [{ username: 'api-user', password: 'api-password' }] },
    invalid: { authType: 'BASIC', sendType: 'BODY_MESSAGE', messageContentType: 'JSON', apiAuthCondExpressionList: [{ username: 'api-user', password: 'api-password' }] },
    refused: /^policy\.bodyMessage: is required when sendType is BODY_MESSAGE/,
  },
  'policy-saml-validation': {
    valid: { keyStoreName: FIXTURES.keystore, allowUnknownSigner: false, clearSaml: false },
    invalid: { keyStoreName: FIXTURES.keystore, clearSaml: true },
    refused: /^policy\.clearSamlPath: is required when clearSaml is true/,
  },
  // ws-security
  'policy-ws-security-encrypt': {
    valid: { mustUnderstand: true, encPartList: [{ ...BODY_PART, encodeType: 'CONTENT' }], encKeyIdType: 'X509_CERTIFICATE', encSymEncAlgorithm: 'AES_256_CBC', encKeyEncAlgorithm: 'OAEP', encKeyStoreName: FIXTURES.keystore },
    invalid: { encSymEncAlgorithm: 'AES_512_CBC', encKeyStoreName: FIXTURES.keystore },
    refused: /^policy\.encSymEncAlgorithm: must be one of AES_128_CBC, AES_192_CBC, AES_256_CBC/,
  },
  'policy-ws-security-decrypt': {
    valid: { allowCaseInsensitiveId: true, decKeyStoreName: FIXTURES.keystore },
    invalid: { allowCaseInsensitiveId: true },
    refused: /^policy\.decKeyStoreName: /,
  },
  'policy-ws-security-sign': {
    valid: { sigPartList: [{ ...BODY_PART, encodeType: 'ELEMENT' }], sigKeyIdType: 'X509_CERTIFICATE', sigSigAlgorithm: 'RSA_SHA256', sigC14n: 'C14N_EXCL_OMIT_COMMENTS', sigDigAlgorithm: 'SHA256', sigKeyStoreName: FIXTURES.keystore },
    invalid: { sigSigAlgorithm: 'RSA_SHA256', sigDigAlgorithm: 'SHA256', sigKeyStoreName: FIXTURES.keystore },
    refused: /^policy\.sigC14n: /,
  },
  'policy-ws-security-sign-validation': {
    valid: { enableEnhancedSignatureValidation: true, verKeyStoreName: FIXTURES.keystore, removeSignature: true },
    invalid: { verKeyStoreName: '  ' },
    refused: /^policy\.verKeyStoreName: must not be blank/,
  },
  'policy-ws-security-username': {
    valid: { mustUnderstand: true, username: 'myuser', password: 'mypassword', passwordType: 'PasswordDigest', nonce: true, created: true },
    invalid: { username: 'myuser', password: 'mypassword', passwordType: 'Plain' },
    refused: /^policy\.passwordType: must be one of PasswordText, PasswordDigest/,
  },
  'policy-ws-security-timestamp': {
    valid: { mustUnderstand: true, timeToLive: 300 },
    invalid: { timeToLive: -1 },
    refused: /^policy\.timeToLive: must be at least 0/,
  },
  'policy-ws-security-from-target': {
    valid: { decExists: true, verExists: true, decKeyStoreName: FIXTURES.keystore, verKeyStoreName: FIXTURES.keystore },
    invalid: { decExists: true, verExists: false },
    refused: /^policy\.decKeyStoreName: is required when decExists is true/,
  },
  'policy-ws-security-to-target': {
    valid: { tsTimeToLive: 300, unUsername: 'myuser', unPassword: 'mypassword', unPasswordType: 'PasswordText', unNonce: true, wsSecurityEntryOrderList: ['TIMESTAMP', 'USERNAME_TOKEN'] },
    invalid: { wsSecurityEntryOrderList: ['SIGNATURE'] },
    refused: /^policy\.sigPartList: is required when SIGNATURE is in wsSecurityEntryOrderList/,
  },
  // message security
  'policy-jose-validation': {
    valid: {
      joseTarget: 'AUTHORIZATION_HEADER', clientSourcePart: 'CLAIMS', clientFieldname: 'iss', acceptedAudienceList: ['api://myapi'], requiredClaimList: ['sub', 'exp'],
      validateSign: true, validateByIssuer: false, jwkIdForValidationAndSign: FIXTURES.jwk, decrypt: false, stripAndDecode: 'NONE',
    },
    invalid: { joseTarget: 'BODY', clientSourcePart: 'CLAIMS', decrypt: false, stripAndDecode: 'PARTIAL' },
    refused: /^policy\.jwtClaimsToDecode: is required when stripAndDecode is PARTIAL/,
  },
  'policy-jose-implementation': {
    valid: {
      joseTarget: 'BODY', addIssueTime: true, addIssuer: true, issuer: 'https://myapi.com', addAudience: true, audienceList: ['api://myapi'], addSubject: false, addTypeToHeader: true, typeValue: 'JWT',
      addExpirationTime: true, expirationTimeValue: 3600, expirationTimeUnit: 'SECONDS', additionalClaimMap: { role: { value: 'admin', valueType: 'STRING' } }, sign: true, signByIssuer: false, jwkIdForValidationAndSign: FIXTURES.jwk, encrypt: false,
    },
    invalid: { joseTarget: 'BODY', addIssuer: false, addAudience: false, addSubject: false, addTypeToHeader: false, addExpirationTime: false, sign: false, encrypt: true },
    refused: /^policy\.encryptionMethod: is required when encrypt is true/,
  },
  'policy-digital-sign': {
    valid: { policyDigitalSignDefList: [{ sourceVar: { type: 'BODY', jsonPathValue: '$' }, signatureVar: header('X-Signature'), signatureAlgorithm: 'SHA256withRSA', enumKeyCertificateType: 'CERTIFICATE', certificateId: FIXTURES.certificate, outputEncodingType: 'BASE64' }] },
    invalid: { policyDigitalSignDefList: [] },
    refused: /^policy\.policyDigitalSignDefList: must contain at least one entry/,
  },
  'policy-digital-sign-verification': {
    valid: { policyDigitalSignVerificationDefList: [{ sourceVar: { type: 'BODY' }, signatureVar: header('X-Signature'), signatureAlgorithm: 'SHA256withECDSA', enumKeyCertificateType: 'KEY', cryptoKeyInfoId: FIXTURES.signingKey, inputEncodingType: 'HEXADECIMAL' }] },
    invalid: { policyDigitalSignVerificationDefList: [{ sourceVar: { type: 'BODY' }, signatureVar: header('X-Signature'), cryptoKeyInfoId: FIXTURES.signingKey }] },
    refused: /^policy\.policyDigitalSignVerificationDefList\[0\]\.signatureAlgorithm: signatureAlgorithm or signatureAlgorithmVar is required/,
  },
  'policy-encryption': {
    valid: {
      policyEncryptionDefList: [{
        sourceVar: { type: 'BODY' }, targetVar: header('X-Encrypted'), cipherAlgorithm: 'AES_CBC_PKCS5Padding', enumKeyCertificateType: 'KEY', cryptoKeyInfoId: FIXTURES.aesKey,
        createIV: true, ivVar: header('X-IV'), ivEncodingType: 'BASE64', outputEncodingType: 'BASE64',
      }],
    },
    invalid: { policyEncryptionDefList: [{ sourceVar: { type: 'BODY' }, targetVar: header('X-Encrypted'), cipherAlgorithm: 'ROT13', cryptoKeyInfoId: FIXTURES.aesKey, outputEncodingType: 'BASE64' }] },
    refused: /^policy\.policyEncryptionDefList\[0\]\.cipherAlgorithm: must be one of AES_CBC_NoPadding/,
  },
  'policy-decryption': {
    valid: {
      policyDecryptionDefList: [{
        sourceVar: header('X-Encrypted'), targetVar: { type: 'BODY' }, cipherAlgorithm: 'RSA_ECB_PKCS1Padding', enumKeyCertificateType: 'CERTIFICATE', certificateId: FIXTURES.certificate, ivExists: false, inputEncodingType: 'BASE64',
      }],
    },
    invalid: { policyDecryptionDefList: [{ sourceVar: header('X-Encrypted'), targetVar: { type: 'BODY' }, cipherAlgorithm: 'AES_CBC_PKCS5Padding', cryptoKeyInfoId: FIXTURES.aesKey }] },
    refused: /^policy\.policyDecryptionDefList\[0\]\.inputEncodingType: /,
  },
  // traffic
  'policy-api-based-throttling': {
    valid: {
      targetVariableForIdentity: header('X-API-Key'), messageCountForInterval: 100, throttlingInterval: 'ONE_MINUTE', intervalPeriodLength: 1, intervalWindowType: 'FIXED', cacheConnectionTimeoutInSeconds: 3, cacheErrorHandlingType: 'ALLOW',
      detailList: [{ targetValue: 'VIP', regexExpression: false, messageCountForInterval: 1000, intervalPeriodLength: 1, quotaInterval: 'ONE_MINUTE' }],
    },
    invalid: { targetVariableForIdentity: header('X-API-Key'), messageCountForInterval: 100, throttlingInterval: 'ONE_MONTH' },
    refused: /^policy\.throttlingInterval: must be one of ONE_SECOND, ONE_MINUTE, ONE_HOUR, ONE_DAY/,
  },
  'policy-api-based-quota': {
    valid: { targetVariableForIdentity: header('X-API-Key'), messageCountForInterval: 10000, quotaInterval: 'ONE_DAY', intervalWindowType: 'SLIDING', cacheErrorHandlingType: 'CONTINUE', showRateLimitStatisticsInResponseHeader: true },
    invalid: { targetVariableForIdentity: header('X-API-Key'), messageCountForInterval: 0, quotaInterval: 'ONE_DAY' },
    refused: /^policy\.messageCountForInterval: must be at least 1/,
  },
  'policy-client-ban': {
    valid: {
      clientIdentityVariableList: [header('X-API-Key')], thresholdWindowInSeconds: 10, thresholdCountPerWindow: 5, thresholdCalculationType: 'COUNT', banTimeInSeconds: 300, enableRetryAfterHeader: true,
      assertionCondition: { criteria: 'IF_ANY_MATCH', rules: [{ variable: { type: 'HTTP_STATUS_CODE' }, comparisonOperator: 'GE', value: '400', valueSource: 'VALUE' }] },
    },
    invalid: { clientIdentityVariableList: [], thresholdWindowInSeconds: 10, thresholdCountPerWindow: 5, thresholdCalculationType: 'COUNT', banTimeInSeconds: 300, assertionCondition: { criteria: 'ALWAYS', rules: [] } },
    refused: /^policy\.clientIdentityVariableList: must contain at least one entry/,
  },
  'policy-client-banner': {
    valid: { clientIdentityVariableList: [{ type: 'CLIENT_IP' }], thresholdWindowInSeconds: 60, thresholdCountPerWindow: 50, thresholdCalculationType: 'PERCENT', banTimeInSeconds: 600, assertionCondition: { criteria: 'ALWAYS', rules: [] } },
    invalid: { clientIdentityVariableList: [{ type: 'CLIENT_IP' }], thresholdWindowInSeconds: 60, thresholdCountPerWindow: 150, thresholdCalculationType: 'PERCENT', banTimeInSeconds: 600, assertionCondition: { criteria: 'ALWAYS', rules: [] } },
    refused: /^policy\.thresholdCountPerWindow: must be at most 100 when thresholdCalculationType is PERCENT/,
  },
  'policy-endpoint-rate-limit': {
    valid: { endpointName: 'GET /users', permittedMessageCount: 100, timeIntervalPeriodLength: 1, timeInterval: 'ONE_MINUTE', targetVariable: header('X-API-Key'), cacheErrorHandlingType: 'PASS', timeIntervalWindowType: 'SLIDING', enabled: true },
    invalid: { permittedMessageCount: 100, timeIntervalPeriodLength: 1 },
    refused: /^policy\.timeInterval: /,
  },
  // ip filtering
  'policy-black-ip': {
    valid: { targetVariableForIP: null, ipList: ['192.168.1.100', '10.0.0.0/8', '2001:db8::/32'] },
    invalid: { ipList: ['192.168.1.100', '300.1.1.1'] },
    refused: /^policy\.ipList\[1\]: must be an IP address or a CIDR range/,
  },
  'policy-white-ip': {
    valid: { targetVariableForIP: { type: 'HEADER', headerName: 'X-Forwarded-For' }, ipList: ['203.0.113.0/24'] },
    invalid: { ipList: [] },
    refused: /^policy\.ipList: must contain at least one IP address or CIDR range/,
  },
  // transformation
  'policy-json-transformation': {
    valid: { transformationType: 'JSON2JSON', joltValue: '[{"operation":"shift","spec":{"userId":"user.id"}}]' },
    invalid: { transformationType: 'JSON2JSON', jsonToXmlIgnoreNull: true },
    refused: /^policy\.joltValue: is required when transformationType is JSON2JSON/,
  },
  'policy-xml-transformation': {
    valid: { transformationType: 'XML2JSON', xmlToJsonIgnoreNull: true, xmlToJsonArrayPathList: ['/root/users/user'] },
    invalid: { transformationType: 'XML2YAML' },
    refused: /^policy\.transformationType: must be one of XML2XML, XML2JSON/,
  },
  'policy-request-protocol-transformation': {
    valid: { policyCondition: { conditionRuleList: [] }, errorMessageList: [] },
    invalid: { errorMessageList: 'none' },
    refused: /^policy\.errorMessageList: /,
  },
  'policy-response-protocol-transformation': {
    valid: { apiMethodList: [{ id: 'method-1', name: 'getUser', active: true, httpMethod: 'GET', backendResourceUrl: '/soap/UserService', backendHttpMethod: 'POST' }] },
    invalid: { apiMethodList: [{ id: 'method-1', name: 'getUser', httpMethod: 'FETCH', backendResourceUrl: '/soap/UserService', backendHttpMethod: 'POST' }] },
    refused: /^policy\.apiMethodList\[0\]\.httpMethod: must be one of GET, POST/,
  },
  // validation
  'policy-json-schema-validation': {
    valid: { pathForBody: '$', schemaDefinitionList: [{ schemaNo: 0, schemaBody: '{"type":"object","required":["name"]}', rootSchema: true }] },
    invalid: { pathForBody: '$', schemaDefinitionList: [{ schemaBody: 'not json' }] },
    refused: /^policy\.schemaDefinitionList\[0\]\.schemaBody: must be a JSON Schema/,
  },
  'policy-xml-schema-validation': {
    valid: { pathForBody: '/', validateAgainstSpec: false, schemaDefinitionList: [{ schemaNo: 0, schemaBody: '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>', rootSchema: true }] },
    invalid: { pathForBody: '/', validateAgainstSpec: false, schemaDefinitionList: [] },
    refused: /^policy\.schemaDefinitionList: must contain at least one schema definition when validateAgainstSpec is false/,
  },
  'policy-max-message-size': { valid: { maxMessageSize: 1048576 }, invalid: { maxMessageSize: 0 }, refused: /^policy\.maxMessageSize: must be at least 1/ },
  'policy-min-message-size': { valid: { minMessageSize: 100 }, invalid: { minMessageSize: 'big' }, refused: /^policy\.minMessageSize: must be a number/ },
  // content
  'policy-content-filter': {
    valid: { policyContentFilterDefList: [{ name: 'SQL Injection Filter', ruleValue: '(?i)(union|select|drop)', headerActive: false, bodyActive: true, paramActive: true, action: 'BLOCK', contentType: 'ALL_BODY' }] },
    invalid: { policyContentFilterDefList: [{ name: 'nothing', ruleValue: 'x', headerActive: false, bodyActive: false }] },
    refused: /^policy\.policyContentFilterDefList\[0\]\.headerActive: one of headerActive, bodyActive or paramActive must be true/,
  },
  'policy-redaction': {
    valid: {
      redactionDefList: [{
        redactionType: 'KEY_EXISTENCE', keyValueVar: header('X-Credit-Card'),
        redactionDefDetailList: [{ orderNum: 1, action: { actionType: 'MODIFY', sourceVar: header('X-Credit-Card'), sourceDataType: 'STRING', operator: 'MASK', maskFrom: 4, maskTo: 12, targetValSource: 'VALUE', targetVal: '****' } }],
      }],
    },
    invalid: { redactionDefList: [{ redactionType: 'KEY_VALUE', keyValueVar: header('X-Card'), redactionDefDetailList: [{ orderNum: 1, action: { actionType: 'DELETE', sourceVar: header('X-Card') } }] }] },
    refused: /^policy\.redactionDefList\[0\]\.keyValueListStr: is required for KEY_VALUE/,
  },
  // scripting, integration, advanced
  'policy-script': {
    valid: { executionType: 'SYNC', scriptLanguage: 'GROOVY', scriptBody: "request.setHeader('X-Custom-Header', 'CustomValue')" },
    invalid: { executionType: 'SYNC', scriptLanguage: 'PYTHON', scriptBody: 'print(1)' },
    refused: /^policy\.scriptLanguage: must be one of GROOVY, JAVASCRIPT/,
  },
  'policy-api-call': {
    valid: {
      callType: 'SYNCHRONOUS', httpMethod: 'POST', url: 'https://api.example.com/validate', timeout: 5000, removeAllHeadersBeforeCall: true,
      headersToBeAddedBeforeCallList: [{ name: 'Content-Type', valueSource: 'VALUE', value: 'application/json' }, { name: 'Authorization', valueSource: 'VARIABLE', variable: header('Authorization'), prefix: 'BEARER' }],
      enableCache: true, cacheBy: header('Authorization'), capacity: 1000, ttl: 3600, cacheStorageType: 'DISTRIBUTED', afterCallBodyOperationType: 'REPLACE_BODY',
    },
    invalid: { callType: 'SYNCHRONOUS', httpMethod: 'POST', url: 'ftp://api.example.com/validate' },
    refused: /^policy\.url: must be an http\(s\) URL/,
  },
  'policy-time-restriction': {
    valid: {
      actionType: 'ALLOW', zoneId: '+03:00',
      restrictionList: [
        { hourName: 'Business Hours', dayType: 'WEEK', enumWeekDayList: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'], wholeDay: false, startHour: 9, startMinute: 0, startSecond: 0, endHour: 18, endMinute: 0, endSecond: 0 },
        { hourName: 'Christmas Day', dayType: 'CUSTOM', day: 25, month: 12, wholeDay: true },
      ],
    },
    invalid: { actionType: 'RESTRICT', zoneId: 'Europe/Istanbul', restrictionList: [{ dayType: 'WEEK', enumWeekDayList: ['MONDAY'], wholeDay: false, startHour: 18, startMinute: 0, startSecond: 0, endHour: 9, endMinute: 0, endSecond: 0 }] },
    refused: /^policy\.restrictionList\[0\]\.endHour: the end time must be after the start time/,
  },
  'policy-business-rule': {
    valid: { actionList: [{ actionType: 'ADD', sourceVar: { type: 'CONTEXT_VALUES', contextValue: 'NOW' }, sourceDataType: 'STRING', targetValSource: 'VALUE', targetVal: '${NOW}', targetVar: header('X-Timestamp') }, { actionType: 'STOP' }] },
    invalid: { actionList: [{ actionType: 'MODIFY', sourceVar: header('X-Amount'), sourceDataType: 'NUMERIC', targetValSource: 'VALUE', targetVal: '2' }] },
    refused: /^policy\.actionList\[0\]\.operator: is required for a MODIFY action/,
  },
  'policy-group': {
    valid: { condition: { criteria: 'ALWAYS', rules: [] } },
    invalid: { condition: { criteria: 'SOMETIMES', rules: [] } },
    refused: /^policy\.condition\.criteria: must be one of ALWAYS, IF_ALL_MATCH, IF_ANY_MATCH, IF_NONE_MATCH/,
  },
}
