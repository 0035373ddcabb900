import type { z } from 'zod'
import { activeMqFields, kafkaFields, rabbitMqFields } from './messaging.js'
import { elasticsearchFields, graylogFields, logbackFields, syslogFields } from './logging.js'
import { databaseFields, emailFields, ftpFields, ldapFields, linuxScriptFields, snmpFields } from './others.js'

/** The type discriminators of vendor 06-connections, spelled as the create page lists them. */
export const CONNECTION_TYPES = [
  'email', 'kafka', 'elasticsearch', 'database', 'ldap', 'ftp', 'rabbitMq', 'activeMq', 'snmp', 'linux-script', 'graylog', 'syslog', 'webhook', 'logback',
] as const
export type ConnectionType = (typeof CONNECTION_TYPES)[number]

/** Spellings the type pages use besides the create page's (`activemq`, `linuxscript`): read as the same type. */
const ALIASES: Record<string, ConnectionType> = Object.fromEntries([
  ...CONNECTION_TYPES.map((t) => [t.toLowerCase(), t] as const),
  ['linuxscript', 'linux-script'],
  ['linux_script', 'linux-script'],
  ['rabbitmq', 'rabbitMq'],
  ['activemq', 'activeMq'],
])

export function connectionTypeOf(raw: unknown): ConnectionType | null {
  return typeof raw === 'string' ? (ALIASES[raw.trim().toLowerCase()] ?? null) : null
}

export interface ConnectionTypeDef {
  type: Exclude<ConnectionType, 'webhook'>
  /** the type's own fields (common fields apart); secrets are optional strings, presence rules in superRefine */
  fields: z.ZodType<Record<string, unknown>>
  /** write-only fields: sealed at rest, null with a `<field>Set` flag on every read */
  secrets: readonly string[]
}

const def = (type: ConnectionTypeDef['type'], fields: z.ZodType, secrets: string[]): ConnectionTypeDef => ({ type, fields: fields as ConnectionTypeDef['fields'], secrets })

/** Every stored type but `webhook` (the webhook module's object; see ../webhook-door.ts). */
export const TYPE_DEFS: Record<ConnectionTypeDef['type'], ConnectionTypeDef> = {
  email: def('email', emailFields, ['password']),
  kafka: def('kafka', kafkaFields, []),
  elasticsearch: def('elasticsearch', elasticsearchFields, ['elasticPassword', 'caCertInPkcs12File', 'caInPemFile', 'caTruststoreFile', 'caTruststoreFilePass', 'caKeystoreFile', 'caKeystoreFilePass']),
  database: def('database', databaseFields, ['password']),
  ldap: def('ldap', ldapFields, ['password']),
  ftp: def('ftp', ftpFields, ['password']),
  rabbitMq: def('rabbitMq', rabbitMqFields, ['connectionFactoryPassword']),
  activeMq: def('activeMq', activeMqFields, ['password']),
  snmp: def('snmp', snmpFields, ['authPassphrase', 'privPassphrase']),
  'linux-script': def('linux-script', linuxScriptFields, ['password']),
  graylog: def('graylog', graylogFields, ['tlsTrustCertChainFile']),
  syslog: def('syslog', syslogFields, []),
  logback: def('logback', logbackFields, []),
}
