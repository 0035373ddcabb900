import { z } from 'zod'
import { describes } from '../../../platform/http/response-schemas.js'
import type { PolicyGroupView } from './views.js'

export const policyGroupSchema = describes<PolicyGroupView>()(
  z.object({ id: z.string(), name: z.string(), targetPipeline: z.string().nullable().describe('REQUEST, RESPONSE or ERROR') }).meta({ id: 'PolicyGroupDescriptor' }),
)
