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

/** Spec §2.11: eight store types, vendor-named apart from OTHER. */
export const VECTOR_DB_TYPES = ['PGVECTOR', 'QDRANT', 'WEAVIATE', 'PINECONE', 'MILVUS', 'CHROMA', 'ELASTICSEARCH', 'OTHER'] as const
export const VECTOR_AUTH_SCHEMES = ['BEARER', 'API_KEY_HEADER', 'BASIC', 'NONE', 'CUSTOM'] as const
export const TRANSPORT_FAMILIES = ['jdbc', 'http'] as const
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).nullish()

const jdbcTransport = z.strictObject({
  family: z.literal('jdbc'),
  connectTimeoutMs: z.number().int('must be an integer').min(1, 'must be at least 1').max(600_000, 'must be at most 600000').nullish(),
  jdbcUrl: z.string({ error: 'is required' }).trim().min(1, 'is required').max(2000).regex(/^jdbc:[a-z0-9]+:/i, 'must be a JDBC URL (jdbc:<driver>:…)'),
  username: text(200),
  password: text(10_000),
  passwordSet: z.unknown().optional(),
})

const httpTransport = z.strictObject({
  family: z.literal('http'),
  endpoint: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  apiVersion: text(100),
  authScheme: z.enum(VECTOR_AUTH_SCHEMES, { error: `must be one of ${VECTOR_AUTH_SCHEMES.join(', ')}` }).nullish(),
  authHeaderName: headerNameField(),
  apiKey: text(10_000),
  apiKeySet: z.unknown().optional(),
})

const transport = z.discriminatedUnion('family', [jdbcTransport, httpTransport], { error: `family must be one of ${TRANSPORT_FAMILIES.join(', ')}` })

/** The create body of spec §2.11 (also the body of test-connection). */
export const vectorDbInput = z.strictObject({
  _class: z.literal('vector-db'),
  name: z.string().nullish(),
  description: text(1000),
  dbType: z.enum(VECTOR_DB_TYPES, { error: `is required, one of ${VECTOR_DB_TYPES.join(', ')}` }),
  defaultCollectionName: text(200),
  embeddingDimension: z.number().int('must be an integer').min(1, 'must be at least 1').max(65_536, 'must be at most 65536').nullish(),
  distanceMetric: text(50),
  transport: transport,
  id: z.unknown().optional(),
  projectId: z.unknown().optional(),
  projectName: z.unknown().optional(),
  createdAt: z.unknown().optional(),
  updatedAt: z.unknown().optional(),
})
export type VectorDbInput = z.output<typeof vectorDbInput>
export type TransportInput = VectorDbInput['transport']

/** Reads the body: `_class` first (a body without it cannot be deserialized), then the one schema. */
export function parseVectorDbBody(raw: unknown): VectorDbInput {
  const body = requireObjectBody(raw)
  requireClass(body, 'vector-db')
  if (body.transport === undefined || body.transport === null) throw malformed('transport: is required (an object with family jdbc or http)', { field: 'transport' })
  return parseInput(vectorDbInput, body)
}

type StoredTransport =
  | { family: 'jdbc'; connectTimeoutMs: number; jdbcUrl: string; username: string | null }
  | { family: 'http'; endpoint: string; apiVersion: string | null; authScheme: string; authHeaderName: string | null }

export type TransportView = StoredTransport & { passwordSet?: boolean; apiKeySet?: boolean }

export interface VectorDbView {
  _class: 'vector-db'
  id: string
  projectId: string
  projectName: string
  name: string
  description: string | null
  dbType: string
  defaultCollectionName: string | null
  embeddingDimension: number | null
  distanceMetric: string | null
  transport: TransportView
  createdAt: Date
  updatedAt: Date
}

/** The non-secret part of a transport with its defaults applied. */
export function storedTransport(t: TransportInput): StoredTransport {
  return t.family === 'jdbc'
    ? { family: 'jdbc', connectTimeoutMs: t.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, jdbcUrl: t.jdbcUrl, username: blankToNull(t.username) }
    : { family: 'http', endpoint: t.endpoint, apiVersion: blankToNull(t.apiVersion), authScheme: t.authScheme ?? 'BEARER', authHeaderName: blankToNull(t.authHeaderName) }
}

function viewOf(row: VectorDb, projectName: string): VectorDbView {
  const t = row.transport as unknown as StoredTransport
  return {
    _class: 'vector-db',
    id: row.id,
    projectId: row.projectId,
    projectName,
    name: row.name,
    description: row.description,
    dbType: row.dbType,
    defaultCollectionName: row.defaultCollectionName,
    embeddingDimension: row.embeddingDimension,
    distanceMetric: row.distanceMetric,
    transport: t.family === 'jdbc' ? { ...t, passwordSet: row.passwordCipher !== null } : { ...t, apiKeySet: row.apiKeyCipher !== null },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

export function vectorDbRuntimeConfig(row: VectorDb, keyring: SecretKeyring) {
  const view = viewOf(row, '')
  const t = view.transport
  return {
    ...view,
    transport: t.family === 'jdbc' ? { ...t, password: open(keyring, row.passwordCipher) } : { ...t, apiKey: open(keyring, row.apiKeyCipher) },
  }
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
    dbType: input.dbType,
    defaultCollectionName: blankToNull(input.defaultCollectionName),
    embeddingDimension: input.embeddingDimension ?? null,
    distanceMetric: blankToNull(input.distanceMetric),
    transportFamily: t.family,
    transport: storedTransport(t) as unknown as Prisma.InputJsonValue,
    // a stored secret belongs to its transport family: it is not carried over to another family
    passwordCipher: t.family === 'jdbc' ? sealSecret(k, t.password, sameFamily ? current!.passwordCipher : null) : null,
    apiKeyCipher: t.family === 'http' ? sealSecret(k, t.apiKey, sameFamily ? current!.apiKeyCipher : null) : null,
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
