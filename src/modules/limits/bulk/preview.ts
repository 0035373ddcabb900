import type { Actor } from '../../../platform/auth/actor.js'
import type { Tx } from '../../../platform/context.js'
import { currentLicense } from '../../licence/service.js'
import { AI_GATEWAY_MODULE } from '../../licence/service.js'
import { findLiveBindings, prepareBulkContent } from './assignment-ops.js'
import { bulkProject } from './access.js'
import { selectorFingerprint } from './fingerprint.js'
import { ESTIMATE_ABOVE, parsePreviewBody } from './inputs.js'
import { resolveSelector } from './selector.js'

// The preview of spec §4.9: what a run with this body would do now. Writes nothing.

export const SAMPLE_SIZE = 20

export interface PreviewSample { subjectName: string; outcome: 'CREATED' | 'REPLACED' | 'SKIPPED_EXISTING' | 'SKIPPED_LICENSE'; existingBindingKey?: string }

export async function previewBulkAssignment(db: Tx, actor: Actor, projectName: string, body: unknown) {
  const project = await bulkProject(db, actor, projectName, 'MANAGE')
  const request = parsePreviewBody(body)
  const type = request.selector.subjectType
  const bulk = await prepareBulkContent(db, project.id, request.content, type)
  const resolution = await resolveSelector(db, project.id, request.selector)
  const live = await findLiveBindings(db, project.id, type, resolution.subjects, bulk.content)
  const existing = request.selector.existingAssignment ?? 'ANY'
  const subjects = existing === 'ANY' ? resolution.subjects : resolution.subjects.filter((s) => live.has(s.id) === (existing === 'EXISTS'))
  const licensed = bulk.content.family !== 'AI_TOKEN_BUDGET' || (await currentLicense(db)).modules.includes(AI_GATEWAY_MODULE)

  const outcomeOf = (id: string): PreviewSample['outcome'] =>
    !licensed ? 'SKIPPED_LICENSE' : !live.has(id) ? 'CREATED' : request.conflictPolicy === 'REPLACE' ? 'REPLACED' : 'SKIPPED_EXISTING'
  const counts = { willCreate: 0, willSkip: 0, willReplace: 0, licenseBlocked: 0 }
  for (const s of subjects) {
    const outcome = outcomeOf(s.id)
    if (outcome === 'CREATED') counts.willCreate++
    else if (outcome === 'REPLACED') counts.willReplace++
    else if (outcome === 'SKIPPED_EXISTING') counts.willSkip++
    else counts.licenseBlocked++
  }
  const sample = subjects.slice(0, SAMPLE_SIZE).map((s): PreviewSample => {
    const outcome = outcomeOf(s.id)
    const bindingKey = live.get(s.id)?.bindingKey
    return { subjectName: s.name, outcome, ...(bindingKey && outcome !== 'CREATED' ? { existingBindingKey: bindingKey } : {}) }
  })
  return {
    status: 'SUCCESS' as const,
    selectorFingerprint: selectorFingerprint(project.id, request),
    expectedCount: subjects.length,
    ...counts,
    includedSubjectCount: resolution.includedCount,
    excludedSubjectCount: resolution.excludedCount,
    estimated: subjects.length > ESTIMATE_ABOVE,
    sample,
  }
}
