import { openPackageSecrets } from '../../../platform/transfer/package/secrets.js'
import { lookupsByName, refLabel, refusalOf, type AdapterContext, type Advisory, type ObjectRefusal, type PortableObject, type TransferAdapter } from '../../../platform/transfer/registry.js'
import { SETTINGS_SECRETS } from '../settings/service.js'
import { API_PROXY_TYPE as TYPE, createFromPackage, portableProxies, preparePackage, replaceFromPackage, type ProxyPackage } from './portable.js'
import { createManyFromPackages } from './portable-many.js'
import { hoistInlineSecrets } from './secrets.js'

/**
 * API proxies travel as API_PROXY objects (category API_MANAGEMENT, like their export/import pages), in the same
 * portable form as those pages' package (portable.ts: the proxy, its endpoints and policies; no second
 * serializer). Every secret, settings and policies alike, travels apart per secretHandling under its package key
 * (`settings/<section>.<field>`, `policies/<policy>/<field path>`; secrets.ts). Dependencies: the keys,
 * certificates, connections and IP groups its policies name and its mTLS keystore and trust store (dependencies.ts).
 *
 * An import writes through the pages' own code: NEW creates the proxy under its name and relative path (a path
 * taken by another proxy refuses the import: relativePathAlreadyUsed), REPLACE replaces the proxy's configuration,
 * endpoints and policies, keeping the target's value of each secret the package does not restore. Only REST
 * proxies are carried (as by the export page): another kind is a preflight blocker. Nothing is deployed: a replaced
 * proxy shows redeployRequired where it runs.
 */

const find = async (ctx: AdapterContext, names: string[]): Promise<PortableObject[]> => {
  const proxies = await ctx.db.apiProxy.findMany({ where: { projectId: ctx.access.project.id, name: { in: names } }, orderBy: { name: 'asc' } })
  return portableProxies(ctx.db, ctx.deps.keyring, proxies)
}

export const apiProxyTransferAdapter: TransferAdapter = {
  type: TYPE,
  category: 'API_MANAGEMENT',
  kinds: null,
  secretFields: [...SETTINGS_SECRETS.map((s) => `settings/${s.section}.${s.field}`), 'policies/<policy>/<field path>'],
  scope: 'project',
  source: 'apiproxies',

  ...lookupsByName(find),

  async listNames(ctx) {
    const rows = await ctx.db.apiProxy.findMany({ where: { projectId: ctx.access.project.id }, select: { name: true }, orderBy: { name: 'asc' } })
    return rows.map((r) => r.name)
  },

  async checkImport(_ctx, object) {
    const kind = object.data.kind
    return kind === 'REST' ? null : { code: 'apiProxyKindNotTransferable', detail: `${refLabel(object)} is ${kind ? `an ${String(kind)}` : 'a'} proxy; only REST proxies are imported` }
  },

  async write(ctx, object, existing) {
    const { pkg, advisories } = packageOf(ctx, object)
    const projectId = ctx.access.project.id
    if (existing) await replaceFromPackage(ctx.db, ctx.deps.keyring, projectId, object.name, pkg)
    else await createFromPackage(ctx.db, ctx.deps.keyring, projectId, pkg, { numbered: false })
    return advisories
  },

  /**
   * write's checks and writes for a batch: each object checked as checkImport and write check it; replaced proxies
   * written one by one (replaceFromPackage), new ones together (createManyFromPackages: a few statements for the
   * batch). Refused objects are thrown together (batchRefused), each under its name.
   */
  async writeMany(ctx, objects) {
    const refusals: ObjectRefusal[] = []
    const creates: { objectName: string; pkg: ProxyPackage }[] = []
    const advisories: Advisory[] = []
    const projectId = ctx.access.project.id
    for (const { object, existing } of objects) {
      const kindRefusal = await apiProxyTransferAdapter.checkImport!(ctx, object)
      if (kindRefusal) {
        refusals.push({ name: object.name, code: kindRefusal.code, detail: kindRefusal.detail })
        continue
      }
      let prepared: ReturnType<typeof packageOf>
      try {
        prepared = packageOf(ctx, object)
      } catch (err) {
        const refusal = refusalOf(object.name, err)
        if (!refusal) throw err
        refusals.push(refusal)
        continue
      }
      advisories.push(...prepared.advisories)
      if (existing) await replaceFromPackage(ctx.db, ctx.deps.keyring, projectId, object.name, prepared.pkg)
      else creates.push({ objectName: object.name, pkg: prepared.pkg })
    }
    await createManyFromPackages(ctx.db, ctx.deps.keyring, projectId, creates, refusals)
    return advisories
  },
}

/** An object's package as write reads it: the secrets a package holds in `data` opened as the engine opened the file's. */
function packageOf(ctx: AdapterContext, object: PortableObject) {
  const data = structuredClone(object.data)
  const named = new Set([...Object.keys(object.secrets), ...(object.uncarriedSecrets ?? [])])
  const inline = Object.entries(hoistInlineSecrets(data)).filter(([key]) => !named.has(key))
  const opened = openPackageSecrets(ctx.deps.keyring, refLabel(object), Object.fromEntries(inline))
  const pkg = preparePackage(refLabel(object), object.name, data, { ...opened.secrets, ...object.secrets }, [...opened.uncarried, ...(object.uncarriedSecrets ?? [])])
  return { pkg, advisories: opened.advisories }
}
