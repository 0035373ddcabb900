import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import * as ex from './examples.js'
import { snapshot, startConnectionEnv, type ConnectionEnv } from './support.js'

// Vendor folder 06-connections (crud/ and every page of connections/), in our legacy envelope (spec §7.1).
let env: ConnectionEnv
const BASE = '/apiops/projects/MyProject/connections'
const ENVS = ['production', 'staging']

const deployed = (success = true) => ({
  status: 'SUCCESS',
  success: true,
  deploymentResult: { success, message: expect.any(String), environmentResults: ENVS.map((environmentName) => ({ environmentName, success, message: expect.any(String) })) },
})
const lastPush = (w: 'production' | 'staging') => env.workers[w].received.at(-1)

async function refusedWithoutEffect(user: string, method: string, path: string, body: unknown, status: number, message: RegExp) {
  const before = await snapshot(env.svc)
  env.resetWorkers()
  const res = await env.json(user, method, path, body)
  expect(res.status).toBe(status)
  expect(res.body).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
  expect(await snapshot(env.svc)).toBe(before)
  expect(env.pushes()).toBe(0)
}

beforeAll(async () => {
  env = await startConnectionEnv()
})
afterEach(() => env.resetWorkers())
afterAll(async () => {
  await env?.close()
})

describe('the pages\' create examples', () => {
  const examples: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['crud email', ex.CRUD_EMAIL, { type: 'email', host: 'smtp.gmail.com', port: 587, auth: true, password: null, passwordSet: true }],
    ['crud database (driverClassName, no dbType)', ex.CRUD_DATABASE, { type: 'database', dbType: 'POSTGRES', jdbcUrl: 'jdbc:postgresql://localhost:5432/mydb', password: null, passwordSet: true }],
    ['crud kafka (bootstrapServers)', ex.CRUD_KAFKA, { type: 'kafka', topicName: 'events', propertiesMap: expect.objectContaining({ 'bootstrap.servers': { value: 'localhost:9092', valueType: 'STRING' } }), keyStoreName: 'my-keystore' }],
    ['database MySQL', ex.DATABASE_MYSQL, { dbType: 'MYSQL', maxPoolSize: 10, passwordSet: true }],
    ['database Oracle', ex.DATABASE_ORACLE, { dbType: 'ORACLE' }],
    ['elasticsearch ILM', ex.ELASTICSEARCH_ILM, { type: 'elasticsearch', accessType: 'READ_WRITE', indexTemplateName: 'apinizer-log-template', elasticPassword: null, elasticPasswordSet: false }],
    ['ldap', ex.LDAP, { type: 'ldap', searchScope: 'SUBTREE', password: null, passwordSet: true }],
    ['ldap ssl', ex.LDAP_SSL, { useSsl: true, requireCertificateType: 'REQUIRED_CN' }],
    ['ftp', ex.FTP, { type: 'ftp', protocol: 'FTP', workingDir: '/uploads' }],
    ['ftps implicit', ex.FTPS_IMPLICIT, { protocol: 'FTPS', useImplicit: true }],
    ['rabbitMq', ex.RABBITMQ, { type: 'rabbitMq', connectionFactoryUsername: 'guest', connectionFactoryPassword: null, connectionFactoryPasswordSet: true }],
    ['activemq (page spelling)', ex.ACTIVEMQ, { type: 'activeMq', destinationType: 'QUEUE', passwordSet: true }],
    ['snmp v1', ex.SNMP_V1, { type: 'snmp', version: 'V1', authPassphraseSet: false }],
    ['snmp v3', ex.SNMP_V3, { securityLevel: 'AUTH_PRIV', authPassphrase: null, authPassphraseSet: true, privPassphraseSet: true }],
    ['linuxscript (page spelling)', ex.LINUX_SCRIPT, { type: 'linux-script', hostName: 'linux.example.com', sshPort: 22, passwordSet: true }],
    ['graylog tls', ex.GRAYLOG_TLS, { type: 'graylog', tlsTrustCertChainFile: null, tlsTrustCertChainFileSet: true }],
    ['syslog', ex.SYSLOG, { type: 'syslog', syslogProtocolType: 'UDP', syslogFacility: 'AUDIT' }],
    ['webhook', ex.WEBHOOK, { type: 'webhook', httpMethod: 'POST', timeout: 5, environment: 'production' }],
    ['logback', ex.LOGBACK, { type: 'logback', logPath: '/var/log/apinizer/', maxHistory: 30 }],
  ]
  for (const [label, body, shown] of examples) {
    it(`${label}: created, deployed to every environment with its secrets, read back without them`, async () => {
      const name = String(body.name)
      const res = await env.json('manager', 'POST', `${BASE}/${name}/`, body)
      expect(res).toEqual({ status: 200, body: deployed() })
      for (const w of ['production', 'staging'] as const) expect(lastPush(w)).toMatchObject({ action: 'DEPLOY', project: 'MyProject', kind: 'CONNECTION', name, revision: 1 })
      const pushed = lastPush('production')!.config as Record<string, unknown>
      for (const secret of ['password', 'connectionFactoryPassword', 'authPassphrase', 'privPassphrase', 'tlsTrustCertChainFile']) {
        if (typeof body[secret] === 'string') expect(pushed[secret]).toBe(body[secret])
      }
      const read = await env.json('viewer', 'GET', `${BASE}/${name}/`)
      expect(read.status).toBe(200)
      expect(read.body).toMatchObject({ status: 'SUCCESS', success: true, resultCount: 1, resultList: [{ name, description: body.description, deployToWorker: true, enabled: true, ...shown }] })
      for (const secret of ['app-password', 'dbpassword', 'adminpassword', 'ftppassword', 'admin123', 'authPassword123', 'password123', 'base64-encoded-certificate-content']) {
        expect(JSON.stringify(read.body)).not.toContain(secret)
      }
    })
  }

  it('elasticsearch with the page\'s duplicate "type" (discriminator, then READ_WRITE) is an elasticsearch connection', async () => {
    const res = await env.json('manager', 'POST', `${BASE}/my-elasticsearch-connection/`, ex.ELASTICSEARCH_RAW)
    expect(res).toEqual({ status: 200, body: deployed() })
    expect(lastPush('staging')!.config).toMatchObject({ type: 'elasticsearch', accessType: 'READ_WRITE', elasticUsername: 'elastic', elasticPassword: 'changeme' })
    const row = await env.svc.deps.prisma.connection.findFirstOrThrow({ where: { name: 'my-elasticsearch-connection' } })
    const sealed = row.secrets as Record<string, string>
    expect(JSON.stringify(row)).not.toContain('changeme')
    expect(env.svc.deps.keyring.decrypt(sealed.elasticPassword!)).toBe('changeme')
  })

  it('lists by ?type= (the page\'s examples), secrets null; without ?type= it is a 400 (the page: the type is required)', async () => {
    const db = await env.json('viewer', 'GET', `${BASE}/?type=database`)
    expect(db.status).toBe(200)
    expect(db.body.resultList.map((c: { name: string }) => c.name)).toEqual(['my-db-connection', 'my-mysql-connection', 'my-oracle-connection'])
    expect(db.body.resultCount).toBe(3)
    expect(db.body.resultList.every((c: { password: unknown; passwordSet: boolean }) => c.password === null && c.passwordSet)).toBe(true)
    const email = await env.json('viewer', 'GET', `${BASE}/?type=email`)
    expect(email.body.resultList).toEqual([expect.objectContaining({ type: 'email', name: 'my-email-connection', password: null })])
    const kafka = await env.json('viewer', 'GET', `${BASE}/?type=kafka`)
    expect(kafka.body.resultList).toEqual([expect.objectContaining({ name: 'my-kafka-connection' })])
    const webhooks = await env.json('viewer', 'GET', `${BASE}/?type=webhook`)
    expect(webhooks.body.resultList).toEqual([expect.objectContaining({ type: 'webhook', name: 'my-webhook-connection', fullUrl: 'https://webhook.example.com/api/notify' })])
    const message = 'type: you must specify the connection type (one of email, kafka, elasticsearch, database, ldap, ftp, rabbitMq, activeMq, snmp, linux-script, graylog, syslog, webhook, logback)'
    for (const path of [`${BASE}/`, `${BASE}/?type=`, `${BASE}/?type=%20`]) await refusedWithoutEffect('pm', 'GET', path, undefined, 400, new RegExp(`^${message.replace(/[()]/g, '\\$&')}$`))
    // access first: a caller outside the project learns nothing about the query rules
    await refusedWithoutEffect('outsider', 'GET', `${BASE}/`, undefined, 400, /lacks permission|not a member|not found/)
    // every type at once: the GraphQL list (the console's view) still takes no type
    const all = await env.json('pm', 'POST', '/graphql', { query: '{ connections(projectName: "MyProject") { type } }' })
    expect(all.body.data.connections).toHaveLength(20)
    expect(new Set(all.body.data.connections.map((c: { type: string }) => c.type)).size).toBe(14)
  })
})

describe('PUT (update)', () => {
  it('the page\'s email update: new password sealed and pushed, revision 2', async () => {
    const body = { ...ex.CRUD_EMAIL, description: 'Updated email connection', username: 'updated-user@example.com', password: 'new-app-password' }
    delete (body as Record<string, unknown>).addressToTest
    expect(await env.json('manager', 'PUT', `${BASE}/my-email-connection/`, body)).toEqual({ status: 200, body: deployed() })
    expect(lastPush('production')).toMatchObject({ action: 'DEPLOY', kind: 'CONNECTION', name: 'my-email-connection', revision: 2, config: { username: 'updated-user@example.com', password: 'new-app-password', addressToTest: 'test@example.com' } })
  })

  it('a GET → PUT round trip keeps the secrets the read did not show', async () => {
    const read = (await env.json('viewer', 'GET', `${BASE}/my-ldap-connection/`)).body.resultList[0]
    expect(await env.json('manager', 'PUT', `${BASE}/my-ldap-connection/`, { ...read, baseDn: 'dc=example,dc=org' })).toEqual({ status: 200, body: deployed() })
    expect(lastPush('staging')!.config).toMatchObject({ baseDn: 'dc=example,dc=org', password: 'adminpassword' })
  })

  it('the page\'s "update and disable" example (no dbType, no jdbcUrl) keeps them and disables', async () => {
    const body = { type: 'database', name: 'my-db-connection', description: 'Updated database connection - disabled', deployToWorker: true, enabled: false, host: 'localhost', port: 5432, databaseName: 'mydb', username: 'dbuser', password: 'dbpassword' }
    expect(await env.json('manager', 'PUT', `${BASE}/my-db-connection/`, body)).toEqual({ status: 200, body: deployed() })
    const read = (await env.json('viewer', 'GET', `${BASE}/my-db-connection/`)).body.resultList[0]
    expect(read).toMatchObject({ enabled: false, dbType: 'POSTGRES', jdbcUrl: 'jdbc:postgresql://localhost:5432/mydb' })
  })

  it('the page\'s rename: the old name is undeployed, the new one deployed', async () => {
    await env.json('manager', 'POST', `${BASE}/old-connection-name/`, { ...ex.CRUD_EMAIL, name: 'old-connection-name' })
    env.resetWorkers()
    const body = { type: 'email', name: 'new-connection-name', description: 'Renamed connection', deployToWorker: true, enabled: true, host: 'smtp.gmail.com', port: 587, auth: true, username: 'user@example.com', password: 'password' }
    expect(await env.json('manager', 'PUT', `${BASE}/old-connection-name/`, body)).toEqual({ status: 200, body: deployed() })
    expect(env.workers.production.received.map((m) => [m.action, m.name])).toEqual([['UNDEPLOY', 'old-connection-name'], ['DEPLOY', 'new-connection-name']])
    expect((await env.json('viewer', 'GET', `${BASE}/old-connection-name/`)).status).toBe(400)
  })

  it('deployToWorker false: turning it off undeploys; saves after that push nothing', async () => {
    expect(await env.json('manager', 'PUT', `${BASE}/my-logback-connection/`, { type: 'logback', deployToWorker: false })).toEqual({ status: 200, body: deployed() })
    expect(lastPush('production')).toMatchObject({ action: 'UNDEPLOY', name: 'my-logback-connection' })
    env.resetWorkers()
    const res = await env.json('manager', 'PUT', `${BASE}/my-logback-connection/`, { type: 'logback', maxHistory: 7 })
    expect(res.body.deploymentResult).toEqual({ success: true, message: 'Not deployed: deployToWorker is false', environmentResults: [] })
    expect(env.pushes()).toBe(0)
    expect((await env.json('viewer', 'GET', `${BASE}/my-logback-connection/`)).body.resultList[0]).toMatchObject({ deployToWorker: false, maxHistory: 7, logFileName: 'ApinizerApiProxyTraffic' })
  })

  it('refuses a type change, an unknown connection and a rename onto another connection (of any type)', async () => {
    await refusedWithoutEffect('manager', 'PUT', `${BASE}/my-ftp-connection/`, { ...ex.SYSLOG, name: 'my-ftp-connection' }, 400, /^type: cannot change from ftp to syslog/)
    await refusedWithoutEffect('manager', 'PUT', `${BASE}/nope/`, ex.FTP, 400, /^Connection \(name: nope\) was not found!$/)
    await refusedWithoutEffect('manager', 'PUT', `${BASE}/my-ftp-connection/`, { ...ex.FTP, name: 'my-webhook-connection' }, 400, /^Connection \(name: my-webhook-connection\) already exists!$/)
    await refusedWithoutEffect('manager', 'PUT', `${BASE}/my-ftp-connection/`, { ...ex.FTP, port: 70000 }, 400, /^port: must be a port between 1 and 65535$/)
  })
})

describe('DELETE', () => {
  it('deletes and undeploys everywhere; a second delete is not found', async () => {
    expect(await env.json('manager', 'DELETE', `${BASE}/my-oracle-connection/`)).toEqual({ status: 200, body: deployed() })
    expect(lastPush('production')).toMatchObject({ action: 'UNDEPLOY', kind: 'CONNECTION', name: 'my-oracle-connection', revision: 2 })
    await refusedWithoutEffect('manager', 'DELETE', `${BASE}/my-oracle-connection/`, undefined, 400, /^Connection \(name: my-oracle-connection\) was not found!$/)
  })
})
