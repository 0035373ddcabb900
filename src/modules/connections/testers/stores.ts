import amqp from 'amqplib'
import { Kafka, logLevel } from 'kafkajs'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { resolveTarget, TestFailure, withTimeout, type TestLimits } from './net.js'

/** Host, port and database of a JDBC URL of the URL form (jdbc:postgresql://h:p/db, jdbc:mysql://…). */
function jdbcParts(jdbcUrl: string, defaultPort: number) {
  const rest = jdbcUrl.replace(/^jdbc:/i, '')
  if (!URL.canParse(rest)) throw new TestFailure(`jdbcUrl ${jdbcUrl} is not of the form jdbc:<subprotocol>://host[:port]/database`)
  const u = new URL(rest)
  return { host: u.hostname, port: u.port ? Number(u.port) : defaultPort, database: decodeURIComponent(u.pathname.replace(/^\//, '')) || null }
}

/** Database: PostgreSQL through `pg`, MySQL/MariaDB through `mysql2`; connect, SELECT 1, close. */
export async function testDatabase(config: Record<string, unknown>, secrets: Record<string, string>, limits: TestLimits): Promise<string> {
  const user = config.useCredentials ? String(config.username) : undefined
  const password = config.useCredentials ? secrets.password : undefined
  if (config.dbType === 'POSTGRES') {
    const t = jdbcParts(String(config.jdbcUrl), 5432)
    const host = await resolveTarget(t.host, 'jdbcUrl', limits)
    const database = t.database ?? (config.databaseName as string | null) ?? undefined
    const client = new pg.Client({ host, port: t.port, user, password, database, connectionTimeoutMillis: limits.timeoutMs, query_timeout: limits.timeoutMs })
    client.on('error', () => undefined)
    try {
      await withTimeout(client.connect(), limits.timeoutMs, `PostgreSQL ${t.host}:${t.port}`)
      const res = await client.query<{ version: string }>('SELECT version() AS version')
      return `Connected to ${t.host}:${t.port}/${database ?? ''}: ${res.rows[0]?.version.split(',')[0] ?? 'PostgreSQL'}`
    } finally {
      await client.end().catch(() => undefined)
    }
  }
  if (config.dbType === 'MYSQL') {
    const t = jdbcParts(String(config.jdbcUrl), 3306)
    const host = await resolveTarget(t.host, 'jdbcUrl', limits)
    const database = t.database ?? (config.databaseName as string | null) ?? undefined
    const conn = await withTimeout(mysql.createConnection({ host, port: t.port, user, password, database, connectTimeout: limits.timeoutMs }), limits.timeoutMs, `MySQL ${t.host}:${t.port}`)
    try {
      const [rows] = await conn.query('SELECT VERSION() AS version')
      return `Connected to ${t.host}:${t.port}/${database ?? ''}: ${(rows as { version: string }[])[0]?.version ?? 'MySQL'}`
    } finally {
      await conn.end().catch(() => undefined)
    }
  }
  throw new TestFailure(`dbType ${config.dbType} cannot be tested by this service (no client for it); POSTGRES and MYSQL can`)
}

/** RabbitMQ: an AMQP 0-9-1 connection (with the credentials and virtual host) to every host of the list. */
export async function testRabbitMq(config: Record<string, unknown>, secrets: Record<string, string>, limits: TestLimits): Promise<string> {
  const lines: string[] = []
  for (const [i, h] of (config.hostPortList as { host: string; port: number }[]).entries()) {
    const hostname = await resolveTarget(h.host, `hostPortList[${i}].host`, limits)
    const options = {
      protocol: config.connectionFactoryUseSslProtocol ? 'amqps' : 'amqp',
      hostname,
      port: h.port,
      vhost: String(config.connectionFactoryVirtualHost),
      ...(config.authenticationEnabled ? { username: String(config.connectionFactoryUsername), password: secrets.connectionFactoryPassword } : { username: 'guest', password: 'guest' }),
      heartbeat: 0,
    }
    const conn = await withTimeout(amqp.connect(options, { timeout: limits.timeoutMs }), limits.timeoutMs, `RabbitMQ ${h.host}:${h.port}`)
    conn.on('error', () => undefined)
    const product = (conn.connection as unknown as { serverProperties?: { product?: string; version?: string } }).serverProperties
    await conn.close().catch(() => undefined)
    lines.push(`Connected to ${h.host}:${h.port}${options.vhost} (${[product?.product, product?.version].filter(Boolean).join(' ') || 'AMQP'})`)
  }
  return lines.join('; ')
}

/** Kafka: kafkajs admin connect and describeCluster against bootstrap.servers, no retries. */
export async function testKafka(config: Record<string, unknown>, limits: TestLimits): Promise<string> {
  const map = config.propertiesMap as Record<string, { value: string }>
  const servers = map['bootstrap.servers']!.value.split(',').map((s) => s.trim())
  const brokers: string[] = []
  for (const s of servers) {
    const at = s.lastIndexOf(':')
    brokers.push(`${await resolveTarget(s.slice(0, at), 'propertiesMap.bootstrap.servers', limits)}:${s.slice(at + 1)}`)
  }
  const kafka = new Kafka({ clientId: 'gateway-connection-test', brokers, connectionTimeout: limits.timeoutMs, requestTimeout: limits.timeoutMs, retry: { retries: 0 }, logLevel: logLevel.NOTHING, ssl: !!config.enableSecure })
  const admin = kafka.admin()
  try {
    await withTimeout(admin.connect(), limits.timeoutMs, `Kafka ${servers.join(',')}`)
    const cluster = await withTimeout(admin.describeCluster(), limits.timeoutMs, `Kafka ${servers.join(',')}`)
    return `Connected to cluster ${cluster.clusterId} (${cluster.brokers.length} broker(s))`
  } finally {
    await admin.disconnect().catch(() => undefined)
  }
}
