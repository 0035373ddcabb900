// The APPLICATION transfer type: an application with its consumers and API clients. It writes through both the
// identity and the API client services, so it sits here, above identity, not in it (no import cycle).
import type { Prisma } from '../../generated/prisma/client.js'
import { DomainError, malformedReason } from '../../platform/errors/domain-error.js'
import { issuanceFields } from './inputs.js'
import type { ProjectAccess } from '../../platform/auth/permissions.js'
import { pushApiClientRuntime, undeployRemovedApiClients, type RemovedApiClient } from '../identity/api-client-runtime.js'
import { writeDeclaredApiClients } from './service.js'
import { liveSecretValue } from './secrets.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'
import { batchRefused, lookupsByName, refusalOf, type AdapterContext, type Advisory, type ObjectRefusal, type PortableObject, type TransferAdapter } from '../../platform/transfer/registry.js'
import { insertApplication, insertApplications, updateApplication } from '../identity/applications.js'

/**
 * Applications (spec §2.15) travel as APPLICATION objects (category IDENTITY, like their pages), named by name. `data`
 * is what an operator configures: applicationKind, referenceId, description, organizationCode, `consumers` (the
 * usernames of the credentials it owns, sorted) and `apiClients` (the clients it owns, by clientId, sorted: name,
 * validity window and issuance fields). Never the applicationKey or apiClientKey (minted per installation), states
 * (appStatus, operationalState, readiness: lifecycle actions) or secrets: a client secret is never read back
 * (nothing decrypts it) and a client a plan creates has none yet (PENDING_SECRET); a declared client keeps its own.
 *
 * Writes go through the identity module's application service (insertApplication, updateApplication: its schema,
 * organization and consumer checks) and the API client service's declared-clients write (writeDeclaredApiClients).
 */
const TYPE = 'APPLICATION'

/**
 * The API clients a write deleted (a declared list that leaves them out), per call (its ProjectAccess, which the
 * engine hands to write and then to afterImport), to undeploy after the commit.
 */
const removedClients = new WeakMap<ProjectAccess, { application: string; client: RemovedApiClient }[]>()

const include = {
  organization: { select: { code: true } },
  consumers: { select: { username: true }, orderBy: { username: 'asc' } },
  // the live secret version only, sealed: its clear value is fingerprinted by the plan, never shown
  apiClients: { orderBy: { clientId: 'asc' }, include: { secrets: { where: { retiredAt: null }, orderBy: { version: 'desc' }, take: 1, select: { secretCipher: true } } } },
} as const satisfies Prisma.ApplicationInclude
type ApplicationRow = Prisma.ApplicationGetPayload<{ include: typeof include }>

const ISSUANCE_KEYS = Object.keys(issuanceFields) as (keyof typeof issuanceFields)[]
const iso = (v: unknown) => {
  if (v instanceof Date) return v.toISOString()
  if (typeof v !== 'string' || !v) return v ?? null
  const d = new Date(v)
  return Number.isNaN(d.getTime()) ? v : d.toISOString()
}
const plain = (v: unknown) => (typeof v === 'bigint' ? Number(v) : (v ?? null))
const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** One API client in its portable form: every declared field, absent ones as the create stores them (no false drift). */
export function portableClient(c: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { clientId: c.clientId, name: c.name, validFrom: iso(c.validFrom), expiresAt: iso(c.expiresAt) }
  for (const k of ISSUANCE_KEYS) out[k] = plain(c[k])
  out.allowedGrantTypes = Array.isArray(c.allowedGrantTypes) ? c.allowedGrantTypes : []
  return out
}

/** The application's data in the one form the live side and a file's object are compared in. */
export function normalizeApplication(d: Record<string, unknown>): Record<string, unknown> {
  const out = { ...d }
  if (Array.isArray(d.consumers)) out.consumers = [...d.consumers].sort()
  if (Array.isArray(d.apiClients)) {
    out.apiClients = d.apiClients.map((c) => (isRecord(c) ? portableClient(c) : c))
      .sort((a, b) => String((a as Record<string, unknown>)?.clientId).localeCompare(String((b as Record<string, unknown>)?.clientId)))
  }
  return out
}

/** The secret key of a client's secret in the portable object (and the file: the client entry's clientSecret). */
export const clientSecretKey = (clientId: string) => `apiClients/${clientId}/clientSecret`
const CLIENT_SECRET = /^apiClients\/(.+)\/clientSecret$/

/** A file's client secrets taken out of its apiClients entries (by clientSecretKey); the rest is data. */
export function splitClientSecrets(obj: Record<string, unknown>): { data: Record<string, unknown>; secrets: Record<string, string> } {
  const secrets: Record<string, string> = {}
  if (!Array.isArray(obj.apiClients)) return { data: obj, secrets }
  const apiClients = obj.apiClients.map((c) => {
    if (!isRecord(c) || !('clientSecret' in c)) return c
    const { clientSecret, ...rest } = c
    if (typeof clientSecret === 'string' && clientSecret !== '') secrets[clientSecretKey(String(c.clientId))] = clientSecret
    return rest
  })
  return { data: { ...obj, apiClients }, secrets }
}

/** Where a dump writes the `${env:NAME}` of a client secret: the clientSecret of its client's entry. */
export function placeClientSecret(obj: Record<string, unknown>, key: string, ref: string) {
  const clientId = CLIENT_SECRET.exec(key)?.[1]
  if (clientId === undefined || !Array.isArray(obj.apiClients)) return
  obj.apiClients = obj.apiClients.map((c) => (isRecord(c) && c.clientId === clientId ? { ...c, clientSecret: ref } : c))
}

function toPortable(keyring: SecretKeyring, row: ApplicationRow): PortableObject {
  const secrets: Record<string, string> = {}
  for (const c of row.apiClients) {
    const value = liveSecretValue(keyring, c.secrets[0]?.secretCipher)
    if (value !== undefined) secrets[clientSecretKey(c.clientId)] = value
  }
  return {
    type: TYPE, kind: null, name: row.name, secrets,
    data: {
      applicationKind: row.applicationKind,
      referenceId: row.referenceId,
      description: row.description,
      organizationCode: row.organization?.code ?? null,
      consumers: row.consumers.map((c) => c.username),
      apiClients: row.apiClients.map((c) => portableClient(c as unknown as Record<string, unknown>)),
    },
    dependencies: row.consumers.map((c) => ({ type: 'CREDENTIAL', kind: null, name: c.username })),
  }
}

const find = async (ctx: AdapterContext, names: string[]) =>
  (await ctx.db.application.findMany({ where: { projectId: ctx.access.project.id, name: { in: names } }, include, orderBy: { name: 'asc' } })).map((r) => toPortable(ctx.deps.keyring, r))

/** A refusal of the application service names its field in the object: the consumer's position, the organization. */
function withField(object: PortableObject, err: unknown): unknown {
  if (!(err instanceof DomainError) || typeof err.params.field === 'string') return err
  const consumers = Array.isArray(object.data.consumers) ? object.data.consumers : []
  if (typeof err.params.credential === 'string') {
    return malformedReason('declarativeReferenceMissing', `consumers: credential '${err.params.credential}' does not exist in the project`, { field: `consumers[${consumers.indexOf(err.params.credential)}]` })
  }
  if (err.kind === 'notFound' && object.data.organizationCode) {
    return malformedReason('declarativeReferenceMissing', `organizationCode: ${err.message}`, { field: 'organizationCode' })
  }
  return err
}

/** The application service's input of a portable object (its schema validates it). */
const inputOf = (object: PortableObject) => {
  const d = object.data
  return {
    name: object.name,
    applicationKind: d.applicationKind as 'PORTAL' | 'INTERNAL' | undefined,
    referenceId: d.referenceId as string | null | undefined,
    description: d.description as string | null | undefined,
    organizationCode: d.organizationCode as string | null | undefined,
    consumers: d.consumers as string[] | undefined,
  }
}

const createInputOf = (object: PortableObject) => {
  const input = inputOf(object)
  return { ...input, applicationKind: input.applicationKind ?? 'INTERNAL', organizationCode: input.organizationCode ?? null }
}

/**
 * A declared application's API clients written (their secrets from the object's resolved references); the clients the
 * list left out are deleted here and remembered for the undeploy after the commit.
 */
async function writeClientsOf(ctx: AdapterContext, object: PortableObject, app: Parameters<typeof writeDeclaredApiClients>[3]) {
  const secrets = new Map<string, string>()
  for (const [k, v] of Object.entries(object.secrets)) {
    const clientId = CLIENT_SECRET.exec(k)?.[1]
    if (clientId !== undefined) secrets.set(clientId, v)
  }
  const { removed } = await writeDeclaredApiClients(ctx.db, ctx.deps.keyring, ctx.access.project.id, app, object.data.apiClients as Parameters<typeof writeDeclaredApiClients>[4], secrets)
  if (removed.length) removedClients.set(ctx.access, [...(removedClients.get(ctx.access) ?? []), ...removed.map((client) => ({ application: object.name, client }))])
}

export const applicationTransferAdapter: TransferAdapter = {
  type: TYPE,
  category: 'IDENTITY',
  kinds: null,
  secretFields: ['apiClients/<clientId>/clientSecret'],
  scope: 'project',
  source: 'identity',

  ...lookupsByName(find),

  async findAll(ctx) {
    return (await ctx.db.application.findMany({ where: { projectId: ctx.access.project.id }, include, orderBy: { name: 'asc' } })).map((r) => toPortable(ctx.deps.keyring, r))
  },

  async findPage(ctx, _kind, after, limit) {
    const where = { projectId: ctx.access.project.id, ...(after === null ? {} : { name: { gt: after } }) }
    return (await ctx.db.application.findMany({ where, include, orderBy: { name: 'asc' }, take: limit })).map((r) => toPortable(ctx.deps.keyring, r))
  },

  async listNames(ctx) {
    const rows = await ctx.db.application.findMany({ where: { projectId: ctx.access.project.id }, select: { name: true }, orderBy: { name: 'asc' } })
    return rows.map((r) => r.name)
  },

  async write(ctx, object, existing) {
    const d = object.data
    const input = inputOf(object)
    const projectId = ctx.access.project.id
    try {
      const app = existing
        ? await updateApplication(ctx.db, ctx.actor, ctx.access.project.name, object.name, input)
        : await insertApplication(ctx.db, projectId, createInputOf(object))
      if (Array.isArray(d.apiClients)) await writeClientsOf(ctx, object, app)
    } catch (err) {
      throw withField(object, err)
    }
    return []
  },

  /**
   * Many applications, set-based for the new ones (insertApplications: one query per check for the whole batch, one
   * INSERT, one UPDATE of the consumers), their API clients and the updates object by object. Every refused object is
   * reported with its field path (batchRefused), in order.
   */
  async writeMany(ctx, objects, options) {
    const fresh = objects.filter((o) => !o.existing)
    const { created, refused } = await insertApplications(ctx.db, ctx.access.project.id, fresh.map(({ object }) => createInputOf(object)))
    const errors = new Map<PortableObject, unknown>()
    fresh.forEach(({ object }, i) => refused.has(i) && errors.set(object, refused.get(i)))
    for (const [i, { object }] of fresh.entries()) {
      const app = created[i]
      if (!app || !Array.isArray(object.data.apiClients) || !object.data.apiClients.length) continue
      try {
        await writeClientsOf(ctx, object, app)
      } catch (err) {
        errors.set(object, err)
      }
    }
    for (const { object } of objects.filter((o) => o.existing)) {
      try {
        await applicationTransferAdapter.write(ctx, object, true, options)
      } catch (err) {
        errors.set(object, err)
      }
    }
    const refusals: ObjectRefusal[] = []
    for (const { object } of objects) {
      if (!errors.has(object)) continue
      const refusal = refusalOf(object.name, withField(object, errors.get(object)))
      if (!refusal) throw errors.get(object)
      refusals.push(refusal)
    }
    if (refusals.length) throw batchRefused(refusals)
    return []
  },

  /**
   * After the commit: the API clients of the written applications are pushed, as every API client write pushes; the
   * clients a declared list left out (deleted by the write) are undeployed, a failed undeploy retried by the outbox.
   */
  async afterImport(deps, access, written): Promise<Advisory[]> {
    const names = written.filter((w) => w.type === TYPE).map((w) => w.name)
    const failed = new Set<string>()
    const removed = removedClients.get(access) ?? []
    removedClients.delete(access)
    // only what the commit really deleted (a write rolled back to its savepoint deleted nothing)
    const still = removed.length ? new Set((await deps.prisma.apiClient.findMany({ where: { id: { in: removed.map((r) => r.client.id) } }, select: { id: true } })).map((r) => r.id)) : new Set<string>()
    const gone = removed.filter((r) => !still.has(r.client.id))
    for (const u of await undeployRemovedApiClients(deps, gone.map((g) => g.client))) if (!u.success) failed.add(gone.find((g) => g.client.clientId === u.clientId)!.application)
    if (!names.length && !failed.size) return []
    const clients = await deps.prisma.apiClient.findMany({ where: { projectId: access.project.id, application: { name: { in: names } } }, select: { id: true, application: { select: { name: true } } } })
    for (const c of clients) {
      const outcome = await pushApiClientRuntime(deps, c.id)
      if (outcome.environments.some((e) => !e.acknowledged)) failed.add(c.application!.name)
    }
    return failed.size ? [{ level: 'WARNING', key: 'deployRequired', params: { type: TYPE, names: [...failed].sort(), reason: 'an environment did not acknowledge an API client' } }] : []
  },
}
