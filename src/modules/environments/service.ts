import { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { requireSystemAdmin } from '../../platform/auth/require.js'
import type { Tx } from '../../platform/context.js'
import { resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { visibleProjects } from '../projects/projects.js'

export type PublishStatus = 'PUBLISHED' | 'UNPUBLISHED' | 'REPUBLISH_REQUIRED'

/** An environment as GET /apiops/environments shows it (vendor 03-environments). */
export interface EnvironmentView {
  /** the environment's identifier (apinizer/docs get-environments-by-project shows it) */
  id: string
  name: string
  description: string | null
  type: string
  status: PublishStatus
  accessUrl: string | null
  deployed: boolean
  redeployRequired: boolean
}

/** The projects the caller can see (members see theirs, system administrators all), by name. */
export async function listVisibleProjects(db: Tx, actor: Actor) {
  return db.project.findMany({ where: visibleProjects(actor), orderBy: { name: 'asc' }, select: { name: true, description: true } })
}

interface StateRow { id: string; name: string; description: string | null; type: string; accessUrl: string | null; deployed: boolean; redeploy: boolean }

/**
 * Environments with their deployment state, in one statement. Per (project, environment): deployed when it
 * acknowledged a DEPLOY it still holds; redeploy required when a push to it failed, or when a deployable
 * object of the project (credential, API proxy, IP group, environment variable) changed after the last push
 * it acknowledged. An environment sums this over the projects it serves (or over the one project asked for).
 */
async function environmentStates(db: Tx, project: { id: string; name: string } | null): Promise<StateRow[]> {
  // for one project every part is narrowed to it (projectId-leading indexes on each table)
  const ofProject = project ? Prisma.sql`WHERE "projectId" = ${project.id}` : Prisma.empty
  const ofIpGroups = project ? Prisma.sql`AND "projectId" = ${project.id}` : Prisma.empty
  const ofRecords = project ? Prisma.sql`WHERE "projectName" = ${project.name}` : Prisma.empty
  const servedBy = project ? Prisma.sql`WHERE p."id" = ${project.id}` : Prisma.empty
  return db.$queryRaw<StateRow[]>`
    WITH changed AS (
      SELECT x."projectId", max(x.t) AS changed_at FROM (
        SELECT "projectId", "updatedAt" AS t FROM "Credential" ${ofProject}
        UNION ALL SELECT "projectId", "updatedAt" FROM "ApiProxy" ${ofProject}
        UNION ALL SELECT "projectId", "updatedAt" FROM "StoredObject" WHERE "type" = 'IP_GROUP' ${ofIpGroups}
        UNION ALL SELECT "projectId", "updatedAt" FROM "EnvironmentVariable" ${ofProject}
      ) x GROUP BY x."projectId"
    ), records AS (
      SELECT "projectName", "environmentName",
        bool_or("action" = 'DEPLOY' AND "acknowledged") AS deployed,
        bool_or(NOT "acknowledged") AS failed,
        max("at") FILTER (WHERE "acknowledged") AS last_ack
      FROM "DeploymentRecord" ${ofRecords} GROUP BY "projectName", "environmentName"
    )
    SELECT e."id", e."name", e."description", e."type", e."accessUrl",
      coalesce(bool_or(r.deployed), false) AS deployed,
      coalesce(bool_or(r.failed OR (c.changed_at IS NOT NULL AND (r.last_ack IS NULL OR c.changed_at > r.last_ack))), false) AS redeploy
    FROM "Environment" e
    ${project ? Prisma.sql`JOIN` : Prisma.sql`LEFT JOIN`} "ProjectEnvironment" pe ON pe."environmentId" = e."id"
    ${project ? Prisma.sql`JOIN` : Prisma.sql`LEFT JOIN`} "Project" p ON p."id" = pe."projectId"
    LEFT JOIN changed c ON c."projectId" = p."id"
    LEFT JOIN records r ON r."projectName" = p."name" AND r."environmentName" = e."name"
    ${servedBy}
    GROUP BY e."id", e."name", e."description", e."type", e."accessUrl"
    ORDER BY e."name"`
}

const view = (row: StateRow): EnvironmentView => ({
  id: row.id,
  name: row.name,
  description: row.description,
  type: row.type,
  status: row.deployed ? (row.redeploy ? 'REPUBLISH_REQUIRED' : 'PUBLISHED') : 'UNPUBLISHED',
  accessUrl: row.accessUrl,
  deployed: row.deployed,
  redeployRequired: row.redeploy,
})

/** Every environment of the installation: system administrators only (vendor: admin role). */
export async function listAllEnvironments(db: Tx, actor: Actor): Promise<EnvironmentView[]> {
  requireSystemAdmin(actor)
  return (await environmentStates(db, null)).map(view)
}

/** The environments a project deploys to, for any member of the project. */
export async function listProjectEnvironments(db: Tx, actor: Actor, projectName: string): Promise<EnvironmentView[]> {
  const access = await resolveProjectAccess(db, actor, projectName)
  return (await environmentStates(db, access.project)).map(view)
}
