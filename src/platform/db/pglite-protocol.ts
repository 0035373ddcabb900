// Messages between the service thread and the embedded database's thread (pglite-thread.ts, pglite-worker.ts).

export interface ThreadStart {
  pgdata: string
  migrationsDir: string
  startParams: string[]
  /** serve the wire protocol here (embeddedPg) */
  wire?: { host: string; port: number }
  /** compiled once per process (pglite-thread.ts) */
  assets?: { wasm: WebAssembly.Module; fsBundle: Uint8Array }
}

/** a query's results as they cross threads: rows parsed in the database's thread */
export interface WireResults {
  rows: unknown[]
  fields: { name: string; dataTypeID: number }[]
  affectedRows?: number
}

export type ThreadRequest = { id: number } & (
  | { op: 'query'; sql: string; params?: unknown[]; rowMode?: 'array' | 'object'; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; rollback: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; channel: string }
  | { op: 'close' }
)

/** id 0 answers the start: `{ wire }` once open, or the error that stopped it */
export interface ThreadReply {
  id: number
  result?: unknown
  error?: { message: string; name: string; stack?: string; database: boolean; fields: Record<string, unknown> }
}

export interface ThreadNotification {
  notify: string
  payload: string
}
