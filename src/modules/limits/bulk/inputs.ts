import { z } from 'zod'
import { malformed } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'

// The bodies of spec §2.14: preview (selector, content, conflictPolicy) and run (the same plus previewFingerprint
// and expectedCount). The content's rules (§2.13, in bulk mode: PLAN and CUSTOM only, at most 200 plan keys) are
// the assignment service's (assignment-ops.ts validates with it); this file adds the selector and its list bounds.

export const BULK_SUBJECT_TYPES = ['CONSUMER', 'API_CLIENT', 'APPLICATION', 'ORGANIZATION'] as const
export type BulkSubjectType = (typeof BULK_SUBJECT_TYPES)[number]

export const MAX_SUBJECT_KEYS = 5000
export const ESTIMATE_ABOVE = 5000

export const selectorInput = z.strictObject({
  subjectType: z.enum(BULK_SUBJECT_TYPES),
  organizationCodes: z.array(z.string().trim().min(1)).optional().describe('only subjects of these organizations'),
  includeSubOrganizations: z.boolean().optional().describe('with organizationCodes: also their sub-organizations'),
  search: z.string().optional().describe('case-insensitive contains on name or username'),
  enabledOnly: z.boolean().optional(),
  existingAssignment: z.enum(['ANY', 'NONE', 'EXISTS']).optional().describe('ANY (default), NONE or EXISTS: a live assignment on the same family, target and actor scope'),
  subjectKeys: z.array(z.string().trim().min(1)).optional().describe(`at most ${MAX_SUBJECT_KEYS}`),
  excludeSubjectKeys: z.array(z.string().trim().min(1)).optional().describe(`at most ${MAX_SUBJECT_KEYS}`),
})
export type SelectorInput = z.output<typeof selectorInput>

export const conflictPolicyInput = z.enum(['KEEP_EXISTING', 'REPLACE'])
export type ConflictPolicy = z.output<typeof conflictPolicyInput>

const contentObject = z.record(z.string(), z.unknown())

export const previewInput = z.strictObject({
  selector: selectorInput,
  content: contentObject.describe('assignment content of §2.13; mode PLAN or CUSTOM only'),
  conflictPolicy: conflictPolicyInput.optional(),
})

export const runInput = previewInput.extend({
  previewFingerprint: z.string().trim().min(1).describe('selectorFingerprint of the preview this run confirms'),
  expectedCount: z.number().int().min(0).optional().describe('expectedCount of that preview (recorded)'),
})

export interface BulkRequest {
  selector: SelectorInput
  content: Record<string, unknown>
  conflictPolicy: ConflictPolicy
}

/** Lists over 5000 are refused with their own reason, before the shape is checked. */
function refuseLongLists(body: unknown) {
  const selector = (body as { selector?: Record<string, unknown> } | null)?.selector
  for (const field of ['subjectKeys', 'excludeSubjectKeys'] as const) {
    const list = selector?.[field]
    if (Array.isArray(list) && list.length > MAX_SUBJECT_KEYS) {
      throw malformed(`selector.${field} holds ${list.length} keys; at most ${MAX_SUBJECT_KEYS} are allowed`, {
        field: `selector.${field}`, reason: 'limit.bulk.includeListTooLarge', max: MAX_SUBJECT_KEYS,
      })
    }
  }
}

export function parsePreviewBody(body: unknown): BulkRequest {
  refuseLongLists(body)
  const input = parseInput(previewInput, body)
  return { selector: input.selector, content: input.content, conflictPolicy: input.conflictPolicy ?? 'KEEP_EXISTING' }
}

export function parseRunBody(body: unknown): BulkRequest & { previewFingerprint: string; expectedCount?: number } {
  refuseLongLists(body)
  const input = parseInput(runInput, body)
  return { ...input, conflictPolicy: input.conflictPolicy ?? 'KEEP_EXISTING' }
}
