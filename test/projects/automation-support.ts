import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'

/** Users of the automation tests and what they may do in MyProject. */
export const PASSWORDS: Record<string, string> = {
  root: 'root-pass-1', // system administrator
  manager: 'manager-pass-1', // PROJECT_MANAGEMENT MANAGE + DEPLOY_UNDEPLOY
  saver: 'saver-pass-1', // PROJECT_MANAGEMENT MANAGE, no DEPLOY_UNDEPLOY
  viewer: 'viewer-pass-1', // PROJECT_MANAGEMENT VIEW
  ipadmin: 'ipadmin-pass-1', // IP_GROUP MANAGE (the type's own category)
  identity: 'identity-pass-1', // IDENTITY MANAGE only: nothing here
  outsider: 'outsider-pass-1', // member of Other only
}

export interface AutomationEnv {
  svc: TestService
  workers: Record<'production' | 'staging' | 'development', FakeWorker>
  tokens: Record<string, string>
  auth(user: string): Record<string, string>
  /** JSON request with the user's token */
  call(user: string, method: string, path: string, body?: unknown): Promise<Response>
  resetWorkers(): void
  pushes(): number
  close(): Promise<void>
}

export async function startAutomationEnv(): Promise<AutomationEnv> {
  const workers = { production: await FakeWorker.start(), staging: await FakeWorker.start(), development: await FakeWorker.start() }
  const grants = (...pairs: [string, string][]) => pairs.map(([category, level]) => ({ category, level }))
  const svc = await startTestService({
    env: {},
    bootstrap: {
      environments: [
        { name: 'production', workerUrls: [workers.production.url], description: 'Production environment', type: 'PRODUCTION', accessUrl: 'https://api.production.example.com' },
        { name: 'staging', workerUrls: [workers.staging.url], description: 'Staging environment', type: 'SANDBOX', accessUrl: 'https://api.staging.example.com' },
        { name: 'development', workerUrls: [workers.development.url], description: 'Development environment', type: 'TEST', accessUrl: 'http://localhost:8080' },
        { name: 'unused', workerUrls: [] },
      ],
      users: Object.entries(PASSWORDS).map(([username, password]) => ({ username, password, ...(username === 'root' ? { role: 'ADMIN' } : {}) })),
      projects: [
        {
          name: 'MyProject',
          description: 'My project description',
          environments: ['production', 'staging', 'development'],
          members: [
            { username: 'manager', permissions: grants(['PROJECT_MANAGEMENT', 'MANAGE'], ['PROJECT_MANAGEMENT', 'DEPLOY_UNDEPLOY']) },
            { username: 'saver', permissions: grants(['PROJECT_MANAGEMENT', 'MANAGE']) },
            { username: 'viewer', permissions: grants(['PROJECT_MANAGEMENT', 'VIEW']) },
            { username: 'ipadmin', permissions: grants(['IP_GROUP', 'MANAGE']) },
            { username: 'identity', permissions: grants(['IDENTITY', 'MANAGE']) },
          ],
          objects: [{ type: 'IP_GROUP', name: 'office-ips', content: { ips: ['10.0.0.0/8'] } }],
        },
        { name: 'Other', description: 'description text', environments: ['staging'], members: [{ username: 'outsider', permissions: grants(['PROJECT_MANAGEMENT', 'MANAGE']) }] },
      ],
    },
  })
  const tokens: Record<string, string> = {}
  for (const [user, password] of Object.entries(PASSWORDS)) tokens[user] = await svc.tokenFor(user, password)
  const auth = (user: string) => ({ authorization: `Bearer ${tokens[user]}` })
  const all = Object.values(workers)
  return {
    svc,
    workers,
    tokens,
    auth,
    call: (user, method, path, body) =>
      svc.http(path, { method, headers: { ...auth(user), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, body: body !== undefined ? JSON.stringify(body) : undefined }),
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
