import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import { snapshot, startConnectionEnv, type ConnectionEnv } from './support.js'
import * as servers from './servers.js'

// POST /apiops/projects/{projectName}/connections/{connectionName}/test: real connections with each type's
// client, against the servers this machine runs (PostgreSQL, MariaDB, RabbitMQ) and in-process ones.
// Loopback targets need CONNECTION_TEST_ALLOW_PRIVATE=true (the specUrl rule); errors.test.ts covers the refusal.
let env: ConnectionEnv
const BASE = '/apiops/projects/MyProject/connections'
const cleanups: (() => Promise<void>)[] = []

beforeAll(async () => {
  env = await startConnectionEnv({ CONNECTION_TEST_ALLOW_PRIVATE: 'true', CONNECTION_TEST_TIMEOUT_MS: '1500' })
})
afterAll(async () => {
  for (const c of cleanups) await c()
  await env?.close()
})

const common = (type: string, name: string) => ({ type, name, deployToWorker: false })

async function create(body: Record<string, unknown>) {
  const res = await env.json('manager', 'POST', `${BASE}/${body.name}/`, body)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}

/** Runs the test; checks the answer's shape and that it wrote nothing (rows, pushes, audit events). */
async function runTest(name: string, user = 'manager') {
  const before = await snapshot(env.svc)
  const audits = await env.svc.deps.prisma.auditEvent.count()
  env.resetWorkers()
  const res = await env.json(user, 'POST', `${BASE}/${name}/test`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(res.body).toEqual({ status: 'SUCCESS', success: expect.any(Boolean), message: expect.any(String), durationMs: expect.any(Number) })
  expect(await snapshot(env.svc)).toBe(before)
  expect(env.pushes()).toBe(0)
  expect(await env.svc.deps.prisma.auditEvent.count()).toBe(audits)
  return res.body as { success: boolean; message: string; durationMs: number }
}

async function requireServer(ctx: TestContext, port: number, what: string) {
  if (await servers.portOpen(port)) return
  console.warn(`skipped: ${what} does not listen on 127.0.0.1:${port}`)
  ctx.skip()
}

describe('database', () => {
  it('PostgreSQL through pg: connects and names the server; a wrong user is refused with the server\'s reason', async (ctx) => {
    await requireServer(ctx, 5432, 'PostgreSQL')
    await create({ ...common('database', 'pg-ok'), dbType: 'POSTGRES', jdbcUrl: 'jdbc:postgresql://127.0.0.1:5432/postgres', username: 'postgres', password: 'any' })
    const ok = await runTest('pg-ok')
    expect(ok).toMatchObject({ success: true, message: expect.stringMatching(/^Connected to 127\.0\.0\.1:5432\/postgres: PostgreSQL \d+/) })
    await create({ ...common('database', 'pg-bad-user'), dbType: 'POSTGRES', jdbcUrl: 'jdbc:postgresql://127.0.0.1:5432/postgres', username: 'no_such_role_x', password: 'wrong' })
    expect(await runTest('pg-bad-user')).toMatchObject({ success: false, message: expect.stringMatching(/no_such_role_x/) })
  })

  it('MariaDB through mysql2: the right password connects, a wrong one is refused', async (ctx) => {
    const account = await servers.prepareMariaDb()
    if (typeof account === 'string') {
      console.warn(`skipped: ${account}`)
      return ctx.skip()
    }
    cleanups.push(account.drop)
    const { user, password, database } = account
    await create({ ...common('database', 'maria-ok'), dbType: 'MYSQL', jdbcUrl: `jdbc:mysql://127.0.0.1:3306/${database}?useSSL=false`, username: user, password })
    expect(await runTest('maria-ok')).toMatchObject({ success: true, message: expect.stringMatching(/^Connected to 127\.0\.0\.1:3306\/conn_test: .*MariaDB/) })
    await create({ ...common('database', 'maria-bad'), dbType: 'MYSQL', jdbcUrl: `jdbc:mysql://127.0.0.1:3306/${database}`, username: user, password: 'wrong-password' })
    expect(await runTest('maria-bad')).toMatchObject({ success: false, message: expect.stringMatching(new RegExp(`Access denied for user '${user}'`)) })
  })

  it('a database type without a client here says so', async () => {
    await create({ ...common('database', 'oracle-db'), dbType: 'ORACLE', jdbcUrl: 'jdbc:oracle:thin:@127.0.0.1:1521:ORCL', username: 'u', password: 'p' })
    expect(await runTest('oracle-db')).toMatchObject({ success: false, message: 'dbType ORACLE cannot be tested by this service (no client for it); POSTGRES and MYSQL can' })
  })
})

describe('rabbitMq through amqplib', () => {
  it('guest/guest connects; a wrong password is refused', async (ctx) => {
    await requireServer(ctx, 5672, 'RabbitMQ')
    const base = { hostPortList: [{ host: '127.0.0.1', port: 5672 }], authenticationEnabled: true, connectionFactoryUsername: 'guest' }
    await create({ ...common('rabbitMq', 'rabbit-ok'), ...base, connectionFactoryPassword: 'guest' })
    expect(await runTest('rabbit-ok')).toMatchObject({ success: true, message: expect.stringMatching(/^Connected to 127\.0\.0\.1:5672\/ \(RabbitMQ/) })
    await create({ ...common('rabbitMq', 'rabbit-bad'), ...base, connectionFactoryPassword: 'not-guest' })
    expect(await runTest('rabbit-bad')).toMatchObject({ success: false, message: expect.stringMatching(/ACCESS_REFUSED|403/) })
  })
})

describe('email through nodemailer verify (in-process smtp-server)', () => {
  it('the right credentials are accepted, wrong ones refused, a silent server times out', async () => {
    const smtp = await servers.smtpServer()
    const silent = await servers.silentServer()
    cleanups.push(smtp.close, silent.close)
    const base = { host: '127.0.0.1', port: smtp.port, auth: true, username: 'mailer' }
    await create({ ...common('email', 'mail-ok'), ...base, password: 'mail-secret' })
    expect(await runTest('mail-ok')).toMatchObject({ success: true, message: `SMTP server 127.0.0.1:${smtp.port} accepted the connection and the credentials` })
    await create({ ...common('email', 'mail-bad'), ...base, password: 'wrong' })
    expect(await runTest('mail-bad')).toMatchObject({ success: false, message: expect.stringMatching(/Invalid username or password/) })
    await create({ ...common('email', 'mail-silent'), ...base, port: silent.port, password: 'x' })
    const slow = await runTest('mail-silent')
    expect(slow).toMatchObject({ success: false, message: expect.stringMatching(/Greeting never received|no answer within 1500 ms|Timeout/i) })
    expect(slow.durationMs).toBeGreaterThanOrEqual(1400)
  })
})

describe('HTTP: webhook and elasticsearch', () => {
  it('webhook: the configured method and headers; 2xx succeeds, 500 does not', async () => {
    let status = 204
    const hook = await servers.httpServer(() => ({ status }))
    cleanups.push(hook.close)
    await create({ ...common('webhook', 'hook-test'), httpMethod: 'POST', fullUrl: `http://127.0.0.1:${hook.port}/notify?x=1`, headerList: [{ name: 'X-Api-Key', value: 'k-1' }] })
    expect(await runTest('hook-test')).toMatchObject({ success: true, message: `POST http://127.0.0.1:${hook.port}/notify?x=1 answered HTTP 204` })
    expect(hook.requests.at(-1)).toMatchObject({ method: 'POST', url: '/notify?x=1', headers: expect.objectContaining({ 'x-api-key': 'k-1', 'content-type': 'application/json' }) })
    expect(JSON.parse(hook.requests.at(-1)!.body)).toMatchObject({ event: 'connectionTest', connection: 'hook-test' })
    status = 500
    expect(await runTest('hook-test')).toMatchObject({ success: false, message: `POST http://127.0.0.1:${hook.port}/notify?x=1 answered HTTP 500` })
  })

  it('elasticsearch: GET / with basic auth; the cluster is named; wrong credentials are refused', async () => {
    const expected = `Basic ${Buffer.from('elastic:changeme').toString('base64')}`
    const es = await servers.httpServer((req) => (req.headers.authorization === expected ? { status: 200, body: { cluster_name: 'test-cluster', version: { number: '8.15.0' } } } : { status: 401, body: { error: 'unauthorized' } }))
    cleanups.push(es.close)
    const base = { elasticHostList: [{ scheme: 'http', host: '127.0.0.1', port: es.port }], authenticate: true, elasticUsername: 'elastic' }
    await create({ ...common('elasticsearch', 'es-ok'), ...base, elasticPassword: 'changeme' })
    expect(await runTest('es-ok')).toMatchObject({ success: true, message: `http://127.0.0.1:${es.port}/ answered HTTP 200 (cluster test-cluster, version 8.15.0)` })
    await create({ ...common('elasticsearch', 'es-bad'), ...base, elasticPassword: 'wrong' })
    expect(await runTest('es-bad')).toMatchObject({ success: false, message: `http://127.0.0.1:${es.port}/ refused the credentials (HTTP 401)` })
  })
})

describe('syslog and graylog', () => {
  it('syslog UDP: the test message reaches the UDP socket in RFC 3164 form', async () => {
    const udp = await servers.udpServer()
    cleanups.push(udp.close)
    await create({ ...common('syslog', 'syslog-udp'), syslogProtocolType: 'UDP', syslogServerHostname: '127.0.0.1', syslogPort: udp.port, syslogFacility: 'LOCAL0', syslogSeverity: 'WARNING' })
    expect(await runTest('syslog-udp')).toMatchObject({ success: true, message: expect.stringMatching(/^Sent a test message to udp:\/\/127\.0\.0\.1:\d+/) })
    expect(udp.received).toHaveLength(1)
    expect(udp.received[0]).toMatch(/^<132>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d gateway-manager Apinizer: connection test of 'syslog-udp'$/)
  })

  it('syslog TCP: octet-counted RFC 5424 message; a closed port is refused', async () => {
    const tcp = await servers.recordingTcpServer()
    cleanups.push(tcp.close)
    await create({ ...common('syslog', 'syslog-tcp'), syslogProtocolType: 'TCP', syslogServerHostname: '127.0.0.1', syslogPort: tcp.port, syslogMessageFormat: 'RFC_5424' })
    expect(await runTest('syslog-tcp')).toMatchObject({ success: true })
    await expect.poll(() => tcp.received()).toMatch(/^\d+ <110>1 \d{4}-\d\d-\d\dT[\d:.]+Z gateway-manager Apinizer - - - connection test of 'syslog-tcp'$/)
    await create({ ...common('syslog', 'syslog-closed'), syslogProtocolType: 'TCP', syslogServerHostname: '127.0.0.1', syslogPort: await servers.closedPort() })
    expect(await runTest('syslog-closed')).toMatchObject({ success: false, message: expect.stringMatching(/ECONNREFUSED/) })
  })

  it('graylog TCP: connects; UDP to a closed port: the ICMP refusal is the answer', async () => {
    const tcp = await servers.recordingTcpServer()
    cleanups.push(tcp.close)
    await create({ ...common('graylog', 'gelf-tcp'), hostname: '127.0.0.1', port: tcp.port })
    expect(await runTest('gelf-tcp')).toMatchObject({ success: true, message: `Connected to tcp://127.0.0.1:${tcp.port}` })
    await create({ ...common('graylog', 'gelf-udp-closed'), hostname: '127.0.0.1', port: await servers.closedPort(), transportType: 'UDP' })
    expect(await runTest('gelf-udp-closed')).toMatchObject({ success: false, message: expect.stringMatching(/ECONNREFUSED/) })
  })
})

describe('types without a server on this machine: a clear refusal from a closed loopback port', () => {
  it('kafka (kafkajs), ldap (ldapts), ftp (basic-ftp), activeMq, snmp over tcp, linux-script', async () => {
    const port = await servers.closedPort()
    await create({ ...common('kafka', 'kafka-closed'), topicName: 'events', bootstrapServers: `127.0.0.1:${port}` })
    await create({ ...common('ldap', 'ldap-closed'), serverAddress: `ldap://127.0.0.1:${port}`, username: 'cn=admin,dc=example,dc=com', password: 'x', baseDn: 'dc=example,dc=com' })
    await create({ ...common('ftp', 'ftp-closed'), host: '127.0.0.1', port, username: 'u', password: 'p', protocol: 'FTP' })
    await create({ ...common('activeMq', 'amq-closed'), activeMqConnectionProtocolType: 'TCP', brokerURL: `tcp://127.0.0.1:${port}`, destinationType: 'QUEUE', destinationName: 'q' })
    await create({ ...common('snmp', 'snmp-closed'), connectionString: `tcp:127.0.0.1/${port}`, securityOrCommunityName: 'public', pduOidForMessage: '1.3.6.1.4.1.1.1' })
    await create({ ...common('linux-script', 'ssh-closed'), hostName: '127.0.0.1', sshPort: port, username: 'u', password: 'p' })
    for (const name of ['kafka-closed', 'ldap-closed', 'ftp-closed', 'amq-closed', 'snmp-closed', 'ssh-closed']) {
      const r = await runTest(name)
      expect(r, name).toMatchObject({ success: false, message: expect.stringMatching(/ECONNREFUSED|Connection error|refused/i) })
      expect(r.durationMs, name).toBeLessThan(1500)
    }
  })

  it('linux-script reads the SSH banner only: nothing is sent, nothing executed', async () => {
    const ssh = await servers.sshBannerServer()
    cleanups.push(ssh.close)
    await create({ ...common('linux-script', 'ssh-banner'), hostName: '127.0.0.1', sshPort: ssh.port, username: 'u', password: 'p' })
    expect(await runTest('ssh-banner')).toMatchObject({ success: true, message: `Reached SSH server 127.0.0.1:${ssh.port} (SSH-2.0-OpenSSH_9.2p1 test); nothing was executed and the credentials were not checked` })
    expect(ssh.received).toEqual([])
  })

  it('logback has nothing to connect to', async () => {
    await create({ ...common('logback', 'files'), logPath: '/var/log/x', logFileName: 'traffic' })
    expect(await runTest('files')).toMatchObject({ success: false, message: expect.stringMatching(/nothing to connect to/) })
  })
})
