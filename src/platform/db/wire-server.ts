// A PostgreSQL wire-protocol server on loopback over the service's own PGlite instance (issue 21), so that Prisma
// Studio and psql reach live data while the service runs. PGlite is one backend session; @electric-sql/pglite-socket
// forwarded every client's messages onto it as they came, so concurrent connections interleaved their extended-protocol
// messages (one client's Bind ran against another's unnamed Parse) and shared each other's settings: Studio's catalog
// query failed. Here each connection's messages run under PGlite's own transaction lock (the one its query() and
// transaction() take, so the service's transactions are never entered), from the first message to a ReadyForQuery
// outside a transaction block; named statements and portals are prefixed per connection; and each connection's session
// settings (default_transaction_read_only first of all) are set before its messages and taken back off after.
import net from 'node:net'
import type { PGlite } from '@electric-sql/pglite'

export interface WireServerOptions {
  host: string
  port: number
  /** sessions start with default_transaction_read_only=on unless the client's startup parameters say otherwise */
  readOnlyByDefault?: boolean
}

export interface WireServer {
  host: string
  port: number
  close(): Promise<void>
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host)
}

// Startup parameters that are not settings.
const NOT_SETTINGS = new Set(['user', 'database', 'replication', 'options'])

export async function startWireServer(db: PGlite, opts: WireServerOptions): Promise<WireServer> {
  if (!isLoopbackHost(opts.host)) throw new Error(`The embedded PostgreSQL server listens on loopback only, not on ${opts.host}`)
  const readOnlyByDefault = opts.readOnlyByDefault ?? true
  const sockets = new Set<net.Socket>()
  let nextId = 1
  const serverVersion = (await db.query<{ v: string }>('show server_version')).rows[0].v
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    new WireConnection(db, socket, nextId++, readOnlyByDefault, serverVersion)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, opts.host, () => resolve())
  })
  const address = server.address() as net.AddressInfo
  return {
    host: opts.host,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

class WireConnection {
  private buffer = Buffer.alloc(0)
  private started = false
  private settings = new Map<string, string>()
  private statements = new Set<string>()
  /** resolves the lock held across messages while the client is mid-query or in a transaction block */
  private release?: () => void
  private lockHeld?: Promise<void>
  private chain: Promise<void> = Promise.resolve()
  private closed = false

  constructor(
    private db: PGlite,
    private socket: net.Socket,
    private id: number,
    private readOnlyByDefault: boolean,
    private serverVersion: string,
  ) {
    socket.setNoDelay(true)
    socket.on('data', (d) => {
      this.buffer = Buffer.concat([this.buffer, d])
      this.chain = this.chain.then(() => this.drain()).catch((e) => this.fail(e))
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      this.closed = true
      this.chain = this.chain.then(() => this.cleanup()).catch(() => {})
    })
  }

  private async drain(): Promise<void> {
    if (!this.started) {
      if (this.buffer.length < 8) return
      const len = this.buffer.readInt32BE(0)
      if (this.buffer.length < len) return
      const code = this.buffer.readInt32BE(4)
      const body = this.buffer.subarray(8, len)
      this.buffer = this.buffer.subarray(len)
      if (code === 80877103 || code === 80877104) {
        this.socket.write('N') // no TLS, no GSS encryption: loopback only
        return this.drain()
      }
      if (code !== 196608) {
        this.socket.destroy() // cancel requests and old protocols
        return
      }
      await this.startup(body)
      return this.drain()
    }
    const messages: Buffer[] = []
    let end = 0
    while (this.buffer.length - end >= 5) {
      const len = this.buffer.readInt32BE(end + 1)
      if (this.buffer.length - end < len + 1) break
      messages.push(this.rename(this.buffer.subarray(end, end + len + 1)))
      end += len + 1
    }
    if (!messages.length) return
    this.buffer = this.buffer.subarray(end)
    const terminate = messages.findIndex((m) => m[0] === 0x58) // 'X'
    const batch = terminate >= 0 ? messages.slice(0, terminate) : messages
    if (batch.length) await this.run(Buffer.concat(batch))
    if (terminate >= 0) this.socket.end()
  }

  /** Runs messages with the lock held; keeps it unless the output ends in ReadyForQuery 'I' (idle, no transaction). */
  private async run(input: Buffer) {
    await this.acquire()
    const out = Buffer.from(await this.db.execProtocolRaw(input))
    const status = lastReadyStatus(out)
    if (!this.closed) this.socket.write(out)
    if (status === 'I') await this.releaseLock()
  }

  private async acquire() {
    if (this.release) return
    let entered!: () => void
    const inside = new Promise<void>((r) => (entered = r))
    this.lockHeld = this.db._runExclusiveTransaction(
      () =>
        new Promise<void>((resolve) => {
          this.release = resolve
          entered()
        }),
    )
    await inside
    await this.applySettings()
  }

  /** Takes this session's settings back off PGlite's one session, keeping them for its next messages. */
  private async releaseLock() {
    if (!this.release) return
    try {
      const rows = await this.simple(`select name, setting from pg_settings where source = 'session'; reset all`)
      this.settings = new Map(rows.map(([k, v]) => [k, v]))
    } finally {
      const release = this.release
      this.release = undefined
      release()
      await this.lockHeld
    }
  }

  private async applySettings() {
    if (!this.settings.size) return
    const sets = [...this.settings].map(([k, v]) => `set_config(${literal(k)}, ${literal(v)}, false)`)
    await this.simple(`select ${sets.join(', ')}`)
  }

  /** A simple-protocol query of our own; returns the text fields of its rows. */
  private async simple(sql: string): Promise<string[][]> {
    const text = Buffer.from(sql + '\0')
    const msg = Buffer.alloc(5 + text.length)
    msg[0] = 0x51 // 'Q'
    msg.writeInt32BE(4 + text.length, 1)
    text.copy(msg, 5)
    const { messages } = await this.db.execProtocol(msg)
    return messages.filter((m) => m.name === 'dataRow').map((m) => (m as unknown as { fields: string[] }).fields)
  }

  private async startup(body: Buffer) {
    const parts = body.toString('utf8').split('\0')
    const params = new Map<string, string>()
    for (let i = 0; i + 1 < parts.length && parts[i]; i += 2) params.set(parts[i], parts[i + 1])
    const settings = new Map<string, string>()
    if (this.readOnlyByDefault) settings.set('default_transaction_read_only', 'on')
    for (const [k, v] of params) if (!NOT_SETTINGS.has(k)) settings.set(k.toLowerCase(), v)
    // libpq's PGOPTIONS / ?options=: "-c name=value" and "--name=value"
    const options = params.get('options') ?? ''
    for (const m of options.matchAll(/(?:-c\s*|--)([A-Za-z0-9_.]+)=((?:\\.|[^\s\\])*)/g)) settings.set(m[1].toLowerCase().replace(/-/g, '_'), m[2].replace(/\\(.)/g, '$1'))
    this.settings = settings
    try {
      await this.acquire() // applies the settings: an unknown or bad one fails the connection here, as in PostgreSQL
      await this.releaseLock()
    } catch (e) {
      if (this.release) {
        const release = this.release
        this.release = undefined
        release()
      }
      this.socket.end(errorResponse('FATAL', '22023', (e as Error).message))
      this.closed = true
      return
    }
    this.started = true
    const user = params.get('user') ?? 'postgres'
    const status: [string, string][] = [
      ['server_version', this.serverVersion],
      ['server_encoding', 'UTF8'],
      ['client_encoding', 'UTF8'],
      ['DateStyle', 'ISO, MDY'],
      ['integer_datetimes', 'on'],
      ['standard_conforming_strings', 'on'],
      ['TimeZone', this.settings.get('timezone') ?? 'UTC'],
      ['application_name', this.settings.get('application_name') ?? ''],
      ['default_transaction_read_only', this.settings.get('default_transaction_read_only') ?? 'off'],
      ['in_hot_standby', 'off'],
      ['is_superuser', 'on'],
      ['session_authorization', user],
    ]
    const out: Buffer[] = [message(0x52, int32(0))] // AuthenticationOk
    for (const [k, v] of status) out.push(message(0x53, Buffer.from(`${k}\0${v}\0`)))
    out.push(message(0x4b, Buffer.concat([int32(this.id), int32(0)]))) // BackendKeyData (cancel is not supported)
    out.push(message(0x5a, Buffer.from('I')))
    this.socket.write(Buffer.concat(out))
  }

  /** Prefixes named prepared statements and portals with the connection, so that sessions do not collide. */
  private rename(msg: Buffer): Buffer {
    const type = msg[0]
    const prefix = `w${this.id}_`
    const named = (s: string) => (s ? prefix + s : s)
    if (type === 0x50) {
      // Parse: name, query, …
      const [name, rest] = cstring(msg, 5)
      if (name) this.statements.add(prefix + name)
      return name ? rebuild(type, [named(name)], msg.subarray(rest)) : msg
    }
    if (type === 0x42) {
      // Bind: portal, statement, …
      const [portal, afterPortal] = cstring(msg, 5)
      const [statement, rest] = cstring(msg, afterPortal)
      return portal || statement ? rebuild(type, [named(portal), named(statement)], msg.subarray(rest)) : msg
    }
    if (type === 0x44 || type === 0x43) {
      // Describe / Close: 'S' | 'P', name
      const [name, rest] = cstring(msg, 6)
      if (!name) return msg
      if (type === 0x43 && msg[5] === 0x53) this.statements.delete(prefix + name)
      return rebuild(type, [], Buffer.concat([msg.subarray(5, 6), Buffer.from(named(name) + '\0'), msg.subarray(rest)]))
    }
    if (type === 0x45) {
      // Execute: portal, max rows
      const [portal, rest] = cstring(msg, 5)
      return portal ? rebuild(type, [named(portal)], msg.subarray(rest)) : msg
    }
    return msg
  }

  private async cleanup() {
    try {
      if (!this.release && this.statements.size) await this.acquire().catch(() => {})
      if (this.release) {
        // a transaction left open by a client that went away is rolled back, its statements dropped
        const drops = [...this.statements].map((s) => `deallocate "${s.replace(/"/g, '""')}"`)
        await this.simple(['rollback', ...drops].join('; ')).catch(() => {})
        await this.releaseLock()
      }
    } finally {
      this.statements.clear()
    }
  }

  private fail(e: unknown) {
    if (!this.closed) this.socket.end(errorResponse('FATAL', 'XX000', (e as Error).message))
    this.closed = true
    if (this.release) void this.releaseLock().catch(() => {})
  }
}

function lastReadyStatus(out: Buffer): string | undefined {
  let status: string | undefined
  for (let i = 0; i + 5 <= out.length; ) {
    const len = out.readInt32BE(i + 1)
    if (out[i] === 0x5a) status = String.fromCharCode(out[i + 5])
    i += len + 1
  }
  return status
}

function cstring(buf: Buffer, start: number): [string, number] {
  const end = buf.indexOf(0, start)
  return [buf.toString('utf8', start, end), end + 1]
}

function rebuild(type: number, strings: string[], rest: Buffer): Buffer {
  return message(type, Buffer.concat([...strings.map((s) => Buffer.from(s + '\0')), rest]))
}

function int32(n: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeInt32BE(n)
  return b
}

function message(type: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([type]), int32(body.length + 4), body])
}

function errorResponse(severity: string, code: string, text: string): Buffer {
  return message(0x45, Buffer.from(`S${severity}\0V${severity}\0C${code}\0M${text}\0\0`))
}

function literal(s: string): string {
  return `'${s.replace(/'/g, "''")}'`
}
