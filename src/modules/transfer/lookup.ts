import type { AdapterContext, PortableObject, TransferAdapter } from '../../platform/transfer/registry.js'

const CHUNK = 1_000

export interface Lookup {
  /** the objects named `name`: of that kind, or of every kind when kind is null */
  get(name: string, kind: string | null): PortableObject[]
}

/**
 * Finds many objects of one type by (name, kind) with the adapter's batch read when it has one (one query
 * per thousand names), else one findByName per name.
 */
export async function lookupObjects(ctx: AdapterContext, adapter: TransferAdapter, refs: { name: string; kind: string | null }[]): Promise<Lookup> {
  const byName = new Map<string, PortableObject[]>()
  const add = (o: PortableObject) => {
    const list = byName.get(o.name) ?? []
    if (!list.some((x) => x.kind === o.kind)) list.push(o)
    byName.set(o.name, list)
  }
  if (adapter.findManyByName) {
    for (let i = 0; i < refs.length; i += CHUNK) (await adapter.findManyByName(ctx, refs.slice(i, i + CHUNK))).forEach(add)
  } else {
    for (const ref of refs) (await adapter.findByName(ctx, ref.name, ref.kind)).forEach(add)
  }
  return { get: (name, kind) => (byName.get(name) ?? []).filter((o) => kind === null || o.kind === kind) }
}
