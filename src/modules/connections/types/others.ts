import { z } from 'zod'
import { bool, enumOf, host, need, nonNegative, optional, optionalText, port, positive, present, required, secret, text, withDefault } from './common.js'

// Vendor pages connection-email, connection-database, connection-ldap, connection-ftp, connection-snmp,
// connection-linux-script.

const email = () => text(320).trim().regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address')

/** E-mail (SMTP): with auth, username and password are required. */
export const emailFields = z
  .object({
    host: host(),
    port: withDefault(port(), 587),
    enableStartTls: bool(false),
    auth: bool(false),
    username: optionalText(320),
    password: secret(),
    defaultEncoding: withDefault(required(50), 'UTF-8'),
    addressToTest: optional(email()),
    from: optional(email()),
    additionalProperties: withDefault(z.array(z.object({ name: required(255), value: text(2000) }), { error: 'must be a list of {name, value}' }), []),
  })
  .superRefine((v, ctx) => {
    if (v.auth && !v.username) need(ctx, 'username', 'is required when auth is true')
    if (v.auth && !present(v.password)) need(ctx, 'password', 'is required when auth is true')
  })

export const DB_TYPES = ['ORACLE', 'MYSQL', 'POSTGRES', 'SQL_SERVER', 'SYBASE', 'DB2', 'APACHE_HIVE', 'APACHE_IMPALA', 'MONGODB', 'TRINO'] as const
type DbType = (typeof DB_TYPES)[number]
/** jdbc:<subprotocol> → dbType, for a body that names the URL (or the driver class) but not the type */
const SUBPROTOCOLS: [RegExp, DbType][] = [
  [/^jdbc:postgresql:/i, 'POSTGRES'], [/^jdbc:(mysql|mariadb):/i, 'MYSQL'], [/^jdbc:oracle:/i, 'ORACLE'], [/^jdbc:sqlserver:/i, 'SQL_SERVER'],
  [/^jdbc:(sybase|jtds:sybase):/i, 'SYBASE'], [/^jdbc:db2:/i, 'DB2'], [/^jdbc:hive2:/i, 'APACHE_HIVE'], [/^jdbc:impala:/i, 'APACHE_IMPALA'],
  [/^jdbc:mongodb:/i, 'MONGODB'], [/^jdbc:trino:/i, 'TRINO'],
]
const DRIVERS: [RegExp, DbType][] = [[/postgresql/i, 'POSTGRES'], [/mysql|mariadb/i, 'MYSQL'], [/oracle/i, 'ORACLE'], [/sqlserver/i, 'SQL_SERVER'], [/db2/i, 'DB2']]
const URL_OF: Partial<Record<DbType, (h: string, p: number | null, d: string) => string>> = {
  POSTGRES: (h, p, d) => `jdbc:postgresql://${h}:${p ?? 5432}/${d}`,
  MYSQL: (h, p, d) => `jdbc:mysql://${h}:${p ?? 3306}/${d}`,
  SQL_SERVER: (h, p, d) => `jdbc:sqlserver://${h}:${p ?? 1433};databaseName=${d}`,
  ORACLE: (h, p, d) => `jdbc:oracle:thin:@${h}:${p ?? 1521}/${d}`,
  MONGODB: (h, p, d) => `jdbc:mongodb://${h}:${p ?? 27017}/${d}`,
}

/**
 * Database (JDBC). dbType and jdbcUrl are required; a body without dbType gets it from the jdbcUrl's
 * sub-protocol or the create page's `driverClassName`, and one without jdbcUrl gets it from host, port and
 * databaseName (the create and update pages' examples send those). With useCredentials, username and password.
 */
export const databaseFields = z
  .object({
    dbType: optional(enumOf(DB_TYPES)),
    jdbcUrl: optional(required(2000).regex(/^jdbc:[A-Za-z0-9]+:/, 'must be a JDBC URL (jdbc:<subprotocol>:…)')),
    host: optional(host()),
    port: optional(port()),
    driverClassName: optionalText(255),
    useCredentials: bool(true),
    username: optionalText(255),
    databaseName: optionalText(255),
    password: secret(),
    initialPoolSize: withDefault(nonNegative(), 1),
    minPoolSize: withDefault(nonNegative(), 1),
    maxPoolSize: withDefault(positive(), 5),
    incrementCount: withDefault(positive(), 1),
    maxStatements: withDefault(nonNegative(), 100),
    idleConnectionTestPeriod: withDefault(nonNegative(), 30_000),
    connectionTimeout: withDefault(positive(), 30_000),
    testConnectionOnCheckout: bool(true),
    testConnectionOnCheckin: bool(false),
    maxConnectionAge: withDefault(nonNegative(), 180_000),
    maxIdleTime: withDefault(nonNegative(), 120_000),
    selectedEnvironmentId: optionalText(200),
  })
  .transform((v) => {
    const dbType = v.dbType ?? SUBPROTOCOLS.find(([re]) => v.jdbcUrl && re.test(v.jdbcUrl))?.[1] ?? DRIVERS.find(([re]) => v.driverClassName && re.test(v.driverClassName))?.[1] ?? null
    const build = dbType ? URL_OF[dbType] : undefined
    const jdbcUrl = v.jdbcUrl ?? (build && v.host && v.databaseName ? build(v.host, v.port, v.databaseName) : null)
    return { ...v, dbType, jdbcUrl }
  })
  .superRefine((v, ctx) => {
    if (!v.dbType) need(ctx, 'dbType', `is required (one of ${DB_TYPES.join(', ')})`)
    if (!v.jdbcUrl) need(ctx, 'jdbcUrl', 'is required (or host and databaseName with a dbType)')
    if (v.useCredentials && !v.username) need(ctx, 'username', 'is required when useCredentials is true')
    if (v.useCredentials && !present(v.password)) need(ctx, 'password', 'is required when useCredentials is true')
    if (v.minPoolSize > v.maxPoolSize) need(ctx, 'minPoolSize', 'must not exceed maxPoolSize')
    if (v.initialPoolSize > v.maxPoolSize) need(ctx, 'initialPoolSize', 'must not exceed maxPoolSize')
  })

export const LDAP_CERTIFICATE_TYPES = ['NOT_REQUIRED', 'REQUIRED_CN', 'REQUIRED_AN_PN'] as const
export const SEARCH_SCOPES = ['OBJECT', 'ONE_LEVEL', 'SUBTREE'] as const

/** LDAP: serverAddress (ldap:// or ldaps://), bind DN, password and baseDn are required; useSsl needs ldaps://. */
export const ldapFields = z
  .object({
    serverAddress: required(2000).regex(/^ldaps?:\/\/[^\s/:]+(:\d{1,5})?\/?$/i, 'must be ldap://host[:port] or ldaps://host[:port]'),
    requireCertificateType: withDefault(enumOf(LDAP_CERTIFICATE_TYPES), 'NOT_REQUIRED'),
    username: required(1000),
    password: secret(),
    customFilter: optionalText(2000),
    searchScope: withDefault(enumOf(SEARCH_SCOPES), 'SUBTREE'),
    baseDn: required(1000),
    certificateId: optionalText(200),
    certificateName: optionalText(200),
    useSsl: bool(false),
    selectedEnvironmentId: optionalText(200),
  })
  .superRefine((v, ctx) => {
    if (!present(v.password)) need(ctx, 'password', 'is required')
    const port = /:(\d+)\/?$/.exec(v.serverAddress)?.[1]
    if (port && (Number(port) < 1 || Number(port) > 65535)) need(ctx, 'serverAddress', 'port must be between 1 and 65535')
    if (v.useSsl && !/^ldaps:/i.test(v.serverAddress)) need(ctx, 'serverAddress', 'must use ldaps:// when useSsl is true')
  })

export const FTP_PROTOCOLS = ['FTP', 'SFTP', 'FTPS'] as const

/** FTP/SFTP/FTPS: host, username, password, protocol required; FTPS needs exactly one of useImplicit/useExplicit. */
export const ftpFields = z
  .object({
    host: host(),
    port: withDefault(port(), 21),
    username: required(255),
    password: secret(),
    workingDir: withDefault(required(1000), '/'),
    protocol: enumOf(FTP_PROTOCOLS),
    timeout: withDefault(positive(), 30_000),
    retryCount: withDefault(nonNegative(), 3),
    useImplicit: bool(false),
    useExplicit: bool(false),
    sslProtocol: optional(enumOf(['TLS', 'SSL', 'TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'])),
  })
  .superRefine((v, ctx) => {
    if (!present(v.password)) need(ctx, 'password', 'is required')
    if (v.useImplicit && v.useExplicit) need(ctx, 'useExplicit', 'useImplicit and useExplicit are mutually exclusive')
    else if (v.protocol === 'FTPS' && !v.useImplicit && !v.useExplicit) need(ctx, 'useImplicit', 'FTPS needs useImplicit or useExplicit')
    else if (v.protocol !== 'FTPS' && (v.useImplicit || v.useExplicit)) need(ctx, v.useImplicit ? 'useImplicit' : 'useExplicit', 'applies to protocol FTPS only')
  })

export const SNMP_VERSIONS = ['V1', 'V2c', 'V3'] as const
export const SNMP_MESSAGE_TYPES = ['TRAP', 'INFORM'] as const
export const SNMP_SECURITY_LEVELS = ['NOAUTH_NOPRIV', 'AUTH_NOPRIV', 'AUTH_PRIV'] as const
export const SNMP_PRIVACY = ['PrivAES128', 'PrivAES192', 'PrivAES192with3DES', 'PrivAES256', 'PrivAES256with3DES', 'PrivDES', 'Priv3DES'] as const
export const SNMP_AUTH = ['AuthMD5', 'AuthSHA', 'AuthHMAC128SHA224', 'AuthHMAC192SHA256', 'AuthHMAC256SHA384', 'AuthHMAC384SHA512'] as const
const oid = () => text(255).regex(/^\d+(\.\d+)+$/, 'must be an OID such as 1.3.6.1.4.1.12345.1.1')

/** SNMP: the security level of a V3 connection decides which protocols and passphrases are required. */
export const snmpFields = z
  .object({
    version: withDefault(enumOf(SNMP_VERSIONS), 'V1'),
    connectionString: required(300).regex(/^(udp|tcp):[^\s/]+\/\d{1,5}$/, 'must be protocol:host/port, e.g. udp:192.168.1.2/162'),
    securityOrCommunityName: required(255),
    retryCount: optional(nonNegative()),
    timeout: optional(positive()),
    messageType: optional(enumOf(SNMP_MESSAGE_TYPES)),
    securityLevel: optional(enumOf(SNMP_SECURITY_LEVELS)),
    privacyProtocolList: withDefault(z.array(enumOf(SNMP_PRIVACY)), []),
    enableUserAuthentication: bool(false),
    securityName: optionalText(255),
    usmUserAuthenticationProtocol: optional(enumOf(SNMP_AUTH)),
    authPassphrase: secret(),
    usmUserPrivacyProtocol: optional(enumOf(SNMP_PRIVACY)),
    privPassphrase: secret(),
    pduOidForMessage: oid(),
    pduOidForTime: optional(oid()),
    pduVariableMap: withDefault(z.record(oid(), text(2000)), {}),
  })
  .superRefine((v, ctx) => {
    const p = Number(/\/(\d+)$/.exec(v.connectionString)?.[1])
    if (p < 1 || p > 65535) need(ctx, 'connectionString', 'port must be between 1 and 65535')
    if (v.version !== 'V3') return
    if (v.enableUserAuthentication && !v.securityName) need(ctx, 'securityName', 'is required when enableUserAuthentication is true')
    if (v.securityLevel === 'AUTH_NOPRIV' || v.securityLevel === 'AUTH_PRIV') {
      if (!v.usmUserAuthenticationProtocol) need(ctx, 'usmUserAuthenticationProtocol', `is required when securityLevel is ${v.securityLevel}`)
      if (!present(v.authPassphrase)) need(ctx, 'authPassphrase', `is required when securityLevel is ${v.securityLevel}`)
    }
    if (v.securityLevel === 'AUTH_PRIV') {
      if (!v.usmUserPrivacyProtocol) need(ctx, 'usmUserPrivacyProtocol', 'is required when securityLevel is AUTH_PRIV')
      if (!present(v.privPassphrase)) need(ctx, 'privPassphrase', 'is required when securityLevel is AUTH_PRIV')
    }
  })

/** Linux script (SSH): stored and deployed for the gateway; this service never executes anything with it. */
export const linuxScriptFields = z
  .object({
    hostName: host(),
    sshPort: withDefault(port(), 22),
    username: required(255),
    password: secret(),
  })
  .superRefine((v, ctx) => {
    if (!present(v.password)) need(ctx, 'password', 'is required')
  })
