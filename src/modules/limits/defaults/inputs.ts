import { z } from 'zod'

// Bodies of the default limit policies (spec §4.11 leaves them open; docs/limits-bulk.md shows them).

export const OWNER_TYPES = ['PLATFORM', 'PROJECT', 'ORGANIZATION'] as const
export type OwnerType = (typeof OWNER_TYPES)[number]

export const ownerInput = z.strictObject({
  type: z.enum(OWNER_TYPES),
  projectId: z.string().trim().min(1).optional().describe('project name; required for PROJECT and ORGANIZATION, absent for PLATFORM'),
  organizationCode: z.string().trim().min(1).optional().describe('required for ORGANIZATION'),
})
export type OwnerInput = z.output<typeof ownerInput>

/** The content a default gives an INHERIT assignment: a plan list or a custom rule spec for one family and actor scope. */
export const defaultContentInput = z.strictObject({
  family: z.string().optional(),
  actorScope: z.string().optional(),
  mode: z.string().optional(),
  planKeys: z.array(z.string()).optional(),
  customRuleSpec: z.unknown().optional(),
})

const text = (max: number) => z.string().trim().max(max)

export const createDefaultInput = z.strictObject({
  owner: ownerInput,
  name: text(200).optional(),
  description: text(2000).optional(),
  content: defaultContentInput,
})

export const updateDefaultInput = z.strictObject({
  name: text(200).optional(),
  description: text(2000).optional(),
  content: defaultContentInput,
  version: z.number().int().min(1).optional().describe('must equal the stored version'),
})

export const versionInput = z.strictObject({ version: z.number().int().min(1).optional() }).optional()

export const listDefaultsQuery = z.object({
  ownerType: z.enum(OWNER_TYPES).optional().describe('default: every owner the caller can see in the project (or the platform)'),
  projectId: z.string().optional().describe('project name; absent: platform defaults'),
  organizationCode: z.string().optional(),
  family: z.enum(['REQUEST_RATE', 'AI_TOKEN_BUDGET']).optional(),
  status: z.enum(['ACTIVE', 'DISABLED']).optional(),
  // checked by parsePaging (GraphQL sends numbers and a list)
  page: z.unknown().optional().describe('from 0'),
  size: z.unknown().optional().describe('default 20, at most 200'),
  sort: z.unknown().optional().describe('field,direction'),
})
