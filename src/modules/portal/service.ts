import type { Application } from '../../generated/prisma/client.js'
import { actorName, type Actor } from '../../platform/auth/actor.js'
import { requirePermission } from '../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../platform/context.js'
import { DomainError, malformed, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { authorizeInProject, resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { insertApplication } from '../identity/applications.js'
import { provisionInput } from './inputs.js'

// Portal applications, their credentials and usage (the vendor's PortalAppProvision, PortalAppCredential and
// PortalReport operations; no page shows their bodies). A portal application is our Application of kind PORTAL whose
// referenceId is the portal's reference; its credentials are its API clients (the /apiportal management surface's
// get-by-app-id answers the same rows); a product subscription is our ProductSubscription (limits/manager/portal.ts
// reads them). IDENTITY VIEW reads, IDENTITY MANAGE provisions (the application and organization pages' rules).

const applicationNotFound = (referenceId: string) => notFound(`Portal application '${referenceId}' not found`, { referenceId })

/** The project a referenceId belongs to (the one named, else the first by project name), for the access decision. */
export async function portalApplicationProjectName(db: Tx, referenceId: string, projectName?: string): Promise<string | undefined> {
  const app = await db.application.findFirst({
    where: { referenceId, applicationKind: 'PORTAL', ...(projectName ? { project: { name: projectName } } : {}) },
    include: { project: { select: { name: true } } },
    orderBy: [{ project: { name: 'asc' } }, { name: 'asc' }],
  })
  return app?.project.name
}
export { applicationNotFound }

/** The portal application a referenceId names, with IDENTITY VIEW in its project; unknown and out of sight are one answer. */
async function portalApplication(deps: Deps, actor: Actor, referenceId: string, projectName?: string) {
  const project = await portalApplicationProjectName(deps.prisma, referenceId, projectName)
  if (!project) throw applicationNotFound(referenceId)
  const access = await resolveProjectAccess(deps.prisma, actor, project).catch((err: unknown) => {
    throw err instanceof DomainError && err.kind === 'notFound' ? applicationNotFound(referenceId) : err
  })
  requirePermission(access, 'IDENTITY', 'VIEW')
  const app = await deps.prisma.application.findFirstOrThrow({ where: { referenceId, applicationKind: 'PORTAL', projectId: access.project.id }, orderBy: { name: 'asc' }, include: { organization: true } })
  return { access, app }
}

/** GET /apiops/portal-apps/organizations: the project's organizations a provisioning may name (IDENTITY VIEW). */
export async function portalOrganizations(deps: Deps, actor: Actor, projectName: string) {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'IDENTITY', 'VIEW')
  const orgs = await deps.prisma.organization.findMany({ where: { projectId: access.project.id }, orderBy: { code: 'asc' }, include: { parent: { select: { code: true } } } })
  return orgs.map((o) => ({ id: o.id, code: o.code, name: o.name, parentCode: o.parent?.code ?? null, state: o.state, suspended: o.suspended }))
}

/** GET /apiops/portal-apps/{referenceId}/credentials: the application's API clients, by name (IDENTITY VIEW). */
export async function portalApplicationCredentials(deps: Deps, actor: Actor, referenceId: string, projectName?: string) {
  const { app } = await portalApplication(deps, actor, referenceId, projectName)
  return deps.prisma.apiClient.findMany({ where: { applicationId: app.id }, orderBy: [{ name: 'asc' }, { apiClientKey: 'asc' }] })
}

/** Counts of rows grouped by one column, as the report shows them: `{ value: count }`. */
const countsOf = <K extends string>(groups: ({ _count: { _all: number } } & Record<K, string>)[], key: K) =>
  Object.fromEntries(groups.map((g) => [g[key], g._count._all]))

type PortalApplication = Application & { organization: { code: string } | null }

/**
 * What each portal application uses: its subscriptions, entitlements, API clients, consumers and active limit
 * assignments, read for all of them at once (five queries however many applications), in the applications' order.
 */
async function usagesOf(db: Tx, apps: PortalApplication[]) {
  const ids = apps.map((a) => a.id)
  const byApp = { applicationId: { in: ids } }
  const [subscriptions, entitlements, clients, limitAssignments, consumers] = await Promise.all([
    db.productSubscription.findMany({ where: byApp, orderBy: { productName: 'asc' } }),
    db.entitlement.findMany({ where: byApp, orderBy: [{ targetType: 'asc' }, { targetRef: 'asc' }] }),
    db.apiClient.groupBy({ by: ['applicationId', 'operationalState'], where: byApp, _count: { _all: true }, orderBy: [{ applicationId: 'asc' }, { operationalState: 'asc' }] }),
    db.limitAssignment.groupBy({ by: ['applicationId'], where: { ...byApp, status: 'ACTIVE' }, _count: { _all: true }, orderBy: { applicationId: 'asc' } }),
    db.credential.groupBy({ by: ['applicationId'], where: byApp, _count: { _all: true }, orderBy: { applicationId: 'asc' } }),
  ])
  const countOf = (rows: { applicationId: string | null; _count: { _all: number } }[], id: string) => rows.find((r) => r.applicationId === id)?._count._all ?? 0
  return apps.map((app) => {
    const states = clients.filter((c) => c.applicationId === app.id)
    return {
      applicationKey: app.applicationKey,
      name: app.name,
      referenceId: app.referenceId,
      appStatus: app.appStatus,
      organizationCode: app.organization?.code ?? null,
      subscriptions: subscriptions.filter((s) => s.applicationId === app.id).map((s) => ({ productName: s.productName, status: s.status, createdAt: s.createdAt.toISOString() })),
      entitlements: entitlements.filter((e) => e.applicationId === app.id).map((e) => ({ targetType: e.targetType, targetRef: e.targetRef, environmentRef: e.environmentRef, status: e.status })),
      apiClientCount: states.reduce((n, c) => n + c._count._all, 0),
      apiClientsByState: countsOf(states, 'operationalState'),
      consumerCount: countOf(consumers, app.id),
      activeLimitAssignmentCount: countOf(limitAssignments, app.id),
    }
  })
}
export type PortalUsage = Awaited<ReturnType<typeof usagesOf>>[number]

/** GET /apiops/portal-apps/{referenceId}/usage-report (IDENTITY VIEW). */
export async function portalApplicationUsage(deps: Deps, actor: Actor, referenceId: string, projectName?: string) {
  const { app } = await portalApplication(deps, actor, referenceId, projectName)
  const [usage] = await usagesOf(deps.prisma, [app])
  return usage!
}

/** The project's portal applications, only those subscribed to one of `products` when given. */
const portalApplicationsWhere = (projectId: string, products: string[] | null) =>
  ({ projectId, applicationKind: 'PORTAL' as const, ...(products ? { subscriptions: { some: { productName: { in: products } } } } : {}) })

/** GET /apiops/portal/usage: every portal application of the project (of `products` when given) with its usage, by name (IDENTITY VIEW). */
export async function portalUsage(deps: Deps, actor: Actor, projectName: string, products: string[] | null = null) {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'IDENTITY', 'VIEW')
  const apps = await deps.prisma.application.findMany({ where: portalApplicationsWhere(access.project.id, products), orderBy: { name: 'asc' }, include: { organization: true } })
  return usagesOf(deps.prisma, apps)
}

/**
 * GET /apiops/portal/traffic/summary: this service keeps no traffic (the gateway workers serve it; RUNTIME.md), so the
 * summary is what the portal exposes to traffic: portal applications by status, their API clients by state, product
 * subscriptions by status; trafficRecorded false says that request counts are not kept here (IDENTITY VIEW). With
 * `products`, only those products' subscriptions and the applications subscribed to them. Counted by the database.
 */
export async function portalTrafficSummary(deps: Deps, actor: Actor, projectName: string, products: string[] | null = null) {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'IDENTITY', 'VIEW')
  const projectId = access.project.id
  const apps = portalApplicationsWhere(projectId, products)
  const [appStatuses, clientStates, subscriptionStatuses, productNames] = await Promise.all([
    deps.prisma.application.groupBy({ by: ['appStatus'], where: apps, _count: { _all: true }, orderBy: { appStatus: 'asc' } }),
    deps.prisma.apiClient.groupBy({ by: ['operationalState'], where: { projectId, application: apps }, _count: { _all: true }, orderBy: { operationalState: 'asc' } }),
    deps.prisma.productSubscription.groupBy({ by: ['status'], where: { projectId, ...(products ? { productName: { in: products } } : {}) }, _count: { _all: true }, orderBy: { status: 'asc' } }),
    deps.prisma.productSubscription.groupBy({ by: ['productName'], where: { projectId, ...(products ? { productName: { in: products } } : {}) }, orderBy: { productName: 'asc' } }),
  ])
  const total = (groups: { _count: { _all: number } }[]) => groups.reduce((n, g) => n + g._count._all, 0)
  return {
    projectName: access.project.name,
    trafficRecorded: false,
    requestCount: null,
    portalApplicationCount: total(appStatuses),
    portalApplicationsByStatus: countsOf(appStatuses, 'appStatus'),
    apiClientCount: total(clientStates),
    apiClientsByState: countsOf(clientStates, 'operationalState'),
    subscriptionCount: total(subscriptionStatuses),
    subscriptionsByStatus: countsOf(subscriptionStatuses, 'status'),
    productCount: productNames.length,
  }
}

/**
 * POST /apiops/portal-apps/provision: the portal application for referenceId in the project (created, or updated when
 * it exists: provisioning again is safe), in an existing organization (prodOrganizationId: id or code) or a new one
 * (createNewOrganization: code and name), subscribed to the product (productName, else prodProductRefId), all in one
 * transaction (IDENTITY MANAGE). No API client is issued here: the application's clients are issued as any other.
 */
export async function provisionPortalApplication(deps: Deps, actor: Actor, projectName: string, raw: unknown) {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'IDENTITY', 'MANAGE')
  if (raw === undefined || raw === null) throw malformed('Request body is required', { reason: 'bodyRequired' })
  const body = parseInput(provisionInput, raw)
  const projectId = access.project.id
  const name = body.name ?? body.app?.name ?? body.nameDefault
  if (!name?.trim()) throw malformed('name: is required (or app.name, or nameDefault)', { field: 'name' })
  if (body.createNewOrganization && body.prodOrganizationId) throw malformed('prodOrganizationId: not with createNewOrganization', { field: 'prodOrganizationId' })
  const productName = body.productName ?? body.prodProductRefId ?? null
  return deps.prisma.$transaction(async (tx) => {
    let organizationId: string | null = null
    let organizationCode: string | null = null
    let organizationCreated = false
    if (body.createNewOrganization) {
      const orgCode = body.code ?? body.organization?.code
      const orgName = body.organization?.name ?? body.nameDefault ?? orgCode
      if (!orgCode) throw malformed('code: is required with createNewOrganization (or organization.code)', { field: 'code' })
      if (await tx.organization.findUnique({ where: { projectId_code: { projectId, code: orgCode } } })) {
        throw new DomainError('conflict', 'nameAlreadyExists', `Organization '${orgCode}' already exists; name it in prodOrganizationId`, { field: 'code' })
      }
      const org = await tx.organization.create({ data: { projectId, code: orgCode, name: orgName! } })
      ;[organizationId, organizationCode, organizationCreated] = [org.id, org.code, true]
    } else if (body.prodOrganizationId) {
      const org = await tx.organization.findFirst({ where: { projectId, OR: [{ id: body.prodOrganizationId }, { code: body.prodOrganizationId }] } })
      if (!org) throw notFound(`prodOrganizationId: organization '${body.prodOrganizationId}' not found in project '${access.project.name}'`, { field: 'prodOrganizationId', organization: body.prodOrganizationId })
      ;[organizationId, organizationCode] = [org.id, org.code]
    }
    const description = body.description ?? body.app?.description ?? null
    const existing = await tx.application.findFirst({ where: { projectId, referenceId: body.referenceId, applicationKind: 'PORTAL' } })
    let app: Application
    if (existing) {
      app = await tx.application.update({
        where: { id: existing.id },
        data: { description: description ?? existing.description, ...(organizationId ? { organizationId } : {}), lifecycleRevision: { increment: 1 } },
      })
    } else {
      app = await insertApplication(tx, projectId, { name: name.trim(), applicationKind: 'PORTAL', referenceId: body.referenceId, description, organizationCode })
    }
    let subscription: { productName: string; status: string } | null = null
    if (productName) {
      const row = await tx.productSubscription.upsert({
        where: { applicationId_productName: { applicationId: app.id, productName } },
        create: { projectId, applicationId: app.id, productName, status: 'APPROVED', organizationId: app.organizationId },
        update: { status: 'APPROVED', organizationId: app.organizationId },
      })
      subscription = { productName: row.productName, status: row.status }
    }
    const org = app.organizationId ? await tx.organization.findUnique({ where: { id: app.organizationId }, select: { code: true } }) : null
    return {
      applicationKey: app.applicationKey,
      name: app.name,
      referenceId: app.referenceId,
      applicationKind: app.applicationKind,
      appStatus: app.appStatus,
      organizationCode: org?.code ?? null,
      created: !existing,
      organizationCreated,
      subscription,
      provisionedBy: actorName(actor),
    }
  })
}
