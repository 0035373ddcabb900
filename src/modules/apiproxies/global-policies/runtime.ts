import type { Deps } from '../../../platform/context.js'
import { openPolicySecrets } from '../policies/policy-secrets.js'

// What a global policy adds to the configuration pushed for an API proxy (proxies/automation/deploy.ts): the project's
// global policies apply to every API proxy of the project, so each proxy's message carries them, secrets opened.

export const GLOBAL_POLICY = 'GLOBAL_POLICY'

/** The runtime form of each project's global policies, by project id, in name order. */
export async function runtimeGlobalPolicies(deps: Pick<Deps, 'prisma' | 'keyring'>, projectIds: string[]): Promise<Map<string, Record<string, unknown>[]>> {
  const rows = await deps.prisma.storedObject.findMany({ where: { projectId: { in: [...new Set(projectIds)] }, type: GLOBAL_POLICY }, orderBy: { name: 'asc' } })
  const out = new Map<string, Record<string, unknown>[]>()
  for (const row of rows) {
    const content = (row.content ?? {}) as Record<string, unknown>
    // objects stored before this module (bootstrap, import of an opaque object) have no catalogue type: not run
    if (typeof content.type !== 'string') continue
    const { _class: _ignored, ...config } = openPolicySecrets(deps.keyring, content) as Record<string, unknown>
    out.set(row.projectId, [...(out.get(row.projectId) ?? []), { ...config, name: row.name }])
  }
  return out
}
