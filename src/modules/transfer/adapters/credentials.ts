import crypto from 'node:crypto'
import { Prisma } from '../../../generated/prisma/client.js'
import { can } from '../../../platform/auth/permissions.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { credentialInput, insertCredential, newCredentialRow, pushCredentialsByIds } from '../../credentials/service.js'
import { credentialHolders, insertCredentialRows, replaceRolesOfMany, updateCredentialRows, type CredentialRowUpdate, type NewCredentialRow } from '../../credentials/bulk.js'
import { credentialOwners } from '../../credentials/runtime.js'
import { replaceCredentialRoles } from '../../credentials/roles/service.js'
import { batchRefused, refusalOf, type AdapterContext, type Advisory, type ImportRefusal, type ObjectRefusal, type PortableObject, type TransferAdapter } from '../../../platform/transfer/registry.js'

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
/**
 * What the portable form reads of a credential's owners: organization code, application name and role names (sorted),
 * as credentialOwners reads them, without the access list and material the portable form does not carry (two queries
 * less per read: a declarative dump, plan or apply of 10,000 credentials reads them whole; issue 29 §7).
 */
const portableOwners = {
  organization: { select: { code: true } },
  application: { select: { name: true } },
  roleGrants: credentialOwners.roleGrants,
} as const satisfies Prisma.CredentialInclude

type PortableCredential = Prisma.CredentialGetPayload<{ include: typeof portableOwners }>

function toPortable(ctx: AdapterContext, c: PortableCredential): PortableObject {
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
      roleNameList: c.roleGrants.map((g) => g.role.name),
      passwordReference,
    },
    secrets,
    dependencies: [],
  }
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null)

interface Owners { organizationId: string | null; applicationId: string | null; roleIds: string[]; advisories: Advisory[] }

/** The organization, application and roles each object names, resolved in the project with one query each. */
async function resolveOwnersMany(ctx: AdapterContext, objects: PortableObject[]): Promise<Owners[]> {
  const projectId = ctx.access.project.id
  const codes = [...new Set(objects.flatMap((o) => str(o.data.organizationCode) ?? []))]
  const appNames = [...new Set(objects.flatMap((o) => str(o.data.applicationName) ?? []))]
  const roleNamesOfObject = (o: PortableObject) => (Array.isArray(o.data.roleNameList) ? o.data.roleNameList.filter(isRoleName) : [])
  const roleNames = [...new Set(objects.flatMap(roleNamesOfObject))]
  const orgs = new Map(codes.length ? (await ctx.db.organization.findMany({ where: { projectId, code: { in: codes } }, select: { id: true, code: true } })).map((o) => [o.code, o.id]) : [])
  const apps = new Map(appNames.length ? (await ctx.db.application.findMany({ where: { projectId, name: { in: appNames } }, select: { id: true, name: true } })).map((a) => [a.name, a.id]) : [])
  const roles = new Map(roleNames.length ? (await ctx.db.credentialRole.findMany({ where: { projectId, name: { in: roleNames } }, select: { id: true, name: true } })).map((r) => [r.name, r.id]) : [])
  return objects.map((object) => {
    const advisories: Advisory[] = []
    const orgCode = str(object.data.organizationCode)
    const appName = str(object.data.applicationName)
    if (orgCode && !orgs.has(orgCode)) advisories.push(unresolved(object, 'ORGANIZATION', orgCode))
    if (appName && !apps.has(appName)) advisories.push(unresolved(object, 'APPLICATION', appName))
    const names = roleNamesOfObject(object)
    for (const name of names) if (!roles.has(name)) advisories.push(unresolved(object, 'CREDENTIAL_ROLE', name))
    return {
      organizationId: (orgCode && orgs.get(orgCode)) || null,
      applicationId: (appName && apps.get(appName)) || null,
      roleIds: names.flatMap((n) => roles.get(n) ?? []),
      advisories,
    }
  })
}

/**
 * A reference is stored and pushed as it stands (not sealed): anything but `${variable}` would be a password kept
 * in clear, so a package cannot smuggle one in through this field.
 */
function referenceRefusal(object: PortableObject): ImportRefusal | null {
  const reference = object.data.passwordReference
  if (reference !== undefined && reference !== null && (typeof reference !== 'string' || !VARIABLE_REFERENCE.test(reference))) {
    return { code: 'packageEntryInvalid', detail: `passwordReference of credential '${object.name}' must be a \${variable} reference` }
  }
  return null
}

const takenRefusal = (name: string): ImportRefusal => ({ code: 'credentialUsernameTaken', detail: `Credential username '${name}' is already taken in another project` })

/** The portable object as the credentials module's own input, validated by its schema (credentialInput). */
function inputOf(object: PortableObject) {
  const d = object.data
  return parseInput(credentialInput, {
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
}

const trafficLogOf = (d: Record<string, unknown>) => (typeof d.trafficLogDisabled === 'boolean' ? d.trafficLogDisabled : null)

/** A role name a package may carry; anything else (a hostile entry) is ignored rather than queried. */
const isRoleName = (n: unknown): n is string => typeof n === 'string' && n.length > 0 && n.length <= 200 && !n.includes('\u0000')

const unresolved = (object: PortableObject, type: string, name: string): Advisory => ({
  level: 'WARNING',
  key: 'transfer.unresolvedReference',
  params: { object: `${object.type}/${object.name}`, type, name },
})

/**
 * The portable form of the credentials writeMany inserted, as toPortable reads them back: the inserted row (its values
 * as insertCredentialRows stores them) with the organization code and application name it resolved. A credential
 * granted roles is left out (read back): the role names come back in the database's collation order.
 */
function createdForms(ctx: AdapterContext, inserts: NewCredentialRow[], valid: { object: PortableObject; existing: boolean }[], owners: Owners[]): PortableObject[] {
  const byName = new Map(valid.map((v, i) => [v.object.name, { object: v.object, owners: owners[i]! }]))
  const forms: PortableObject[] = []
  for (const row of inserts) {
    const written = byName.get(row.username)
    if (!written || written.owners.roleIds.length) continue
    const orgCode = written.owners.organizationId ? str(written.object.data.organizationCode) : null
    const appName = written.owners.applicationId ? str(written.object.data.applicationName) : null
    forms.push(toPortable(ctx, {
      ...(row as Prisma.CredentialGetPayload<object>),
      passwordCipher: row.passwordCipher ?? null, passwordFormat: row.passwordFormat ?? 'SEALED', fullName: row.fullName ?? null, email: row.email ?? null,
      description: row.description ?? null, enabled: row.enabled ?? true, syncManaged: row.syncManaged ?? false, trafficLogDisabled: row.trafficLogDisabled ?? null,
      // timestamp(3): milliseconds, as stored
      expireDate: row.expireDate == null ? null : new Date(new Date(row.expireDate).toISOString()),
      tokenSettings: (row.tokenSettings ?? null) as Prisma.JsonValue, ipList: Array.isArray(row.ipList) ? row.ipList : [],
      organization: orgCode ? { code: orgCode } : null, application: appName ? { name: appName } : null, roleGrants: [],
    }))
  }
  return forms
}

export const credentialAdapter: TransferAdapter = {
  type: TYPE,
  category: TYPE,
  kinds: null,
  secretFields: ['password'],
  scope: 'project',
  source: 'credentials',

  async findByName(ctx, name) {
    const c = await ctx.db.credential.findUnique({ where: { username: name }, include: portableOwners })
    return c && c.projectId === ctx.access.project.id ? [toPortable(ctx, c)] : []
  },

  /** many credentials in one query (large selections, and declarative plans reading a whole project) */
  async findManyByName(ctx, refs) {
    if (!refs.length) return []
    const rows = await ctx.db.credential.findMany({ where: { projectId: ctx.access.project.id, username: { in: [...new Set(refs.map((r) => r.name))] } }, include: portableOwners, orderBy: { username: 'asc' } })
    return rows.map((c) => toPortable(ctx, c))
  },

  /** the whole project's credentials by project (declarative dumps and plans) */
  async findAll(ctx) {
    const rows = await ctx.db.credential.findMany({ where: { projectId: ctx.access.project.id }, include: portableOwners, orderBy: { username: 'asc' } })
    return rows.map((c) => toPortable(ctx, c))
  },

  async findPage(ctx, _kind, after, limit) {
    const rows = await ctx.db.credential.findMany({
      where: { projectId: ctx.access.project.id, ...(after === null ? {} : { username: { gt: after } }) }, include: portableOwners, orderBy: { username: 'asc' }, take: limit,
    })
    return rows.map((c) => toPortable(ctx, c))
  },

  async listNames(ctx) {
    const rows = await ctx.db.credential.findMany({ where: { projectId: ctx.access.project.id }, select: { username: true }, orderBy: { username: 'asc' } })
    return rows.map((r) => r.username)
  },

  /** usernames are unique across the installation: one held by another project cannot be imported here */
  async checkImport(ctx, object) {
    const refusal = referenceRefusal(object)
    if (refusal) return refusal
    const holder = await ctx.db.credential.findUnique({ where: { username: object.name }, select: { projectId: true } })
    return holder && holder.projectId !== ctx.access.project.id ? takenRefusal(object.name) : null
  },

  async write(ctx, object, existing) {
    const d = object.data
    const reference = str(d.passwordReference)
    const input = inputOf(object)
    const [owners] = await resolveOwnersMany(ctx, [object])
    const extra: Prisma.CredentialUncheckedUpdateInput = {
      organizationId: owners.organizationId,
      applicationId: owners.applicationId,
      trafficLogDisabled: trafficLogOf(d),
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

  /**
   * Many credentials, set-based (declarative applies of thousands): checkImport's checks and credentialInput for the
   * whole batch (every refused object reported, nothing written), then one INSERT for the new ones, one UPDATE for
   * the others and one replacement of their role grants, with the same values the one-object write stores.
   */
  async writeMany(ctx, objects, options) {
    const projectId = ctx.access.project.id
    const refusals: ObjectRefusal[] = []
    const valid: { object: PortableObject; existing: boolean; input: ReturnType<typeof inputOf> }[] = []
    for (const { object, existing } of objects) {
      const refusal = referenceRefusal(object)
      if (refusal) {
        refusals.push({ name: object.name, ...refusal, field: 'passwordReference' })
        continue
      }
      try {
        valid.push({ object, existing, input: inputOf(object) })
      } catch (err) {
        const refusal = refusalOf(object.name, err)
        if (!refusal) throw err
        refusals.push(refusal)
      }
    }
    const holders = new Map((await credentialHolders(ctx.db, objects.map((o) => o.object.name))).map((h) => [h.username, h]))
    for (const { object } of valid) {
      const holder = holders.get(object.name)
      if (holder && holder.projectId !== projectId) refusals.push({ name: object.name, ...takenRefusal(object.name), field: 'username' })
    }
    if (refusals.length) throw batchRefused(refusals)
    const owners = await resolveOwnersMany(ctx, valid.map((v) => v.object))
    const inserts: NewCredentialRow[] = []
    const updates: CredentialRowUpdate[] = []
    const grants: { credentialId: string; roleIds: string[] }[] = []
    valid.forEach(({ object, existing, input }, i) => {
      const o = owners[i]!
      const reference = str(object.data.passwordReference)
      const password = reference ? { passwordCipher: reference, passwordFormat: 'REFERENCE' as const } : null
      const holder = holders.get(object.name)
      if (existing && holder) {
        updates.push({
          id: holder.id, fullName: input.fullName ?? null, email: input.email ?? null, description: input.description ?? null, enabled: input.enabled,
          organizationId: o.organizationId, applicationId: o.applicationId, expireDate: input.expireDate ?? null, syncManaged: input.syncManaged,
          trafficLogDisabled: trafficLogOf(object.data), tokenSettings: input.tokenSettings ?? null, ipList: input.ipList ?? [],
          passwordCipher: password?.passwordCipher ?? (input.password ? ctx.deps.keyring.encrypt(input.password) : null),
          passwordFormat: password?.passwordFormat ?? (input.password ? 'SEALED' : null),
        })
        grants.push({ credentialId: holder.id, roleIds: o.roleIds })
        return
      }
      // newCredentialRow mints a new consumerKey: a consumerKey is never copied between projects
      const id = crypto.randomUUID()
      inserts.push({
        ...newCredentialRow(ctx.deps.keyring, projectId, { ...input, organizationCode: null }, o.organizationId),
        id, applicationId: o.applicationId, trafficLogDisabled: trafficLogOf(object.data), ...(password ?? {}),
      })
      if (o.roleIds.length) grants.push({ credentialId: id, roleIds: o.roleIds })
    })
    await insertCredentialRows(ctx.db, inserts)
    await updateCredentialRows(ctx.db, updates)
    await replaceRolesOfMany(ctx.db, grants)
    if (options.created) for (const form of createdForms(ctx, inserts, valid, owners)) options.created(form)
    return owners.flatMap((o) => o.advisories)
  },

  /** Imported credentials reach the gateway when the caller may deploy them; otherwise deployRequired. */
  async afterImport(deps, access, written) {
    if (!written.length) return []
    const names = written.map((w) => w.name)
    if (!can(access, 'IDENTITY', 'DEPLOY_UNDEPLOY') && !can(access, TYPE, 'DEPLOY_UNDEPLOY')) {
      return [{ level: 'WARNING', key: 'deployRequired', params: { type: TYPE, names, reason: 'IDENTITY DEPLOY_UNDEPLOY is needed to deploy' } }]
    }
    const rows = (await credentialHolders(deps.prisma, names)).filter((r) => r.projectId === access.project.id)
    // in the order written, as batches (RUNTIME.md §4.1)
    const order = new Map(names.map((n, i) => [n, i]))
    rows.sort((a, b) => order.get(a.username)! - order.get(b.username)!)
    const outcomes = await pushCredentialsByIds(deps, rows.map((r) => r.id))
    const failed = rows.filter((row) => !outcomes.get(row.id)?.success).map((row) => row.username)
    return failed.length ? [{ level: 'WARNING', key: 'deployRequired', params: { type: TYPE, names: failed.sort(), reason: 'an environment did not acknowledge' } }] : []
  },
}
