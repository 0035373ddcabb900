import type { ApplyResult, Drift, Plan } from './api.js'

/** gwctl's readable output (the --json output is the server's versioned answer, as documented in docs/declarative.md). */

const MARK = { create: '+', update: '~', delete: '-' } as const

const short = (v: unknown) => {
  const text = JSON.stringify(v ?? null)
  return text.length > 100 ? `${text.slice(0, 97)}...` : text
}

export function renderPlan(plan: Plan): string {
  const lines = [`Plan ${plan.id} for project ${plan.project} (${plan.mode}${plan.namespace ? `, namespace ${plan.namespace}` : ''})`, `Base revision ${plan.baseRevision}`, '']
  for (const change of plan.changes) {
    lines.push(`${MARK[change.action]} ${change.type} ${change.name}${change.renamedFrom ? ` (renamed from ${change.renamedFrom})` : ''}`)
    for (const d of change.details as { field: string; before?: unknown; after?: unknown; sensitive?: boolean }[]) {
      if (d.sensitive) lines.push(`    ${d.field}: ${change.action === 'create' ? 'set' : 'changed'} (sensitive)`)
      else if (change.action === 'create') lines.push(`    ${d.field}: ${short(d.after)}`)
      else lines.push(`    ${d.field}: ${short(d.before)} -> ${short(d.after)}`)
    }
  }
  const s = plan.summary
  lines.push('', plan.changes.length ? `Plan: ${s.create} to create, ${s.update} to update, ${s.delete} to delete.` : 'No changes: the project matches the file.')
  return `${lines.join('\n')}\n`
}

export function renderApply(result: ApplyResult): string {
  const s = result.summary
  const lines = [result.applied ? `Applied plan ${result.planId}: ${s.create} created, ${s.update} updated, ${s.delete} deleted.` : `Nothing to change (plan ${result.planId}).`]
  for (const a of result.advisories) lines.push(`  note: ${a}`)
  for (const p of result.pushes.filter((x) => !x.success)) lines.push(`  push failed: ${p.type} ${p.name}: ${p.message ?? 'not acknowledged'} (the outbox retries it)`)
  return `${lines.join('\n')}\n`
}

export function renderDrift(drift: Drift): string {
  if (!drift.planId) return `No applied state for project ${drift.project}${drift.namespace ? ` (namespace ${drift.namespace})` : ''}: nothing to compare.\n`
  const lines = [`Drift of project ${drift.project}${drift.namespace ? ` (namespace ${drift.namespace})` : ''} since plan ${drift.planId} (${drift.appliedAt} by ${drift.appliedBy})`]
  for (const d of drift.drift) {
    const who = d.changedBy ? ` by ${d.changedBy} at ${d.changedAt}` : ''
    lines.push(`${d.status === 'deleted' ? '-' : '~'} ${d.type} ${d.name}: ${d.status}${d.fields.length ? ` (${d.fields.join(', ')})` : ''}${who}`)
  }
  lines.push(drift.drift.length ? `${drift.summary.changed} changed, ${drift.summary.deleted} deleted.` : 'No drift.')
  return `${lines.join('\n')}\n`
}
