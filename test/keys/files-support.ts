import { afterAll, afterEach, beforeAll } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { form as certificateForm } from './support.js'

// Shared by test/keys/files-*.test.ts: the sample installation with both environments on one fake worker, and the
// members the file doors tell apart (EXPORT_IMPORT on CERTIFICATE or PROJECT_MANAGEMENT; CERTIFICATE MANAGE; VIEW).

export const FILE_USERS = {
  ivy: 'ivy-pass-1', // CERTIFICATE MANAGE + DEPLOY_UNDEPLOY + EXPORT_IMPORT
  tina: 'tina-pass-1', // CERTIFICATE MANAGE + DEPLOY_UNDEPLOY, no EXPORT_IMPORT
  pat: 'pat-pass-1', // PROJECT_MANAGEMENT EXPORT_IMPORT only
  vic: 'vic-pass-1', // CERTIFICATE VIEW
} as const

export async function startFilesService(workerUrl: string): Promise<TestService> {
  const bootstrap = sampleBootstrap({ dev: [workerUrl], prod: [workerUrl] })
  for (const [username, password] of Object.entries(FILE_USERS)) bootstrap.users.push({ username, password })
  const grant = (category: string, level: string) => ({ category, level })
  bootstrap.projects[0]!.members!.push(
    { username: 'ivy', permissions: [grant('CERTIFICATE', 'MANAGE'), grant('CERTIFICATE', 'DEPLOY_UNDEPLOY'), grant('CERTIFICATE', 'EXPORT_IMPORT')] },
    { username: 'tina', permissions: [grant('CERTIFICATE', 'MANAGE'), grant('CERTIFICATE', 'DEPLOY_UNDEPLOY')] },
    { username: 'pat', permissions: [grant('PROJECT_MANAGEMENT', 'EXPORT_IMPORT')] },
    { username: 'vic', permissions: [grant('CERTIFICATE', 'VIEW')] },
  )
  return startTestService({ bootstrap })
}

/**
 * The hooks every files-*.test.ts file needs: one fake worker for both environments, the service, a token per member
 * of FILE_USERS (filled into `tokens`), and the worker's received pushes cleared after each test.
 */
export function useFilesService(started: (svc: TestService, worker: FakeWorker) => void, tokens: Record<string, string>) {
  let svc: TestService | undefined
  let worker: FakeWorker | undefined
  beforeAll(async () => {
    worker = await FakeWorker.start()
    svc = await startFilesService(worker.url)
    for (const [user, password] of Object.entries(FILE_USERS)) tokens[user] = await svc.tokenFor(user, password)
    started(svc, worker)
  })
  afterEach(() => {
    if (worker) worker.received.length = 0
  })
  afterAll(async () => {
    await svc?.close()
    await worker?.stop()
  })
}

/** A multipart form with one file part named `field` (its file name `fileName`). */
export function fileForm(fields: Record<string, string | undefined>, field: string, content: string | Buffer, fileName: string): FormData {
  const f = certificateForm(fields)
  f.append(field, new Blob([content]), fileName)
  return f
}
