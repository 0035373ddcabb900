import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { jsonOf } from '../support/http.js'

/** Users of the connection tests and what they may do in MyProject. */
export const PASSWORDS: Record<string, string> = {
  root: 'root-pass-1', // system administrator
  manager: 'manager-pass-1', // CONNECTION MANAGE + DEPLOY_UNDEPLOY
  saver: 'saver-pass-1', // CONNECTION MANAGE, no DEPLOY_UNDEPLOY
  viewer: 'viewer-pass-1', // CONNECTION VIEW
  pm: 'pm-pass-1', // PROJECT_MANAGEMENT MANAGE + DEPLOY_UNDEPLOY (accepted in place of CONNECTION)
  identity: 'identity-pass-1', // IDENTITY MANAGE only: nothing here
  outsider: 'outsider-pass-1', // member of Other only
}

export interface ConnectionEnv {
  svc: TestService
  workers: Record<'production' | 'staging', FakeWorker>
  tokens: Record<string, string>
  call(user: string, method: string, path: string, body?: unknown): Promise<Response>
  json(user: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>
  resetWorkers(): void
  pushes(): number
  close(): Promise<void>
}

export async function startConnectionEnv(env: Record<string, string> = {}): Promise<ConnectionEnv> {
  const workers = { production: await FakeWorker.start(), staging: await FakeWorker.start() }
  const grants = (...pairs: [string, string][]) => pairs.map(([category, level]) => ({ category, level }))
  const svc = await startTestService({
    env: { CONNECTION_TEST_TIMEOUT_MS: '1500', ...env },
    bootstrap: {
      environments: [
        { name: 'production', workerUrls: [workers.production.url] },
        { name: 'staging', workerUrls: [workers.staging.url] },
      ],
      users: Object.entries(PASSWORDS).map(([username, password]) => ({ username, password, ...(username === 'root' ? { role: 'ADMIN' } : {}) })),
      projects: [
        {
          name: 'MyProject',
          environments: ['production', 'staging'],
          members: [
            { username: 'manager', permissions: grants(['CONNECTION', 'MANAGE'], ['CONNECTION', 'DEPLOY_UNDEPLOY']) },
            { username: 'saver', permissions: grants(['CONNECTION', 'MANAGE']) },
            { username: 'viewer', permissions: grants(['CONNECTION', 'VIEW']) },
            { username: 'pm', permissions: grants(['PROJECT_MANAGEMENT', 'MANAGE'], ['PROJECT_MANAGEMENT', 'DEPLOY_UNDEPLOY']) },
            { username: 'identity', permissions: grants(['IDENTITY', 'MANAGE']) },
          ],
        },
        { name: 'Other', environments: ['staging'], members: [{ username: 'outsider', permissions: grants(['CONNECTION', 'MANAGE']) }] },
      ],
    },
  })
  const tokens: Record<string, string> = {}
  for (const [user, password] of Object.entries(PASSWORDS)) tokens[user] = await svc.tokenFor(user, password)
  const all = Object.values(workers)
  const call = (user: string, method: string, path: string, body?: unknown) =>
    svc.http(path, {
      method,
      headers: { authorization: `Bearer ${tokens[user]}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
  return {
    svc,
    workers,
    tokens,
    call,
    async json(user, method, path, body) {
      const res = await call(user, method, path, body)
      return { status: res.status, body: await jsonOf(res) }
    },
    resetWorkers() {
      for (const w of all) {
        w.status = 200
        w.received.length = 0
      }
    },
    pushes: () => all.reduce((n, w) => n + w.received.length, 0),
    async close() {
      await svc.close()
      for (const w of all) await w.stop()
    },
  }
}

/** Every stored connection of both stores, for "nothing written" checks. */
export async function snapshot(svc: TestService): Promise<string> {
  const p = svc.deps.prisma
  return JSON.stringify([await p.connection.findMany({ orderBy: { id: 'asc' } }), await p.webhookConnection.findMany({ orderBy: { id: 'asc' } })])
}
