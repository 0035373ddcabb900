import { z } from 'zod'
import type { Prisma, VectorDb } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { findPage, type Page, type PagingQuery } from '../../../platform/envelopes/paging.js'
import { malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import type { SecretKeyring } from '../../../platform/secrets/keyring.js'
import { headerNameField } from '../providers/auth-headers.js'
import {
  aiAccess, blankToNull, deleteUnlessKnowledgeBasesUse, namedPage, nameKeyOf, open, openNamedWrite, pushToProject, requireClass, requireObjectBody,
  saveNamed, sealSecret, undeployFromProject,
} from '../common.js'

/**
 * Spec §2.11: eight store types, vendor-named apart from OTHER: the vendor's own constants (api-reference/vector-dbs).
 * ELASTICSEARCH, an early guess of ours, is not one of them (stored ones were migrated to OTHER).
 */
export const VECTOR_DB_TYPES = ['PGVECTOR', 'QDRANT', 'WEAVIATE', 'MILVUS', 'CHROMA', 'PINECONE', 'REDIS', 'OTHER'] as const
export const VECTOR_AUTH_SCHEMES = ['BEARER', 'API_KEY_HEADER', 'BASIC', 'NONE', 'CUSTOM'] as const
export const TRANSPORT_FAMILIES = ['jdbc', 'http', 'redis'] as const
export const DISTANCE_METRICS = ['COSINE', 'EUCLIDEAN', 'DOT_PRODUCT'] as const
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000
/** "Filled from dbType when omitted" (the vendor page): the same values for every type. */
export const DEFAULT_DISTANCE_METRIC = 'COSINE'
export const DEFAULT_MAX_BATCH_SIZE = 100

/** The transport family each store type is reached with (the vendor page); OTHER takes any. */
export const FAMILY_OF_TYPE: Record<(typeof VECTOR_DB_TYPES)[number], (typeof TRANSPORT_FAMILIES)[number] | null> = {
  PGVECTOR: 'jdbc', QDRANT: 'http', WEAVIATE: 'http', MILVUS: 'http', CHROMA: 'http', PINECONE: 'http', REDIS: 'redis', OTHER: null,
}

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).nullish()
const millis = () => z.number().int('must be an integer').min(1, 'must be at least 1').max(3_600_000, 'must be at most 3600000').nullish()
const count = (max: number) => z.number().int('must be an integer').min(0, 'must be at least 0').max(max, `must be at most ${max}`).nullish()

/** The timeouts every family carries (ms; null: the store client's default, but jdbc's connect timeout, 10000). */
const timeouts = {
  connectTimeoutMs: z.number().int('must be an integer').min(1, 'must be at least 1').max(600_000, 'must be at most 600000').nullish(),
  requestTimeoutMs: millis(),
}

/** HikariCP settings of the jdbc family (all nullable: the pool's defaults). */
const pool = z.strictObject({
  minimumIdle: count(1000),
  maximumPoolSize: z.number().int('must be an integer').min(1, 'must be at least 1').max(1000, 'must be at most 1000').nullish(),
  connectionTimeoutMs: millis(),
  idleTimeoutMs: z.number().int('must be an integer').min(0, 'must be at least 0').max(86_400_000, 'must be at most 86400000').nullish(),
  maxLifetimeMs: z.number().int('must be an integer').min(0, 'must be at least 0').max(86_400_000, 'must be at most 86400000').nullish(),
})

const jdbcTransport = z.strictObject({
  family: z.literal('jdbc'),
  ...timeouts,
  jdbcUrl: z.string({ error: 'is required' }).trim().min(1, 'is required').max(2000).regex(/^jdbc:[a-z0-9]+:/i, 'must be a JDBC URL (jdbc:<driver>:…)'),
  username: text(200),
  password: text(10_000),
  pool: pool.nullish(),
  passwordSet: z.unknown().optional(),
})

const httpTransport = z.strictObject({
  family: z.literal('http'),
  ...timeouts,
  endpoint: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  apiVersion: text(100),
  authScheme: z.enum(VECTOR_AUTH_SCHEMES, { error: `must be one of ${VECTOR_AUTH_SCHEMES.join(', ')}` }).nullish(),
  authHeaderName: headerNameField(),
  apiKey: text(10_000),
  apiSecret: text(10_000),
  regionCode: text(100),
  apiKeySet: z.unknown().optional(),
  apiSecretSet: z.unknown().optional(),
})

/** redis://, rediss:// or a bare host:port (the vendor page). */
const redisUri = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(2000, 'must be at most 2000 characters')
  .refine((v) => {
    if (/^rediss?:\/\//i.test(v)) {
      try {
        return new URL(v).hostname !== ''
      } catch {
        return false
      }
    }
    return /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/i.test(v)
  }, 'must be a redis:// or rediss:// URI, or host:port')

const redisTransport = z.strictObject({
  family: z.literal('redis'),
  ...timeouts,
  uri: redisUri,
  username: text(200),
  password: text(10_000),
  passwordSet: z.unknown().optional(),
})

const transport = z.discriminatedUnion('family', [jdbcTransport, httpTransport, redisTransport], { error: `family must be one of ${TRANSPORT_FAMILIES.join(', ')}` })

/** The create body of spec §2.11 (also the body of test-connection), with the vendor page's fields. */
export const vectorDbInput = z.strictObject({
  _class: z.literal('vector-db'),
  name: z.string().nullish(),
  description: text(1000),
  enabled: z.boolean('must be a boolean').nullish(),
  dbType: z.enum(VECTOR_DB_TYPES, { error: `is required, one of ${VECTOR_DB_TYPES.join(', ')}` }),
  defaultCollectionName: text(200),
  embeddingDimension: z.number().int('must be an integer').min(1, 'must be at least 1').max(65_536, 'must be at most 65536').nullish(),
  /** the vendor's COSINE, EUCLIDEAN, DOT_PRODUCT; free text as before (a store may name others) */
  distanceMetric: text(50),
  maxBatchSize: z.number().int('must be an integer').min(1, 'must be at least 1').max(100_000, 'must be at most 100000').nullish(),
  transport: transport,
  // read-only fields of a read, ignored when sent back
  id: z.unknown().optional(),
  projectId: z.unknown().optional(),
  projectName: z.unknown().optional(),
  builtIn: z.unknown().optional(),
  createdAt: z.unknown().optional(),
  updatedAt: z.unknown().optional(),
})
export type VectorDbInput = z.output<typeof vectorDbInput>
export type TransportInput = VectorDbInput['transport']

/**
 * Reads the body: `_class` first (a body without it cannot be deserialized), then the one schema, then the
 * transport family the store type is reached with.
 */
export function parseVectorDbBody(raw: unknown): VectorDbInput {
  const body = requireObjectBody(raw)
  requireClass(body, 'vector-db')
  if (body.transport === undefined || body.transport === null) throw malformed('transport: is required (an object with family jdbc, http or redis)', { field: 'transport' })
  const input = parseInput(vectorDbInput, body)
  const family = FAMILY_OF_TYPE[input.dbType]
  if (family && input.transport.family !== family) {
    throw malformed(`transport.family: dbType ${input.dbType} is reached with the ${family} family, not ${input.transport.family}`, { field: 'transport.family', dbType: input.dbType, expected: family })
  }
  return input
}

interface StoredPool { minimumIdle: number | null; maximumPoolSize: number | null; connectionTimeoutMs: number | null; idleTimeoutMs: number | null; maxLifetimeMs: number | null }

type StoredTransport =
  | { family: 'jdbc'; connectTimeoutMs: number; requestTimeoutMs: number | null; jdbcUrl: string; username: string | null; pool: StoredPool | null }
  | {
    family: 'http'; connectTimeoutMs: number | null; requestTimeoutMs: number | null; endpoint: string; apiVersion: string | null; authScheme: string
    authHeaderName: string | null; regionCode: string | null
  }
  | { family: 'redis'; connectTimeoutMs: number | null; requestTimeoutMs: number | null; uri: string; username: string | null }

export type TransportView = StoredTransport & { passwordSet?: boolean; apiKeySet?: boolean; apiSecretSet?: boolean }

/**
 * The read: our nested `transport` (kept for the clients of the older shape) and the vendor page's flattened
 * fields of the connection's family (fields of the other families are omitted, as the page says).
 */
export interface VectorDbView {
  _class: 'vector-db'
  id: string
  projectId: string
  projectName: string
  name: string
  description: string | null
  enabled: boolean
  dbType: string
  family: string
  connectTimeoutMs: number | null
  requestTimeoutMs: number | null
  jdbcUrl?: string
  jdbcUsername?: string | null
  jdbcPasswordSet?: boolean
  poolMinimumIdle?: number | null
  poolMaximumPoolSize?: number | null
  poolConnectionTimeoutMs?: number | null
  poolIdleTimeoutMs?: number | null
  poolMaxLifetimeMs?: number | null
  endpoint?: string
  apiVersion?: string | null
  authScheme?: string
  authHeaderName?: string | null
  apiKeySet?: boolean
  apiSecretSet?: boolean
  regionCode?: string | null
  redisUri?: string
  redisUsername?: string | null
  redisPasswordSet?: boolean
  defaultCollectionName: string | null
  embeddingDimension: number | null
  distanceMetric: string | null
  maxBatchSize: number | null
  /** always false: built-in templates are not stored here */
  builtIn: boolean
  transport: TransportView
  createdAt: Date
  updatedAt: Date
}

/** The non-secret part of a transport with its defaults applied. */
export function storedTransport(t: TransportInput): StoredTransport {
  const requestTimeoutMs = t.requestTimeoutMs ?? null
  if (t.family === 'jdbc') {
    const p = t.pool
    return {
      family: 'jdbc', connectTimeoutMs: t.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, requestTimeoutMs, jdbcUrl: t.jdbcUrl, username: blankToNull(t.username),
      pool: p
        ? { minimumIdle: p.minimumIdle ?? null, maximumPoolSize: p.maximumPoolSize ?? null, connectionTimeoutMs: p.connectionTimeoutMs ?? null, idleTimeoutMs: p.idleTimeoutMs ?? null, maxLifetimeMs: p.maxLifetimeMs ?? null }
        : null,
    }
  }
  if (t.family === 'redis') return { family: 'redis', connectTimeoutMs: t.connectTimeoutMs ?? null, requestTimeoutMs, uri: t.uri, username: blankToNull(t.username) }
  return {
    family: 'http', connectTimeoutMs: t.connectTimeoutMs ?? null, requestTimeoutMs, endpoint: t.endpoint, apiVersion: blankToNull(t.apiVersion), authScheme: t.authScheme ?? 'BEARER',
    authHeaderName: blankToNull(t.authHeaderName), regionCode: blankToNull(t.regionCode),
  }
}

/** A row stored before the vendor fields: its transport read with them (null: not set). */
function transportOf(row: VectorDb): StoredTransport {
  const t = row.transport as Record<string, unknown>
  const base = { connectTimeoutMs: (t.connectTimeoutMs as number | undefined) ?? null, requestTimeoutMs: (t.requestTimeoutMs as number | undefined) ?? null }
  if (t.family === 'jdbc') return { ...base, pool: null, ...(t as object), family: 'jdbc' } as StoredTransport
  if (t.family === 'redis') return { ...base, ...(t as object), family: 'redis' } as StoredTransport
  return { ...base, regionCode: null, ...(t as object), family: 'http' } as StoredTransport
}

function flatFields(t: StoredTransport, row: VectorDb): Partial<VectorDbView> {
  if (t.family === 'jdbc') {
    return {
      jdbcUrl: t.jdbcUrl, jdbcUsername: t.username, jdbcPasswordSet: row.passwordCipher !== null,
      poolMinimumIdle: t.pool?.minimumIdle ?? null, poolMaximumPoolSize: t.pool?.maximumPoolSize ?? null, poolConnectionTimeoutMs: t.pool?.connectionTimeoutMs ?? null,
      poolIdleTimeoutMs: t.pool?.idleTimeoutMs ?? null, poolMaxLifetimeMs: t.pool?.maxLifetimeMs ?? null,
    }
  }
  if (t.family === 'redis') return { redisUri: t.uri, redisUsername: t.username, redisPasswordSet: row.passwordCipher !== null }
  return {
    endpoint: t.endpoint, apiVersion: t.apiVersion, authScheme: t.authScheme, authHeaderName: t.authHeaderName, apiKeySet: row.apiKeyCipher !== null,
    apiSecretSet: row.apiSecretCipher !== null, regionCode: t.regionCode,
  }
}

function viewOf(row: VectorDb, projectName: string): VectorDbView {
  const t = transportOf(row)
  const secrets = t.family === 'http'
    ? { apiKeySet: row.apiKeyCipher !== null, apiSecretSet: row.apiSecretCipher !== null }
    : { passwordSet: row.passwordCipher !== null }
  return {
    _class: 'vector-db',
    id: row.id,
    projectId: row.projectId,
    projectName,
    name: row.name,
    description: row.description,
    enabled: row.enabled,
    dbType: row.dbType,
    family: t.family,
    connectTimeoutMs: t.connectTimeoutMs,
    requestTimeoutMs: t.requestTimeoutMs,
    ...flatFields(t, row),
    defaultCollectionName: row.defaultCollectionName,
    embeddingDimension: row.embeddingDimension,
    distanceMetric: row.distanceMetric,
    maxBatchSize: row.maxBatchSize,
    builtIn: false,
    transport: { ...t, ...secrets },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

/** What a worker gets: the stored connection with its secrets opened (transport as sent, flat fields too). */
export function vectorDbRuntimeConfig(row: VectorDb, keyring: SecretKeyring) {
  const view = viewOf(row, '')
  const t = view.transport
  const secrets = t.family === 'http'
    ? { apiKey: open(keyring, row.apiKeyCipher), apiSecret: open(keyring, row.apiSecretCipher) }
    : { password: open(keyring, row.passwordCipher) }
  return { ...view, transport: { ...t, ...secrets } }
}

const vectorDbNotFound = (name: string, projectName: string) => notFound(`Vector store '${name}' not found in project '${projectName}'`, { vectorDb: name })

export const findVectorDb = (db: Tx, projectId: string, name: string) =>
  db.vectorDb.findUnique({ where: { projectId_nameKey: { projectId, nameKey: nameKeyOf(name) } } })

export async function listVectorDbs(deps: Deps, actor: Actor, projectName: string): Promise<VectorDbView[]> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const rows = await deps.prisma.vectorDb.findMany({ where: { projectId: access.project.id }, orderBy: { nameKey: 'asc' } })
  return rows.map((r) => viewOf(r, access.project.name))
}

/** A page of vector stores (the GraphQL list). */
export async function pageVectorDbs(deps: Deps, actor: Actor, projectName: string, paging: PagingQuery): Promise<Page<VectorDbView>> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const { request, ...window } = namedPage(paging)
  const where = { projectId: access.project.id }
  const page = await findPage(request, deps.prisma.vectorDb.findMany({ where, ...window }), deps.prisma.vectorDb.count({ where }))
  return { ...page, items: page.items.map((r) => viewOf(r, access.project.name)) }
}

export async function getVectorDb(deps: Deps, actor: Actor, projectName: string, name: string): Promise<VectorDbView> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const row = await findVectorDb(deps.prisma, access.project.id, name)
  if (!row) throw vectorDbNotFound(name, access.project.name)
  return viewOf(row, access.project.name)
}

export interface VectorDbWrite { vectorDb: VectorDbView; deploymentResult: DeploymentOutcome }

/**
 * POST (upsert; name required) and PUT (must exist; blank name = path). Full replacement of the non-secret
 * fields; a blank password/apiKey keeps the stored one while the transport family stays the same.
 */
export async function saveVectorDb(deps: Deps, actor: Actor, projectName: string, rawPathName: string, raw: unknown, mode: 'upsert' | 'update'): Promise<VectorDbWrite> {
  const { access, body, current, finalName } = await openNamedWrite(deps, actor, projectName, rawPathName, raw, mode, {
    bodyClass: 'vector-db', find: (projectId, name) => findVectorDb(deps.prisma, projectId, name), notFound: vectorDbNotFound,
  })
  const input = parseVectorDbBody(body)
  const t = input.transport
  const sameFamily = current?.transportFamily === t.family
  const k = deps.keyring
  const data = {
    name: finalName,
    description: blankToNull(input.description),
    enabled: input.enabled ?? true,
    dbType: input.dbType,
    defaultCollectionName: blankToNull(input.defaultCollectionName),
    embeddingDimension: input.embeddingDimension ?? null,
    // "filled from dbType when omitted" (the vendor page)
    distanceMetric: blankToNull(input.distanceMetric) ?? DEFAULT_DISTANCE_METRIC,
    maxBatchSize: input.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE,
    transportFamily: t.family,
    transport: storedTransport(t) as unknown as Prisma.InputJsonValue,
    // a stored secret belongs to its transport family: it is not carried over to another family
    passwordCipher: t.family !== 'http' ? sealSecret(k, t.password, sameFamily ? current!.passwordCipher : null) : null,
    apiKeyCipher: t.family === 'http' ? sealSecret(k, t.apiKey, sameFamily ? current!.apiKeyCipher : null) : null,
    apiSecretCipher: t.family === 'http' ? sealSecret(k, t.apiSecret, sameFamily ? current!.apiSecretCipher : null) : null,
  }
  const row = await saveNamed('Vector store', finalName, () =>
    current
      ? deps.prisma.vectorDb.update({ where: { id: current.id }, data: { ...data, revision: { increment: 1 } } })
      : deps.prisma.vectorDb.create({ data: { ...data, nameKey: nameKeyOf(finalName), projectId: access.project.id } }),
  )
  const deploymentResult = await pushToProject(deps, access, {
    action: 'DEPLOY', kind: 'VECTOR_DB', name: row.name, revision: row.revision, config: vectorDbRuntimeConfig(row, deps.keyring),
  })
  return { vectorDb: viewOf(row, access.project.name), deploymentResult }
}

/** Deletes and undeploys; a vector store a knowledge base uses cannot go. */
export async function deleteVectorDb(deps: Deps, actor: Actor, projectName: string, name: string): Promise<{ deploymentResult: DeploymentOutcome }> {
  const access = await aiAccess(deps, actor, projectName, 'MANAGE')
  const row = await findVectorDb(deps.prisma, access.project.id, name)
  if (!row) throw vectorDbNotFound(name, access.project.name)
  await deleteUnlessKnowledgeBasesUse(deps.prisma, { vectorDbId: row.id }, `Vector store '${row.name}'`, 'is used by', () => deps.prisma.vectorDb.delete({ where: { id: row.id } }))
  const deploymentResult = await undeployFromProject(deps, access, 'VECTOR_DB', row, row.name)
  return { deploymentResult }
}
