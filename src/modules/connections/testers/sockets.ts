import dgram from 'node:dgram'
import net from 'node:net'
import { Client as FtpClient } from 'basic-ftp'
import { Client as LdapClient } from 'ldapts'
import nodemailer from 'nodemailer'
import { describeError, resolveTarget, tcpProbe, TestFailure, withTimeout, type TestLimits } from './net.js'

/** E-mail: nodemailer's verify (connect, EHLO, STARTTLS when asked, AUTH with the credentials). */
export async function testEmail(config: Record<string, unknown>, secrets: Record<string, string>, limits: TestLimits): Promise<string> {
  const hostname = String(config.host)
  const address = await resolveTarget(hostname, 'host', limits)
  const port = Number(config.port)
  const transport = nodemailer.createTransport({
    host: address,
    port,
    secure: port === 465,
    requireTLS: !!config.enableStartTls,
    ignoreTLS: !config.enableStartTls && port !== 465,
    auth: config.auth ? { user: String(config.username), pass: secrets.password ?? '' } : undefined,
    connectionTimeout: limits.timeoutMs,
    greetingTimeout: limits.timeoutMs,
    socketTimeout: limits.timeoutMs,
    tls: { servername: net.isIP(hostname) ? undefined : hostname, rejectUnauthorized: false },
  })
  try {
    await withTimeout(transport.verify(), limits.timeoutMs, `SMTP ${hostname}:${port}`, () => transport.close())
    return `SMTP server ${hostname}:${port} accepted the connection${config.auth ? ' and the credentials' : ''}`
  } finally {
    transport.close()
  }
}

/** LDAP: ldapts bind with the bind DN and password, then unbind. */
export async function testLdap(config: Record<string, unknown>, secrets: Record<string, string>, limits: TestLimits): Promise<string> {
  const server = new URL(String(config.serverAddress))
  const address = await resolveTarget(server.hostname, 'serverAddress', limits)
  const port = server.port || (server.protocol === 'ldaps:' ? '636' : '389')
  const client = new LdapClient({
    url: `${server.protocol}//${net.isIP(address) === 6 ? `[${address}]` : address}:${port}`,
    timeout: limits.timeoutMs,
    connectTimeout: limits.timeoutMs,
    tlsOptions: { servername: net.isIP(server.hostname) ? undefined : server.hostname, rejectUnauthorized: config.requireCertificateType !== 'NOT_REQUIRED' },
  })
  try {
    await withTimeout(client.bind(String(config.username), secrets.password ?? ''), limits.timeoutMs, `LDAP ${server.host}`)
    return `Bound to ${server.protocol}//${server.hostname}:${port} as ${config.username}`
  } finally {
    await client.unbind().catch(() => undefined)
  }
}

/** FTP/FTPS: basic-ftp login and working directory; SFTP: the SSH server's banner (no SFTP client here). */
export async function testFtp(config: Record<string, unknown>, secrets: Record<string, string>, limits: TestLimits): Promise<string> {
  const hostname = String(config.host)
  const address = await resolveTarget(hostname, 'host', limits)
  const port = Number(config.port)
  if (config.protocol === 'SFTP') {
    const banner = await tcpProbe(address, port, { readLine: true, timeoutMs: limits.timeoutMs })
    if (!banner?.startsWith('SSH-')) throw new TestFailure(`${hostname}:${port} is not an SSH server (answered ${JSON.stringify(banner)})`)
    return `Reached SSH server ${hostname}:${port} (${banner}); the credentials were not checked: this service has no SFTP client`
  }
  const client = new FtpClient(limits.timeoutMs)
  try {
    await withTimeout(
      client.access({
        host: address,
        port,
        user: String(config.username),
        password: secrets.password ?? '',
        secure: config.protocol === 'FTPS' ? (config.useImplicit ? 'implicit' : true) : false,
        secureOptions: { servername: net.isIP(hostname) ? undefined : hostname, rejectUnauthorized: false },
      }),
      limits.timeoutMs,
      `FTP ${hostname}:${port}`,
      () => client.close(),
    )
    await client.cd(String(config.workingDir))
    return `Logged in to ${hostname}:${port} as ${config.username}; working directory ${await client.pwd()}`
  } finally {
    client.close()
  }
}

/**
 * One datagram to a UDP service on a connected socket: an ICMP "port unreachable" comes back as ECONNREFUSED
 * on the socket, so a short wait after the send tells a closed port from a silent listener (UDP itself
 * acknowledges nothing).
 */
function udpSend(address: string, port: number, payload: Buffer, limits: TestLimits): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(net.isIP(address) === 6 ? 'udp6' : 'udp4')
    const done = (err: Error | null) => {
      clearTimeout(timer)
      socket.close()
      if (err) reject(err)
      else resolve()
    }
    let timer: NodeJS.Timeout | undefined
    socket.once('error', (err) => done(err))
    socket.connect(port, address, () => {
      socket.send(payload, (err) => {
        if (err) return done(err)
        // a refusal arrives as an 'error' event (recvmsg ECONNREFUSED) within a round trip; nothing more is waited for
        timer = setTimeout(() => done(null), Math.min(200, limits.timeoutMs))
      })
    })
  })
}

const FACILITY_CODES: Record<string, number> = { KERN: 0, USER: 1, MAIL: 2, DAEMON: 3, AUTH: 4, SYSLOG: 5, LPR: 6, NEWS: 7, UUCP: 8, CRON: 9, AUTHPRIV: 10, FTP: 11, NTP: 12, AUDIT: 13, ALERT: 14, CLOCK: 15, LOCAL0: 16, LOCAL1: 17, LOCAL2: 18, LOCAL3: 19, LOCAL4: 20, LOCAL5: 21, LOCAL6: 22, LOCAL7: 23 }
const SEVERITY_CODES: Record<string, number> = { EMERGENCY: 0, ALERT: 1, CRITICAL: 2, ERROR: 3, WARNING: 4, NOTICE: 5, INFORMATIONAL: 6, DEBUG: 7 }

/** The test message in the connection's format (RFC 3164, or RFC 5424 for 5424/5425). */
export function syslogLine(config: Record<string, unknown>, name: string, now = new Date()): string {
  const pri = (FACILITY_CODES[String(config.syslogFacility)] ?? 13) * 8 + (SEVERITY_CODES[String(config.syslogSeverity)] ?? 6)
  const hostname = (config.syslogMessageHostname as string | null) || 'gateway-manager'
  const app = String(config.syslogAppName)
  const text = `connection test of '${name}'`
  if (config.syslogMessageFormat === 'RFC_3164') {
    const stamp = now.toUTCString().slice(8, 11) + ' ' + String(now.getUTCDate()).padStart(2, ' ') + ' ' + now.toISOString().slice(11, 19)
    return `<${pri}>${stamp} ${hostname} ${app}: ${text}`
  }
  return `<${pri}>1 ${now.toISOString()} ${hostname} ${app} - - - ${text}`
}

/** Syslog: the test message over UDP, or over TCP (TLS when syslogSslEnabled) with octet counting. */
export async function testSyslog(config: Record<string, unknown>, name: string, limits: TestLimits): Promise<string> {
  const hostname = String(config.syslogServerHostname)
  const address = await resolveTarget(hostname, 'syslogServerHostname', limits)
  const port = Number(config.syslogPort)
  const line = syslogLine(config, name)
  if (config.syslogProtocolType === 'UDP') {
    await udpSend(address, port, Buffer.from(line), limits)
    return `Sent a test message to udp://${hostname}:${port} (UDP acknowledges nothing; no refusal came back)`
  }
  await tcpSend(address, port, Buffer.from(`${Buffer.byteLength(line)} ${line}`), { tls: !!config.syslogSslEnabled, servername: hostname, timeoutMs: limits.timeoutMs })
  return `Sent a test message to tcp://${hostname}:${port}${config.syslogSslEnabled ? ' over TLS' : ''}`
}

function tcpSend(address: string, port: number, payload: Buffer, options: { tls: boolean; servername: string; timeoutMs: number }): Promise<void> {
  return withTimeout(
    (async () => {
      const tlsMod = options.tls ? await import('node:tls') : null
      await new Promise<void>((resolve, reject) => {
        const socket = tlsMod
          ? tlsMod.connect({ host: address, port, servername: net.isIP(options.servername) ? undefined : options.servername, rejectUnauthorized: false })
          : net.connect({ host: address, port })
        socket.once('error', reject)
        socket.once(tlsMod ? 'secureConnect' : 'connect', () => socket.end(payload, () => resolve()))
      })
    })(),
    options.timeoutMs,
    `${address}:${port}`,
  )
}

/** Graylog (GELF): TCP (TLS when tlsEnabled) connection, or a UDP probe; no GELF message is sent. */
export async function testGraylog(config: Record<string, unknown>, limits: TestLimits): Promise<string> {
  const hostname = String(config.hostname)
  const address = await resolveTarget(hostname, 'hostname', limits)
  const port = Number(config.port)
  if (config.transportType === 'UDP') {
    await udpSend(address, port, Buffer.alloc(0), limits)
    return `udp://${hostname}:${port}: no refusal came back (UDP acknowledges nothing)`
  }
  await tcpProbe(address, port, { tls: !!config.tlsEnabled, servername: hostname, timeoutMs: limits.timeoutMs })
  return `Connected to tcp://${hostname}:${port}${config.tlsEnabled ? ' over TLS' : ''}`
}

/** SNMP: an empty datagram (udp) or a TCP connection to the manager; traps are never sent by a test. */
export async function testSnmp(config: Record<string, unknown>, limits: TestLimits): Promise<string> {
  const m = /^(udp|tcp):([^/]+)\/(\d+)$/.exec(String(config.connectionString))!
  const address = await resolveTarget(m[2]!, 'connectionString', limits)
  const port = Number(m[3])
  if (m[1] === 'udp') {
    await udpSend(address, port, Buffer.alloc(0), limits)
    return `udp:${m[2]}/${port}: no refusal came back (UDP acknowledges nothing; no trap was sent)`
  }
  await tcpProbe(address, port, { timeoutMs: limits.timeoutMs })
  return `Connected to tcp:${m[2]}/${port} (no trap was sent)`
}

/** ActiveMQ: a TCP (TLS for ssl/amqps) connection to the broker; this service has no OpenWire/AMQP 1.0 client. */
export async function testActiveMq(config: Record<string, unknown>, limits: TestLimits): Promise<string> {
  const broker = new URL(String(config.brokerURL).replace(/^failover:\(?([^),]+).*$/, '$1'))
  const address = await resolveTarget(broker.hostname, 'brokerURL', limits)
  const secure = /^(ssl|amqps|amqp\+ssl|nio\+ssl):$/.test(broker.protocol)
  const port = Number(broker.port || (config.activeMqConnectionProtocolType === 'AMQP' ? (secure ? 5671 : 5672) : 61616))
  await tcpProbe(address, port, { tls: secure, servername: broker.hostname, timeoutMs: limits.timeoutMs })
  return `Reached broker ${broker.hostname}:${port}; the protocol handshake and credentials were not checked (no ${config.activeMqConnectionProtocolType === 'AMQP' ? 'AMQP 1.0' : 'OpenWire'} client here)`
}

/** Linux script: the SSH server's banner only. Nothing is logged in to, nothing is executed. */
export async function testLinuxScript(config: Record<string, unknown>, limits: TestLimits): Promise<string> {
  const hostname = String(config.hostName)
  const address = await resolveTarget(hostname, 'hostName', limits)
  const port = Number(config.sshPort)
  const banner = await tcpProbe(address, port, { readLine: true, timeoutMs: limits.timeoutMs })
  if (!banner?.startsWith('SSH-')) throw new TestFailure(`${hostname}:${port} is not an SSH server (answered ${JSON.stringify(banner)})`)
  return `Reached SSH server ${hostname}:${port} (${banner}); nothing was executed and the credentials were not checked`
}

export { describeError }
