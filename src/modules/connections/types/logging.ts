import { z } from 'zod'
import { base64Secret, bool, enumOf, host, int, need, nonNegative, optional, optionalBool, optionalText, port, positive, present, required, secret, text, withDefault } from './common.js'

// Vendor pages connection-elasticsearch, connection-graylog, connection-syslog, connection-logback.

export const ENCRYPT_TYPES = ['CA_CERTIFICATE_IN_PKCS_12', 'CA_IN_PEM_FILE', 'CERT_AND_PRIVATE_KEY_IN_PKCS_12'] as const
export const ELASTIC_ACCESS_TYPES = ['READ_WRITE', 'READ'] as const

const elasticHost = z.object({ scheme: withDefault(enumOf(['http', 'https']), 'http'), host: host(), port: withDefault(port(), 9200) })

const lifecyclePolicy = z
  .object({
    policyName: withDefault(required(255), 'apinizer-log-ilm-policy-default'),
    enableHotPhase: bool(false),
    maxAgeOfRollover: optional(positive()),
    maxIndexSizeOfRollover: optional(positive()),
    maxDocCountOfRollover: optional(positive()),
    enableWarmPhase: bool(false),
    numberOfReplicasForWarm: optional(nonNegative()),
    maxNumShardsForShrink: optional(positive()),
    maxNumSegmentsForForceMerge: optional(positive()),
    enableColdPhase: bool(false),
    minAgeOfCold: optional(nonNegative()),
    numberOfReplicasForCold: optional(nonNegative()),
    enableDeletePhase: bool(false),
    minAgeOfDelete: optional(nonNegative()),
  })
  .superRefine((p, ctx) => {
    if (!p.enableHotPhase && !p.enableWarmPhase && !p.enableColdPhase && !p.enableDeletePhase) need(ctx, 'enableHotPhase', 'at least one phase must be enabled')
  })

/**
 * Elasticsearch. The page names its access mode `type` (READ_WRITE, READ) beside the discriminator `type`; a
 * JSON object keeps one of them, so the access mode is `accessType` here (see the service for how a body whose
 * `type` is READ_WRITE or READ is read). Passwords and the CA/keystore files are secrets.
 */
export const elasticsearchFields = z
  .object({
    administrate: bool(false),
    elasticHostList: z.array(elasticHost, { error: 'must be a list of {scheme, host, port}' }).min(1, 'must hold at least one host'),
    authenticate: bool(false),
    elasticUsername: optionalText(255),
    elasticPassword: secret(),
    encryptCommunication: bool(false),
    encryptCommunicationType: optional(enumOf(ENCRYPT_TYPES)),
    caCertInPkcs12File: base64Secret(),
    caCertInPkcs12FileContentType: withDefault(text(255), 'application/x-pkcs12'),
    caInPemFile: base64Secret(),
    caInPemFileContentType: withDefault(text(255), 'application/x-pem-file'),
    caTruststoreFile: base64Secret(),
    caTruststoreFileContentType: withDefault(text(255), 'application/x-pkcs12'),
    caTruststoreFilePass: secret(),
    caKeystoreFile: base64Secret(),
    caKeystoreFileContentType: withDefault(text(255), 'application/x-pkcs12'),
    caKeystoreFilePass: secret(),
    disableHostnameVerification: bool(false),
    indexLifecyclePolicyCreated: bool(false),
    indexLifecyclePolicy: optional(lifecyclePolicy),
    indexTemplateCreated: bool(false),
    indexTemplateName: optionalText(255),
    indexName: optionalText(255),
    indexTemplateNumberOfShards: optional(positive()),
    indexTemplateNumberOfReplicas: optional(nonNegative()),
    indexTemplateRefreshInterval: optional(text(20).regex(/^(-1|\d+(ms|s|m|h|d))$/, 'must be a duration such as 1s, 500ms or -1')),
    connectionTimeoutInMs: optional(positive()),
    socketReuseAddress: optionalBool(),
    socketKeepAlive: optionalBool(),
    ioThreads: optional(positive()),
    maxConnectionPerHost: optional(positive()),
    maxConnectionTotal: optional(positive()),
    accessType: withDefault(enumOf(ELASTIC_ACCESS_TYPES), 'READ_WRITE'),
  })
  .superRefine((v, ctx) => {
    if (v.authenticate && !v.elasticUsername) need(ctx, 'elasticUsername', 'is required when authenticate is true')
    if (v.authenticate && !present(v.elasticPassword)) need(ctx, 'elasticPassword', 'is required when authenticate is true')
    if (v.encryptCommunication && !v.encryptCommunicationType) need(ctx, 'encryptCommunicationType', 'is required when encryptCommunication is true')
    if (v.encryptCommunication && v.encryptCommunicationType === 'CA_CERTIFICATE_IN_PKCS_12' && !present(v.caCertInPkcs12File)) need(ctx, 'caCertInPkcs12File', 'is required when encryptCommunicationType is CA_CERTIFICATE_IN_PKCS_12')
    if (v.encryptCommunication && v.encryptCommunicationType === 'CA_IN_PEM_FILE' && !present(v.caInPemFile)) need(ctx, 'caInPemFile', 'is required when encryptCommunicationType is CA_IN_PEM_FILE')
    if (v.encryptCommunication && v.encryptCommunicationType === 'CERT_AND_PRIVATE_KEY_IN_PKCS_12') {
      if (!present(v.caKeystoreFile)) need(ctx, 'caKeystoreFile', 'is required when encryptCommunicationType is CERT_AND_PRIVATE_KEY_IN_PKCS_12')
      if (!present(v.caKeystoreFilePass)) need(ctx, 'caKeystoreFilePass', 'is required when encryptCommunicationType is CERT_AND_PRIVATE_KEY_IN_PKCS_12')
    }
    if (present(v.caKeystoreFile) && !present(v.caKeystoreFilePass)) need(ctx, 'caKeystoreFilePass', 'is required when caKeystoreFile is given')
    if (v.indexLifecyclePolicyCreated && !v.indexLifecyclePolicy) need(ctx, 'indexLifecyclePolicy', 'is required when indexLifecyclePolicyCreated is true')
    if (v.indexTemplateCreated && !v.indexTemplateName) need(ctx, 'indexTemplateName', 'is required when indexTemplateCreated is true')
  })

export const GELF_TRANSPORTS = ['TCP', 'UDP'] as const
export const COMPRESSIONS = ['NONE', 'GZIP', 'ZLIB'] as const
export const GELF_LEVELS = ['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR', 'WARNING', 'NOTICE', 'INFO', 'DEBUG'] as const

/** Graylog (GELF). With tlsCertVerificationEnabled the trust chain file (a secret, base64) is required. */
export const graylogFields = z
  .object({
    hostname: host(),
    port: withDefault(port(), 12201),
    transportType: withDefault(enumOf(GELF_TRANSPORTS), 'TCP'),
    tlsEnabled: bool(false),
    tlsCertVerificationEnabled: bool(false),
    compressionType: withDefault(enumOf(COMPRESSIONS), 'NONE'),
    gelfMessageLevel: withDefault(enumOf(GELF_LEVELS), 'INFO'),
    queueSize: withDefault(positive(), 512),
    reconnectDelay: withDefault(nonNegative(), 2500),
    connectTimeout: withDefault(positive(), 10_000),
    tcpNoDelay: bool(true),
    tcpKeepAlive: bool(false),
    sendBufferSize: withDefault(int().min(-1, 'must be -1 (system default) or a size in bytes'), -1),
    maxInflightSends: withDefault(positive(), 512),
    threads: withDefault(nonNegative(), 0),
    tlsTrustCertChainFile: base64Secret(),
    tlsTrustCertChainFileName: optionalText(255),
    appendToAttributes: bool(true),
    appendToMessage: bool(true),
  })
  .superRefine((v, ctx) => {
    if (v.tlsEnabled && v.transportType === 'UDP') need(ctx, 'tlsEnabled', 'TLS needs transportType TCP')
    if (v.tlsCertVerificationEnabled && !present(v.tlsTrustCertChainFile)) need(ctx, 'tlsTrustCertChainFile', 'is required when tlsCertVerificationEnabled is true')
  })

export const SYSLOG_PROTOCOLS = ['TCP', 'UDP'] as const
export const SYSLOG_FORMATS = ['RFC_3164', 'RFC_5424', 'RFC_5425'] as const
export const SYSLOG_FACILITIES = [
  'KERN', 'USER', 'MAIL', 'DAEMON', 'AUTH', 'SYSLOG', 'LPR', 'NEWS', 'UUCP', 'CRON', 'AUTHPRIV', 'FTP', 'NTP', 'AUDIT', 'ALERT', 'CLOCK',
  'LOCAL0', 'LOCAL1', 'LOCAL2', 'LOCAL3', 'LOCAL4', 'LOCAL5', 'LOCAL6', 'LOCAL7',
] as const
export const SYSLOG_SEVERITIES = ['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR', 'WARNING', 'NOTICE', 'INFORMATIONAL', 'DEBUG'] as const

/** Syslog. SSL only over TCP. */
export const syslogFields = z
  .object({
    syslogProtocolType: withDefault(enumOf(SYSLOG_PROTOCOLS), 'TCP'),
    syslogMessageHostname: optionalText(255),
    syslogServerHostname: host(),
    syslogPort: withDefault(port(), 514),
    syslogTimeout: withDefault(positive(), 500),
    syslogMessageFormat: withDefault(enumOf(SYSLOG_FORMATS), 'RFC_3164'),
    syslogAppName: withDefault(required(48), 'Apinizer'),
    syslogFacility: withDefault(enumOf(SYSLOG_FACILITIES), 'AUDIT'),
    syslogSeverity: withDefault(enumOf(SYSLOG_SEVERITIES), 'INFORMATIONAL'),
    syslogSslEnabled: bool(false),
  })
  .superRefine((v, ctx) => {
    if (v.syslogSslEnabled && v.syslogProtocolType === 'UDP') need(ctx, 'syslogSslEnabled', 'SSL needs syslogProtocolType TCP')
  })

/** Logback: logPath gets its trailing '/', logFileName loses a leading '/' (as the page says). */
export const logbackFields = z.object({
  logPath: required(1000).regex(/^[^\u0000-\u001f]+$/, 'must be a directory path').transform((p) => (p.endsWith('/') ? p : `${p}/`)),
  logFileName: required(255).transform((n) => n.replace(/^\/+/, '')).refine((n) => n.length > 0 && !n.includes('/'), 'must be a file name without /'),
  logPodName: withDefault(text(255), ''),
  logFilenamePattern: withDefault(required(255), '%d{yyyy-MM-dd}.%i.log'),
  logPattern: withDefault(required(2000), '%d{yyyy-MM-dd HH:mm:ss.SSS}[%m]%n'),
  maxFileSize: withDefault(positive(), 25),
  maxHistory: withDefault(nonNegative(), 0),
  totalSizeCap: withDefault(nonNegative(), 0),
})
