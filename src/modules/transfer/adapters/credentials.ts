import { Prisma } from '../../../generated/prisma/client.js'
import { can } from '../../../platform/auth/permissions.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { credentialInput, insertCredential, pushCredentialsByIds } from '../../credentials/service.js'
import { credentialOwners, roleNamesOf, type CredentialWithOwners } from '../../credentials/runtime.js'
import { replaceCredentialRoles } from '../../credentials/roles.js'
import type { AdapterContext, Advisory, PortableObject, TransferAdapter } from '../registry.js'

const TYPE = 'CREDENTIAL'
/** what the credentials module stores as a REFERENCE password: a `${variable}`, never a value */
const VARIABLE_REFERENCE = /^\$\{[^{}]+\}$/

/**
 * Credentials (modules/credentials). The portable form carries what an operator configured; never the
 * consumerKey (a permanent public key minted by the installation), ids, revision, revocation or timestamps.
 * The password is the one secret; a `${variable}` reference is not a secret and travels as data.
 * Organization and application are not exportable types: they are named by code / name and resolved in
 * the target project, or reported as unresolved references; so are roles (roleNameList), by name in the
 * target project's role catalogue. ipList travels as data.
 */
function toPortable(ctx: AdapterContext, c: CredentialWithOwners): PortableObject {
  const secrets: Record<string, string> = {}
  let passwordReference: string | null = null
  const stored = c.passwordCipher
  if (stored && c.passwordFormat === 'REFERENCE') passwordReference = stored
  else if (stored && c.passwordFormat === 'PLAIN') secrets.password = stored
  else if (stored && ctx.deps.keyring.knows(stored)) secrets.password = ctx.deps.keyring.decrypt(stored)
  return {
    type: TYPE,
    kind: null,
    name: c.username,
    data: {
      fullName: c.fullName,
      email: c.email,
      description: c.description,
      enabled: c.enabled,
      organizationCode: c.organization?.code ?? null,
      applicationName: c.application?.name ?? null,
      expireDate: c.expireDate?.toISOString() ?? null,
      syncManaged: c.syncManaged,
      trafficLogDisabled: c.trafficLogDisabled,
      tokenSettings: c.tokenSettings ?? null,
      ipList: c.ipList,
      roleNameList: roleNamesOf(c),
      passwordReference,
    },
    secrets,
    dependencies: [],
  }
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null)

async function resolveOwners(ctx: AdapterContext, object: PortableObject) {
  const advisories: Advisory[] = []
  const projectId = ctx.access.project.id
  const orgCode = str(object.data.organizationCode)
  const appName = str(object.data.applicationName)
  const org = orgCode ? await ctx.db.organization.findUnique({ where: { projectId_code: { projectId, code: orgCode } } }) : null
  const app = appName ? await ctx.db.application.findUnique({ where: { projectId_name: { projectId, name: appName } } }) : null
  if (orgCode && !org) advisories.push(unresolved(object, 'ORGANIZATION', orgCode))
  if (appName && !app) advisories.push(unresolved(object, 'APPLICATION', appName))
  const roleNames = Array.isArray(object.data.roleNameList) ? object.data.roleNameList.filter(isRoleName) : []
  const roles = roleNames.length ? await ctx.db.credentialRole.findMany({ where: { projectId, name: { in: roleNames } }, select: { id: true, name: true } }) : []
  for (const name of roleNames) if (!roles.some((r) => r.name === name)) advisories.push(unresolved(object, 'CREDENTIAL_ROLE', name))
  return { organizationId: org?.id ?? null, applicationId: app?.id ?? null, roleIds: roles.map((r) => r.id), advisories }
}

/** A role name a package may carry; anything else (a hostile entry) is ignored rather than queried. */
const isRoleName = (n: unknown): n is string => typeof n === 'string' && n.length > 0 && n.length <= 200 && !n.includes('\u0000')

const unresolved = (object: PortableObject, type: string, name: string): Advisory => ({
  level: 'WARNING',
  key: 'transfer.unresolvedReference',
  params: { object: `${object.type}/${object.name}`, type, name },
})

export const credentialAdapter: TransferAdapter = {
  type: TYPE,
  category: TYPE,
  kinds: null,
  secretFields: ['password'],
  scope: 'project',
  source: 'credentials',

  async findByName(ctx, name) {
    const c = await ctx.db.credential.findUnique({ where: { username: name }, include: credentialOwners })
    return c && c.projectId === ctx.access.project.id ? [toPortable(ctx, c)] : []
  },

  /** many credentials in one query (large selections, and declarative plans reading a whole project) */
  async findManyByName(ctx, refs) {
    if (!refs.length) return []
    const rows = await ctx.db.credential.findMany({ where: { projectId: ctx.access.project.id, username: { in: [...new Set(refs.map((r) => r.name))] } }, include: credentialOwners, orderBy: { username: 'asc' } })
    return rows.map((c) => toPortable(ctx, c))
  },

  async listNames(ctx) {
    const rows = await ctx.db.credential.findMany({ where: { projectId: ctx.access.project.id }, select: { username: true }, orderBy: { username: 'asc' } })
    return rows.map((r) => r.username)
  },

  /** usernames are unique across the installation: one held by another project cannot be imported here */
  async checkImport(ctx, object) {
    // a reference is stored and pushed as it stands (not sealed): anything but `${variable}` would be a
    // password kept in clear, so a package cannot smuggle one in through this field
    const reference = object.data.passwordReference
    if (reference !== undefined && reference !== null && (typeof reference !== 'string' || !VARIABLE_REFERENCE.test(reference))) {
      return { code: 'packageEntryInvalid', detail: `passwordReference of credential '${object.name}' must be a \${variable} reference` }
    }
    const holder = await ctx.db.credential.findUnique({ where: { username: object.name }, select: { projectId: true } })
    if (holder && holder.projectId !== ctx.access.project.id) {
      return { code: 'credentialUsernameTaken', detail: `Credential username '${object.name}' is already taken in another project` }
    }
    return null
  },

  async write(ctx, object, existing) {
    const d = object.data
    const reference = str(d.passwordReference)
    const input = parseInput(credentialInput, {
      username: object.name,
      password: object.secrets.password ?? null,
      fullName: d.fullName ?? null,
      email: d.email ?? null,
      description: d.description ?? null,
      enabled: d.enabled ?? true,
      expireDate: d.expireDate ?? null,
      syncManaged: d.syncManaged ?? false,
      tokenSettings: d.tokenSettings ?? null,
      ipList: d.ipList ?? [],
    })
    const owners = await resolveOwners(ctx, object)
    const extra: Prisma.CredentialUncheckedUpdateInput = {
      organizationId: owners.organizationId,
      applicationId: owners.applicationId,
      trafficLogDisabled: typeof d.trafficLogDisabled === 'boolean' ? d.trafficLogDisabled : null,
      ...(reference ? { passwordCipher: reference, passwordFormat: 'REFERENCE' as const } : {}),
    }
    if (!existing) {
      // insertCredential mints a new consumerKey: a consumerKey is never copied between projects
      const created = await insertCredential(ctx.db, ctx.deps.keyring, ctx.access.project.id, { ...input, organizationCode: null })
      await ctx.db.credential.update({ where: { id: created.id }, data: extra })
      await replaceCredentialRoles(ctx.db, created.id, owners.roleIds)
      return owners.advisories
    }
    const current = await ctx.db.credential.findUniqueOrThrow({ where: { username: object.name } })
    await ctx.db.credential.update({
      where: { id: current.id },
      data: {
        fullName: input.fullName ?? null,
        email: input.email ?? null,
        description: input.description ?? null,
        enabled: current.revokedAt ? false : input.enabled,
        expireDate: input.expireDate ?? null,
        syncManaged: input.syncManaged,
        tokenSettings: input.tokenSettings ? (input.tokenSettings as Prisma.InputJsonValue) : Prisma.DbNull,
        ipList: input.ipList ?? [],
        // NONE handling carries no password: the target keeps its own
        ...(input.password ? { passwordCipher: ctx.deps.keyring.encrypt(input.password), passwordFormat: 'SEALED' as const } : {}),
        ...extra,
        revision: { increment: 1 },
      },
    })
    await replaceCredentialRoles(ctx.db, current.id, owners.roleIds)
    return owners.advisories
  },

  /** Imported credentials reach the gateway when the caller may deploy them; otherwise deployRequired. */
  async afterImport(deps, access, written) {
    if (!written.length) return []
    const names = written.map((w) => w.name)
    if (!can(access, 'IDENTITY', 'DEPLOY_UNDEPLOY') && !can(access, TYPE, 'DEPLOY_UNDEPLOY')) {
      return [{ level: 'WARNING', key: 'deployRequired', params: { type: TYPE, names, reason: 'IDENTITY DEPLOY_UNDEPLOY is needed to deploy' } }]
    }
    const rows = await deps.prisma.credential.findMany({ where: { projectId: access.project.id, username: { in: names } }, select: { id: true, username: true } })
    // in the order written, as batches (RUNTIME.md §4.1)
    const order = new Map(names.map((n, i) => [n, i]))
    rows.sort((a, b) => order.get(a.username)! - order.get(b.username)!)
    const outcomes = await pushCredentialsByIds(deps, rows.map((r) => r.id))
    const failed = rows.filter((row) => !outcomes.get(row.id)?.success).map((row) => row.username)
    return failed.length ? [{ level: 'WARNING', key: 'deployRequired', params: { type: TYPE, names: failed.sort(), reason: 'an environment did not acknowledge' } }] : []
  },
}
