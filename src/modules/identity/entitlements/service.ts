import { z } from 'zod'
import type { Prisma } from '../../../generated/prisma/client.js'
import { actorName, type Actor } from '../../../platform/auth/actor.js'
import type { Tx } from '../../../platform/context.js'
import { lifecycleConflict, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { mintPublicKey } from '../../../platform/keys.js'
import { identityProject } from '../read-scope.js'

// Entitlements (spec §2.15): a consumer's or application's right to call an API target. Created and
// ended here; listed per subject as a sub-resource of consumers and applications.

const ref = z.string().trim().min(1, 'must not be blank').max(200, 'must be at most 200 characters')

export const entitlementInput = z
  .object({
    subjectType: z.enum(['CONSUMER', 'APPLICATION']),
    /** consumer username or application name */
    subjectKey: ref,
    targetType: z.enum(['API_PROXY', 'API_PROXY_GROUP', 'API_PRODUCT', 'API_PROXY_ENV']),
    targetRef: ref,
    /** environment name; required for API_PROXY_ENV, forbidden otherwise */
    environmentRef: ref.nullish(),
    status: z.enum(['DRAFT', 'ACTIVE']).default('ACTIVE'),
    validFrom: z.coerce.date().nullish(),
    validUntil: z.coerce.date().nullish(),
    source: z.enum(['LEGACY_CAP', 'MANUAL', 'IMPORT', 'PORTAL', 'MIGRATION']).default('MANUAL'),
  })
  .superRefine((e, ctx) => {
    const perEnvironment = e.targetType === 'API_PROXY_ENV'
    if (perEnvironment && !e.environmentRef) ctx.addIssue({ code: 'custom', path: ['environmentRef'], message: 'required for target type API_PROXY_ENV' })
    if (!perEnvironment && e.environmentRef) ctx.addIssue({ code: 'custom', path: ['environmentRef'], message: 'only allowed for target type API_PROXY_ENV' })
    if (e.validFrom && e.validUntil && e.validUntil <= e.validFrom) ctx.addIssue({ code: 'custom', path: ['validUntil'], message: 'must be after validFrom' })
  })
export type EntitlementInput = z.input<typeof entitlementInput>

const endReason = z.string().trim().max(1000, 'must be at most 1000 characters').nullish()

/** Rows carry the subject's name: subjectKey is the consumer username or the application name. */
export const entitlementInclude = { credential: { select: { username: true } }, application: { select: { name: true } } } as const
export type EntitlementRow = Prisma.EntitlementGetPayload<{ include: typeof entitlementInclude }>

/** The entitlement view of spec §2.15: environmentRef only for API_PROXY_ENV. */
export function entitlementView(e: EntitlementRow) {
  return {
    entitlementKey: e.entitlementKey,
    subjectType: e.subjectType,
    subjectKey: e.credential?.username ?? e.application?.name ?? null,
    targetType: e.targetType,
    targetRef: e.targetRef,
    ...(e.targetType === 'API_PROXY_ENV' ? { environmentRef: e.environmentRef } : {}),
    status: e.status,
    validFrom: e.validFrom?.toISOString() ?? null,
    validUntil: e.validUntil?.toISOString() ?? null,
    source: e.source,
    version: e.version,
    assignedAt: e.assignedAt.toISOString(),
    assignedBy: e.assignedBy,
    endedAt: e.endedAt?.toISOString() ?? null,
    endedBy: e.endedBy,
    endedReason: e.endedReason,
  }
}

type Subject = { credentialId: string } | { applicationId: string }

/** Every entitlement of one subject, ended ones included, oldest first. */
export const listEntitlementsOf = (db: Tx, subject: Subject) =>
  db.entitlement.findMany({ where: subject, include: entitlementInclude, orderBy: [{ assignedAt: 'asc' }, { entitlementKey: 'asc' }] })

async function resolveSubject(db: Tx, projectId: string, input: Pick<z.output<typeof entitlementInput>, 'subjectType' | 'subjectKey'>) {
  const missing = () => notFound(`${input.subjectType} '${input.subjectKey}' not found`, { subjectType: input.subjectType, subject: input.subjectKey })
  if (input.subjectType === 'CONSUMER') {
    const c = await db.credential.findFirst({ where: { projectId, username: input.subjectKey }, select: { id: true, organizationId: true } })
    if (!c) throw missing()
    return { credentialId: c.id, organizationId: c.organizationId }
  }
  const a = await db.application.findUnique({ where: { projectId_name: { projectId, name: input.subjectKey } }, select: { id: true, organizationId: true } })
  if (!a) throw missing()
  return { applicationId: a.id, organizationId: a.organizationId }
}

/** The target must name an API proxy, group or environment of the project; products are taken verbatim (no catalog yet). */
async function checkTarget(db: Tx, projectId: string, input: z.output<typeof entitlementInput>) {
  const { targetType, targetRef, environmentRef } = input
  if (targetType === 'API_PROXY' || targetType === 'API_PROXY_ENV') {
    if (!(await db.apiProxy.findUnique({ where: { projectId_name: { projectId, name: targetRef } } }))) {
      throw notFound(`API proxy '${targetRef}' not found`, { apiProxy: targetRef })
    }
  }
  if (targetType === 'API_PROXY_GROUP' && !(await db.apiProxyGroup.findUnique({ where: { projectId_name: { projectId, name: targetRef } } }))) {
    throw notFound(`API proxy group '${targetRef}' not found`, { apiProxyGroup: targetRef })
  }
  if (targetType === 'API_PROXY_ENV' && !(await db.projectEnvironment.findFirst({ where: { projectId, environment: { name: environmentRef! } } }))) {
    throw notFound(`Environment '${environmentRef}' not found in the project`, { environment: environmentRef })
  }
}

export async function createEntitlement(db: Tx, actor: Actor, projectName: string, raw: EntitlementInput) {
  const project = await identityProject(db, actor, projectName, 'MANAGE')
  const input = parseInput(entitlementInput, raw)
  const subject = await resolveSubject(db, project.id, input)
  await checkTarget(db, project.id, input)
  return db.entitlement.create({
    data: {
      entitlementKey: mintPublicKey('ent'),
      projectId: project.id,
      subjectType: input.subjectType,
      ...subject,
      targetType: input.targetType,
      targetRef: input.targetRef,
      environmentRef: input.environmentRef ?? null,
      status: input.status,
      validFrom: input.validFrom ?? null,
      validUntil: input.validUntil ?? null,
      source: input.source,
      assignedBy: actorName(actor),
    },
    include: entitlementInclude,
  })
}

/** Ends a live entitlement; an ended one is final (lifecycleConflict entitlement.alreadyEnded). */
export async function endEntitlement(db: Tx, actor: Actor, projectName: string, entitlementKey: string, reason?: string | null) {
  const project = await identityProject(db, actor, projectName, 'MANAGE')
  const endedReason = parseInput(z.object({ reason: endReason }), { reason }).reason || null
  const found = await db.entitlement.findFirst({ where: { projectId: project.id, entitlementKey } })
  if (!found) throw notFound(`Entitlement '${entitlementKey}' not found`, { entitlement: entitlementKey })
  // conditional on the status, so two concurrent ends cannot both record themselves
  const ended = await db.entitlement.updateMany({
    where: { id: found.id, status: { not: 'ENDED' } },
    data: { status: 'ENDED', endedAt: new Date(), endedBy: actorName(actor), endedReason, version: { increment: 1 } },
  })
  if (!ended.count) throw lifecycleConflict('entitlement.alreadyEnded', `Entitlement '${entitlementKey}' has already ended`)
  return db.entitlement.findUniqueOrThrow({ where: { id: found.id }, include: entitlementInclude })
}
