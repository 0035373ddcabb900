import { z } from 'zod'
import { describes } from '../../platform/http/response-schemas.js'
import { apiClientSummarySchema } from '../identity/view-schemas.js'
import type { managedApiClientView, runtimeDeploymentView } from './views.js'

// The answer schemas of the API client manager surface (spec §2.5, §2.6, §4.11), tied at compile time to the views.

export const managedApiClientSchema = describes<ReturnType<typeof managedApiClientView>>()(
  apiClientSummarySchema
    .extend({
      projectName: z.string(),
      applicationKey: z.string().nullable(),
      consumerKey: z.string().nullable(),
      organizationCode: z.string().nullable(),
      secretVersion: z.number().int().nullable(),
      allowedGrantTypes: z.array(z.string()),
      tokenEndpointAuthMethod: z.string().nullable(),
      tokenIssuanceProfile: z.string().nullable(),
      tokenNeverExpires: z.boolean(),
      tokenExpiresInAmount: z.number().nullable(),
      tokenExpiresInUnit: z.string().nullable(),
      refreshTokenAllowed: z.boolean(),
      refreshTokenCount: z.number().int().nullable(),
      refreshTokenExpiresInAmount: z.number().nullable(),
      refreshTokenExpiresInUnit: z.string().nullable(),
      jwtSignatureAlgorithm: z.string(),
      created: z.string(),
      updated: z.string(),
    })
    .meta({ id: 'ManagedApiClient', description: 'An API client on the manager surface: summary, owner, live secret version (never its value), issuance fields' }),
)

export const runtimeDeploymentSchema = describes<ReturnType<typeof runtimeDeploymentView>>()(
  z
    .object({
      state: z.string(),
      revision: z.number().int().optional(),
      environments: z.array(z.object({ name: z.string(), acknowledged: z.boolean(), detail: z.string().optional() })),
    })
    .meta({ id: 'ApiClientRuntimeDeployment', description: 'Where an API client is deployed (spec §2.6); revision only on the durable read' }),
)

/** The §2.6 envelope of a write: clientSecret only when a secret was issued (shown this once). */
export const apiClientWriteSchema = z.object({ apiClient: managedApiClientSchema, clientSecret: z.string().optional(), runtimeDeployment: runtimeDeploymentSchema })
export const apiClientDeploymentSchema = z.object({ apiClient: managedApiClientSchema, runtimeDeployment: runtimeDeploymentSchema })
