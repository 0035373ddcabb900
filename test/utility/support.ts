import { automationBootstrap } from '../apiproxies/automation-proxy-support.js'

/**
 * automationBootstrap (payments: erin API_MANAGEMENT MANAGE, frank VIEW, gina MANAGE + DEPLOY_UNDEPLOY + EXPORT_IMPORT)
 * plus olivia, who holds every permission in the project `other` and none in payments.
 */
export function platformBootstrap(workers: { dev: string[]; prod: string[] }) {
  const doc = automationBootstrap(workers) as ReturnType<typeof automationBootstrap> & { projects: { members?: unknown[] }[] }
  doc.users.push({ username: 'olivia', password: 'olivia-pass-1' })
  const all = ['API_MANAGEMENT', 'PROJECT_MANAGEMENT', 'CONNECTION', 'GLOBAL_POLICY'].flatMap((category) => ['MANAGE', 'DEPLOY_UNDEPLOY', 'EXPORT_IMPORT'].map((level) => ({ category, level })))
  doc.projects[1]!.members = [{ username: 'olivia', permissions: all }]
  return doc
}

export const PLATFORM_TOKENS = { root: 's3cret-root', erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1', olivia: 'olivia-pass-1', carol: 'carol-pass-1' }
