import { startTestService, type TestService } from '../support/app.js'
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

/** A multipart form with one file part named `field` (its file name `fileName`). */
export function fileForm(fields: Record<string, string | undefined>, field: string, content: string | Buffer, fileName: string): FormData {
  const f = certificateForm(fields)
  f.append(field, new Blob([content]), fileName)
  return f
}
