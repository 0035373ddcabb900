import { DomainError, malformedReason } from '../../platform/errors/domain-error.js'
import { lookupsByName, type AdapterContext, type ObjectRef, type PortableObject, type TransferAdapter } from '../../platform/transfer/registry.js'
import { deployImportedRlcls, findRlclsByName, writeImportedRlcl } from './service.js'
import { rlclView, type RlclRow } from './views.js'

/**
 * Rate-limit control lists travel as RLCL objects (category API_MANAGEMENT, like their pages). `data` is the
 * RLCL as GET answers it without its id: the fields, `condition`, `credentialNameList` (usernames) and
 * `endpointRateLimitList` (by apiProxyName, endpointName and endpointHTTPMethod). No secrets.
 *
 * Dependencies: the credentials it names (CREDENTIAL) and the API proxies of its entries (API_PROXY), so
 * withDependencies packages them and an import writes them first; without it they are checked to exist in the
 * target (the endpoints an entry names come with their proxy).
 *
 * An import writes through the RLCL service's own rules (writeImportedRlcl); a credential, API proxy or
 * endpoint the target project lacks (and the package does not carry) refuses the whole import, nothing
 * written: malformedRequest with reason `rlclReferenceMissing` and the pages' message. Like the knowledge
 * base's provider, this is checked when writing, not in the preflight: a preflight cannot see whether the
 * package carries the credential. After the commit the imported RLCLs are pushed as RLCL writes are.
 */
const TYPE = 'RLCL'

function toPortable(row: RlclRow): PortableObject {
  const { id: _id, name, ...view } = rlclView(row)
  // an entry's endpointId means nothing in another installation: entries travel by proxy, path and method
  const data = { ...view, endpointRateLimitList: view.endpointRateLimitList.map(({ endpointId: _e, ...entry }) => entry) }
  const dependencies: ObjectRef[] = [
    ...data.credentialNameList.map((username) => ({ type: 'CREDENTIAL', kind: null, name: username })),
    ...[...new Set(data.endpointRateLimitList.map((e) => e.apiProxyName))].sort().map((name) => ({ type: 'API_PROXY', kind: null, name })),
  ]
  return { type: TYPE, kind: null, name, data, secrets: {}, dependencies }
}

const find = async (ctx: AdapterContext, names: string[]) => (await findRlclsByName(ctx.db, ctx.access.project.id, names)).map(toPortable)

export const rlclTransferAdapter: TransferAdapter = {
  type: TYPE,
  category: 'API_MANAGEMENT',
  kinds: null,
  secretFields: [],
  scope: 'project',
  source: 'rlcl',

  ...lookupsByName(find),

  async listNames(ctx) {
    const rows = await ctx.db.rlcl.findMany({ where: { projectId: ctx.access.project.id }, select: { name: true }, orderBy: { name: 'asc' } })
    return rows.map((r) => r.name)
  },

  async write(ctx, object, existing) {
    try {
      await writeImportedRlcl(ctx.db, ctx.access.project.id, object.name, object.data, existing)
    } catch (err) {
      // the pages' notFound of a credential, API proxy or endpoint (not of the RLCL itself, deleted meanwhile)
      if (err instanceof DomainError && err.kind === 'notFound' && !('rlcl' in err.params)) {
        throw malformedReason('rlclReferenceMissing', `RLCL '${object.name}': ${err.message}`, { ...err.params, rlcl: object.name })
      }
      throw err
    }
    return []
  },

  async afterImport(deps, access, written) {
    await deployImportedRlcls(deps, access, written.filter((o) => o.type === TYPE).map((o) => o.name))
    return []
  },
}
