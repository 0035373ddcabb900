import type { Actor } from '../../../platform/auth/actor.js'
import type { Tx } from '../../../platform/context.js'
import { HeapBudget } from '../../../platform/heap-budget.js'
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
  const pages = await resolveSelector(db, project.id, request.selector)
  const existing = request.selector.existingAssignment ?? 'ANY'
  const licensed = bulk.content.family !== 'AI_TOKEN_BUDGET' || (await currentLicense(db)).modules.includes(AI_GATEWAY_MODULE)

  const counts = { willCreate: 0, willSkip: 0, willReplace: 0, licenseBlocked: 0 }
  const sample: PreviewSample[] = []
  let expectedCount = 0
  let includedSubjectCount = 0
  let excludedSubjectCount = 0
  // a page at a time: counts and the sample are kept, the subjects are not; the pages' garbage is collected as it
  // grows (HeapBudget) from the second page on, else the old generation grows with the selection (issue 31 §3)
  const heap = new HeapBudget()
  let pagesRead = 0
  for await (const page of pages) {
    if (++pagesRead > 1) heap.check()
    includedSubjectCount += page.includedCount
    excludedSubjectCount += page.excludedCount
    const live = await findLiveBindings(db, project.id, type, page.subjects, bulk.content)
    for (const s of page.subjects) {
      const binding = live.get(s.id)
      if (existing !== 'ANY' && Boolean(binding) !== (existing === 'EXISTS')) continue
      expectedCount++
      const outcome: PreviewSample['outcome'] = !licensed ? 'SKIPPED_LICENSE' : !binding ? 'CREATED' : request.conflictPolicy === 'REPLACE' ? 'REPLACED' : 'SKIPPED_EXISTING'
      if (outcome === 'CREATED') counts.willCreate++
      else if (outcome === 'REPLACED') counts.willReplace++
      else if (outcome === 'SKIPPED_EXISTING') counts.willSkip++
      else counts.licenseBlocked++
      if (sample.length < SAMPLE_SIZE) sample.push({ subjectName: s.name, outcome, ...(binding && outcome !== 'CREATED' ? { existingBindingKey: binding.bindingKey } : {}) })
    }
  }
  return {
    status: 'SUCCESS' as const,
    selectorFingerprint: selectorFingerprint(project.id, request),
    expectedCount,
    ...counts,
    includedSubjectCount,
    excludedSubjectCount,
    estimated: expectedCount > ESTIMATE_ABOVE,
    sample,
  }
}
