import { z } from 'zod'
import { describes } from '../../platform/http/response-schemas.js'
import type { entitlementView } from './entitlements/service.js'
import type { apiClientSummary, ApplicationView, ConsumerView } from './views.js'

// The answer schemas of the identity read surface (spec §2.15), tied at compile time to the view functions.

const isoOrNull = z.string().nullable()

export const consumerSchema = describes<ConsumerView>()(
  z
    .object({
      consumerKey: z.string(),
      username: z.string(),
      fullName: z.string().nullable(),
      email: z.string().nullable(),
      description: z.string().nullable(),
      enabled: z.boolean(),
      organizationCode: z.string().optional(),
      expireDate: isoOrNull,
      trafficLogDisabled: z.boolean().optional(),
    })
    .meta({ id: 'Consumer' }),
)

export const applicationSchema = describes<ApplicationView>()(
  z
    .object({
      applicationKey: z.string(),
      name: z.string(),
      referenceId: z.string().nullable(),
      applicationKind: z.string(),
      appStatus: z.string(),
      description: z.string().nullable(),
      organizationCode: z.string().nullable(),
      created: z.string(),
      lifecycleRevision: z.number().int(),
      trafficLogDisabled: z.boolean().optional(),
    })
    .meta({ id: 'Application' }),
)

export const apiClientSummarySchema = describes<ReturnType<typeof apiClientSummary>>()(
  z
    .object({
      apiClientKey: z.string(),
      clientId: z.string(),
      name: z.string(),
      operationalState: z.string(),
      readiness: z.string(),
      validFrom: isoOrNull,
      expiresAt: isoOrNull,
      version: z.number().int(),
    })
    .meta({ id: 'ApiClientSummary' }),
)

export const entitlementSchema = describes<ReturnType<typeof entitlementView>>()(
  z
    .object({
      entitlementKey: z.string(),
      subjectType: z.string(),
      subjectKey: z.string().nullable(),
      targetType: z.string(),
      targetRef: z.string(),
      environmentRef: z.string().nullable().optional(),
      status: z.string(),
      validFrom: isoOrNull,
      validUntil: isoOrNull,
      source: z.string(),
      version: z.number().int(),
      assignedAt: z.string(),
      assignedBy: z.string().nullable(),
      endedAt: isoOrNull,
      endedBy: z.string().nullable(),
      endedReason: z.string().nullable(),
    })
    .meta({ id: 'Entitlement' }),
)
