// The service of bench/declarative.ts, run as its own process (node with the start script's flags, through tsx) so
// that the memory of a plan is the service's alone: the bench's own copy of the state file, its request body and the
// answers it parses are in the bench's process, not here. Answers the bench's IPC messages:
//   bootstrap {file}: applyBootstrap of that file, timed here (start-up left out)
//   outbox: the number of outbox rows
//   idle: two full collections, then V8's GC profiler started (it records the heap before and after every
//         collection, so a peak between two timer ticks is not missed); the bench resets the kernel's peak RSS
//   peak: the profiler stopped; the largest used heap it saw (before any collection, or now)
import fs from 'node:fs'
import v8 from 'node:v8'
import { loadConfig } from '../src/config.js'
import { createLogger } from '../src/platform/http/logger.js'
import { startService } from '../src/service.js'
import { applyBootstrap, parseBootstrap } from '../src/bootstrap/apply.js'

const gc = (globalThis as { gc?: () => void }).gc
if (!gc || !process.send) throw new Error('run by bench/declarative.ts (node --expose-gc, with an IPC channel)')
const svc = await startService(loadConfig(process.env), createLogger('warn'))
const used = () => v8.getHeapStatistics().used_heap_size / (1024 * 1024)
let profiler: v8.GCProfiler | null = null

type Message = { id: number; op: 'bootstrap'; file: string } | { id: number; op: 'outbox' | 'idle' | 'peak' | 'stop' }

async function answer(m: Message): Promise<unknown> {
  switch (m.op) {
    case 'bootstrap': {
      const file = parseBootstrap(fs.readFileSync(m.file, 'utf8'))
      const t0 = performance.now()
      try {
        await applyBootstrap(svc.deps, file)
        return { seconds: (performance.now() - t0) / 1000 }
      } catch (err) {
        return { seconds: (performance.now() - t0) / 1000, error: String((err as Error).message).split('\n').filter(Boolean).slice(-1)[0] }
      }
    }
    case 'outbox':
      return svc.deps.prisma.deliveryOutbox.count()
    case 'idle':
      await new Promise((r) => setTimeout(r, 200))
      gc!()
      gc!()
      profiler = new v8.GCProfiler()
      profiler.start()
      return { heap: used() }
    case 'peak': {
      const now = used()
      const stats = profiler?.stop()?.statistics ?? []
      profiler = null
      const before = stats.map((s) => s.beforeGC.heapStatistics.usedHeapSize / (1024 * 1024))
      return { heap: Math.max(now, ...before), collections: stats.length }
    }
    case 'stop':
      await svc.stop()
      setImmediate(() => process.exit(0))
      return null
  }
}

process.on('message', (m: Message) => {
  answer(m).then((value) => process.send!({ id: m.id, value }), (err) => process.send!({ id: m.id, error: String(err) }))
})
process.send({ url: svc.url })
