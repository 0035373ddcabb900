import { z } from 'zod'
import type { ApiProxy, ApiProxyGroup, Prisma } from '../../../generated/prisma/client.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import type { SecretKeyring } from '../../../platform/secrets/keyring.js'
import { packageSecrets } from '../../../platform/transfer/package/secrets.js'
import { portableProxies } from '../proxies/portable.js'

// The deploy history of API proxies and groups (vendor api-proxies/deployment and api-proxy-groups/deployment pages):
// one ApiDeployHistory row per environment that acknowledged an explicit deploy or undeploy. A proxy's deploy row keeps
// the proxy as deployed in its portable form (proxies/portable.ts, the API_PROXY transfer object), its secrets sealed
// as CIPHERTEXT_VERBATIM package entries, so a rollback reads it back as an import would (deployments/history.ts).

export const DEFAULT_DEPLOY_DESCRIPTION = 'Deployed by APIOPS Api'

/** The optional body of the deploy pages (proxy and group): the history record's description and persistent flag. */
export const deployHistoryInput = z
  .strictObject({
    description: z.string().max(1000, 'must be at most 1000 characters').refine((s) => !s.includes('\u0000'), 'must not contain NUL characters').nullish(),
    persistent: z.boolean().nullish(),
  })
  .meta({ id: 'DeployHistoryInput', description: 'Notes for the deploy history record (optional body of the deploy pages)' })

/** Who deployed, and the notes of the history record. */
export interface HistoryMeta {
  username: string
  description?: string | null
  persistent?: boolean | null
}

/** A proxy's deploy snapshot: its portable form, secrets sealed (never in clear at rest). */
export interface ProxySnapshot {
  data: Record<string, unknown>
  secrets: Record<string, { handling: 'CIPHERTEXT_VERBATIM' | 'DECRYPTED_FOR_EXPORT' | 'NONE'; value?: string }>
}

/** A group's deploy snapshot: what its message carried besides the members' configurations. */
export interface GroupSnapshot {
  description: string | null
  clientRoute: unknown
  apiProxies: string[]
}

/** The proxy as it is deployed now, for its history row; null for the routed kinds (AI, MCP, A2A), which are not portable. */
export async function proxySnapshot(db: Tx, keyring: SecretKeyring, proxy: ApiProxy): Promise<ProxySnapshot | null> {
  if (proxy.kind !== 'REST') return null
  const [portable] = await portableProxies(db, keyring, [proxy])
  return { data: portable!.data as Record<string, unknown>, secrets: packageSecrets(keyring, portable!.secrets, 'CIPHERTEXT_VERBATIM') as ProxySnapshot['secrets'] }
}

type Owner = { apiProxyId: string } | { groupId: string }

/**
 * One history row per environment that acknowledged, revisions counting on per owner. Two deploys at once may
 * pick the same next revision: the unique index refuses the second, which takes the next one.
 */
async function appendRows(db: Tx, owner: Owner, rows: Omit<Prisma.ApiDeployHistoryCreateManyInput, 'revision' | 'apiProxyId' | 'groupId'>[]) {
  for (const row of rows) {
    for (let attempt = 0; ; attempt++) {
      const last = await db.apiDeployHistory.findFirst({ where: owner, orderBy: { revision: 'desc' }, select: { revision: true } })
      try {
        await db.apiDeployHistory.create({ data: { ...row, ...owner, revision: (last?.revision ?? 0) + 1 } })
        break
      } catch (err) {
        if ((err as { code?: string } | null)?.code !== 'P2002' || attempt >= 5) throw err
      }
    }
  }
}

const acknowledged = (outcome: DeploymentOutcome) => outcome.environmentResults.filter((r) => r.success).map((r) => r.environmentName)

const rowsOf = (outcome: DeploymentOutcome, action: 'DEPLOY' | 'UNDEPLOY', meta: HistoryMeta, extra: { backendApiVersion?: string | null; snapshot?: unknown }) =>
  acknowledged(outcome).map((environmentName) => ({
    environmentName,
    username: meta.username,
    deploy: action === 'DEPLOY',
    description: meta.description || (action === 'DEPLOY' ? DEFAULT_DEPLOY_DESCRIPTION : 'Undeployed by APIOPS Api'),
    persistent: !!meta.persistent,
    backendApiVersion: extra.backendApiVersion ?? null,
    ...(action === 'DEPLOY' && extra.snapshot ? { snapshot: extra.snapshot as Prisma.InputJsonValue } : {}),
  }))

/** Records a proxy's deploy or undeploy; `snapshot` is what was pushed (taken before the push). */
export async function recordProxyHistory(deps: Deps, proxy: ApiProxy, outcome: DeploymentOutcome, action: 'DEPLOY' | 'UNDEPLOY', meta: HistoryMeta, snapshot: ProxySnapshot | null) {
  const backendApiVersion = ((proxy.settings ?? {}) as { backendApiVersion?: string | null }).backendApiVersion ?? null
  await appendRows(deps.prisma, { apiProxyId: proxy.id }, rowsOf(outcome, action, meta, { backendApiVersion, snapshot }))
}

/** Records a group's deploy or undeploy. */
export async function recordGroupHistory(deps: Deps, group: ApiProxyGroup, outcome: DeploymentOutcome, action: 'DEPLOY' | 'UNDEPLOY', meta: HistoryMeta, snapshot: GroupSnapshot | null) {
  await appendRows(deps.prisma, { groupId: group.id }, rowsOf(outcome, action, meta, { snapshot }))
}
