import { z } from 'zod'
import { describes } from '../../../platform/http/response-schemas.js'
import type { backfillPortalSubscriptions, limitImpact } from './portal/service.js'
import type { selectorOrganizations, SubjectItem } from './subjects.js'

// The answer schemas of the manager surface's selector and portal routes (spec §4.11), tied at compile time to
// the functions that build them.

export const limitSubjectSchema = describes<SubjectItem>()(
  z
    .object({ subjectType: z.string(), subjectKey: z.string(), displayName: z.string().nullable(), organizationCode: z.string().nullable(), enabled: z.boolean() })
    .meta({ id: 'LimitSubject', description: 'A subject for the bulk selector' }),
)

export const selectorOrganizationSchema = describes<Awaited<ReturnType<typeof selectorOrganizations>>[number]>()(
  z.object({
    code: z.string(),
    name: z.string(),
    parentCode: z.string().nullable(),
    depth: z.number().int(),
    state: z.string(),
    suspended: z.boolean(),
    subOrganizationCount: z.number().int(),
  }),
)

export const limitImpactSchema = describes<Awaited<ReturnType<typeof limitImpact>>>()(
  z.object({
    productId: z.string(),
    planId: z.string(),
    approvedSubscriptionCount: z.number().int(),
    familiesWithProfile: z.array(z.string()),
    affectedApplicationCount: z.number().int(),
  }),
)

export const portalBackfillSchema = describes<Awaited<ReturnType<typeof backfillPortalSubscriptions>>>()(
  z.object({
    apply: z.boolean(),
    productId: z.string(),
    planId: z.string(),
    scanned: z.number().int(),
    createdCount: z.number().int(),
    wouldCreateCount: z.number().int(),
    skippedCount: z.number().int(),
    rowsTruncated: z.boolean(),
    rows: z.array(
      z.object({
        projectName: z.string(),
        applicationName: z.string(),
        family: z.string(),
        planKey: z.string(),
        outcome: z.enum(['CREATED', 'WOULD_CREATE', 'SKIPPED_EXISTING', 'SKIPPED_UNPUBLISHED', 'SKIPPED_PLATFORM_PLAN']),
        bindingKey: z.string().optional(),
      }),
    ),
  }),
)
