// The embedded database's own thread (see pglite-thread.ts): opens PGlite on the data directory, applies the
// migrations, serves the wire protocol when asked, then answers the service thread's queries one message at a time.
import { parentPort, workerData } from 'node:worker_threads'
import { messages, PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite'
import { PrismaPGlite } from 'pglite-prisma-adapter'
import { runMigrations } from './migrate.js'
import { queryInOneTrip } from './pglite-one-trip.js'
import { pgliteExtensions } from './pglite-extensions.js'
import { startWireServer, type WireServer } from './wire-server.js'
import type { ThreadReply, ThreadRequest, ThreadStart, WireResults } from './pglite-protocol.js'

const port = parentPort!
const start = workerData as ThreadStart

/**
 * The Prisma adapter's result parsers (dates and numerics as Prisma reads them, bytes, JSON text), taken from the
 * adapter itself by one query against a stand-in client: functions do not cross threads, so they are installed
 * here once, on the instance, for every query that comes from Prisma.
 */
async function adapterParsers(): Promise<NonNullable<QueryOptions['parsers']>> {
  let parsers: QueryOptions['parsers']
  const standIn = {
    query: async (_sql: string, _params: unknown[], options: QueryOptions) => {
      parsers = options.parsers
      return { rows: [], fields: [] }
    },
  }
  const adapter = await new PrismaPGlite(standIn as unknown as PGlite).connect()
  await adapter.queryRaw({ sql: 'SELECT 1', args: [], argTypes: [] })
  if (!parsers) throw new Error('pglite-prisma-adapter passed no result parsers')
  return parsers
}

function serializeError(err: unknown): ThreadReply['error'] {
  if (err instanceof Error) {
    const fields: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(err)) if (v === undefined || typeof v !== 'object') fields[k] = v
    return { message: err.message, name: err.name, stack: err.stack, database: err instanceof messages.DatabaseError, fields }
  }
  return { message: String(err), name: 'Error', database: false, fields: {} }
}

const wireResults = (r: Results): WireResults => ({
  rows: r.rows,
  fields: r.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
  affectedRows: r.affectedRows,
})

/**
 * PGlite's file-system bundle as the one buffer PGlite keeps: its in-memory file system's files are views into the
 * buffer `fsBundle.arrayBuffer()` returns (Emscripten's MEMFS, `canOwn`), and it reads only that method. A `Blob` of
 * the bundle was a second copy (6 MB of native memory), its `arrayBuffer()` a third, and the received bundle, held
 * by `workerData`, a fourth; here the received buffer itself is handed over and the start message lets go of it.
 */
function ownFsBundle(): { arrayBuffer(): Promise<ArrayBuffer> } | undefined {
  const assets = start.assets
  if (!assets) return undefined
  const bytes = assets.fsBundle
  // PGlite checks the buffer's length against its bundle's: the whole buffer, not a view into a larger one
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : (bytes.slice().buffer as ArrayBuffer)
  assets.fsBundle = new Uint8Array(0)
  return { arrayBuffer: async () => whole }
}

async function main(): Promise<void> {
  const db = new PGlite(start.pgdata, {
    extensions: pgliteExtensions,
    startParams: start.startParams,
    pgliteWasmModule: start.assets?.wasm,
    fsBundle: ownFsBundle() as Blob | undefined,
  })
  let wire: WireServer | undefined
  try {
    await db.waitReady
    await runMigrations(db, start.migrationsDir)
    if (start.wire) {
      const at = start.wire
      wire = await startWireServer(db, at).catch((e: Error) => {
        throw new Error(`Cannot serve the embedded database on ${at.host}:${at.port}: ${e.message}`, { cause: e })
      })
    }
  } catch (err) {
    await wire?.close().catch(() => undefined)
    await db.close().catch(() => undefined)
    port.postMessage({ id: 0, error: serializeError(err) } satisfies ThreadReply)
    return
  }
  // after the migrations, which read results with PGlite's own parsers
  Object.assign(db.parsers, await adapterParsers())

  /** open transactions by id: the callback of each is held until the service thread ends it */
  const transactions = new Map<number, { tx: Transaction; release: (rollback: boolean) => void; done: Promise<void> }>()
  const listeners = new Map<string, () => Promise<void>>()
  let nextTx = 1

  const target = (tx: number | undefined) => {
    if (tx === undefined) return db
    const open = transactions.get(tx)
    if (!open) throw new Error(`transaction ${tx} is not open`)
    return open.tx
  }

  /** BEGIN under PGlite's own lock (what its transaction() takes), answered with an id once inside */
  const begin = () =>
    new Promise<number>((resolveId, rejectBegin) => {
      const id = nextTx++
      const done = db.transaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            const release = (rollback: boolean) => (rollback ? tx.rollback().then(resolve, reject) : resolve())
            transactions.set(id, { tx, release, done })
            resolveId(id)
          }),
      )
      done.catch(rejectBegin) // a BEGIN that failed; later failures are the end's (COMMIT)
    })

  const end = async (id: number, rollback: boolean) => {
    const open = transactions.get(id)
    if (!open) throw new Error(`transaction ${id} is not open`)
    transactions.delete(id)
    open.release(rollback)
    await open.done
  }

  const handle = async (req: ThreadRequest): Promise<unknown> => {
    switch (req.op) {
      case 'query': {
        // inside a transaction its lock is held already; outside, the statement takes it as PGlite's query() does
        const run = () => queryInOneTrip(db, req.sql, req.params, req.rowMode)
        if (req.tx !== undefined) target(req.tx)
        return wireResults(await (req.tx === undefined ? db._runExclusiveTransaction(run) : run()))
      }
      case 'exec':
        return (await target(req.tx).exec(req.sql)).map(wireResults)
      case 'begin':
        return begin()
      case 'end':
        return end(req.tx, req.rollback)
      case 'listen':
        if (!listeners.has(req.channel)) listeners.set(req.channel, await db.listen(req.channel, (payload) => port.postMessage({ notify: req.channel, payload })))
        return null
      case 'unlisten': {
        const stop = listeners.get(req.channel)
        listeners.delete(req.channel)
        await stop?.()
        return null
      }
      case 'close':
        await wire?.close()
        await db.close()
        return null
    }
  }

  port.on('message', (req: ThreadRequest) => {
    handle(req).then(
      (result) => {
        port.postMessage({ id: req.id, result } satisfies ThreadReply)
        if (req.op === 'close') port.close()
      },
      (err) => port.postMessage({ id: req.id, error: serializeError(err) } satisfies ThreadReply),
    )
  })
  port.postMessage({ id: 0, result: { wire: wire && { host: wire.host, port: wire.port } } } satisfies ThreadReply)
}

void main()
