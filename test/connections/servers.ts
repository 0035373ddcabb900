import crypto from 'node:crypto'
import dgram from 'node:dgram'
import http from 'node:http'
import net from 'node:net'
import mysql from 'mysql2/promise'
import { SMTPServer } from 'smtp-server'

/** In-process servers for the connection tests, on loopback ports of their own. */

export const listening = (server: net.Server | http.Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)))

export const closeServer = (server: net.Server | http.Server) => new Promise<void>((resolve) => server.close(() => resolve()))

/** A loopback port nothing listens on (bound once, then released). */
export async function closedPort(): Promise<number> {
  const s = net.createServer()
  const port = await listening(s)
  await closeServer(s)
  return port
}

/** Whether something accepts TCP connections on 127.0.0.1:port (a machine without the server skips with a reason). */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port })
    socket.setTimeout(1000, () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/** An SMTP server that accepts user/secret only. */
export async function smtpServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: false,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === 'mailer' && auth.password === 'mail-secret') cb(null, { user: auth.username })
      else cb(new Error('Invalid username or password'))
    },
  })
  const port = await listening(server.server as unknown as net.Server)
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** A TCP server that accepts and never says a word (a greeting that never comes). */
export async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((s) => sockets.add(s))
  const port = await listening(server)
  return { port, close: () => { for (const s of sockets) s.destroy(); return closeServer(server) } }
}

/** A TCP server that greets with an SSH banner and records what it receives. */
export async function sshBannerServer(): Promise<{ port: number; received: Buffer[]; close(): Promise<void> }> {
  const received: Buffer[] = []
  const server = net.createServer((s) => {
    s.on('data', (d) => received.push(d))
    s.on('error', () => undefined)
    s.write('SSH-2.0-OpenSSH_9.2p1 test\r\n')
  })
  const port = await listening(server)
  return { port, received, close: () => closeServer(server) }
}

/** A TCP server that records every byte it receives (syslog over TCP, GELF TCP). */
export async function recordingTcpServer(): Promise<{ port: number; received: () => string; close(): Promise<void> }> {
  const chunks: Buffer[] = []
  const server = net.createServer((s) => {
    s.on('data', (d) => chunks.push(d))
    s.on('error', () => undefined)
  })
  const port = await listening(server)
  return { port, received: () => Buffer.concat(chunks).toString('utf8'), close: () => closeServer(server) }
}

/** A UDP socket that records the datagrams it receives. */
export async function udpServer(): Promise<{ port: number; received: string[]; close(): Promise<void> }> {
  const received: string[] = []
  const socket = dgram.createSocket('udp4')
  socket.on('message', (m) => received.push(m.toString('utf8')))
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()))
  return { port: socket.address().port, received, close: () => new Promise((resolve) => socket.close(() => resolve())) }
}

/** An HTTP server answering each request with `answer(req)`; requests are recorded. */
export async function httpServer(answer: (req: http.IncomingMessage, body: string) => { status: number; body?: unknown }) {
  const requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body })
      const a = answer(req, body)
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body === undefined ? '' : JSON.stringify(a.body))
    })
  })
  const port = await listening(server)
  return { port, requests, close: () => closeServer(server) }
}

export interface MariaDbAccount {
  user: string
  password: string
  database: string
  /** drops the account again */
  drop(): Promise<void>
}

/**
 * Creates a MariaDB account and database for one test run, as root over the local socket. The account's name is
 * new for each run: runs on one machine (the PGlite and PostgreSQL suites, other checkouts) share its MariaDB, and
 * one run re-creating or dropping a shared account while another connects with it made the outcome depend on timing.
 * Returns the reason instead when MariaDB is absent or root cannot log in there (a fresh CI machine without MariaDB).
 */
export async function prepareMariaDb(): Promise<MariaDbAccount | string> {
  if (!(await portOpen(3306))) return 'MariaDB does not listen on 127.0.0.1:3306'
  const asRoot = () => mysql.createConnection({ socketPath: '/var/run/mysqld/mysqld.sock', user: 'root' })
  let root: mysql.Connection
  try {
    root = await asRoot()
  } catch (err) {
    return `cannot log in to MariaDB as root over /var/run/mysqld/mysqld.sock: ${(err as Error).message}`
  }
  const user = `conn_test_${crypto.randomBytes(4).toString('hex')}`
  const password = `pass-${crypto.randomBytes(8).toString('hex')}`
  const database = 'conn_test'
  const hosts = ['127.0.0.1', 'localhost']
  try {
    await root.query(`CREATE DATABASE IF NOT EXISTS ${database}`)
    for (const host of hosts) {
      await root.query(`CREATE USER '${user}'@'${host}' IDENTIFIED BY '${password}'`)
      await root.query(`GRANT SELECT ON ${database}.* TO '${user}'@'${host}'`)
    }
  } finally {
    await root.end()
  }
  return {
    user,
    password,
    database,
    async drop() {
      const conn = await asRoot()
      try {
        for (const host of hosts) await conn.query(`DROP USER IF EXISTS '${user}'@'${host}'`)
      } finally {
        await conn.end()
      }
    },
  }
}
