import type { ApiProxy } from '../../../generated/prisma/client.js'
import type { Tx } from '../../../platform/context.js'
import { routingViewOf } from './routing-store.js'

/** A proxy as REST clients read it: routing with backend secrets as presence flags. */
export async function routedProxyView(db: Tx, proxy: ApiProxy) {
  const groups = await db.apiProxyGroup.findMany({ where: { proxies: { some: { id: proxy.id } } }, orderBy: { name: 'asc' }, select: { name: true } })
  return {
    name: proxy.name,
    kind: proxy.kind,
    description: proxy.description,
    relativePath: proxy.relativePath,
    routingMode: proxy.routingMode,
    groups: groups.map((g) => g.name),
    routing: routingViewOf(proxy),
    revision: proxy.revision,
    createdAt: proxy.createdAt,
    updatedAt: proxy.updatedAt,
  }
}
