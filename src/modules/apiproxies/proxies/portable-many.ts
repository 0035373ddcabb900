import type { Tx } from '../../../platform/context.js'
import { DomainError } from '../../../platform/errors/domain-error.js'
import type { SecretKeyring } from '../../../platform/secrets/keyring.js'
import { batchRefused, refusalOf, type ObjectRefusal } from '../../../platform/transfer/registry.js'
import { endpointKeyOf, endpointRows, json, policyRows, withPath, type ProxyPackage } from './portable.js'
import { sealSettingsSecrets } from './secrets.js'
import { insertEndpointRows } from '../endpoints/bulk.js'

// Many new API proxies from their packages in a few statements (a declarative apply or a transfer import of a whole
// collection): the checks of createFromPackage (numbered: false) for the batch, then one INSERT of the proxies, one of
// their endpoints, one read of the endpoint ids and one INSERT of their policies, instead of ~6 statements a proxy.

/**
 * Creates the packages' proxies under their names and relative paths. Every package is checked first (endpoint
 * rows, policies, the name and the relative path free in the project and in the batch); the refused ones are thrown
 * together with `earlier` (batchRefused, each under its object name), nothing written.
 */
export async function createManyFromPackages(tx: Tx, keyring: SecretKeyring, projectId: string, packages: { objectName: string; pkg: ProxyPackage }[], earlier: ObjectRefusal[] = []): Promise<void> {
  // the caller's refusals of other objects of the batch are thrown with these (the batch is refused as a whole)
  const refusals: ObjectRefusal[] = [...earlier]
  const refuse = (objectName: string, err: unknown) => {
    const refusal = refusalOf(objectName, err)
    if (!refusal) throw err
    refusals.push(refusal)
  }
  const prepared: { objectName: string; pkg: ProxyPackage; rows: ReturnType<typeof endpointRows>; policies: ReturnType<typeof policyRows> }[] = []
  for (const { objectName, pkg } of packages) {
    try {
      const rows = endpointRows(pkg, { kind: 'REST', name: pkg.name })
      prepared.push({ objectName, pkg, rows, policies: policyRows(keyring, pkg, rows) })
    } catch (err) {
      refuse(objectName, err)
    }
  }
  // the names (case-insensitive) and relative paths taken in the project, in one query
  const names = prepared.map((p) => p.pkg.name)
  const paths = prepared.flatMap((p) => (p.pkg.data.relativePath ? [p.pkg.data.relativePath] : []))
  const taken = await tx.apiProxy.findMany({
    where: { projectId, OR: [{ name: { in: names, mode: 'insensitive' } }, ...(paths.length ? [{ relativePath: { in: paths } }] : [])] },
    select: { name: true, relativePath: true },
  })
  const nameHolder = new Map(taken.map((t) => [t.name.toLowerCase(), t.name]))
  const pathHolder = new Map(taken.flatMap((t) => (t.relativePath ? [[t.relativePath, t.name] as const] : [])))
  const ready: typeof prepared = []
  for (const p of prepared) {
    const { name, data, label } = p.pkg
    const holder = nameHolder.get(name.toLowerCase())
    const pathTakenBy = data.relativePath ? pathHolder.get(data.relativePath) : undefined
    if (holder) refuse(p.objectName, new DomainError('conflict', 'nameAlreadyExists', `API proxy '${holder}' already exists`, { apiProxy: holder }))
    else if (pathTakenBy) refuse(p.objectName, new DomainError('conflict', 'relativePathAlreadyUsed', `${label}: relative path '${data.relativePath}' is already that of API proxy '${pathTakenBy}'`, { field: label, apiProxy: pathTakenBy }))
    else {
      // an earlier object of the batch holds them from now on, as a proxy created before it would
      nameHolder.set(name.toLowerCase(), name)
      if (data.relativePath) pathHolder.set(data.relativePath, name)
      ready.push(p)
    }
  }
  if (refusals.length) throw batchRefused(refusals)
  if (!ready.length) return

  const proxies = await tx.apiProxy.createManyAndReturn({
    data: ready.map(({ pkg: { name, data, unrestored } }) => ({
      projectId, name, kind: 'REST' as const, description: data.description ?? null, creationType: data.creationType ?? null, relativePath: data.relativePath ?? null,
      specDocument: data.specDocument ?? null, settings: json(sealSettingsSecrets(keyring, withPath(data.settings, data.relativePath ?? null), unrestored.settings, null)), revision: 1,
    })),
    select: { id: true, name: true },
  })
  const idOf = new Map(proxies.map((p) => [p.name, p.id]))
  const endpoints = ready.flatMap((p) => p.rows.map((r) => ({ apiProxyId: idOf.get(p.pkg.name)!, ...r })))
  if (endpoints.length) await insertEndpointRows(tx, endpoints)
  const withPolicies = ready.filter((p) => p.policies.length)
  if (!withPolicies.length) return
  const proxyIds = withPolicies.map((p) => idOf.get(p.pkg.name)!)
  const endpointIds = new Map((await tx.gatewayEndpoint.findMany({ where: { apiProxyId: { in: proxyIds } }, select: { id: true, apiProxyId: true, version: true, method: true, path: true } }))
    .map((e) => [`${e.apiProxyId} ${endpointKeyOf(e)}`, e.id]))
  await tx.apiProxyPolicy.createMany({
    data: withPolicies.flatMap((p) => {
      const apiProxyId = idOf.get(p.pkg.name)!
      return p.policies.map(({ endpointKey, ...row }) => ({ ...row, apiProxyId, endpointId: endpointKey === null ? null : endpointIds.get(`${apiProxyId} ${endpointKey}`)! }))
    }),
  })
}
