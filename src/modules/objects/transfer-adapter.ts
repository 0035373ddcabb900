import type { Prisma, StoredObject } from '../../generated/prisma/client.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'
import { OBJECT_KINDS } from './service.js'
import type { AdapterContext, Advisory, ImportWriteOptions, ObjectRef, PortableObject, TransferAdapter } from '../../platform/transfer/registry.js'

/**
 * Adapters over the opaque stored objects (modules/objects): the types no module owns yet (LLM_PROVIDER and
 * KNOWLEDGE_BASE belong to modules/llm, CREDENTIAL and WEBHOOK_CONNECTION to theirs). Their content
 * is opaque JSON; what the transfer needs to know about it is declared here per type:
 * - secret fields: top-level content keys whose values are secrets (sealed at rest when imported);
 * - references: content keys naming other objects, plus the generic `dependsOn: [{ type, kind?, name }]`;
 * - CERTIFICATE objects keep per-environment data under `environments: { <environment name>: {…} }`; a secret
 *   field inside one environment's data travels as the secret `environments/<environment name>/<field>`
 *   (keys, keystores and JWKs of modules/keys seal their private parts per environment).
 */
interface OpaqueTypeSpec {
  secretFields: string[]
  /** content key → the type (and kind) it names; a string or an array of strings */
  references: Record<string, { type: string; kind: string | null }>
  perEnvironment: boolean
}

export const OPAQUE_TYPE_SPECS: Record<string, OpaqueTypeSpec> = {
  IP_GROUP: { secretFields: [], references: {}, perEnvironment: false },
  CERTIFICATE: { secretFields: ['privateKey', 'secretKey', 'password', 'keyPassword', 'privateJwk', 'file'], references: {}, perEnvironment: true },
  GLOBAL_POLICY: { secretFields: [], references: { ipGroupNames: { type: 'IP_GROUP', kind: null } }, perEnvironment: false },
  API_CREATOR: { secretFields: [], references: {}, perEnvironment: false },
  IDENTITY_SERVICE: {
    secretFields: ['bindPassword', 'clientSecret'],
    references: { certificateName: { type: 'CERTIFICATE', kind: 'CERTIFICATE' } },
    perEnvironment: false,
  },
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** A stored secret may be sealed (imported through a transfer) or clear (written by the bootstrap). */
function clearSecret(keyring: SecretKeyring, value: string): string {
  return keyring.knows(value) ? keyring.decrypt(value) : value
}

function referencesOf(type: string, content: Record<string, unknown>): ObjectRef[] {
  const spec = OPAQUE_TYPE_SPECS[type]
  const refs: ObjectRef[] = []
  for (const [field, target] of Object.entries(spec?.references ?? {})) {
    const value = content[field]
    const names = Array.isArray(value) ? value : [value]
    for (const name of names) if (typeof name === 'string' && name.trim()) refs.push({ ...target, name })
  }
  if (Array.isArray(content.dependsOn)) {
    for (const d of content.dependsOn) {
      if (isRecord(d) && typeof d.type === 'string' && typeof d.name === 'string') {
        refs.push({ type: d.type.toUpperCase(), kind: typeof d.kind === 'string' && d.kind ? d.kind : null, name: d.name })
      }
    }
  }
  return refs
}

export function toPortable(row: StoredObject, keyring: SecretKeyring): PortableObject {
  const spec = OPAQUE_TYPE_SPECS[row.type]
  const content: Record<string, unknown> = isRecord(row.content) ? { ...row.content } : {}
  const secrets: Record<string, string> = {}
  for (const field of spec?.secretFields ?? []) {
    const value = content[field]
    delete content[field]
    if (typeof value === 'string' && value !== '') secrets[field] = clearSecret(keyring, value)
  }
  if (spec?.perEnvironment && isRecord(content.environments)) {
    const environments: Record<string, unknown> = {}
    for (const [env, entry] of Object.entries(content.environments)) {
      if (!isRecord(entry)) continue
      const copy = { ...entry }
      for (const field of spec.secretFields) {
        const value = copy[field]
        delete copy[field]
        if (typeof value === 'string' && value !== '') secrets[environmentSecret(env, field)] = clearSecret(keyring, value)
      }
      environments[env] = copy
    }
    content.environments = environments
  }
  return { type: row.type, kind: row.kind || null, name: row.name, data: content, secrets, dependencies: referencesOf(row.type, content) }
}

const ENV_SECRET = 'environments/'
const environmentSecret = (env: string, field: string) => `${ENV_SECRET}${env}/${field}`
/** [environment, field] of a per-environment secret key; field names never hold a slash, environment names may */
function parseEnvironmentSecret(key: string): [string, string] | null {
  if (!key.startsWith(ENV_SECRET)) return null
  const rest = key.slice(ENV_SECRET.length)
  const cut = rest.lastIndexOf('/')
  return cut > 0 ? [rest.slice(0, cut), rest.slice(cut + 1)] : null
}

/** MATCH_BY_NAME / OVERWRITE_ALL merge of a certificate's per-environment data (docs/transfer.md). */
export function mergeEnvironments(
  target: Record<string, unknown> | undefined,
  incoming: Record<string, unknown> | undefined,
  options: ImportWriteOptions,
): Record<string, unknown> | undefined {
  if (!incoming && !target) return undefined
  const covered = (env: string) => options.targetEnvironments.includes(env)
  const fromPackage = Object.entries(incoming ?? {}).filter(
    ([env]) => options.certEnvironmentMergeMethod === 'OVERWRITE_ALL' || options.certEnvironmentUncoveredAction === 'FILL_FROM_PACKAGE' || covered(env),
  )
  if (options.certEnvironmentMergeMethod === 'OVERWRITE_ALL') return Object.fromEntries(fromPackage)
  return { ...(target ?? {}), ...Object.fromEntries(fromPackage) }
}

/** The content to store: the data, and the secrets sealed at rest. */
function sealedContent(ctx: AdapterContext, object: PortableObject): Record<string, unknown> {
  const content: Record<string, unknown> = { ...object.data }
  const environments: Record<string, unknown> = isRecord(content.environments) ? { ...content.environments } : {}
  for (const [key, value] of Object.entries(object.secrets)) {
    const perEnvironment = parseEnvironmentSecret(key)
    if (!perEnvironment) {
      content[key] = ctx.deps.keyring.encrypt(value)
      continue
    }
    const [env, field] = perEnvironment
    // a secret of an environment the package no longer names (e.g. dropped by the merge) has nowhere to go
    if (isRecord(environments[env])) environments[env] = { ...environments[env], [field]: ctx.deps.keyring.encrypt(value) }
  }
  if (isRecord(content.environments)) content.environments = environments
  return content
}

/** Per-environment secrets the package does not carry keep the target's sealed value (secretHandling NONE). */
function keepEnvironmentSecrets(spec: OpaqueTypeSpec, before: unknown, merged: Record<string, unknown>, carried: Record<string, string>) {
  if (!isRecord(before)) return
  for (const [env, entry] of Object.entries(merged)) {
    const old = before[env]
    if (!isRecord(entry) || !isRecord(old)) continue
    for (const field of spec.secretFields) {
      if (!(environmentSecret(env, field) in carried) && !(field in entry) && typeof old[field] === 'string') merged[env] = { ...(merged[env] as object), [field]: old[field] }
    }
  }
}

function opaqueAdapter(type: string): TransferAdapter {
  const spec = OPAQUE_TYPE_SPECS[type]
  const kinds = OBJECT_KINDS[type] ?? null
  const where = (ctx: AdapterContext, name: string, kind: string | null) => ({
    projectId: ctx.access.project.id,
    type,
    name,
    ...(kind !== null ? { kind } : {}),
  })

  return {
    type,
    category: type,
    kinds,
    secretFields: spec.secretFields,
    scope: 'project',
    source: 'stored-objects',

    async findByName(ctx, name, kind) {
      const rows = await ctx.db.storedObject.findMany({ where: where(ctx, name, kind), orderBy: { kind: 'asc' } })
      return rows.map((r) => toPortable(r, ctx.deps.keyring))
    },

    async findManyByName(ctx, refs) {
      if (!refs.length) return []
      const rows = await ctx.db.storedObject.findMany({
        where: { projectId: ctx.access.project.id, type, name: { in: [...new Set(refs.map((r) => r.name))] } },
        orderBy: [{ name: 'asc' }, { kind: 'asc' }],
      })
      const wanted = new Set(refs.map((r) => `${r.kind ?? '*'}\u0000${r.name}`))
      return rows
        .filter((r) => wanted.has(`*\u0000${r.name}`) || wanted.has(`${r.kind}\u0000${r.name}`))
        .map((r) => toPortable(r, ctx.deps.keyring))
    },

    async listNames(ctx, kind) {
      const rows = await ctx.db.storedObject.findMany({
        where: { projectId: ctx.access.project.id, type, ...(kind !== null ? { kind } : {}) },
        select: { name: true },
        orderBy: { name: 'asc' },
      })
      return [...new Set(rows.map((r) => r.name))]
    },

    environmentsOf: spec.perEnvironment ? (o) => (isRecord(o.data.environments) ? Object.keys(o.data.environments) : []) : undefined,

    mapEnvironments: spec.perEnvironment
      ? (o, map) => {
          if (!isRecord(o.data.environments)) return o
          const environments = Object.fromEntries(Object.entries(o.data.environments).map(([env, v]) => [map(env), v]))
          const secrets = Object.fromEntries(Object.entries(o.secrets).map(([key, v]) => {
            const perEnvironment = parseEnvironmentSecret(key)
            return [perEnvironment ? environmentSecret(map(perEnvironment[0]), perEnvironment[1]) : key, v]
          }))
          return { ...o, data: { ...o.data, environments }, secrets }
        }
      : undefined,

    /** new objects in one multi-row insert; replacements one by one (they merge with what is stored) */
    async writeMany(ctx, objects, options) {
      const fresh = objects.filter((o) => !o.existing).map(({ object }) => ({
        projectId: ctx.access.project.id, type, kind: object.kind ?? '', name: object.name,
        content: sealedContent(ctx, object) as Prisma.InputJsonValue,
      }))
      if (fresh.length) await ctx.db.storedObject.createMany({ data: fresh })
      for (const o of objects) if (o.existing) await this.write(ctx, o.object, true, options)
      return []
    },

    async write(ctx, object, existing, options): Promise<Advisory[]> {
      const content = sealedContent(ctx, object)
      const key = { projectId: ctx.access.project.id, type, kind: object.kind ?? '', name: object.name }
      if (!existing) {
        // the merge options only say how REPLACE merges; a new object is written as packaged
        await ctx.db.storedObject.create({ data: { ...key, content: content as Prisma.InputJsonValue } })
        return []
      }
      const current = await ctx.db.storedObject.findUniqueOrThrow({ where: { projectId_type_kind_name: key } })
      // a secret the package does not carry (secretHandling NONE, or sealed elsewhere) keeps the target's value
      const before = isRecord(current.content) ? current.content : {}
      for (const field of spec.secretFields) if (!(field in object.secrets) && typeof before[field] === 'string') content[field] = before[field]
      if (spec.perEnvironment) {
        const merged = mergeEnvironments(isRecord(before.environments) ? before.environments : undefined, isRecord(content.environments) ? content.environments : undefined, options)
        if (merged === undefined) delete content.environments
        else {
          keepEnvironmentSecrets(spec, before.environments, merged, object.secrets)
          content.environments = merged
        }
      }
      await ctx.db.storedObject.update({
        where: { id: current.id },
        data: { content: content as Prisma.InputJsonValue, revision: { increment: 1 } },
      })
      return []
    },
  }
}

export const storedObjectAdapters = (): TransferAdapter[] => Object.keys(OPAQUE_TYPE_SPECS).map(opaqueAdapter)
