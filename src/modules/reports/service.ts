import { Prisma } from '../../generated/prisma/client.js'
import { isAnalyzer, isSystemAdmin, type Actor } from '../../platform/auth/actor.js'
import type { Tx } from '../../platform/context.js'
import { DomainError, malformed, notFound } from '../../platform/errors/domain-error.js'

// Reports (vendor 02-api-reference/14-reports, issue 17 §5), for system administrators and the read-only
// ANALYZER role, across every project. Large installations: the objects are walked in keyset batches (one
// set-based query per batch for the objects, one per batch for what they carry), so that memory holds one batch,
// never the whole installation; the REST door streams the batches (JSON or CSV) or answers one page.

/** Objects per batch: a batch's endpoints and access rows are the only thing held in memory. */
export const REPORT_BATCH = 100

export function requireReportReader(actor: Actor): void {
  if (isSystemAdmin(actor) || isAnalyzer(actor)) return
  throw new DomainError('permission', 'permissionDenied', 'Unauthorized API Access! Reports are for system administrators and analyzers', { reason: 'reportReaderRequired' })
}

export interface ReportQuery {
  includeEndpoints: boolean
  projectName: string | null
  /** a page (0-based) of `size` objects, or null for everything (streamed) */
  page: { page: number; size: number } | null
}

const bool = (value: unknown, field: string): boolean => {
  if (value === undefined || value === '') return false
  if (value === 'true') return true
  if (value === 'false') return false
  throw malformed(`${field} must be true or false`, { field })
}
const whole = (value: unknown, field: string, min: number, max: number): number | undefined => {
  if (value === undefined || value === '') return undefined
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) throw malformed(`${field} must be an integer from ${min} to ${max}`, { field })
  return Number(value)
}

/** includeEndpoints, projectName, page and size (page size at most 200, spec §8); any other parameter is refused. */
export function parseReportQuery(query: Record<string, unknown>, allowed: readonly string[]): ReportQuery {
  const unknown = Object.keys(query).find((k) => !allowed.includes(k))
  if (unknown !== undefined) throw malformed(`${unknown}: unknown query parameter (supported: ${allowed.join(', ')})`, { field: unknown })
  const projectName = query.projectName === undefined ? null : typeof query.projectName === 'string' && query.projectName.trim() ? query.projectName.trim() : null
  if (query.projectName !== undefined && projectName === null) throw malformed('projectName must not be blank', { field: 'projectName' })
  const page = whole(query.page, 'page', 0, 10_000_000)
  const size = whole(query.size, 'size', 1, 200)
  return {
    includeEndpoints: bool(query.includeEndpoints, 'includeEndpoints'),
    projectName,
    page: page === undefined && size === undefined ? null : { page: page ?? 0, size: size ?? 20 },
  }
}

/** The projectName filter names a project of the installation (404 otherwise). */
export async function checkReportProject(db: Tx, q: ReportQuery): Promise<void> {
  if (q.projectName !== null && !(await db.project.findUnique({ where: { name: q.projectName }, select: { id: true } }))) {
    throw notFound(`Project '${q.projectName}' not found`, { project: q.projectName })
  }
}

/** What a paging door (GraphQL) asks for; the query's rules are those of the REST query parameters. */
export interface ReportPageArgs { projectName?: string | null; includeEndpoints?: boolean | null; page?: number | null; size?: number | null }

/** The reader, the query (same rules and messages as the REST parameters) and the project filter of one page. */
async function pageQuery(db: Tx, actor: Actor, args: ReportPageArgs, allowed: readonly string[]) {
  requireReportReader(actor)
  const raw: Record<string, string> = { page: String(args.page ?? 0), size: String(args.size ?? 20) }
  if (args.projectName != null) raw.projectName = args.projectName
  if (args.includeEndpoints != null) raw.includeEndpoints = String(args.includeEndpoints)
  const q = parseReportQuery(raw, allowed)
  await checkReportProject(db, q)
  return { ...q, page: q.page! }
}

// ---- the API report ----

interface ObjectRow { ord: number; id: string; name: string; description: string | null; type: string; projectName: string; projectId: string; revision: number; relativePath: string | null }
interface Cursor { ord: number; projectName: string; name: string; id: string }

/** One batch of proxies (ord 0) then groups (ord 1), by project name, name and id, after `after` or at `offset`. */
function objectBatch(db: Tx, projectName: string | null, after: Cursor | null, limit: number, offset = 0) {
  const where = after ? Prisma.sql`WHERE (x.ord, x."projectName", x.name, x.id) > (${after.ord}, ${after.projectName}, ${after.name}, ${after.id})` : Prisma.empty
  const project = projectName === null ? Prisma.sql`TRUE` : Prisma.sql`pr.name = ${projectName}`
  return db.$queryRaw<ObjectRow[]>`
    SELECT * FROM (
      SELECT 0 AS ord, p.id, p.name, p.description, p.kind AS type, pr.name AS "projectName", pr.id AS "projectId", p.revision, p."relativePath"
        FROM "ApiProxy" p JOIN "Project" pr ON pr.id = p."projectId" WHERE ${project}
      UNION ALL
      SELECT 1, g.id, g.name, g.description, 'API_PROXY_GROUP', pr.name, pr.id, 0, NULL
        FROM "ApiProxyGroup" g JOIN "Project" pr ON pr.id = g."projectId" WHERE ${project}
    ) x ${where}
    ORDER BY x.ord, x."projectName", x.name, x.id
    LIMIT ${limit} OFFSET ${offset}`
}

async function countObjects(db: Tx, projectName: string | null): Promise<number> {
  const project = projectName === null ? Prisma.sql`TRUE` : Prisma.sql`pr.name = ${projectName}`
  const [row] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT (SELECT count(*) FROM "ApiProxy" p JOIN "Project" pr ON pr.id = p."projectId" WHERE ${project})
         + (SELECT count(*) FROM "ApiProxyGroup" g JOIN "Project" pr ON pr.id = g."projectId" WHERE ${project}) AS n`
  return Number(row?.n ?? 0)
}

export interface ApiReportEntry {
  objectType: 'API_PROXY' | 'API_PROXY_GROUP'
  id: string
  name: string
  description: string | null
  type: string
  projectName: string
  relativePath: string | null
  /** a proxy's groups; a group's member proxies */
  groups?: string[]
  apiProxies?: string[]
  endpointCount: number
  policyCount: number
  /** DEPLOYED (every environment of the project), PARTIALLY_DEPLOYED, NOT_DEPLOYED */
  deploymentState: 'DEPLOYED' | 'PARTIALLY_DEPLOYED' | 'NOT_DEPLOYED'
  environments: { environmentName: string; deployed: boolean; revision: number | null; redeployRequired: boolean }[]
  /** with includeEndpoints: a proxy's endpoints; a group's are its members' (each with its apiProxyName), [] when it has none */
  endpoints?: { id: string; name: string; method: string; path: string; version: string; enabled: boolean; apiProxyName?: string }[]
}

/** What a batch of objects carries: environments, deployments, members, counts and (optionally) endpoints. */
async function enrich(db: Tx, rows: ObjectRow[], includeEndpoints: boolean): Promise<ApiReportEntry[]> {
  const proxyIds = rows.filter((r) => r.ord === 0).map((r) => r.id)
  const groupIds = rows.filter((r) => r.ord === 1).map((r) => r.id)
  const projectIds = [...new Set(rows.map((r) => r.projectId))]
  const none = ['']
  const [envs, proxyDeps, groupDeps, links, endpointCounts, policyCounts, endpoints] = await Promise.all([
    db.projectEnvironment.findMany({ where: { projectId: { in: projectIds } }, select: { projectId: true, environment: { select: { name: true } } } }),
    db.apiProxyDeployment.findMany({ where: { apiProxyId: { in: proxyIds.length ? proxyIds : none } }, select: { apiProxyId: true, environmentName: true, revision: true } }),
    db.apiProxyGroupDeployment.findMany({ where: { groupId: { in: groupIds.length ? groupIds : none } }, select: { groupId: true, environmentName: true } }),
    db.$queryRaw<{ proxyId: string; proxyName: string; groupId: string; groupName: string }[]>`
      SELECT m."A" AS "proxyId", p.name AS "proxyName", m."B" AS "groupId", g.name AS "groupName"
        FROM "_ApiProxyToApiProxyGroup" m JOIN "ApiProxy" p ON p.id = m."A" JOIN "ApiProxyGroup" g ON g.id = m."B"
       WHERE m."A" = ANY(${proxyIds}::text[]) OR m."B" = ANY(${groupIds}::text[])`,
    db.$queryRaw<{ id: string; n: bigint }[]>`
      SELECT e."apiProxyId" AS id, count(*) AS n FROM "GatewayEndpoint" e WHERE e."apiProxyId" = ANY(${proxyIds}::text[]) GROUP BY e."apiProxyId"
      UNION ALL
      SELECT m."B", count(e.id) FROM "_ApiProxyToApiProxyGroup" m JOIN "GatewayEndpoint" e ON e."apiProxyId" = m."A" WHERE m."B" = ANY(${groupIds}::text[]) GROUP BY m."B"`,
    db.$queryRaw<{ id: string; n: bigint }[]>`
      SELECT a."apiProxyId" AS id, count(*) AS n FROM "ApiProxyPolicy" a WHERE a."apiProxyId" = ANY(${proxyIds}::text[]) GROUP BY a."apiProxyId"
      UNION ALL
      SELECT m."B", count(a.id) FROM "_ApiProxyToApiProxyGroup" m JOIN "ApiProxyPolicy" a ON a."apiProxyId" = m."A" WHERE m."B" = ANY(${groupIds}::text[]) GROUP BY m."B"`,
    // the proxies' endpoints, and those of the groups' members (a group's endpoints are its members')
    includeEndpoints && rows.length
      ? db.gatewayEndpoint.findMany({
          where: { OR: [{ apiProxyId: { in: proxyIds } }, { apiProxy: { groups: { some: { id: { in: groupIds } } } } }] },
          select: { id: true, apiProxyId: true, method: true, path: true, version: true, enabled: true, apiProxy: { select: { name: true } } },
          orderBy: [{ version: 'asc' }, { path: 'asc' }, { method: 'asc' }],
        })
      : Promise.resolve([]),
  ])
  const count = (list: { id: string; n: bigint }[], id: string) => Number(list.find((c) => c.id === id)?.n ?? 0)
  return rows.map((r) => {
    const projectEnvs = envs.filter((e) => e.projectId === r.projectId).map((e) => e.environment.name).sort()
    const environments = projectEnvs.map((environmentName) => {
      if (r.ord === 1) return { environmentName, deployed: groupDeps.some((d) => d.groupId === r.id && d.environmentName === environmentName), revision: null, redeployRequired: false }
      const d = proxyDeps.find((x) => x.apiProxyId === r.id && x.environmentName === environmentName)
      return { environmentName, deployed: Boolean(d), revision: d?.revision ?? null, redeployRequired: Boolean(d && d.revision < r.revision) }
    })
    const deployedCount = environments.filter((e) => e.deployed).length
    const base = {
      objectType: r.ord === 0 ? ('API_PROXY' as const) : ('API_PROXY_GROUP' as const),
      id: r.id,
      name: r.name,
      description: r.description,
      type: r.type,
      projectName: r.projectName,
      relativePath: r.relativePath,
      endpointCount: count(endpointCounts, r.id),
      policyCount: count(policyCounts, r.id),
      deploymentState: deployedCount === 0 ? ('NOT_DEPLOYED' as const) : deployedCount === environments.length ? ('DEPLOYED' as const) : ('PARTIALLY_DEPLOYED' as const),
      environments,
    }
    const endpointView = (e: (typeof endpoints)[number]) => ({ id: e.id, name: `${e.method} ${e.path}`, method: e.method, path: e.path, version: e.version, enabled: e.enabled })
    if (r.ord === 1) {
      const members = links.filter((l) => l.groupId === r.id)
      return {
        ...base,
        apiProxies: members.map((l) => l.proxyName).sort(),
        // with includeEndpoints every entry has endpoints (api-report page at 319c71d): a group's are its members', each naming its proxy
        ...(includeEndpoints
          ? { endpoints: endpoints.filter((e) => members.some((m) => m.proxyId === e.apiProxyId)).map((e) => ({ ...endpointView(e), apiProxyName: e.apiProxy.name })).sort((a, b) => a.apiProxyName.localeCompare(b.apiProxyName)) }
          : {}),
      }
    }
    return {
      ...base,
      groups: links.filter((l) => l.proxyId === r.id).map((l) => l.groupName).sort(),
      ...(includeEndpoints ? { endpoints: endpoints.filter((e) => e.apiProxyId === r.id).map(endpointView) } : {}),
    }
  })
}

/** Every API proxy, then every group, in batches (keyset: no offset grows with the installation). */
export async function* apiReportBatches(db: Tx, q: ReportQuery): AsyncGenerator<ApiReportEntry[]> {
  let after: Cursor | null = null
  for (;;) {
    const rows = await objectBatch(db, q.projectName, after, REPORT_BATCH)
    if (!rows.length) return
    yield await enrich(db, rows, q.includeEndpoints)
    const last: ObjectRow = rows[rows.length - 1]!
    after = { ord: last.ord, projectName: last.projectName, name: last.name, id: last.id }
    if (rows.length < REPORT_BATCH) return
  }
}

/** One page of the API report and the total number of objects. */
/** One page of the API report for `actor` (system administrator or analyzer). */
export async function apiReportPageFor(db: Tx, actor: Actor, args: ReportPageArgs) {
  const q = await pageQuery(db, actor, args, ['includeEndpoints', 'projectName', 'page', 'size'])
  return { ...(await apiReportPage(db, q)), page: q.page.page, size: q.page.size }
}

export async function apiReportPage(db: Tx, q: ReportQuery & { page: { page: number; size: number } }) {
  const [rows, total] = await Promise.all([objectBatch(db, q.projectName, null, q.page.size, q.page.page * q.page.size), countObjects(db, q.projectName)])
  return { items: await enrich(db, rows, q.includeEndpoints), total }
}

// ---- the organization access report ----

interface ProxyRow { id: string; name: string; projectName: string; sharingType: string | null }
interface ProxyCursor { projectName: string; name: string; id: string }

/** The sharing type is the proxy's metadata setting when one was stored (vendor settings/update-metadata). */
const SHARING_TYPE = Prisma.sql`COALESCE(p.settings -> 'metadata' ->> 'sharingType', p.settings ->> 'sharingType')`
/** The report lists only proxies shared EXTERNAL or BOTH (organization-api-data-model-access-report page at 319c71d). */
export const REPORTED_SHARING_TYPES = ['EXTERNAL', 'BOTH'] as const
const SHARED = Prisma.sql`${SHARING_TYPE} IN (${Prisma.join([...REPORTED_SHARING_TYPES])})`

function proxyBatch(db: Tx, projectName: string | null, after: ProxyCursor | null, limit: number, offset = 0) {
  const where = after ? Prisma.sql`AND (pr.name, p.name, p.id) > (${after.projectName}, ${after.name}, ${after.id})` : Prisma.empty
  const project = projectName === null ? Prisma.sql`TRUE` : Prisma.sql`pr.name = ${projectName}`
  return db.$queryRaw<ProxyRow[]>`
    SELECT p.id, p.name, pr.name AS "projectName", ${SHARING_TYPE} AS "sharingType"
      FROM "ApiProxy" p JOIN "Project" pr ON pr.id = p."projectId"
     WHERE ${project} AND ${SHARED} ${where}
     ORDER BY pr.name, p.name, p.id
     LIMIT ${limit} OFFSET ${offset}`
}

export interface AccessRow {
  organizationCode: string | null
  organizationName: string | null
  applicationName: string | null
  credentialUsername: string | null
  environmentName: string | null
  /** ENTITLEMENT or RLCL */
  source: string
  /** API_PROXY, API_PROXY_ENV, API_PROXY_GROUP:<group>, RLCL:<rlcl> */
  via: string
}
interface AccessSqlRow extends AccessRow { apiProxyId: string }

/**
 * Who can reach a batch of proxies: ACTIVE entitlements in their validity window on the proxy, on it per
 * environment, or on a group holding it (a consumer's one row; an application's one row per credential it owns,
 * or one row without a credential), and the credentials of the RLCLs with an entry on the proxy. API product
 * entitlements are not resolved (no product-to-proxy mapping is stored).
 */
function accessRows(db: Tx, proxyIds: string[]) {
  return db.$queryRaw<AccessSqlRow[]>`
    WITH px AS (SELECT p.id, p.name, p."projectId" FROM "ApiProxy" p WHERE p.id = ANY(${proxyIds}::text[])),
    live AS (
      SELECT e.* FROM "Entitlement" e
       WHERE e.status = 'ACTIVE' AND (e."validFrom" IS NULL OR e."validFrom" <= now()) AND (e."validUntil" IS NULL OR e."validUntil" > now())
    ),
    grants AS (
      SELECT px.id AS "apiProxyId", e."credentialId", e."applicationId", e."environmentRef" AS "environmentName", 'ENTITLEMENT' AS source, e."targetType"::text AS via
        FROM px JOIN live e ON e."projectId" = px."projectId" AND e."targetType" IN ('API_PROXY', 'API_PROXY_ENV') AND e."targetRef" = px.name
      UNION ALL
      SELECT px.id, e."credentialId", e."applicationId", NULL, 'ENTITLEMENT', 'API_PROXY_GROUP:' || g.name
        FROM px JOIN "_ApiProxyToApiProxyGroup" m ON m."A" = px.id JOIN "ApiProxyGroup" g ON g.id = m."B"
        JOIN live e ON e."projectId" = g."projectId" AND e."targetType" = 'API_PROXY_GROUP' AND e."targetRef" = g.name
      UNION
      SELECT DISTINCT re."apiProxyId", rc."credentialId", NULL, NULL, 'RLCL', 'RLCL:' || r.name
        FROM "RlclEndpoint" re JOIN "Rlcl" r ON r.id = re."rlclId" JOIN "RlclCredential" rc ON rc."rlclId" = r.id
       WHERE re."apiProxyId" = ANY(${proxyIds}::text[])
    )
    SELECT a."apiProxyId", o.code AS "organizationCode", o.name AS "organizationName",
           COALESCE(app.name, capp.name) AS "applicationName", c.username AS "credentialUsername",
           a."environmentName", a.source, a.via
      FROM grants a
      LEFT JOIN "Application" app ON app.id = a."applicationId"
      LEFT JOIN "Credential" c ON c.id = a."credentialId" OR (a."credentialId" IS NULL AND c."applicationId" = a."applicationId")
      LEFT JOIN "Application" capp ON capp.id = c."applicationId"
      LEFT JOIN "Organization" o ON o.id = COALESCE(c."organizationId", app."organizationId", capp."organizationId")
     ORDER BY a."apiProxyId", o.code NULLS FIRST, COALESCE(app.name, capp.name) NULLS FIRST, c.username NULLS FIRST, a.source, a.via, a."environmentName" NULLS FIRST`
}

export interface AccessReportEntry { apiProxyName: string; projectName: string; sharingType: string | null; accessList: AccessRow[] }

async function withAccess(db: Tx, proxies: ProxyRow[]): Promise<AccessReportEntry[]> {
  const rows = await accessRows(db, proxies.map((p) => p.id))
  return proxies.map((p) => ({
    apiProxyName: p.name,
    projectName: p.projectName,
    sharingType: p.sharingType,
    accessList: rows.filter((r) => r.apiProxyId === p.id).map((r): AccessRow => ({
      organizationCode: r.organizationCode, organizationName: r.organizationName, applicationName: r.applicationName,
      credentialUsername: r.credentialUsername, environmentName: r.environmentName, source: r.source, via: r.via,
    })),
  }))
}

export async function* accessReportBatches(db: Tx, q: ReportQuery): AsyncGenerator<AccessReportEntry[]> {
  let after: ProxyCursor | null = null
  for (;;) {
    const proxies = await proxyBatch(db, q.projectName, after, REPORT_BATCH)
    if (!proxies.length) return
    yield await withAccess(db, proxies)
    const last: ProxyRow = proxies[proxies.length - 1]!
    after = { projectName: last.projectName, name: last.name, id: last.id }
    if (proxies.length < REPORT_BATCH) return
  }
}

/** One page of the organization access report for `actor` (system administrator or analyzer). */
export async function accessReportPageFor(db: Tx, actor: Actor, args: ReportPageArgs) {
  const q = await pageQuery(db, actor, { ...args, includeEndpoints: null }, ['projectName', 'page', 'size'])
  return { ...(await accessReportPage(db, q)), page: q.page.page, size: q.page.size }
}

export async function accessReportPage(db: Tx, q: ReportQuery & { page: { page: number; size: number } }) {
  const project = q.projectName === null ? Prisma.sql`TRUE` : Prisma.sql`pr.name = ${q.projectName}`
  const [proxies, [total]] = await Promise.all([
    proxyBatch(db, q.projectName, null, q.page.size, q.page.page * q.page.size),
    db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "ApiProxy" p JOIN "Project" pr ON pr.id = p."projectId" WHERE ${project} AND ${SHARED}`,
  ])
  return { items: await withAccess(db, proxies), total: Number(total?.n ?? 0) }
}
