import { z } from 'zod'
import { malformed } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { PIPELINES } from '../policies/inputs.js'
import { policySnapshot } from '../global-policies/inputs.js'

// A policy group's body (vendor api-reference/policy-groups/create-policy-group): `_class` "policy-group", the
// group's fields, and policyList, whose entries are policy snapshots validated exactly as global policies (and so as
// proxy policies of their type).

export const MAX_GROUP_POLICIES = 100
const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

const groupFields = z.strictObject({
  name: z.unknown(),
  description: z.string({ error: 'must be a string' }).max(2000, 'must be at most 2000 characters').nullish(),
  active: z.boolean({ error: 'must be true or false' }).default(false),
  targetPipeline: z.enum(PIPELINES, { error: `must be one of ${PIPELINES.join(', ')}` }).nullish(),
  order: z.number({ error: 'must be a number' }).int('must be an integer').min(0, 'must be at least 0').max(100_000, 'must be at most 100000').nullish(),
  makeDefault: z.boolean({ error: 'must be true or false' }).nullish(),
  canBeDeleted: z.boolean({ error: 'must be true or false' }).nullish(),
  policyList: z.array(z.unknown(), { error: 'must be a list' }).max(MAX_GROUP_POLICIES, `at most ${MAX_GROUP_POLICIES} policies`).default([]),
})

export interface PolicyGroupDocument {
  description: string | null
  active: boolean
  targetPipeline: string | null
  order: number | null
  makeDefault: boolean | null
  canBeDeleted: boolean | null
  policyList: Record<string, unknown>[]
}

/** The group as validated: `_class` must say policy-group; `id`, `projectId` and `global` are the server's. */
export function policyGroupSnapshot(raw: unknown): PolicyGroupDocument {
  if (!isRecord(raw)) throw malformed('body: must be a JSON object (a policy group snapshot)', { field: 'body' })
  const { _class, id: _id, projectId: _projectId, global: _global, ...rest } = raw
  if (_class !== 'policy-group') throw malformed('_class: The supplied snapshot is not a policy group.', { field: '_class' })
  const fields = parseInput(groupFields, rest)
  const names = new Set<string>()
  const policyList = fields.policyList.map((entry, i) => {
    const policy = policySnapshot(entry, `policyList[${i}].`)
    const name = typeof policy.name === 'string' ? policy.name.trim() : ''
    if (!name) throw malformed(`policyList[${i}].name: must not be blank`, { field: `policyList[${i}].name` })
    if (names.has(name.toLowerCase())) throw malformed(`policyList[${i}].name: '${name}' is already in the group`, { field: `policyList[${i}].name` })
    names.add(name.toLowerCase())
    return { ...policy, name }
  })
  return {
    description: fields.description ?? null, active: fields.active, targetPipeline: fields.targetPipeline ?? null, order: fields.order ?? null,
    makeDefault: fields.makeDefault ?? null, canBeDeleted: fields.canBeDeleted ?? null, policyList,
  }
}

/** For the OpenAPI document. */
export const policyGroupBody = z
  .object({
    _class: z.literal('policy-group'),
    name: z.string().describe('required on create; on update optional, and equal to the path name when given'),
    description: z.string().nullish(),
    active: z.boolean().optional().describe('default false'),
    targetPipeline: z.enum(PIPELINES).nullish(),
    order: z.number().int().nullish(),
    makeDefault: z.boolean().nullish(),
    canBeDeleted: z.boolean().nullish(),
    policyList: z.array(z.record(z.string(), z.unknown())).optional().describe('policy snapshots, each with its own `_class` (as a global policy\'s body)'),
  })
  .meta({ id: 'PolicyGroupSnapshot' })
