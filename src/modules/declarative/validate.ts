import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import { parseInput } from '../../platform/errors/validation.js'
import { describes } from '../../platform/http/response-schemas.js'
import type { AdapterContext } from '../../platform/transfer/registry.js'
import { writePlanned, type ObjectError } from './apply.js'
import { parseStateDocument } from './document.js'
import { comparePlan } from './compare.js'
import { declarativeContext, readOwnership, listedCollections, planInput, refuseProblems, summaryOf } from './plan.js'
import { requireCollections } from './live.js'

/**
 * POST …/declarative-validations (`gwctl validate --online`): the document planned, then every change written as an
 * apply writes it, in a transaction that is always rolled back. Answers the errors of every refused object.
 */
export interface ValidationView {
  formatVersion: 1
  valid: boolean
  summary: { create: number; update: number; delete: number }
  errors: ObjectError[]
}

export const validationSchema = describes<ValidationView>()(
  z.object({
    formatVersion: z.literal(1),
    valid: z.boolean(),
    summary: z.object({ create: z.number().int(), update: z.number().int(), delete: z.number().int() }),
    errors: z.array(z.object({ type: z.string(), name: z.string(), path: z.string(), reason: z.string(), message: z.string() })),
  }).meta({ id: 'DeclarativeValidation', description: 'The outcome of an online validation: valid, or the errors of each refused object' }),
)

class RollBack extends Error {}

export async function validateDocument(deps: Deps, actor: Actor, projectName: string, raw: unknown): Promise<ValidationView> {
  const input = parseInput(planInput, raw)
  const ctx = await declarativeContext(deps, actor, projectName)
  const doc = parseStateDocument(input.document)
  requireCollections(ctx, listedCollections(doc), 'VIEW')
  let view: ValidationView | null = null
  try {
    await deps.prisma.$transaction(async (tx) => {
      const txCtx: AdapterContext = { ...ctx, db: tx }
      const { owner, mark } = await readOwnership(tx, ctx.access.project.id)
      const { content, problems } = await comparePlan(txCtx, doc, listedCollections(doc), input.mode, doc.namespace ?? '', owner, mark)
      refuseProblems(problems)
      const errors = await writePlanned(txCtx, content, [], [])
      view = { formatVersion: 1, valid: errors.length === 0, summary: summaryOf(content.changes), errors }
      throw new RollBack()
    }, { maxWait: 30_000, timeout: 600_000 })
  } catch (err) {
    if (!(err instanceof RollBack)) throw err
  }
  return view!
}
