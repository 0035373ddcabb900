import { z } from 'zod'

export const portalOrganizationSchema = z
  .object({ id: z.string(), code: z.string(), name: z.string(), parentCode: z.string().nullable(), state: z.string(), suspended: z.boolean() })
  .meta({ id: 'PortalOrganization' })

export const portalUsageSchema = z
  .object({
    applicationKey: z.string(), name: z.string(), referenceId: z.string().nullable(), appStatus: z.string(), organizationCode: z.string().nullable(),
    subscriptions: z.array(z.object({ productName: z.string(), status: z.string(), createdAt: z.string() })),
    entitlements: z.array(z.object({ targetType: z.string(), targetRef: z.string(), environmentRef: z.string().nullable(), status: z.string() })),
    apiClientCount: z.number().int(), apiClientsByState: z.record(z.string(), z.number().int()), consumerCount: z.number().int(), activeLimitAssignmentCount: z.number().int(),
  })
  .meta({ id: 'PortalApplicationUsage' })

export const portalTrafficSummaryFields = {
  projectName: z.string(),
  trafficRecorded: z.boolean().describe('false: this service keeps no request counts (the gateway workers serve traffic)'),
  requestCount: z.number().int().nullable(),
  portalApplicationCount: z.number().int(), portalApplicationsByStatus: z.record(z.string(), z.number().int()),
  apiClientCount: z.number().int(), apiClientsByState: z.record(z.string(), z.number().int()),
  subscriptionCount: z.number().int(), subscriptionsByStatus: z.record(z.string(), z.number().int()), productCount: z.number().int(),
}

export const provisionResultFields = {
  applicationKey: z.string(), name: z.string(), referenceId: z.string().nullable(), applicationKind: z.string(), appStatus: z.string(), organizationCode: z.string().nullable(),
  created: z.boolean(), organizationCreated: z.boolean(), subscription: z.object({ productName: z.string(), status: z.string() }).nullable(), provisionedBy: z.string(),
}

const nullText = z.string().nullable()
export const apiProductSchema = z
  .object({
    id: z.string(), referenceId: z.string(), name: z.string(), nameDefault: nullText, nameSecondary: nullText, titleDefault: nullText, titleSecondary: nullText,
    descriptionDefault: nullText, descriptionSecondary: nullText, portalId: nullText, type: nullText, approvedSubscriptionCount: z.number().int(), createdAt: z.string(), updatedAt: z.string(),
  })
  .meta({ id: 'ApiProduct' })

export const apiProductPlansFields = {
  referenceId: z.string(), productName: z.string(), approvedSubscriptionCount: z.number().int(),
  plans: z.array(z.object({
    planId: z.string(), planName: nullText, families: z.array(z.string()),
    limitPlans: z.array(z.object({ planKey: z.string(), family: z.string(), scope: z.string(), published: z.boolean() })),
  })),
}
