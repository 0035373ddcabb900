import { apiClientSummary } from '../identity/views.js'
import type { ApiClient } from '../../generated/prisma/client.js'
import type { ClientWithOwners, RuntimeDeploymentView } from '../identity/api-client-runtime.js'

const long = (n: bigint | null) => (n === null ? null : Number(n))

/** Issuance fields of spec §2.5 with their documented defaults for unset values. */
export function issuanceView(c: ApiClient) {
  return {
    allowedGrantTypes: c.allowedGrantTypes,
    tokenEndpointAuthMethod: c.tokenEndpointAuthMethod,
    tokenIssuanceProfile: c.tokenIssuanceProfile,
    tokenNeverExpires: c.tokenNeverExpires ?? false,
    tokenExpiresInAmount: long(c.tokenExpiresInAmount),
    tokenExpiresInUnit: c.tokenExpiresInUnit,
    refreshTokenAllowed: c.refreshTokenAllowed ?? false,
    refreshTokenCount: c.refreshTokenCount,
    refreshTokenExpiresInAmount: long(c.refreshTokenExpiresInAmount),
    refreshTokenExpiresInUnit: c.refreshTokenExpiresInUnit,
    jwtSignatureAlgorithm: c.jwtSignatureAlgorithm ?? 'RS256',
  }
}

/**
 * An API client on the manager surface: the §2.5 summary fields, its owner and organization, the live
 * secret's version (never its value), and the issuance fields with their documented defaults
 * (tokenNeverExpires and refreshTokenAllowed read false, jwtSignatureAlgorithm RS256 when unset).
 */
export function managedApiClientView(c: ClientWithOwners) {
  return {
    ...apiClientSummary(c),
    projectName: c.project.name,
    applicationKey: c.application?.applicationKey ?? null,
    consumerKey: c.credential?.consumerKey ?? null,
    organizationCode: c.organization?.code ?? null,
    secretVersion: c.secrets[0]?.version ?? null,
    ...issuanceView(c),
    created: c.createdAt.toISOString(),
    updated: c.updatedAt.toISOString(),
  }
}

/** The §2.6 envelope: revision only on the durable read. */
export const runtimeDeploymentView = (r: RuntimeDeploymentView, withRevision: boolean) => ({
  state: r.state,
  ...(withRevision && r.revision !== undefined ? { revision: r.revision } : {}),
  environments: r.environments.map((e) => ({ name: e.name, acknowledged: e.acknowledged, ...(e.detail ? { detail: e.detail } : {}) })),
})
