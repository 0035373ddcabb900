import { z } from 'zod'
import { describes } from '../../platform/http/response-schemas.js'
import type { ApplyResult } from './apply.js'
import type { DriftView } from './drift.js'
import type { PlanView } from './plan.js'

// The answer schemas of the declarative routes, tied at compile time to the views that build them.

const summary = z.object({ create: z.number().int(), update: z.number().int(), delete: z.number().int() })

export const declarativePlanSchema = describes<PlanView>()(
  z.object({
    formatVersion: z.literal(1),
    id: z.string(),
    project: z.string(),
    namespace: z.string().nullable(),
    mode: z.enum(['apply', 'sync']),
    baseRevision: z.string(),
    collections: z.array(z.string()),
    changes: z.array(z.object({
      action: z.enum(['create', 'update', 'delete']),
      type: z.string().describe('the collection name'),
      name: z.string().describe('the natural key'),
      renamedFrom: z.string().optional(),
      fields: z.array(z.string()),
      details: z.array(z.object({ field: z.string(), before: z.unknown().optional(), after: z.unknown().optional(), sensitive: z.literal(true).optional() })),
      sensitive: z.literal(true).optional(),
    })),
    summary,
  }).meta({ id: 'DeclarativePlan', description: 'A plan: the changes of a state document in dependency order, pinned to baseRevision' }),
)

export const declarativeApplySchema = describes<ApplyResult>()(
  z.object({
    formatVersion: z.literal(1),
    planId: z.string(),
    project: z.string(),
    namespace: z.string().nullable(),
    mode: z.enum(['apply', 'sync']),
    applied: z.boolean(),
    changeReference: z.string().nullable(),
    summary,
    pushes: z.array(z.object({ type: z.string(), name: z.string(), success: z.boolean(), message: z.string().optional() })),
    pushFailed: z.boolean(),
    advisories: z.array(z.string()),
  }).meta({ id: 'DeclarativeApplyResult', description: 'The outcome of an apply: what changed and each push' }),
)

export const declarativeDriftSchema = describes<DriftView>()(
  z.object({
    formatVersion: z.literal(1),
    project: z.string(),
    namespace: z.string().nullable(),
    planId: z.string().nullable(),
    appliedAt: z.string().nullable(),
    appliedBy: z.string().nullable(),
    drift: z.array(z.object({
      type: z.string(), name: z.string(), status: z.enum(['changed', 'deleted']), fields: z.array(z.string()),
      changedBy: z.string().nullable(), changedAt: z.string().nullable(), operation: z.string().nullable(),
    })),
    summary: z.object({ changed: z.number().int(), deleted: z.number().int() }),
  }).meta({ id: 'DeclarativeDrift', description: 'Objects changed or deleted outside the file since the last apply' }),
)

export const stateDocumentBody = z.record(z.string(), z.unknown()).meta({ id: 'DeclarativeStateDocument', description: 'A state document (JSON Schema at /apiops/declarative/schema.json)' })
