import crypto from 'node:crypto'
import { canonicalHash, canonicallyEqual } from '../../platform/hashing/canonical.js'
import { requireAnyPermission, type PermissionLevel } from '../../platform/auth/permissions.js'
import { lookupObjects } from '../transfer/lookup.js'
import type { AdapterContext, PortableObject } from '../../platform/transfer/registry.js'
import { adapterOf, type Collection } from './collections.js'

/**
 * The live side of a plan: the objects of a collection as the transfer engine's adapters read them (portable form),
 * with a fingerprint per object (canonical data + keyed fingerprints of the secrets: never a secret's value).
 */
export interface LiveObject {
  name: string
  portable: PortableObject
  /** keyed fingerprint per secret field that is set */
  secretPrints: Record<string, string>
  fingerprint: string
}

/** The permission a declarative operation needs on each listed collection: its own category, or PROJECT_MANAGEMENT. */
export function requireCollections(ctx: AdapterContext, list: Collection[], level: PermissionLevel) {
  for (const c of list) requireAnyPermission(ctx.access, [adapterOf(c).category, 'PROJECT_MANAGEMENT'], level)
}

export function secretPrintsOf(ctx: AdapterContext, secrets: Record<string, string>): Record<string, string> {
  const prints: Record<string, string> = {}
  // in key order (most objects hold one secret or none: no entries array to sort)
  const keys = Object.keys(secrets)
  if (keys.length > 1) keys.sort((a, b) => a.localeCompare(b))
  for (const k of keys) prints[k] = ctx.deps.keyring.fingerprint(secrets[k]!)
  return prints
}

export const fingerprintOf = (data: unknown, secretPrints: Record<string, string>) => `sha256:${canonicalHash({ data, secrets: secretPrints })}`

export function liveObject(ctx: AdapterContext, portable: PortableObject): LiveObject {
  const secretPrints = secretPrintsOf(ctx, portable.secrets)
  return { name: portable.name, portable, secretPrints, fingerprint: fingerprintOf(portable.data, secretPrints) }
}

/** Every object of a collection in the project, by name (sorted). */
export async function readCollection(ctx: AdapterContext, c: Collection): Promise<Map<string, LiveObject>> {
  const adapter = adapterOf(c)
  if (adapter.findAll) {
    const all = (await adapter.findAll(ctx, c.kind)).filter((o) => !c.accepts || c.accepts(o.data))
    return new Map(all.map((o) => [o.name, liveObject(ctx, o)]))
  }
  const names = await adapter.listNames(ctx, c.kind)
  const lookup = await lookupObjects(ctx, adapter, names.map((name) => ({ name, kind: c.kind })))
  const out = new Map<string, LiveObject>()
  for (const name of names) {
    const found = lookup.get(name, c.kind)[0]
    if (found && (!c.accepts || c.accepts(found.data))) out.set(name, liveObject(ctx, found))
  }
  return out
}

const PAGE = 1_000

/**
 * Every object of a collection in the project, in readCollection's order, handed to visit a page at a time when the
 * adapter reads pages (findPage): a plan compares a large collection without holding all of it.
 */
export async function forEachLive(ctx: AdapterContext, c: Collection, visit: (o: LiveObject) => void, afterPage: () => void = () => undefined): Promise<void> {
  const adapter = adapterOf(c)
  if (!adapter.findPage) {
    for (const o of (await readCollection(ctx, c)).values()) visit(o)
    return afterPage()
  }
  for (let after: string | null = null; ;) {
    const page: PortableObject[] = await adapter.findPage(ctx, c.kind, after, PAGE)
    for (const o of page) if (!c.accepts || c.accepts(o.data)) visit(liveObject(ctx, o))
    afterPage()
    if (page.length < PAGE) return
    after = page[page.length - 1]!.name
  }
}

const READ_ALL_ABOVE = 200

/** Objects of a few names of a collection (after a write, to record what was applied). */
export async function readNames(ctx: AdapterContext, c: Collection, names: string[]): Promise<Map<string, LiveObject>> {
  // many names (an apply that wrote a whole collection): the collection by project, not a long list of names
  if (names.length > READ_ALL_ABOVE && adapterOf(c).findAll) {
    const wanted = new Set(names)
    const all = await readCollection(ctx, c)
    return new Map([...all].filter(([name]) => wanted.has(name)))
  }
  const lookup = await lookupObjects(ctx, adapterOf(c), names.map((name) => ({ name, kind: c.kind })))
  const out = new Map<string, LiveObject>()
  for (const name of names) {
    const found = lookup.get(name, c.kind)[0]
    if (found) out.set(name, liveObject(ctx, found))
  }
  return out
}

/** The live objects of the listed collections. */
export type LiveSet = Map<string, Map<string, LiveObject>>

export async function readLive(ctx: AdapterContext, list: Collection[]): Promise<LiveSet> {
  const live: LiveSet = new Map()
  for (const c of list) live.set(c.key, await readCollection(ctx, c))
  return live
}

/**
 * baseRevision: the digest of what a plan read (every object of the listed collections, by fingerprint, and the
 * ownership record of the namespace). Any change to one of them between plan and apply changes it.
 */
export function revisionOf(live: LiveSet, ownershipMark: string): string {
  // the plan computes the same digest page by page (compare.ts: comparePlan); streamed into the hash object by object: no second copy of thousands of names and fingerprints
  const hash = crypto.createHash('sha256')
  for (const [key, objects] of [...live.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    hash.update(`${key}\u0000`)
    for (const o of objects.values()) hash.update(`${o.name}\u0000${o.fingerprint}\u0000`)
    hash.update('\n')
  }
  return `sha256:${hash.update(ownershipMark).digest('hex')}`
}

const isPlain = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** The file's fields over the stored ones: objects merge field by field, arrays and values replace. */
export function overlay(base: Record<string, unknown>, top: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(top)) out[k] = isPlain(v) && isPlain(base[k]) ? overlay(base[k], v) : v
  return out
}

/** Field paths whose values differ (objects compared field by field, arrays as a whole). */
export function changedPaths(before: unknown, after: unknown, path = '', out: string[] = []): string[] {
  // an object that did not change (every object of a no-change plan) is walked once, no text built
  if (canonicallyEqual(before ?? null, after ?? null)) return out
  if (isPlain(before) && isPlain(after)) {
    for (const k of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
      changedPaths(before[k] ?? null, after[k] ?? null, path ? `${path}.${k}` : k, out)
    }
    return out
  }
  out.push(path || '(object)')
  return out
}
