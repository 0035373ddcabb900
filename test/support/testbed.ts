// The set-up most integration files share: fake workers, the service on a bootstrap naming them, and a
// token per user. useTestbed registers the vitest hooks; startTestbed is the same without them.
import { afterAll, afterEach, beforeAll } from 'vitest'
import { startTestService, type TestService } from './app.js'
import { FakeWorker } from './fake-worker.js'
import { sampleBootstrap } from './fixtures.js'

type WorkerEnvironment = 'dev' | 'prod'
type WorkerUrls = { dev: string[]; prod: string[] }

export interface TestbedOptions<W extends WorkerEnvironment, U extends string> {
  /** the environments that get one fake worker each (none unless told) */
  workers?: readonly W[]
  /** the bootstrap document for the workers' URLs; sampleBootstrap unless told */
  bootstrap?: (workers: WorkerUrls) => unknown
  /** username → password: a token is minted for each user */
  tokens?: Record<U, string>
  /** extra service environment */
  env?: Record<string, string>
}

/** The service, a fake worker per environment (`bed.dev`, `bed.prod`) and a token per user (`bed.erin`). */
export type Testbed<W extends WorkerEnvironment, U extends string> = { svc: TestService } & Record<W, FakeWorker> & Record<U, string>

export interface StartedTestbed<W extends WorkerEnvironment, U extends string> {
  bed: Testbed<W, U>
  /** every worker back to answering 200 with nothing received */
  resetWorkers(): void
  close(): Promise<void>
}

export async function startTestbed<W extends WorkerEnvironment = never, U extends string = never>(
  options: TestbedOptions<W, U> = {},
): Promise<StartedTestbed<W, U>> {
  const names = options.workers ?? []
  const workers = await Promise.all(names.map(() => FakeWorker.start()))
  const urls = Object.fromEntries(names.map((name, i) => [name, [workers[i]!.url]])) as Partial<Record<WorkerEnvironment, string[]>>
  const bootstrap = (options.bootstrap ?? sampleBootstrap)({ dev: [], prod: [], ...urls })
  const stopWorkers = () => Promise.all(workers.map((worker) => worker.stop()))
  const users = Object.entries(options.tokens ?? {}) as [U, string][]
  let svc: TestService | undefined
  let tokens: string[]
  try {
    svc = await startTestService({ bootstrap, env: options.env })
    tokens = await Promise.all(users.map(([username, password]) => svc!.tokenFor(username, password)))
  } catch (error) {
    await svc?.close()
    await stopWorkers()
    throw error
  }
  const bed = {
    svc: svc!,
    ...Object.fromEntries(names.map((name, i) => [name, workers[i]])),
    ...Object.fromEntries(users.map(([username], i) => [username, tokens[i]])),
  } as Testbed<W, U>
  return {
    bed,
    resetWorkers() {
      for (const worker of workers) {
        worker.status = 200
        worker.received.length = 0
      }
    },
    async close() {
      await svc!.close()
      await stopWorkers()
    },
  }
}

/**
 * Registers beforeAll (start), afterEach (reset the workers) and afterAll (close everything) and returns the
 * testbed, whose fields are there once beforeAll has run; a file's own beforeAll, registered after this call,
 * runs after it.
 */
export function useTestbed<W extends WorkerEnvironment = never, U extends string = never>(options: TestbedOptions<W, U> = {}): Testbed<W, U> {
  const bed = {} as Testbed<W, U>
  let started: StartedTestbed<W, U> | undefined
  beforeAll(async () => {
    started = await startTestbed(options)
    Object.assign(bed, started.bed)
  })
  afterEach(() => started?.resetWorkers())
  afterAll(async () => {
    await started?.close()
  })
  return bed
}
