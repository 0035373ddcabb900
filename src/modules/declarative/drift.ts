import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import { parseInput } from '../../platform/errors/validation.js'
import type { StateObject } from './apply.js'
import { collectionByKey } from './collections.js'
import { changedPaths, readNames, requireCollections } from './live.js'
import { declarativeContext } from './plan.js'

/**
 * GET …/declarative-drift: the last applied state of a project (per namespace) against the live objects. An object
 * changed or deleted outside the file is drift; who changed it and when come from the audit trail.
 */
export const driftQuery = z.object({ namespace: z.string().min(1).optional().describe('the namespace whose state to compare (default: the file without namespace)') })

export interface DriftEntry {
  type: string
  name: string
  status: 'changed' | 'deleted'
  fields: string[]
  changedBy: string | null
  changedAt: string | null
  operation: string | null
}

export interface DriftView {
  formatVersion: 1
  project: string
  namespace: string | null
  /** the plan that recorded the state; null when nothing was applied yet */
  planId: string | null
  appliedAt: string | null
  appliedBy: string | null
  drift: DriftEntry[]
  summary: { changed: number; deleted: number }
}

export async function declarativeDrift(deps: Deps, actor: Actor, projectName: string, rawQuery: unknown): Promise<DriftView> {
  const query = parseInput(driftQuery, rawQuery)
  const ctx = await declarativeContext(deps, actor, projectName)
  const namespace = query.namespace ?? ''
  const state = await deps.prisma.declarativeState.findUnique({ where: { projectId_namespace: { projectId: ctx.access.project.id, namespace } } })
  const view: DriftView = {
    formatVersion: 1, project: projectName, namespace: namespace || null, planId: state?.planId ?? null,
    appliedAt: state?.appliedAt.toISOString() ?? null, appliedBy: state?.appliedBy ?? null, drift: [], summary: { changed: 0, deleted: 0 },
  }
  if (!state) return view
  const objects = state.objects as unknown as StateObject[]
  const byCollection = new Map<string, StateObject[]>()
  for (const o of objects) {
    const list = byCollection.get(o.collection)
    if (list) list.push(o)
    else byCollection.set(o.collection, [o])
  }
  const list = [...byCollection.keys()].map(collectionByKey).filter((c) => !!c)
  requireCollections(ctx, list, 'VIEW')
  for (const c of list) {
    const recorded = byCollection.get(c.key)!
    const live = await readNames(ctx, c, recorded.map((o) => o.name))
    for (const o of recorded) {
      const now = live.get(o.name)
      if (!now) view.drift.push({ type: c.key, name: o.name, status: 'deleted', fields: [], changedBy: null, changedAt: null, operation: null })
      else if (now.fingerprint !== o.fingerprint) {
        const fields = changedPaths(o.data, now.portable.data)
        for (const k of new Set([...Object.keys(o.secrets), ...Object.keys(now.secretPrints)])) if (o.secrets[k] !== now.secretPrints[k]) fields.push(k)
        view.drift.push({ type: c.key, name: o.name, status: 'changed', fields, changedBy: null, changedAt: null, operation: null })
      }
    }
  }
  if (view.drift.length) {
    // who and when: the newest audit event of each drifted object since the apply
    const events = await deps.prisma.auditEvent.findMany({
      where: { projectName, at: { gt: state.appliedAt }, objectName: { in: [...new Set(view.drift.map((d) => d.name))] }, NOT: { operation: { startsWith: 'declarative.' } } },
      orderBy: { at: 'desc' }, take: 5000, select: { objectName: true, actor: true, at: true, operation: true },
    })
    for (const d of view.drift) {
      const e = events.find((ev) => ev.objectName === d.name)
      if (e) Object.assign(d, { changedBy: e.actor, changedAt: e.at.toISOString(), operation: e.operation })
    }
  }
  view.summary = { changed: view.drift.filter((d) => d.status === 'changed').length, deleted: view.drift.filter((d) => d.status === 'deleted').length }
  return view
}
