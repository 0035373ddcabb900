import { z } from 'zod'
import type { AiPreset, Prisma } from '../../generated/prisma/client.js'
import type { AiPresetFamily } from '../../generated/prisma/enums.js'
import type { Actor } from '../../platform/auth/actor.js'
import { requireSystemAdmin } from '../../platform/auth/require.js'
import type { Deps, Tx } from '../../platform/context.js'
import { installationEnvironments, projectEnvironments } from '../../platform/deploy/project.js'
import type { DeployEnvironment, DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { orderByFor, type PageRequest } from '../../platform/envelopes/paging.js'
import { DomainError, malformed, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { mintPublicKey } from '../../platform/keys.js'
import { authorizeInProject, PLATFORM_PROJECT, resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { objectName } from '../../platform/validation/common.js'
import { familyDef } from './families.js'
import type { PresetFamilyDef } from './family-fields.js'

/**
 * Where a preset call comes from: the admin catalog (/apiops/settings/…, system administrators only,
 * `projectId` names a project or is blank for the admin scope) or a project mirror
 * (/apiops/projects/{projectName}/…, AI_DEVELOPMENT VIEW or MANAGE).
 */
export type PresetDoor = { door: 'admin'; projectName?: string | null } | { door: 'project'; projectName: string }

interface Scope {
  /** the owning project of rows written here (the platform project for the admin scope) */
  projectId: string
  /** null: the admin scope */
  projectName: string | null
  adminProjectId: string
}

/** A preset as both doors show it: common fields, the family's fields, then the read-only ones. */
export interface PresetView {
  id: string
  name: string
  description: string | null
  enabled: boolean
  [field: string]: unknown
  builtIn: boolean
  overridden: boolean
  /** owning project's name; null for the admin scope */
  projectId: string | null
  /** seen from a project but owned by the admin scope (built-in or admin-shared): read-only there */
  inherited: boolean
  revision: number
  createdAt: Date
  updatedAt: Date
}

export interface PresetWriteResult { preset: PresetView; deploymentResult: DeploymentOutcome }

/** Fields a client may send back from a read: ignored on write (spec §2.10). */
const READ_ONLY_FIELDS = ['id', 'builtIn', 'overridden', 'projectId', 'inherited', 'revision', 'createdAt', 'updatedAt']

export const PRESET_SORT = { defaultSort: 'name,asc', supported: ['name', 'updatedAt'] } as const

type Row = AiPreset & { project: { name: string } }

async function adminProjectId(db: Tx): Promise<string> {
  const platform = await db.project.findUnique({ where: { name: PLATFORM_PROJECT }, select: { id: true } })
  if (!platform) throw new DomainError('internal', 'internalError', 'The platform project is missing')
  return platform.id
}

async function resolveScope(db: Tx, actor: Actor, where: PresetDoor, level: 'VIEW' | 'MANAGE'): Promise<Scope> {
  const adminId = await adminProjectId(db)
  const admin: Scope = { projectId: adminId, projectName: null, adminProjectId: adminId }
  if (where.door === 'admin') {
    requireSystemAdmin(actor)
    const name = where.projectName?.trim()
    if (!name || name === PLATFORM_PROJECT) return admin
    const access = await resolveProjectAccess(db, actor, name)
    return { projectId: access.project.id, projectName: access.project.name, adminProjectId: adminId }
  }
  const access = await authorizeInProject(db, actor, where.projectName, 'AI_DEVELOPMENT', level)
  if (access.project.name === PLATFORM_PROJECT) {
    // the platform project's mirror is the admin catalog itself
    requireSystemAdmin(actor)
    return admin
  }
  return { projectId: access.project.id, projectName: access.project.name, adminProjectId: adminId }
}

const isAdminScope = (scope: Scope) => scope.projectName === null

function toView(row: Row, scope: Scope): PresetView {
  const ownedByAdmin = row.projectId === scope.adminProjectId
  return {
    id: row.presetKey,
    name: row.name,
    description: row.description,
    enabled: row.enabled,
    ...(row.content as Record<string, unknown>),
    builtIn: row.builtIn,
    overridden: row.overridden,
    projectId: ownedByAdmin ? null : row.project.name,
    inherited: row.projectId !== scope.projectId,
    revision: row.revision,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

const withProject = { project: { select: { name: true } } } as const

/** What a scope sees: its own live presets, plus (for a project) the admin scope's it does not own a namesake of. */
async function visibleWhere(db: Tx, family: AiPresetFamily, scope: Scope): Promise<Prisma.AiPresetWhereInput> {
  if (isAdminScope(scope)) return { family, projectId: scope.projectId, deletedAt: null }
  const own = await db.aiPreset.findMany({ where: { family, projectId: scope.projectId, deletedAt: null }, select: { nameKey: true } })
  return {
    family,
    deletedAt: null,
    OR: [{ projectId: scope.projectId }, { projectId: scope.adminProjectId, nameKey: { notIn: own.map((o) => o.nameKey) } }],
  }
}

/** All visible presets (REST) or one page of them (GraphQL), by name. */
export async function listPresets(
  db: Tx, actor: Actor, family: AiPresetFamily, where: PresetDoor, page?: PageRequest,
): Promise<{ items: PresetView[]; total: number }> {
  const scope = await resolveScope(db, actor, where, 'VIEW')
  const filter = await visibleWhere(db, family, scope)
  const orderBy = page ? orderByFor(page, 'id', { name: 'nameKey' }) : [{ nameKey: 'asc' as const }, { id: 'asc' as const }]
  const [rows, total] = await Promise.all([
    db.aiPreset.findMany({ where: filter, include: withProject, orderBy, ...(page ? { skip: page.skip, take: page.take } : {}) }),
    db.aiPreset.count({ where: filter }),
  ])
  return { items: rows.map((r) => toView(r, scope)), total }
}

const presetNotFound = (def: PresetFamilyDef, name: string) => notFound(`${def.label[0].toUpperCase()}${def.label.slice(1)} '${name}' not found`, { name })

export async function getPreset(db: Tx, actor: Actor, family: AiPresetFamily, where: PresetDoor, name: string): Promise<PresetView> {
  const def = familyDef(family)
  const scope = await resolveScope(db, actor, where, 'VIEW')
  const nameKey = name.trim().toLowerCase()
  const own = await db.aiPreset.findFirst({ where: { family, projectId: scope.projectId, nameKey, deletedAt: null }, include: withProject })
  const row = own ?? (isAdminScope(scope) ? null : await db.aiPreset.findFirst({ where: { family, projectId: scope.adminProjectId, nameKey, deletedAt: null }, include: withProject }))
  if (!row) throw presetNotFound(def, name)
  return toView(row, scope)
}

/** The path name, checked like any name; the body name must equal it case-insensitively and defaults to it. */
function resolveName(pathName: string, bodyName: string | null | undefined): string {
  const path = objectName.safeParse(pathName)
  if (!path.success) throw malformed(`name: ${path.error.issues[0].message}`, { field: 'name' })
  const given = bodyName?.trim()
  if (!given) return path.data
  if (given.toLowerCase() !== path.data.toLowerCase()) {
    throw malformed(`The name '${given}' in the body differs from the name '${path.data}' in the path`, { field: 'name', reason: 'nameMismatch' })
  }
  return given
}

type BodyInput = Record<string, unknown> & { name?: string | null; description?: string | null; enabled?: boolean | null }

/** One body schema per family: the common fields plus the family's, unknown fields refused. */
const bodySchemas = new Map<AiPresetFamily, z.ZodType>()
export function bodySchema(def: PresetFamilyDef): z.ZodType {
  let schema = bodySchemas.get(def.family)
  if (!schema) {
    schema = z.strictObject({
      name: z.string().nullish(),
      description: z.string().max(1000, 'must be at most 1000 characters').nullish(),
      enabled: z.boolean().nullish(),
      ...def.fields,
    })
    bodySchemas.set(def.family, schema)
  }
  return schema
}

function parseBody(def: PresetFamilyDef, body: unknown): BodyInput {
  if (body === undefined || body === null) body = {}
  if (typeof body !== 'object' || Array.isArray(body)) throw malformed('The request body must be a JSON object', { field: 'body' })
  const writable = Object.fromEntries(Object.entries(body as Record<string, unknown>).filter(([k]) => !READ_ONLY_FIELDS.includes(k)))
  return parseInput(bodySchema(def), writable) as BodyInput
}

async function environmentsOf(db: Tx, scope: Scope): Promise<DeployEnvironment[]> {
  if (!isAdminScope(scope)) return projectEnvironments(db, scope.projectId)
  return installationEnvironments(db)
}

const nameCollision = (def: PresetFamilyDef, name: string) =>
  new DomainError('conflict', 'alreadyExists', `A ${def.label} named '${name}' already exists`, { field: 'name', name, reason: 'nameCollision' })

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === 'P2002'

/**
 * POST (mode `upsert`: in the admin scope creates, or updates the preset of that name, built-ins included, and
 * revives a deleted built-in; in a project creates, refusing a name the project already owns) and PUT (mode `update`: the scope's own live preset must exist). Saves,
 * then pushes the preset to the scope's environments (every environment for the admin scope).
 */
export async function savePreset(
  deps: Deps, actor: Actor, family: AiPresetFamily, where: PresetDoor, pathName: string, body: unknown, mode: 'upsert' | 'update',
): Promise<PresetWriteResult> {
  const db = deps.prisma
  const def = familyDef(family)
  const scope = await resolveScope(db, actor, where, 'MANAGE')
  const input = parseBody(def, body)
  const name = resolveName(pathName, input.name)
  const nameKey = name.toLowerCase()
  const existing = await db.aiPreset.findUnique({ where: { family_projectId_nameKey: { family, projectId: scope.projectId, nameKey } } })
  const live = existing && !existing.deletedAt ? existing : null
  if (mode === 'update' && !live) throw presetNotFound(def, name)
  // spec §4.5: in a project an inherited (built-in or admin-shared) name counts as absent, so POST creates a
  // project-owned preset shadowing it; only the project's own preset of that name is a collision
  if (mode === 'upsert' && live && !isAdminScope(scope)) throw nameCollision(def, live.name)
  const content = def.build(input, live ? (live.content as Record<string, unknown>) : undefined) as Prisma.InputJsonValue
  const description = input.description === undefined ? (live?.description ?? null) : input.description?.trim() || null
  const enabled = input.enabled ?? live?.enabled ?? true
  let row: Row
  if (existing) {
    row = await db.aiPreset.update({
      where: { id: existing.id },
      data: {
        content, description, enabled, deletedAt: null,
        // an edited (or re-created) built-in is the administrator's from now on: refreshes skip it
        overridden: existing.builtIn ? true : existing.overridden,
        revision: { increment: 1 },
      },
      include: withProject,
    })
  } else {
    try {
      row = await db.aiPreset.create({
        data: { presetKey: mintPublicKey('prs'), family, projectId: scope.projectId, name, nameKey, description, enabled, content },
        include: withProject,
      })
    } catch (err) {
      if (isUniqueViolation(err)) throw nameCollision(def, name)
      throw err
    }
  }
  const preset = toView(row, scope)
  const deploymentResult = await deps.deployer.push(await environmentsOf(db, scope), {
    action: 'DEPLOY', project: scope.projectName ?? '', kind: def.deployKind, name: row.name, revision: row.revision, config: preset,
  })
  return { preset, deploymentResult }
}

/**
 * Deletes the scope's own preset and undeploys it. A built-in stays behind as a tombstone so that the
 * start-up refresh does not bring it back; an inherited preset seen from a project is not found.
 */
export async function deletePreset(
  deps: Deps, actor: Actor, family: AiPresetFamily, where: PresetDoor, name: string,
): Promise<{ deploymentResult: DeploymentOutcome }> {
  const db = deps.prisma
  const def = familyDef(family)
  const scope = await resolveScope(db, actor, where, 'MANAGE')
  const nameKey = name.trim().toLowerCase()
  const row = await db.aiPreset.findFirst({ where: { family, projectId: scope.projectId, nameKey, deletedAt: null } })
  if (!row) throw presetNotFound(def, name)
  let revision = row.revision + 1
  if (row.builtIn) {
    revision = (await db.aiPreset.update({ where: { id: row.id }, data: { deletedAt: new Date(), revision: { increment: 1 } } })).revision
  } else {
    await db.aiPreset.delete({ where: { id: row.id } })
  }
  const deploymentResult = await deps.deployer.push(await environmentsOf(db, scope), {
    action: 'UNDEPLOY', project: scope.projectName ?? '', kind: def.deployKind, name: row.name, revision, config: null,
  })
  return { deploymentResult }
}
