import { z } from 'zod'
import { describes } from '../../../platform/http/response-schemas.js'
import { ruleSpecSchema } from '../plans/view-schemas.js'
import type { DefaultView } from './service.js'

// The answer schema of the limit default routes (spec §4.11), tied at compile time to defaultView.

const defaultFields = {
  defaultKey: z.string(),
  owner: z.object({ type: z.string(), projectId: z.string().optional(), organizationCode: z.string().optional() }),
  name: z.string().nullable(),
  description: z.string().nullable(),
  family: z.string(),
  actorScope: z.string(),
  mode: z.string(),
  planKeys: z.array(z.string()),
  status: z.string(),
  version: z.number().int(),
  createdAt: z.string(),
  createdBy: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
  activatedAt: z.string().nullable(),
  disabledAt: z.string().nullable(),
}
// the rule spec is a JSON column (any JSON value to Prisma): the tie leaves it out
describes<Omit<DefaultView, 'customRuleSpec'>>()(z.object(defaultFields))

export const limitDefaultSchema = z
  .object({ ...defaultFields, customRuleSpec: ruleSpecSchema.nullable() })
  .meta({ id: 'LimitDefault', description: 'A limit default of the platform, a project or an organization (spec §4.11)' })
