import type { Prisma } from '../../generated/prisma/client.js'

export const consumerInclude = { organization: true } as const

/**
 * The columns the consumer view and the GraphQL consumer type read. A list page reads only these: half the
 * columns, no secret or token setting leaves the database for a list.
 */
export const consumerColumns = {
  id: true, consumerKey: true, username: true, fullName: true, email: true, description: true,
  enabled: true, organizationId: true, expireDate: true, trafficLogDisabled: true,
} as const satisfies Prisma.CredentialSelect
export type ConsumerRow = Prisma.CredentialGetPayload<{ select: typeof consumerColumns }> & { organization: { code: string } | null }

/**
 * The consumer view of spec §2.15: exactly these fields; organizationCode and trafficLogDisabled are
 * absent when unset; never a secret, certificate or token setting.
 */
export function consumerView(c: ConsumerRow) {
  return {
    consumerKey: c.consumerKey,
    username: c.username,
    fullName: c.fullName,
    email: c.email,
    description: c.description,
    enabled: c.enabled,
    ...(c.organization ? { organizationCode: c.organization.code } : {}),
    expireDate: c.expireDate?.toISOString() ?? null,
    ...(c.trafficLogDisabled === null ? {} : { trafficLogDisabled: c.trafficLogDisabled }),
  }
}
export type ConsumerView = ReturnType<typeof consumerView>

export const applicationInclude = { organization: true } as const
export type ApplicationRow = Prisma.ApplicationGetPayload<{ include: typeof applicationInclude }>

/** The application view of spec §2.15. */
export function applicationView(a: ApplicationRow) {
  return {
    applicationKey: a.applicationKey,
    name: a.name,
    referenceId: a.referenceId,
    applicationKind: a.applicationKind,
    appStatus: a.appStatus,
    description: a.description,
    organizationCode: a.organization?.code ?? null,
    created: a.createdAt.toISOString(),
    lifecycleRevision: a.lifecycleRevision,
    ...(a.trafficLogDisabled === null ? {} : { trafficLogDisabled: a.trafficLogDisabled }),
  }
}
export type ApplicationView = ReturnType<typeof applicationView>

/** The API client summary row of spec §2.5 (a sub-resource of consumers and applications). */
export function apiClientSummary(c: Prisma.ApiClientGetPayload<object>) {
  return {
    apiClientKey: c.apiClientKey,
    clientId: c.clientId,
    name: c.name,
    operationalState: c.operationalState,
    readiness: c.readiness,
    validFrom: c.validFrom?.toISOString() ?? null,
    expiresAt: c.expiresAt?.toISOString() ?? null,
    version: c.version,
  }
}
