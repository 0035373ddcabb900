import { z } from 'zod'
import { describes } from '../../platform/http/response-schemas.js'
import type { CredentialOrganizationView } from './views.js'

export const credentialOrganizationSchema = describes<CredentialOrganizationView>()(
  z
    .object({
      code: z.string(),
      nameDefault: z.string(),
      nameSecondary: z.string().nullable(),
      parentOrganizationCode: z.string().nullable(),
      metadata: z.array(
        z.object({
          key: z.string(),
          value: z.string().nullable().describe('null for a secret entry'),
          secret: z.boolean(),
          includeInJwt: z.boolean(),
          includeInTokenResponse: z.boolean(),
          jwtClaimName: z.string().nullable(),
        }),
      ),
      state: z.string().describe('ACTIVE, DELETE_IN_PROGRESS or TOMBSTONED (ours, beside the vendor fields)'),
      suspended: z.boolean(),
    })
    .meta({ id: 'CredentialOrganization', description: 'A credential organization (vendor CredentialOrganizationDTO)' }),
)
