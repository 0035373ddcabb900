import { DomainError, malformedReason } from '../../platform/errors/domain-error.js'
import { storedObjectAdapters } from '../objects/transfer-adapter.js'
import type { AdapterContext, ObjectRef, PortableObject, TransferAdapter } from '../../platform/transfer/registry.js'
import { CREATOR_KIND_NAMES, type CreatorKind } from './inputs.js'
import { CREATOR_TYPE, checkCreatorContent } from './service.js'

/**
 * API_CREATOR travels through the stored-object adapter (one serializer for every kind: the content is the
 * portable form). For the creator kinds this module adds what that adapter cannot know: a DB2API method's database
 * connection is a dependency (CONNECTION, by name), and an imported creator is held to the same rules as a saved
 * one (checkCreatorContent), so a package cannot store what POST …/{db2apis|mockapis|script2apis}/{name}/ refuses.
 */
const opaque = storedObjectAdapters().find((a) => a.type === CREATOR_TYPE)!
const isCreatorKind = (kind: string | null): kind is CreatorKind => CREATOR_KIND_NAMES.includes(kind as CreatorKind)

function withConnections(object: PortableObject): PortableObject {
  if (object.kind !== 'DB2API' || !Array.isArray(object.data.endpointList)) return object
  const names = new Set<string>()
  for (const method of object.data.endpointList) {
    const name = (method as { connectionName?: unknown } | null)?.connectionName
    if (typeof name === 'string' && name.trim()) names.add(name)
  }
  const connections: ObjectRef[] = [...names].sort().map((name) => ({ type: 'CONNECTION', kind: null, name }))
  return { ...object, dependencies: [...object.dependencies, ...connections] }
}

/** The creator's content under the save rules; a connection the target lacks refuses the import as RLCLs do. */
async function checked(ctx: AdapterContext, object: PortableObject): Promise<PortableObject> {
  if (!isCreatorKind(object.kind)) return object
  try {
    return { ...object, data: await checkCreatorContent(ctx.db, ctx.access.project.id, object.kind, object.name, object.data) }
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'notFound') {
      throw malformedReason('creatorReferenceMissing', `${object.kind} '${object.name}': ${err.message}`, { ...err.params, creator: object.name })
    }
    throw err
  }
}

export const creatorTransferAdapter: TransferAdapter = {
  ...opaque,
  source: 'creators',
  async findByName(ctx, name, kind) {
    return (await opaque.findByName(ctx, name, kind)).map(withConnections)
  },
  async findManyByName(ctx, refs) {
    return (await opaque.findManyByName!(ctx, refs)).map(withConnections)
  },
  async write(ctx, object, existing, options) {
    return opaque.write(ctx, await checked(ctx, object), existing, options)
  },
  async writeMany(ctx, objects, options) {
    const all = []
    for (const o of objects) all.push({ object: await checked(ctx, o.object), existing: o.existing })
    return opaque.writeMany!.call(opaque, ctx, all, options)
  },
}
