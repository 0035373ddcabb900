// Where the heap of a no-change declarative plan goes, phase by phase (issue 29 §7), in process on PGlite: the content
// of bench/declarative.ts bootstrapped, dumped, then the plan's steps run one by one as createPlan runs them, each
// with the heap it keeps (after a full collection, its result still held) and its peak (V8's record of the heap
// before each collection). Not part of npm run bench:
//   node --expose-gc --max-semi-space-size=2 --import tsx bench/declarative-memory.ts   (DECLARATIVE_BENCH_SIZE=full)
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import v8 from 'node:v8'
import { loadConfig } from '../src/config.js'
import { createLogger } from '../src/platform/http/logger.js'
import { startService } from '../src/service.js'
import { applyBootstrap, parseBootstrap } from '../src/bootstrap/apply.js'
import { SYSTEM } from '../src/platform/auth/actor.js'
import { parseInput } from '../src/platform/errors/validation.js'
import { parseStateDocument } from '../src/modules/declarative/document.js'
import { dumpState } from '../src/modules/declarative/dump.js'
import * as plan from '../src/modules/declarative/plan.js'
import { content } from './declarative.js'

const gc = (globalThis as { gc?: () => void }).gc!
const mb = (n: number) => n / (1024 * 1024)
const used = () => mb(v8.getHeapStatistics().used_heap_size)
const held: unknown[] = []

/** Runs a phase, keeps its result, and prints what it keeps and its peak over the heap before it. */
async function phase<T>(label: string, work: () => Promise<T> | T): Promise<T> {
  gc()
  const before = used()
  const profiler = new v8.GCProfiler()
  profiler.start()
  const t0 = performance.now()
  const result = await work()
  const ms = performance.now() - t0
  const stats = profiler.stop().statistics
  const peak = Math.max(used(), ...stats.map((s) => mb(s.beforeGC.heapStatistics.usedHeapSize)))
  const gcMs = stats.reduce((sum, s) => sum + s.cost, 0) / 1000
  held.push(result)
  gc()
  console.log(`${label.padEnd(48)} keeps +${(used() - before).toFixed(1).padStart(6)} MB, peak +${(peak - before).toFixed(1).padStart(6)} MB, ${ms.toFixed(0).padStart(5)} ms (${gcMs.toFixed(0)} ms in ${stats.length} collections)`)
  return result
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-decl-mem-'))
const file = path.join(dir, 'b.json')
fs.writeFileSync(file, JSON.stringify({ environments: [{ name: 'dev', workerUrls: [] }], users: [], projects: [{ name: 'p', environments: ['dev'] }] }))
const svc = await startService(loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dir, GATEWAY_BOOTSTRAP: file, GATEWAY_SECRET_KEY: crypto.randomBytes(32).toString('base64') }), createLogger('warn'))
try {
  await applyBootstrap(svc.deps, parseBootstrap(JSON.stringify({ environments: [{ name: 'dev', workerUrls: [] }], users: [], projects: [{ name: 'p', environments: ['dev'], ...content('m-') }] })))
  const dumped = await phase('dumpState (for comparison)', () => dumpState(svc.deps, SYSTEM, 'p', {}))
  const text = await phase('the dump as JSON text', () => JSON.stringify({ mode: 'sync', document: dumped }))
  console.log(`request body: ${(text.length / 1e6).toFixed(1)} MB of JSON`)
  const body = await phase('the request body parsed (JSON.parse)', () => JSON.parse(text) as { document: unknown })
  const input = await phase('planInput parsed', () => parseInput(plan.planInput, body))
  const doc = await phase('the state document parsed (zod)', () => parseStateDocument(input.document))
  const ctx = await plan.declarativeContext(svc.deps, SYSTEM, 'p')
  const list = plan.listedCollections(doc)
  if ('comparePlan' in plan || !('computePlan' in plan)) {
    const { comparePlan } = await import('../src/modules/declarative/compare.js')
    const { owner, mark } = await plan.readOwnership(ctx.db, ctx.access.project.id)
    const r = await phase('comparePlan (live read page by page, compared)', () => comparePlan(ctx, doc, list, 'sync', '', owner, mark))
    console.log(`${r.content.changes.length} changes`)
  } else {
    const old = plan as unknown as { currentRevision: typeof plan.currentRevision; computePlan: (...a: unknown[]) => { content: { changes: unknown[] } } }
    const { live, owner } = await phase('currentRevision (every live object read)', () => old.currentRevision(ctx, list))
    const r = await phase('computePlan (compared)', () => old.computePlan(ctx, doc, 'sync', '', live, owner))
    console.log(`${r.content.changes.length} changes`)
  }
} finally {
  await svc.stop()
  fs.rmSync(dir, { recursive: true, force: true })
}
process.exit(0)
