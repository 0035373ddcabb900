import { z } from 'zod'
import { describes } from '../../../platform/http/response-schemas.js'
import type { GlobalPolicyView } from './views.js'

export const globalPolicySchema = describes<GlobalPolicyView>()(
  z.object({
    id: z.string().describe('stored id (the name is the API reference)'),
    name: z.string(),
    policyType: z.string().describe('the `_class` of the policy'),
    policyTypeLabel: z.string().describe('the same as policyType'),
  }).meta({ id: 'GlobalPolicyDescriptor' }),
)
