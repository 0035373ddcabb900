import { z } from 'zod'
import { actorName, type Actor } from '../../platform/auth/actor.js'
import type { Deps, Tx } from '../../platform/context.js'
import { lifecycleConflict, malformed, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { mintPublicKey } from '../../platform/keys.js'
import { objectName } from '../../platform/validation/common.js'
import { accessListOf, credentialOwners, type CredentialWithOwners } from './runtime.js'
import { authorizeCredentials } from './scope.js'
import { deployCredential, findCredential, type CredentialWrite } from './service.js'

// A credential's access list (vendor pages 07-credentials/access): the API proxies and API proxy groups it
// may call. Each granted item is an entitlement (spec §2.15) of the credential as a CONSUMER, so the Common
// Contract entitlement views show it; a revoke ends the entitlement (kept as history). The credential's
// runtime config carries its live access list, so every grant or revoke redeploys the credential.

export const ACCESS_TYPES = ['API_PROXY', 'API_PROXY_GROUP'] as const
type AccessType = (typeof ACCESS_TYPES)[number]

const accessItem = z.object({
  name: z.string({ error: (i) => (i.input === undefined || i.input === null ? 'is required' : 'must be a string') }).pipe(objectName),
  type: z.enum(ACCESS_TYPES, { error: (i) => (i.input === undefined || i.input === null ? 'is required' : 'must be API_PROXY or API_PROXY_GROUP') }),
  // the grant-access page: the access ends then (ISO 8601); stored as the entitlement's validUntil and read back
  expireTime: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time, e.g. 2024-12-31T23:59:59.000Z' }).nullish(),
})

export const accessBody = z.object({
  credentialAccessList: z
    .array(accessItem, { error: (i) => (i.input === undefined ? 'is required' : 'must be an array of { name, type }') })
    .min(1, 'must list at least one API proxy or API proxy group')
    .max(100, 'must list at most 100 items'),
})
export type AccessInput = z.input<typeof accessBody>
export interface AccessItem { name: string; type: AccessType; expireTime?: string | null }

/** Entitlements written here say where they came from: the legacy access list. */
const ACCESS_SOURCE = 'LEGACY_CAP'

const label = (item: AccessItem) => `${item.type === 'API_PROXY' ? 'API proxy' : 'API proxy group'} '${item.name}'`
const keyOf = (item: AccessItem) => `${item.type}:${item.name}`

function parseAccessList(raw: unknown): AccessItem[] {
  const items = parseInput(accessBody, raw).credentialAccessList
  const seen = new Set<string>()
  for (const [i, item] of items.entries()) {
    if (seen.has(keyOf(item))) throw malformed(`credentialAccessList[${i}]: ${label(item)} is listed twice`, { field: `credentialAccessList[${i}]` })
    seen.add(keyOf(item))
  }
  return items
}

/** The first item naming no API proxy or group of the project, in two set-based queries. */
async function firstUnknownTarget(db: Tx, projectId: string, items: AccessItem[]): Promise<AccessItem | undefined> {
  const namesOf = (type: AccessType) => items.filter((i) => i.type === type).map((i) => i.name)
  const [proxies, groups] = await Promise.all([
    db.apiProxy.findMany({ where: { projectId, name: { in: namesOf('API_PROXY') } }, select: { name: true } }),
    db.apiProxyGroup.findMany({ where: { projectId, name: { in: namesOf('API_PROXY_GROUP') } }, select: { name: true } }),
  ])
  const known = new Set([...proxies.map((p) => `API_PROXY:${p.name}`), ...groups.map((g) => `API_PROXY_GROUP:${g.name}`)])
  return items.find((i) => !known.has(keyOf(i)))
}

const targetNotFound = (item: AccessItem, projectName: string) =>
  notFound(`${label(item)} not found in project '${projectName}'`, { [item.type === 'API_PROXY' ? 'apiProxy' : 'apiProxyGroup']: item.name })

const reload = (tx: Tx, credentialId: string) =>
  tx.credential.update({ where: { id: credentialId }, data: { revision: { increment: 1 } }, include: credentialOwners })

/** The live access items among `items` the credential already holds. */
const heldOf = (credential: CredentialWithOwners, items: AccessItem[]) => {
  const held = new Set(accessListOf(credential).map((a) => `${a.type}:${a.name}`))
  return items.filter((i) => held.has(keyOf(i)))
}

/** PUT …/access/: grants every item or none (IDENTITY MANAGE; the push needs DEPLOY_UNDEPLOY). */
export async function grantCredentialAccess(deps: Deps, actor: Actor, projectName: string, username: string, raw: unknown): Promise<CredentialWrite> {
  const projectAccess = await authorizeCredentials(deps.prisma, actor, projectName, 'MANAGE')
  const items = parseAccessList(raw)
  const projectId = projectAccess.project.id
  const credential = await deps.prisma.$transaction(async (tx) => {
    const current = await findCredential(tx, projectAccess, username)
    const unknown = await firstUnknownTarget(tx, projectId, items)
    if (unknown) throw targetNotFound(unknown, projectAccess.project.name)
    const [already] = heldOf(current, items)
    if (already) {
      throw lifecycleConflict('credentialAccess.alreadyGranted', `Credential '${current.username}' already has access to ${label(already)}`, { credential: current.username, name: already.name, type: already.type })
    }
    await tx.entitlement.createMany({
      data: items.map((item) => ({
        entitlementKey: mintPublicKey('ent'),
        projectId,
        subjectType: 'CONSUMER' as const,
        credentialId: current.id,
        organizationId: current.organizationId,
        targetType: item.type,
        targetRef: item.name,
        status: 'ACTIVE' as const,
        validUntil: item.expireTime ? new Date(item.expireTime) : null,
        source: ACCESS_SOURCE,
        assignedBy: actorName(actor),
      })),
    })
    return reload(tx, current.id)
  })
  return { credential, deploymentResult: await deployCredential(deps, projectAccess, credential, 'DEPLOY') }
}

/** DELETE …/access/: ends the live entitlement of every item, or of none; the credential is redeployed without them. */
export async function revokeCredentialAccess(deps: Deps, actor: Actor, projectName: string, username: string, raw: unknown): Promise<CredentialWrite> {
  const projectAccess = await authorizeCredentials(deps.prisma, actor, projectName, 'MANAGE')
  const items = parseAccessList(raw)
  const projectId = projectAccess.project.id
  const credential = await deps.prisma.$transaction(async (tx) => {
    const current = await findCredential(tx, projectAccess, username)
    const held = new Set(heldOf(current, items).map(keyOf))
    const missing = items.find((i) => !held.has(keyOf(i)))
    if (missing) {
      // a target that is gone altogether is named as such; one that exists was simply never granted
      if (await firstUnknownTarget(tx, projectId, [missing])) throw targetNotFound(missing, projectAccess.project.name)
      throw lifecycleConflict('credentialAccess.notGranted', `Credential '${current.username}' has no access to ${label(missing)}`, { credential: current.username, name: missing.name, type: missing.type })
    }
    const endedAt = new Date()
    for (const type of ACCESS_TYPES) {
      const names = items.filter((i) => i.type === type).map((i) => i.name)
      if (!names.length) continue
      await tx.entitlement.updateMany({
        where: { credentialId: current.id, status: 'ACTIVE', targetType: type, targetRef: { in: names } },
        data: { status: 'ENDED', endedAt, endedBy: actorName(actor), endedReason: 'access revoked', version: { increment: 1 } },
      })
    }
    return reload(tx, current.id)
  })
  return { credential, deploymentResult: await deployCredential(deps, projectAccess, credential, 'DEPLOY') }
}

/** GET …/access/: the credential's live access list (IDENTITY VIEW). */
export async function listCredentialAccess(deps: Deps, actor: Actor, projectName: string, username: string) {
  const projectAccess = await authorizeCredentials(deps.prisma, actor, projectName, 'VIEW')
  return accessListOf(await findCredential(deps.prisma, projectAccess, username))
}
