import { canonicalHash } from '../../../platform/hashing/canonical.js'
import type { BulkRequest, SelectorInput } from './inputs.js'

/** The selector with its defaults filled and its lists sorted: two selectors that pick the same way compare equal. */
export function normalizedSelector(s: SelectorInput) {
  const sorted = (list: string[] | undefined) => (list ? [...new Set(list)].sort() : null)
  return {
    subjectType: s.subjectType,
    organizationCodes: sorted(s.organizationCodes),
    includeSubOrganizations: s.includeSubOrganizations ?? false,
    search: s.search?.trim() || null,
    enabledOnly: s.enabledOnly ?? false,
    existingAssignment: s.existingAssignment ?? 'ANY',
    subjectKeys: sorted(s.subjectKeys),
    excludeSubjectKeys: sorted(s.excludeSubjectKeys),
  }
}

/**
 * selectorFingerprint: a hash of what the preview was asked (project, normalized selector, content, conflict
 * policy). A run must present it; a run body that no longer hashes to it is limit.bulk.fingerprintMismatch.
 */
export function selectorFingerprint(projectId: string, request: BulkRequest): string {
  return `sha256:${canonicalHash({ projectId, selector: normalizedSelector(request.selector), content: request.content, conflictPolicy: request.conflictPolicy })}`
}
