import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import { parseInput } from '../../platform/errors/validation.js'
import { collections, type Collection } from './collections.js'
import { STATE_FORMAT_VERSION } from './document.js'
import { readCollection, requireCollections } from './live.js'
import { declarativeContext, readOwnership } from './plan.js'

/**
 * GET …/declarative-state: the project as a state document (what `gwctl dump` writes). Secrets are never written:
 * left out by default (an apply keeps what is stored), or, with `secrets=refs`, replaced by `${env:NAME}` with
 * NAME = upper-snake of collection, object and field (e.g. `${env:CREDENTIALS_ALICE_PASSWORD}`).
 */
export const dumpQuery = z.object({
  secrets: z.enum(['none', 'refs'], { error: 'must be none or refs' }).default('none').describe('none: secret fields left out; refs: ${env:NAME} in their place'),
  namespace: z.string().min(1).optional().describe('only the objects this namespace owns, and the file says namespace'),
  collections: z.string().optional().describe('comma-separated collection names (default: every collection)'),
})

export const secretEnvName = (collection: string, name: string, field: string) =>
  [collection, name, field].map((p) => p.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toUpperCase()).join('_')

export async function dumpState(deps: Deps, actor: Actor, projectName: string, rawQuery: unknown): Promise<Record<string, unknown>> {
  const query = parseInput(dumpQuery, rawQuery)
  const ctx = await declarativeContext(deps, actor, projectName)
  const wanted = query.collections?.split(',').map((s) => s.trim()).filter(Boolean)
  const list: Collection[] = collections().filter((c) => !wanted || wanted.includes(c.key))
  requireCollections(ctx, list, 'VIEW')
  const environments = (await deps.prisma.projectEnvironment.findMany({ where: { projectId: ctx.access.project.id }, include: { environment: true } }))
    .map((l) => l.environment.name).sort()
  const { owner } = await readOwnership(deps.prisma, ctx.access.project.id)
  const doc: Record<string, unknown> = { formatVersion: STATE_FORMAT_VERSION, project: projectName, environments }
  if (query.namespace) doc.namespace = query.namespace
  for (const c of list) {
    const live = await readCollection(ctx, c)
    const objects: Record<string, unknown>[] = []
    for (const o of live.values()) {
      const holder = owner.get(`${c.key}\u0000${o.name}`)
      if (query.namespace && holder !== query.namespace) continue
      const obj: Record<string, unknown> = { [c.nameField]: o.name, ...o.portable.data }
      if (query.secrets === 'refs' && c.placeSecret) for (const f of Object.keys(o.portable.secrets)) c.placeSecret(obj, f, `\${env:${secretEnvName(c.key, o.name, f)}}`)
      else if (query.secrets === 'refs') for (const f of c.secretFields) if (f in o.portable.secrets) obj[f] = `\${env:${secretEnvName(c.key, o.name, f)}}`
      if (holder && !query.namespace) obj.managedBy = holder
      objects.push(obj)
    }
    // a collection with no object is left out unless asked for: listing it would make a sync own it
    if (objects.length || wanted) doc[c.key] = objects
  }
  return doc
}
