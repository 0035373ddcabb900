// The embedded database on a thread of its own. PGlite runs PostgreSQL (WebAssembly) on the thread that calls it: on
// the service's thread every query's execution and result building stopped HTTP, JSON and Prisma work for the
// requests waiting beside it, where a PostgreSQL server does that work in its own process. Here PGlite runs in a
// worker thread (pglite-worker.ts) and the service thread sees a client with the surface the Prisma adapter uses
// (query, exec, transaction), plus listen and close. Queries still run one at a time, in the order they are sent.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { messages, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite'
import type { ThreadNotification, ThreadReply, ThreadRequest, ThreadStart, WireResults } from './pglite-protocol.js'

export interface EmbeddedThread {
  /** what the Prisma adapter calls: query, exec and transaction (results parsed for Prisma in the database's thread) */
  client: PGlite
  wire?: { host: string; port: number }
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>
  /**
   * Closes the database and opens it again in a new thread, when no query or transaction is in flight (false
   * otherwise). PostgreSQL-in-WebAssembly's memory only grows: a large job (a big bootstrap file) leaves it at its
   * high-water mark, and only a new thread's instance starts small again (issue 31 §3).
   */
  reopen(): Promise<boolean>
  close(): Promise<void>
}

/** The error message of a closed instance, as PGlite's own (outage.ts reads it as the database being unavailable). */
const CLOSED = 'PGlite is closed'

type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void }
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

// Node's global (the project's type library declares WebAssembly's types only)
const compileWasm = (bytes: Uint8Array) => (globalThis as unknown as { WebAssembly: { compile(b: Uint8Array): Promise<WebAssembly.Module> } }).WebAssembly.compile(bytes)

let compiled: Promise<WebAssembly.Module> | undefined

/**
 * PGlite's files: its WebAssembly compiled once per process and handed to each database thread (a compiled module
 * crosses threads without compiling again), and its file-system bundle, read for each start (6 MB not kept).
 */
async function pgliteAssets(): Promise<NonNullable<ThreadStart['assets']>> {
  const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
  compiled ??= fs.promises.readFile(path.join(dist, 'pglite.wasm')).then(compileWasm)
  const [wasm, fsBundle] = await Promise.all([compiled, fs.promises.readFile(path.join(dist, 'pglite.data'))])
  return { wasm, fsBundle: new Uint8Array(fsBundle.buffer, fsBundle.byteOffset, fsBundle.byteLength) }
}

let sourceEntry: Promise<URL> | undefined

/**
 * Run from source (tsx, vitest), the worker's TypeScript is bundled once per process with esbuild (packages left
 * to node_modules) into node_modules/.cache, where its package imports resolve: tsx's loader would cost each
 * thread ≈ 140 ms to register. Built from dist (npm start), the worker is tsc's pglite-worker.js beside this file.
 */
function workerEntry(): Promise<URL> {
  const here = import.meta.url
  if (!here.endsWith('.ts')) return Promise.resolve(new URL('./pglite-worker.js', here))
  sourceEntry ??= (async () => {
    const { build } = await import('esbuild')
    const source = fileURLToPath(new URL('./pglite-worker.ts', here))
    const modules = path.dirname(path.dirname(createRequire(here).resolve('esbuild/package.json')))
    const out = path.join(modules, '.cache', 'gateway', `pglite-worker-${process.pid}-${Date.now()}.mjs`)
    await build({ entryPoints: [source], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' })
    process.once('exit', () => fs.rmSync(out, { force: true }))
    return pathToFileURL(out)
  })()
  return sourceEntry
}

function threadError(e: NonNullable<ThreadReply['error']>): Error {
  if (!e.database) return Object.assign(new Error(e.message), { name: e.name })
  const { name: _name, length, ...fields } = e.fields
  return Object.assign(new messages.DatabaseError(e.message, Number(length ?? 0), 'error'), fields)
}

const results = (r: WireResults) => r as unknown as Results

/** One database thread: the worker, its requests in flight, and the channels it listens on for the service. */
interface ThreadGeneration {
  request(req: DistributiveOmit<ThreadRequest, 'id'>): Promise<unknown>
  wire?: { host: string; port: number }
  /** closes the database and ends the thread */
  close(): Promise<void>
  idle(): boolean
}

async function startThread(opening: Omit<ThreadStart, 'assets'>, onNotify: (msg: ThreadNotification) => void): Promise<ThreadGeneration> {
  const [entry, assets] = await Promise.all([workerEntry(), pgliteAssets()])
  // no loader flags (tsx's, vitest's) in the thread: its entry is plain JavaScript
  const bundle = assets.fsBundle
  const movable = bundle.byteOffset === 0 && bundle.byteLength === bundle.buffer.byteLength
  const worker = new Worker(entry, {
    workerData: { ...opening, assets } satisfies ThreadStart,
    transferList: movable ? [bundle.buffer as ArrayBuffer] : [], // moved, not copied
    execArgv: [],
  })
  const pending = new Map<number, Pending>()
  let nextId = 1
  let closed = false
  let stopped: Error | undefined

  let started!: Pending
  const ready = new Promise<unknown>((resolve, reject) => (started = { resolve, reject }))
  const fail = (err: Error) => {
    stopped ??= err
    started.reject(err)
    for (const p of pending.values()) p.reject(new Error(CLOSED, { cause: err }))
    pending.clear()
  }
  worker.on('message', (msg: ThreadReply | ThreadNotification) => {
    if ('notify' in msg) return onNotify(msg)
    const p = msg.id === 0 ? started : pending.get(msg.id)
    pending.delete(msg.id)
    if (pending.size === 0) worker.unref() // an idle database does not keep the process alive (as PGlite in process)
    if (msg.error) p?.reject(threadError(msg.error))
    else p?.resolve(msg.result)
  })
  worker.on('error', fail)
  worker.on('exit', (code) => fail(new Error(`the embedded database's thread exited (code ${code})`)))

  const request = (req: DistributiveOmit<ThreadRequest, 'id'>): Promise<unknown> => {
    if (closed || stopped) return Promise.reject(new Error(CLOSED, { cause: stopped }))
    const id = nextId++
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject })
      if (pending.size === 1) worker.ref()
      worker.postMessage({ ...req, id })
    })
  }

  worker.ref()
  let opened: { wire?: { host: string; port: number } }
  try {
    opened = (await ready) as typeof opened
  } catch (err) {
    await worker.terminate()
    throw err
  }
  worker.unref()
  return {
    request,
    wire: opened.wire,
    idle: () => pending.size === 0,
    close: async () => {
      if (closed) return
      const exited = new Promise((resolve) => worker.once('exit', resolve))
      await request({ op: 'close' }).catch(() => undefined)
      closed = true
      worker.ref() // until it has exited
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000).unref())])
      await worker.terminate()
    },
  }
}

export async function openEmbeddedThread(opening: Omit<ThreadStart, 'assets'>): Promise<EmbeddedThread> {
  const channels = new Map<string, Set<(payload: string) => void>>()
  const onNotify = (msg: ThreadNotification) => {
    for (const cb of channels.get(msg.notify) ?? []) cb(msg.payload)
  }
  let thread = await startThread(opening, onNotify)
  let openTransactions = 0
  let reopening: Promise<unknown> | undefined
  const request = (req: DistributiveOmit<ThreadRequest, 'id'>) => (reopening ? reopening.then(() => thread.request(req)) : thread.request(req))

  const query = async (sql: string, params?: unknown[], options?: QueryOptions, tx?: number) =>
    results((await request({ op: 'query', sql, params, rowMode: options?.rowMode, tx })) as WireResults)
  const exec = async (sql: string, tx?: number) => ((await request({ op: 'exec', sql, tx })) as WireResults[]).map(results)

  /** PGlite's transaction(): the callback's queries run in the database's transaction; a rollback is taken at its end */
  const transaction = async <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> => {
    const id = (await request({ op: 'begin' })) as number
    openTransactions++
    let rollback = false
    let ended = false
    const ensureOpen = () => {
      if (ended) throw new Error('Transaction is closed')
    }
    const tx = {
      query: async (sql: string, params?: unknown[], options?: QueryOptions) => (ensureOpen(), query(sql, params, options, id)),
      exec: async (sql: string) => (ensureOpen(), exec(sql, id)),
      rollback: async () => {
        rollback = true
      },
      get closed() {
        return ended
      },
    } as unknown as Transaction
    try {
      let result: T
      try {
        result = await callback(tx)
      } catch (err) {
        ended = true
        await request({ op: 'end', tx: id, rollback: true }).catch(() => undefined)
        throw err
      }
      ended = true
      await request({ op: 'end', tx: id, rollback })
      return result
    } finally {
      openTransactions--
    }
  }

  const client = { query: (sql: string, params?: unknown[], options?: QueryOptions) => query(sql, params, options), exec: (sql: string) => exec(sql), transaction }
  const wire = thread.wire
  return {
    client: client as unknown as PGlite,
    wire,
    listen: async (channel, onPayload) => {
      let set = channels.get(channel)
      if (!set) {
        set = new Set()
        channels.set(channel, set)
        await request({ op: 'listen', channel })
      }
      set.add(onPayload)
      return async () => {
        set.delete(onPayload)
        if (set.size > 0 || channels.get(channel) !== set) return
        channels.delete(channel)
        await request({ op: 'unlisten', channel }).catch(() => undefined)
      }
    },
    reopen: async () => {
      // between requests only: a query sent meanwhile would reach a closed database
      if (openTransactions > 0 || !thread.idle()) return false
      const next = (async () => {
        await thread.close()
        // the wire server comes back on the port it had (EMBEDDED_PG_PORT=0 chose one the first time)
        thread = await startThread({ ...opening, wire: wire ?? opening.wire }, onNotify)
        for (const channel of channels.keys()) await thread.request({ op: 'listen', channel })
      })()
      reopening = next.catch(() => undefined)
      try {
        await next
      } finally {
        reopening = undefined
      }
      return true
    },
    close: () => thread.close(),
  }
}
