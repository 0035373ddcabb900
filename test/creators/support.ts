import { sampleBootstrap } from '../support/fixtures.js'

// The installation of the creator and promotion suites: the sample bootstrap plus members for each permission case.
export const CREATOR_USERS = {
  root: 's3cret-root', // system administrator
  cora: 'cora-pass-1', // API_MANAGEMENT MANAGE + DEPLOY_UNDEPLOY in payments
  cid: 'cid-pass-1', // API_CREATOR MANAGE in payments (the type's own category)
  vic: 'vic-pass-1', // API_MANAGEMENT VIEW in payments
  olaf: 'olaf-pass-1', // API_MANAGEMENT MANAGE in `other` only
} as const

export function creatorBootstrap(workers: { dev: string[]; prod: string[] }) {
  const doc = sampleBootstrap(workers) as ReturnType<typeof sampleBootstrap> & { projects: { members?: unknown[] }[] }
  for (const [username, password] of Object.entries(CREATOR_USERS)) if (username !== 'root') doc.users.push({ username, password })
  const grant = (category: string, level: string) => ({ category, level })
  doc.projects[0]!.members!.push(
    { username: 'cora', permissions: [grant('API_MANAGEMENT', 'MANAGE'), grant('API_MANAGEMENT', 'DEPLOY_UNDEPLOY')] },
    { username: 'cid', permissions: [grant('API_CREATOR', 'MANAGE')] },
    { username: 'vic', permissions: [grant('API_MANAGEMENT', 'VIEW')] },
  )
  doc.projects[1]!.members = [{ username: 'olaf', permissions: [grant('API_MANAGEMENT', 'MANAGE'), grant('API_MANAGEMENT', 'DEPLOY_UNDEPLOY')] }]
  return doc
}
