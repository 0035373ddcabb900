import { isSystemAdmin } from '../../platform/auth/actor.js'
import { CONNECTION_CATEGORIES } from '../connections/push.js'
import { connectionView } from '../connections/views.js'
import { listAllEnvironments, listProjectEnvironments } from '../environments/service.js'
import { visibleProjects } from '../projects/projects.js'
import { registerLookupKind, type LookupKind } from './registry.js'
import { viewableRows, visibleProjectAccess } from './visibility.js'
import { apiProxyNameSchema, connectionNameSchema, environmentSchema, fullConnectionSchema, nameByIdSchema, projectNameSchema } from './view-schemas.js'

// This module's lookup kinds (vendor tag Utility): API proxies and proxy groups (API_MANAGEMENT VIEW in their
// project), connections (CONNECTION or PROJECT_MANAGEMENT VIEW), projects (membership) and environments (linked to a
// project the caller sees; every one for a system administrator). Ids are the stored ids our answers show (ApiProxy.id,
// Project.id, ApiProxyGroup.id in GraphQL).

const API_MANAGEMENT = ['API_MANAGEMENT']
const withProject = { project: { select: { name: true } } } as const

const apiProxies: LookupKind = {
  segment: 'apiProxies', idParam: 'apiProxyId', label: 'API proxy', batch: true, single: apiProxyNameSchema,
  async find(db, actor, ids) {
    const rows = await db.apiProxy.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, description: true, ...withProject } })
    return (await viewableRows(db, actor, rows, API_MANAGEMENT)).map((r) => ({ id: r.id, name: r.name, view: { name: r.name, description: r.description } }))
  },
}

const proxyGroups: LookupKind = {
  segment: 'proxyGroups', idParam: 'proxyGroupId', label: 'API proxy group', batch: true, single: nameByIdSchema,
  async find(db, actor, ids) {
    const rows = await db.apiProxyGroup.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, ...withProject } })
    return (await viewableRows(db, actor, rows, API_MANAGEMENT)).map((r) => ({ id: r.id, name: r.name, view: { id: r.id, name: r.name } }))
  },
}

/** Connections of both stores (typed and webhook), with the full view the …/full lookup answers. */
async function findConnections(db: Parameters<LookupKind['find']>[0], actor: Parameters<LookupKind['find']>[1], ids: string[]) {
  const [typed, webhooks] = await Promise.all([
    db.connection.findMany({ where: { id: { in: ids } }, include: withProject }),
    db.webhookConnection.findMany({ where: { id: { in: ids }, projectId: { not: null } }, include: withProject }),
  ])
  const stored = [
    ...typed.map((row) => ({ id: row.id, project: row.project, full: connectionView({ type: row.type as never, row }) })),
    ...webhooks.filter((row) => row.project).map((row) => ({ id: row.id, project: row.project!, full: connectionView({ type: 'webhook', row }) })),
  ]
  return viewableRows(db, actor, stored, CONNECTION_CATEGORIES)
}

const connections: LookupKind = {
  segment: 'connections', idParam: 'connectionId', label: 'connection', batch: true, single: connectionNameSchema,
  async find(db, actor, ids) {
    return (await findConnections(db, actor, ids)).map((c) => ({ id: c.id, name: c.full.name, view: { id: c.id, name: c.full.name, description: c.full.description } }))
  },
}

/** GET …/connections/{id}/full: not a kind of its own (no batch), the connection's full view plus its project. */
const fullConnections: LookupKind = {
  segment: 'connectionsFull', idParam: 'connectionId', label: 'connection', batch: false, single: fullConnectionSchema, singlePath: 'connections/:connectionId/full',
  async find(db, actor, ids) {
    return (await findConnections(db, actor, ids)).map((c) => ({ id: c.id, name: c.full.name, view: { ...c.full, projectName: c.project.name } }))
  },
}

const projects: LookupKind = {
  segment: 'projects', idParam: 'projectId', label: 'project', batch: true, single: projectNameSchema,
  async find(db, actor, ids) {
    const rows = await db.project.findMany({ where: { AND: [{ id: { in: ids } }, visibleProjects(actor)] }, select: { id: true, name: true, description: true } })
    return rows.map((r) => ({ id: r.id, name: r.name, view: { name: r.name, description: r.description } }))
  },
}

const environments: LookupKind = {
  segment: 'environments', idParam: 'environmentId', label: 'environment', batch: true, single: environmentSchema,
  async find(db, actor, ids) {
    const rows = await db.environment.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, projects: { select: { project: { select: { name: true } } } } } })
    const admin = isSystemAdmin(actor)
    const seen = admin ? null : await visibleProjectAccess(db, actor, rows.flatMap((r) => r.projects.map((p) => p.project.name)))
    const found = []
    for (const row of rows) {
      // the state a member sees is the one of a project of theirs that deploys to it (the environment list's view)
      const via = admin ? null : row.projects.map((p) => p.project.name).sort().find((name) => seen!.has(name))
      if (!admin && !via) continue
      const states = admin ? await listAllEnvironments(db, actor) : await listProjectEnvironments(db, actor, via!)
      const view = states.find((s) => s.name === row.name)
      if (view) found.push({ id: row.id, name: row.name, view: { ...view } })
    }
    return found
  },
}

export const UTILITY_KINDS = [apiProxies, connections, fullConnections, environments, projects, proxyGroups]

let registered = false
/** Registers this module's kinds once (the route table and the GraphQL resolver both call it). */
export function registerUtilityKinds(): void {
  if (registered) return
  registered = true
  for (const kind of UTILITY_KINDS) registerLookupKind(kind)
}
