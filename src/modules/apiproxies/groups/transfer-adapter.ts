import type { Prisma } from '../../../generated/prisma/client.js'
import { DomainError, malformedReason } from '../../../platform/errors/domain-error.js'
import { lookupsByName, type AdapterContext, type PortableObject, type TransferAdapter } from '../../../platform/transfer/registry.js'
import { clientRouteInput, clientRouteOf } from '../proxies/automation/inputs.js'
import { createGroup, setGroupMembership, updateGroup } from './service.js'

/**
 * API proxy groups (vendor 09-api-proxy-groups) travel as API_PROXY_GROUP objects (category API_MANAGEMENT, like their
 * pages), named by name: `data` is `{ description, clientRoute (as stored), apiProxies: [member proxy names, sorted] }`.
 * No secrets. Writes go through the groups service (createGroup / updateGroup: its schema and client route rules;
 * setGroupMembership per member added or removed). A group is not deployed by a write (it is deployed by its action),
 * so nothing is pushed after the commit.
 */
const TYPE = 'API_PROXY_GROUP'

const include = { proxies: { select: { name: true }, orderBy: { name: 'asc' } } } as const satisfies Prisma.ApiProxyGroupInclude
type GroupRow = Prisma.ApiProxyGroupGetPayload<{ include: typeof include }>

/** The group's data in the one form compared: the client route as the service stores it, members sorted. */
export function normalizeGroup(d: Record<string, unknown>): Record<string, unknown> {
  const out = { ...d }
  if (Array.isArray(d.apiProxies)) out.apiProxies = [...d.apiProxies].sort()
  if ('clientRoute' in d) {
    const parsed = clientRouteInput.safeParse(d.clientRoute)
    if (parsed.success) out.clientRoute = clientRouteOf(parsed.data)
  }
  if ('description' in d) out.description = d.description || null
  return out
}

const toPortable = (g: GroupRow): PortableObject => ({
  type: TYPE, kind: null, name: g.name, secrets: {},
  data: { description: g.description, clientRoute: g.clientRoute, apiProxies: g.proxies.map((p) => p.name) },
  dependencies: g.proxies.map((p) => ({ type: 'API_PROXY', kind: null, name: p.name })),
})

const find = async (ctx: AdapterContext, names: string[]) =>
  (await ctx.db.apiProxyGroup.findMany({ where: { projectId: ctx.access.project.id, name: { in: names } }, include, orderBy: { name: 'asc' } })).map(toPortable)

export const apiProxyGroupTransferAdapter: TransferAdapter = {
  type: TYPE,
  category: 'API_MANAGEMENT',
  kinds: null,
  secretFields: [],
  scope: 'project',
  source: 'apiproxies',

  ...lookupsByName(find),

  async findAll(ctx) {
    return (await ctx.db.apiProxyGroup.findMany({ where: { projectId: ctx.access.project.id }, include, orderBy: { name: 'asc' } })).map(toPortable)
  },

  async listNames(ctx) {
    const rows = await ctx.db.apiProxyGroup.findMany({ where: { projectId: ctx.access.project.id }, select: { name: true }, orderBy: { name: 'asc' } })
    return rows.map((r) => r.name)
  },

  async write(ctx, object, existing) {
    const project = ctx.access.project
    const body = { name: object.name, description: object.data.description ?? null, clientRoute: object.data.clientRoute }
    const group = existing ? await updateGroup(ctx.db, ctx.actor, project.name, body) : await createGroup(ctx.db, ctx.actor, project.name, body)
    if (!Array.isArray(object.data.apiProxies)) return []
    const wanted = object.data.apiProxies.map(String)
    const current = (await ctx.db.apiProxy.findMany({ where: { groups: { some: { id: group.id } } }, select: { name: true } })).map((p) => p.name)
    for (const [i, name] of wanted.entries()) {
      if (current.includes(name)) continue
      try {
        await setGroupMembership(ctx.db, ctx.actor, project.name, group.name, name, true)
      } catch (err) {
        if (err instanceof DomainError && err.kind === 'notFound') throw malformedReason('declarativeReferenceMissing', `apiProxies: API proxy '${name}' does not exist in the project`, { field: `apiProxies[${i}]` })
        throw err
      }
    }
    for (const name of current) if (!wanted.includes(name)) await setGroupMembership(ctx.db, ctx.actor, project.name, group.name, name, false)
    return []
  },
}
