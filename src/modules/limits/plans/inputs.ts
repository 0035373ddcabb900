import { z } from 'zod'
import { malformed } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { FAMILIES, type LimitFamily } from '../shared/enums.js'
import { validateRuleSpec, type RuleSpec } from '../shared/rule-spec.js'

// Plan and revision bodies of spec §2.12. Required fields carry the spec's reasons
// (limit.plan.familyRequired, nameRequired, ruleSpecRequired, ruleSpecFamilyMismatch); the rest of a body is
// checked by one strict schema each (unknown fields refused, the field named in params.field).

const optionalText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).nullish()
const labels = z.array(z.string().trim().min(1, 'must not be blank').max(100)).max(50, 'at most 50 labels').nullish()
const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

export const createShape = z.strictObject({
  family: z.enum(FAMILIES).nullish(),
  name: z.string().max(200, 'must be at most 200 characters').nullish(),
  nameTr: optionalText(200),
  description: optionalText(2000),
  labels,
  initialRuleSpec: z.unknown().optional(),
})

export const updateShape = z.strictObject({
  name: z.string().max(200, 'must be at most 200 characters').nullish(),
  nameTr: optionalText(200),
  description: optionalText(2000),
  labels,
  version: z.number().int().min(1).nullish(),
})

export const draftShape = z.strictObject({
  ruleSpec: z.unknown().optional(),
  changeReason: optionalText(2000),
})

export const publishShape = z.strictObject({ changeReason: optionalText(2000) })

const asObject = (raw: unknown) => {
  if (raw === undefined || raw === null) throw malformed('Request body is required', { reason: 'bodyRequired' })
  return raw
}

export interface PlanCreate { family: LimitFamily; name: string; nameTr: string | null; description: string | null; labels: string[]; initialRuleSpec: RuleSpec }

export function parsePlanCreate(raw: unknown): PlanCreate {
  const b = parseInput(createShape, asObject(raw))
  if (!b.family) throw malformed('family is required (REQUEST_RATE or AI_TOKEN_BUDGET)', { field: 'family', reason: 'limit.plan.familyRequired' })
  if (isBlank(b.name)) throw malformed('name is required', { field: 'name', reason: 'limit.plan.nameRequired' })
  return {
    family: b.family,
    name: b.name!.trim(),
    nameTr: b.nameTr || null,
    description: b.description || null,
    labels: b.labels ?? [],
    initialRuleSpec: validateRuleSpec(b.family, b.initialRuleSpec, 'initialRuleSpec'),
  }
}

export interface PlanUpdate { name: string; nameTr: string | null; description: string | null; labels: string[]; version: number | null }

export function parsePlanUpdate(raw: unknown): PlanUpdate {
  const b = parseInput(updateShape, asObject(raw))
  if (isBlank(b.name)) throw malformed('name is required', { field: 'name', reason: 'limit.plan.nameRequired' })
  return { name: b.name!.trim(), nameTr: b.nameTr || null, description: b.description || null, labels: b.labels ?? [], version: b.version ?? null }
}

export interface DraftBody { ruleSpec: RuleSpec; changeReason: string | null }

export function parseDraftBody(raw: unknown, family: LimitFamily): DraftBody {
  const b = parseInput(draftShape, asObject(raw))
  return { ruleSpec: validateRuleSpec(family, b.ruleSpec, 'ruleSpec'), changeReason: b.changeReason || null }
}

export function parsePublishBody(raw: unknown): { changeReason: string | null } {
  const b = parseInput(publishShape, raw ?? {})
  return { changeReason: b.changeReason || null }
}
