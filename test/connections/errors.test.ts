import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import * as ex from './examples.js'
import { snapshot, startConnectionEnv, type ConnectionEnv } from './support.js'

// Every documented refusal of 06-connections and of the connection test: status, resultMessage (naming the
// field), nothing written, nothing pushed. The service runs with the default private-address rule.
let env: ConnectionEnv
const BASE = '/apiops/projects/MyProject/connections'

async function refused(user: string, method: string, path: string, body: unknown, message: RegExp | string, status = 400) {
  const before = await snapshot(env.svc)
  env.resetWorkers()
  const res = await env.json(user, method, path, body)
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  expect(res.body).toEqual({ status: 'FAILURE', resultMessage: typeof message === 'string' ? message : expect.stringMatching(message) })
  expect(await snapshot(env.svc)).toBe(before)
  expect(env.pushes()).toBe(0)
}

beforeAll(async () => {
  env = await startConnectionEnv()
  for (const body of [ex.CRUD_EMAIL, ex.LDAP, ex.WEBHOOK]) expect((await env.json('manager', 'POST', `${BASE}/${body.name}/`, body)).status).toBe(200)
})
afterEach(() => env.resetWorkers())
afterAll(async () => {
  await env?.close()
})

describe('create refusals (crud/create-connection "Common Causes")', () => {
  it('name already exists, in any type and any letter case', async () => {
    await refused('manager', 'POST', `${BASE}/my-email-connection/`, ex.CRUD_EMAIL, 'Connection (name: my-email-connection) already exists!')
    await refused('manager', 'POST', `${BASE}/MY-LDAP-CONNECTION/`, { ...ex.FTP, name: 'MY-LDAP-CONNECTION' }, 'Connection (name: MY-LDAP-CONNECTION) already exists!')
    await refused('manager', 'POST', `${BASE}/my-webhook-connection/`, { ...ex.SYSLOG, name: 'my-webhook-connection' }, 'Connection (name: my-webhook-connection) already exists!')
  })

  it('path name differing from the body name, missing name, missing or unknown type, a body that is not an object', async () => {
    await refused('manager', 'POST', `${BASE}/other-name/`, ex.FTP, 'Connection name in path (other-name) does not match name in body (my-ftp-connection)!')
    const { name: _n, ...nameless } = ex.FTP
    await refused('manager', 'POST', `${BASE}/my-ftp-connection/`, nameless, 'name: is required (the connection name, matching the path)')
    const { type: _t, ...typeless } = ex.FTP
    await refused('manager', 'POST', `${BASE}/my-ftp-connection/`, typeless, /^type: is required \(one of email, kafka, .*logback\)$/)
    await refused('manager', 'POST', `${BASE}/my-ftp-connection/`, { ...ex.FTP, type: 'ops-genie' }, /^type: must be one of email, kafka, elasticsearch, database, ldap, ftp, rabbitMq, activeMq, snmp, linux-script, graylog, syslog, webhook, logback$/)
    await refused('manager', 'POST', `${BASE}/my-ftp-connection/`, [ex.FTP], 'The body must be a JSON object')
  })

  const cases: [string, Record<string, unknown>, string][] = [
    ['email host missing', { ...ex.CRUD_EMAIL, host: undefined }, 'host: must be a string'],
    ['email port 0', { ...ex.CRUD_EMAIL, port: 0 }, 'port: must be a port between 1 and 65535'],
    ['email auth without password', { ...ex.CRUD_EMAIL, password: undefined }, 'password: is required when auth is true'],
    ['email from not an address', { ...ex.CRUD_EMAIL, from: 'nobody' }, 'from: must be an e-mail address'],
    ['kafka without bootstrap.servers', { ...ex.KAFKA, propertiesMap: {} }, 'propertiesMap.bootstrap.servers: is required (host:port, comma-separated for several brokers)'],
    ['kafka enableSecure without protocolTypes', { ...ex.KAFKA, enableSecure: true }, 'protocolTypes: must hold at least one protocol when enableSecure is true'],
    ['kafka INTEGER that is not', { ...ex.KAFKA, propertiesMap: { ...ex.KAFKA.propertiesMap, retries: { value: 'three', valueType: 'INTEGER' } } }, 'propertiesMap.retries.value: must be an integer (valueType INTEGER)'],
    ['elasticsearch without hosts', { ...ex.ELASTICSEARCH_ILM, elasticHostList: [] }, 'elasticHostList: must hold at least one host'],
    ['elasticsearch PEM without the file', { ...ex.ELASTICSEARCH_ILM, encryptCommunication: true, encryptCommunicationType: 'CA_IN_PEM_FILE' }, 'caInPemFile: is required when encryptCommunicationType is CA_IN_PEM_FILE'],
    ['elasticsearch unknown access type', { ...ex.ELASTICSEARCH_ILM, accessType: 'WRITE' }, 'accessType: must be one of READ_WRITE, READ'],
    ['database unknown dbType', { ...ex.DATABASE_MYSQL, dbType: 'ACCESS' }, 'dbType: must be one of ORACLE, MYSQL, POSTGRES, SQL_SERVER, SYBASE, DB2, APACHE_HIVE, APACHE_IMPALA, MONGODB, TRINO'],
    ['database jdbcUrl not JDBC', { ...ex.DATABASE_MYSQL, jdbcUrl: 'mysql://localhost/mydb' }, 'jdbcUrl: must be a JDBC URL (jdbc:<subprotocol>:…)'],
    ['database without jdbcUrl or host', { ...ex.DATABASE_MYSQL, jdbcUrl: undefined }, 'jdbcUrl: is required (or host and databaseName with a dbType)'],
    ['database credentials without password', { ...ex.DATABASE_MYSQL, password: null }, 'password: is required when useCredentials is true'],
    ['ldap serverAddress not ldap://', { ...ex.LDAP, serverAddress: 'http://ldap.example.com' }, 'serverAddress: must be ldap://host[:port] or ldaps://host[:port]'],
    ['ldap without baseDn', { ...ex.LDAP, baseDn: ' ' }, 'baseDn: is required'],
    ['ldap unknown searchScope', { ...ex.LDAP, searchScope: 'DEEP' }, 'searchScope: must be one of OBJECT, ONE_LEVEL, SUBTREE'],
    ['ftp unknown protocol', { ...ex.FTP, protocol: 'SCP' }, 'protocol: must be one of FTP, SFTP, FTPS'],
    ['ftps without implicit/explicit', { ...ex.FTPS_IMPLICIT, useImplicit: false }, 'useImplicit: FTPS needs useImplicit or useExplicit'],
    ['ftp without password', { ...ex.FTP, password: undefined }, 'password: is required'],
    ['rabbitMq authentication without user', { ...ex.RABBITMQ, connectionFactoryUsername: null }, 'connectionFactoryUsername: is required when authenticationEnabled is true'],
    ['rabbitMq host port 99999', { ...ex.RABBITMQ, hostPortList: [{ host: 'mq', port: 99999 }] }, 'hostPortList[0].port: must be a port between 1 and 65535'],
    ['rabbitMq delivery mode 3', { ...ex.RABBITMQ, basicPropertiesDeliveryMode: 3 }, 'basicPropertiesDeliveryMode: must be 1 (non-persistent) or 2 (persistent)'],
    ['activeMq amqp URL with protocol TCP', { ...ex.ACTIVEMQ, brokerURL: 'amqp://activemq.example.com:5672' }, "brokerURL: scheme 'amqp' does not fit activeMqConnectionProtocolType TCP (use tcp, ssl, nio, nio+ssl, failover)"],
    ['activeMq without destinationName', { ...ex.ACTIVEMQ, destinationName: '' }, 'destinationName: is required'],
    ['snmp connectionString', { ...ex.SNMP_V1, connectionString: '192.168.1.2:162' }, 'connectionString: must be protocol:host/port, e.g. udp:192.168.1.2/162'],
    ['snmp AUTH_PRIV without privPassphrase', { ...ex.SNMP_V3, privPassphrase: null }, 'privPassphrase: is required when securityLevel is AUTH_PRIV'],
    ['snmp OID', { ...ex.SNMP_V1, pduOidForMessage: 'iso.org' }, 'pduOidForMessage: must be an OID such as 1.3.6.1.4.1.12345.1.1'],
    ['linux-script without hostName', { ...ex.LINUX_SCRIPT, hostName: undefined }, 'hostName: must be a string'],
    ['linux-script host with a scheme', { ...ex.LINUX_SCRIPT, hostName: 'ssh://linux.example.com' }, 'hostName: must be a host name or an IP address, without scheme, port or path'],
    ['graylog verification without the chain', { ...ex.GRAYLOG_TLS, tlsTrustCertChainFile: null }, 'tlsTrustCertChainFile: is required when tlsCertVerificationEnabled is true'],
    ['graylog chain not base64', { ...ex.GRAYLOG_TLS, tlsTrustCertChainFile: '<not base64>' }, 'tlsTrustCertChainFile: must be base64 (or base64url)'],
    ['syslog SSL over UDP', { ...ex.SYSLOG, syslogSslEnabled: true }, 'syslogSslEnabled: SSL needs syslogProtocolType TCP'],
    ['syslog unknown facility', { ...ex.SYSLOG, syslogFacility: 'LOCAL9' }, /^syslogFacility: must be one of KERN, USER, .*LOCAL7$/ as unknown as string],
    ['logback without logPath', { ...ex.LOGBACK, logPath: undefined }, 'logPath: must be a string'],
    ['logback negative maxHistory', { ...ex.LOGBACK, maxHistory: -1 }, 'maxHistory: must be at least 0'],
    ['webhook fullUrl not http(s)', { ...ex.WEBHOOK, fullUrl: 'ftp://example.com/x' }, 'fullUrl: must be an http(s) URL'],
    ['webhook unknown method', { ...ex.WEBHOOK, httpMethod: 'FETCH' }, 'httpMethod: must be one of GET, POST, PUT, DELETE, HEAD, OPTIONS, PATCH, TRACE'],
    ['webhook name with a special character', { ...ex.WEBHOOK, name: 'hook@1' }, "name: may contain only letters, digits, space, '-', '_' and '.'"],
    ['webhook environment outside the project', { ...ex.WEBHOOK, environment: 'nowhere' }, "environment: 'nowhere' is not an environment of project 'MyProject'"],
  ]
  for (const [label, body, message] of cases) {
    it(`${label}: 400 naming the field`, async () => {
      const name = body.name === 'hook@1' ? 'hook@1' : `x-${String(body.type)}`
      await refused('manager', 'POST', `${BASE}/${name}/`, { ...body, name }, message)
    })
  }
})

describe('reads, updates and deletes of what is not there', () => {
  it('get, update, delete and test of an unknown connection; list of an unknown type; unknown project', async () => {
    await refused('viewer', 'GET', `${BASE}/nope/`, undefined, 'Connection (name: nope) was not found!')
    await refused('manager', 'PUT', `${BASE}/nope/`, ex.FTP, 'Connection (name: nope) was not found!')
    await refused('manager', 'DELETE', `${BASE}/nope/`, undefined, 'Connection (name: nope) was not found!')
    await refused('manager', 'POST', `${BASE}/nope/test`, undefined, 'Connection (name: nope) was not found!')
    await refused('viewer', 'GET', `${BASE}/?type=ops-genie`, undefined, /^type: must be one of email, /)
    await refused('manager', 'GET', '/apiops/projects/NoSuchProject/connections/', undefined, "Project 'NoSuchProject' not found")
    await refused('manager', 'POST', '/apiops/projects/NoSuchProject/connections/my-ftp-connection/', ex.FTP, "Project 'NoSuchProject' not found")
  })

  it('an update cannot change the type, even to the elasticsearch access-mode spelling', async () => {
    await refused('manager', 'PUT', `${BASE}/my-ldap-connection/`, { ...ex.FTP, name: 'my-ldap-connection' }, 'type: cannot change from ldap to ftp; delete the connection and create it again')
    await refused('manager', 'PUT', `${BASE}/my-ldap-connection/`, { type: 'READ' }, /^type: must be one of /)
  })
})

describe('permissions (CONNECTION, or PROJECT_MANAGEMENT in its place; deploy needs DEPLOY_UNDEPLOY)', () => {
  it('401 without a valid token', async () => {
    const res = await env.svc.http(`${BASE}/`, { headers: { authorization: 'Bearer nope' } })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ status: 'FAILURE', resultMessage: expect.any(String) })
  })

  it('VIEW may read but not write or test; IDENTITY alone nothing; a non-member sees no project', async () => {
    expect((await env.json('viewer', 'GET', `${BASE}/my-ldap-connection/`)).status).toBe(200)
    await refused('viewer', 'POST', `${BASE}/my-ftp-connection/`, ex.FTP, "User lacks permission CONNECTION MANAGE in project 'MyProject'")
    await refused('viewer', 'PUT', `${BASE}/my-ldap-connection/`, ex.LDAP, "User lacks permission CONNECTION MANAGE in project 'MyProject'")
    await refused('viewer', 'DELETE', `${BASE}/my-ldap-connection/`, undefined, "User lacks permission CONNECTION MANAGE in project 'MyProject'")
    await refused('viewer', 'POST', `${BASE}/my-ldap-connection/test`, undefined, "User lacks permission CONNECTION MANAGE in project 'MyProject'")
    await refused('identity', 'GET', `${BASE}/`, undefined, "User lacks permission CONNECTION VIEW in project 'MyProject'")
    await refused('outsider', 'GET', `${BASE}/`, undefined, "Project 'MyProject' not found")
  })

  it('MANAGE without DEPLOY_UNDEPLOY saves but does not deploy; PROJECT_MANAGEMENT deploys', async () => {
    const saved = await env.json('saver', 'POST', `${BASE}/saved-only/`, { ...ex.FTP, name: 'saved-only' })
    expect(saved.status).toBe(200)
    expect(saved.body.deploymentResult).toEqual({
      success: false,
      message: "Saved but not deployed: deploying needs CONNECTION (or PROJECT_MANAGEMENT) DEPLOY_UNDEPLOY in project 'MyProject'",
      environmentResults: ['production', 'staging'].map((environmentName) => ({ environmentName, success: false, message: expect.stringMatching(/^Not deployed: /) })),
    })
    expect(env.pushes()).toBe(0)
    const byPm = await env.json('pm', 'PUT', `${BASE}/saved-only/`, { type: 'ftp', retryCount: 5 })
    expect(byPm.body.deploymentResult.success).toBe(true)
    expect(env.workers.production.received.at(-1)).toMatchObject({ action: 'DEPLOY', name: 'saved-only', revision: 2, config: { retryCount: 5, password: 'ftppassword' } })
  })

  it('a worker that fails is reported per environment while the save stays', async () => {
    env.workers.staging.status = 500
    const res = await env.json('manager', 'POST', `${BASE}/half-deployed/`, { ...ex.SYSLOG, name: 'half-deployed' })
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult).toMatchObject({ success: false, environmentResults: [{ environmentName: 'production', success: true }, { environmentName: 'staging', success: false }] })
    expect((await env.json('viewer', 'GET', `${BASE}/half-deployed/`)).status).toBe(200)
  })
})

describe('the connection test keeps to the specUrl address rule', () => {
  it('a loopback or private target is a 400 naming the field; nothing written or pushed', async () => {
    for (const [name, body, field] of [
      ['local-ldap', { ...ex.LDAP, serverAddress: 'ldap://127.0.0.1:389' }, 'serverAddress'],
      ['local-mail', { ...ex.CRUD_EMAIL, host: 'localhost' }, 'host'],
      ['private-hook', { ...ex.WEBHOOK, fullUrl: 'http://10.1.2.3/hook' }, 'fullUrl'],
      ['private-db', { ...ex.DATABASE_MYSQL, jdbcUrl: 'jdbc:mysql://192.168.0.10:3306/mydb' }, 'jdbcUrl'],
    ] as const) {
      expect((await env.json('manager', 'POST', `${BASE}/${name}/`, { ...body, name, deployToWorker: false })).status).toBe(200)
      await refused('manager', 'POST', `${BASE}/${name}/test`, undefined, new RegExp(`^${field}: .*is a loopback or private address, which this installation does not connect to$`))
    }
  })
})
