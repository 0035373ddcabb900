import v8 from 'node:v8'

/**
 * Holds a long job's heap near its live set (issue 31 §3). A bulk run's chunks each leave a few KB per subject of
 * short-lived objects that outlive the start script's 2 MB young generation (they wait across a chunk's statement)
 * and are promoted; V8 then lets the old generation grow to about three times the live set before it marks it, so at
 * 50,000 subjects the heap grew from 90 to 283 MB of which 90 MB was live (`--trace-gc`), and RSS with it. At a
 * chunk boundary `check()` runs a full collection once the heap has grown `budgetMb` past what the last one left
 * (the start script exposes gc(); without it this does nothing): a collection of a ~90 MB live heap every few
 * thousand subjects, instead of RSS growing with the run.
 */
export class HeapBudget {
  /** the heap a full collection left; null until the first check, which collects to learn it */
  private live: number | null = null
  private readonly gc = (globalThis as { gc?: () => void }).gc

  constructor(private readonly budgetMb = 48) {}

  /** Collects when the heap has grown past the budget (or on the first call); true when it did. */
  check(): boolean {
    if (!this.gc) return false
    if (this.live !== null && v8.getHeapStatistics().used_heap_size - this.live < this.budgetMb * 1024 * 1024) return false
    this.gc()
    this.live = v8.getHeapStatistics().used_heap_size
    return true
  }
}

type Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void

/**
 * Gives what a large one-off job (a big bootstrap file) left behind back to the system now. A plain `gc()` frees the
 * objects, but V8 keeps the emptied pages until its memory reducer runs, seconds of idleness later (issue 31 §3: RSS
 * 3 s after ready was 319–336 MB after a 200,000-credential start, 229–236 MB at 15 s); a second, "last resort"
 * collection then compacts and unmaps them at once. The last-resort flavour alone collected nothing when called from
 * a running script (node 20: heapUsed unchanged), hence both. A no-op without `--expose-gc`.
 */
export function releaseHeap(): void {
  const gc = (globalThis as { gc?: Gc }).gc
  if (!gc) return
  gc()
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' })
}
