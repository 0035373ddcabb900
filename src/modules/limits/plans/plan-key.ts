import type { Tx } from '../../../platform/context.js'
import { PLATFORM_SCOPE } from '../shared/scope.js'
import type { PlanScope } from './scope.js'

const MAX_KEY = 64

/** The slug of a name: lower case ASCII letters and digits joined by single dashes ("Gold Tier!" → "gold-tier"). */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_KEY)
    .replace(/-+$/g, '')
  return slug || 'plan'
}

/**
 * Mints a plan key from the name: its slug, or slug-2, slug-3… when the slug is taken in the scope (the same
 * name in the other family, or names that slug alike). A project key also avoids platform keys, so that a key
 * seen in a project's list (with includePlatform) names one plan.
 */
export async function mintPlanKey(db: Tx, scope: PlanScope, name: string): Promise<string> {
  const slug = slugOf(name)
  const scopes = scope.platform ? [PLATFORM_SCOPE] : [scope.scope, PLATFORM_SCOPE]
  const taken = new Set(
    (await db.limitPlan.findMany({ where: { scope: { in: scopes }, planKey: { startsWith: slug } }, select: { planKey: true } })).map((p) => p.planKey),
  )
  if (!taken.has(slug)) return slug
  for (let n = 2; ; n++) {
    const key = `${slug}-${n}`
    if (!taken.has(key)) return key
  }
}
