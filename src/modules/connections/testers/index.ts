import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps } from '../../../platform/context.js'
import { DomainError } from '../../../platform/errors/domain-error.js'
import { connectionAccess, loadConnection } from '../service.js'
import { clearSecrets, connectionView } from '../views.js'
import { testWebhook, testElasticsearch } from './http.js'
import { describeError, TestFailure, type TestLimits } from './net.js'
import type { RequestOptions } from 'node:https'
import { tlsOptions, webhookTls, WebhookTlsError } from '../../webhooks/tls.js'
import { testActiveMq, testEmail, testFtp, testGraylog, testLdap, testLinuxScript, testSnmp, testSyslog } from './sockets.js'
import { testDatabase, testKafka, testRabbitMq } from './stores.js'

export interface ConnectionTestResult { success: boolean; message: string; durationMs: number }

type Tester = (config: Record<string, unknown>, secrets: Record<string, string>, limits: TestLimits, name: string, tls: RequestOptions) => Promise<string>

/** One tester per type, each with the type's maintained client; each answers a success message or throws. */
const TESTERS: Record<string, Tester> = {
  database: (c, s, l) => testDatabase(c, s, l),
  rabbitMq: (c, s, l) => testRabbitMq(c, s, l),
  email: (c, s, l) => testEmail(c, s, l),
  webhook: (c, _s, l, name, tls) => testWebhook(c, name, l, tls),
  elasticsearch: (c, s, l) => testElasticsearch(c, s, l),
  graylog: (c, _s, l) => testGraylog(c, l),
  syslog: (c, _s, l, name) => testSyslog(c, name, l),
  kafka: (c, _s, l) => testKafka(c, l),
  ldap: (c, s, l) => testLdap(c, s, l),
  ftp: (c, s, l) => testFtp(c, s, l),
  activeMq: (c, _s, l) => testActiveMq(c, l),
  snmp: (c, _s, l) => testSnmp(c, l),
  'linux-script': (c, _s, l) => testLinuxScript(c, l),
  logback: async () => {
    throw new TestFailure('A logback connection writes files on the gateway\'s own disk: there is nothing to connect to from this service')
  },
}

/**
 * Connects to the connection's server with its type's client, bounded by CONNECTION_TEST_TIMEOUT_MS, and
 * writes nothing (no row, no push, no audit event). Needs CONNECTION (or PROJECT_MANAGEMENT) MANAGE: the
 * test uses the stored secrets. A loopback or private target is a 400 naming the field unless the
 * installation allows it (CONNECTION_TEST_ALLOW_PRIVATE, the specUrl rule).
 */
export async function testConnection(deps: Deps, actor: Actor, projectName: string, name: string): Promise<ConnectionTestResult> {
  const access = await connectionAccess(deps.prisma, actor, projectName, 'MANAGE')
  const found = await loadConnection(deps.prisma, access, name)
  const config = connectionView(found)
  const secrets = found.type === 'webhook' ? {} : clearSecrets(deps.keyring, found.row)
  const limits: TestLimits = deps.config.connectionTest
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  try {
    // a webhook's trust and key stores (spec §2.17): a store that cannot be used fails the test, naming it
    const tls = found.type === 'webhook'
      ? tlsOptions(new URL(found.row.fullUrl), await webhookTls(deps, found.row).catch((err) => Promise.reject(err instanceof WebhookTlsError ? new TestFailure(err.message) : err)), found.row.serverNameVerification)
      : {}
    const message = await TESTERS[found.type]!(config, secrets, limits, found.row.name, tls)
    return { success: true, message, durationMs: elapsed() }
  } catch (err) {
    if (err instanceof DomainError) throw err
    return { success: false, message: describeError(err), durationMs: elapsed() }
  }
}
