import { z } from 'zod'
import type { KnowledgeBase, LlmProvider, VectorDb } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { findPage, type Page, type PagingQuery } from '../../../platform/envelopes/paging.js'
import { malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { CHUNK_SIZE, DEFAULT_CHUNK_OVERLAP } from './chunking.js'
import { aiAccess, blankToNull, namedPage, nameKeyOf, openNamedWrite, pushToProject, saveNamed, undeployFromProject } from '../common.js'
import { resolveProviderUrl } from '../providers/urls.js'

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).nullish()

/**
 * A knowledge base. Its connections are referenced by id (spec §1 rule 2): embeddingProviderId is the id of an
 * LLM provider of the project, vectorDbId the id of a vector store (optional).
 */
export const knowledgeBaseInput = z.strictObject({
  _class: z.unknown().optional(),
  name: z.string().nullish(),
  description: text(1000),
  embeddingProviderId: z.string({ error: 'is required (the id of an LLM provider of the project)' }).trim().min(1, 'is required (the id of an LLM provider of the project)'),
  embeddingModel: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200),
  vectorDbId: text(100),
  collectionName: text(200),
  chunkSize: z.number().int('must be an integer').min(CHUNK_SIZE.min, `must be at least ${CHUNK_SIZE.min}`).max(CHUNK_SIZE.max, `must be at most ${CHUNK_SIZE.max}`).nullish(),
  chunkOverlap: z.number().int('must be an integer').min(0, 'must be at least 0').nullish(),
  id: z.unknown().optional(), projectId: z.unknown().optional(), projectName: z.unknown().optional(), embeddingProviderName: z.unknown().optional(),
  vectorDbName: z.unknown().optional(), documentCount: z.unknown().optional(), chunkCount: z.unknown().optional(),
  createdAt: z.unknown().optional(), updatedAt: z.unknown().optional(),
})

export type KbWithRefs = KnowledgeBase & { embeddingProvider: LlmProvider; vectorDb: VectorDb | null }

export interface KnowledgeBaseView {
  id: string
  projectId: string
  projectName: string
  name: string
  description: string | null
  embeddingProviderId: string
  embeddingProviderName: string
  embeddingModel: string
  vectorDbId: string | null
  vectorDbName: string | null
  collectionName: string | null
  chunkSize: number
  chunkOverlap: number
  documentCount: number
  chunkCount: number
  createdAt: Date
  updatedAt: Date
}

export const withRefs = { embeddingProvider: true, vectorDb: true } as const

async function counts(db: Tx, kbIds: string[]) {
  if (!kbIds.length) return new Map<string, { documents: number; chunks: number }>()
  const docs = await db.knowledgeDocument.groupBy({ by: ['knowledgeBaseId'], where: { knowledgeBaseId: { in: kbIds } }, _count: { _all: true }, _sum: { chunkCount: true } })
  return new Map(docs.map((d) => [d.knowledgeBaseId, { documents: d._count._all, chunks: d._sum.chunkCount ?? 0 }]))
}

function viewOf(row: KbWithRefs, projectName: string, c?: { documents: number; chunks: number }): KnowledgeBaseView {
  return {
    id: row.id,
    projectId: row.projectId,
    projectName,
    name: row.name,
    description: row.description,
    embeddingProviderId: row.embeddingProviderId,
    embeddingProviderName: row.embeddingProvider.name,
    embeddingModel: row.embeddingModel,
    vectorDbId: row.vectorDbId,
    vectorDbName: row.vectorDb?.name ?? null,
    collectionName: row.collectionName,
    chunkSize: row.chunkSize,
    chunkOverlap: row.chunkOverlap,
    documentCount: c?.documents ?? 0,
    chunkCount: c?.chunks ?? 0,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

export const kbNotFound = (name: string, projectName: string) => notFound(`Knowledge base '${name}' not found in project '${projectName}'`, { knowledgeBase: name })

export async function findKb(db: Tx, access: ProjectAccess, name: string): Promise<KbWithRefs> {
  const row = await db.knowledgeBase.findUnique({ where: { projectId_nameKey: { projectId: access.project.id, nameKey: nameKeyOf(name) } }, include: withRefs })
  if (!row) throw kbNotFound(name, access.project.name)
  return row
}

export async function kbView(db: Tx, row: KbWithRefs, projectName: string) {
  return viewOf(row, projectName, (await counts(db, [row.id])).get(row.id))
}

/** The runtime form pushed to the gateways: settings and sizes, no vectors. */
export const deployKb = async (deps: Deps, access: ProjectAccess, row: KbWithRefs): Promise<DeploymentOutcome> =>
  pushToProject(deps, access, { action: 'DEPLOY', kind: 'KNOWLEDGE_BASE', name: row.name, revision: row.revision, config: await kbView(deps.prisma, row, access.project.name) })

/** Pushes a knowledge base as it now stands (after an import). */
export async function pushKnowledgeBase(deps: Deps, access: ProjectAccess, name: string): Promise<DeploymentOutcome | null> {
  const row = await deps.prisma.knowledgeBase.findUnique({ where: { projectId_nameKey: { projectId: access.project.id, nameKey: nameKeyOf(name) } }, include: withRefs })
  return row ? deployKb(deps, access, row) : null
}

export async function listKnowledgeBases(deps: Deps, actor: Actor, projectName: string): Promise<KnowledgeBaseView[]> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const rows = await deps.prisma.knowledgeBase.findMany({ where: { projectId: access.project.id }, include: withRefs, orderBy: { nameKey: 'asc' } })
  const c = await counts(deps.prisma, rows.map((r) => r.id))
  return rows.map((r) => viewOf(r, access.project.name, c.get(r.id)))
}

/** A page of knowledge bases (the GraphQL list). */
export async function pageKnowledgeBases(deps: Deps, actor: Actor, projectName: string, paging: PagingQuery): Promise<Page<KnowledgeBaseView>> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const { request, ...window } = namedPage(paging)
  const where = { projectId: access.project.id }
  const page = await findPage(request, deps.prisma.knowledgeBase.findMany({ where, include: withRefs, ...window }), deps.prisma.knowledgeBase.count({ where }))
  const c = await counts(deps.prisma, page.items.map((r) => r.id))
  return { ...page, items: page.items.map((r) => viewOf(r, access.project.name, c.get(r.id))) }
}

export async function getKnowledgeBase(deps: Deps, actor: Actor, projectName: string, name: string): Promise<KnowledgeBaseView> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  return kbView(deps.prisma, await findKb(deps.prisma, access, name), access.project.name)
}

export interface KnowledgeBaseWrite { knowledgeBase: KnowledgeBaseView; deploymentResult: DeploymentOutcome }

/** Resolves the connection references of a knowledge base body (ids of the project's provider and vector store). */
async function references(db: Tx, projectId: string, input: z.output<typeof knowledgeBaseInput>) {
  const provider = await db.llmProvider.findFirst({ where: { id: input.embeddingProviderId, projectId } })
  if (!provider) throw malformed(`embeddingProviderId: no LLM provider with id '${input.embeddingProviderId}' in this project`, { field: 'embeddingProviderId' })
  if (!resolveProviderUrl(provider, 'EMBEDDING').url) {
    throw malformed(`embeddingProviderId: LLM provider '${provider.name}' has no embeddings path`, { field: 'embeddingProviderId' })
  }
  const vectorDbId = blankToNull(input.vectorDbId)
  if (vectorDbId && !(await db.vectorDb.findFirst({ where: { id: vectorDbId, projectId } }))) {
    throw malformed(`vectorDbId: no vector store with id '${vectorDbId}' in this project`, { field: 'vectorDbId' })
  }
  return { embeddingProviderId: provider.id, vectorDbId }
}

/**
 * POST (upsert; name required) and PUT (must exist; blank name = path). Full replacement. Stored vectors are
 * not touched: after changing the provider, model or chunking, POST …/reindex/ re-embeds every document.
 */
export async function saveKnowledgeBase(deps: Deps, actor: Actor, projectName: string, rawPathName: string, raw: unknown, mode: 'upsert' | 'update'): Promise<KnowledgeBaseWrite> {
  const { access, body, current, finalName } = await openNamedWrite(deps, actor, projectName, rawPathName, raw, mode, {
    find: (projectId, name) => deps.prisma.knowledgeBase.findUnique({ where: { projectId_nameKey: { projectId, nameKey: nameKeyOf(name) } } }),
    notFound: kbNotFound,
  })
  const input = parseInput(knowledgeBaseInput, body)
  const chunkSize = input.chunkSize ?? CHUNK_SIZE.default
  const chunkOverlap = input.chunkOverlap ?? Math.min(DEFAULT_CHUNK_OVERLAP, Math.floor(chunkSize / 2))
  if (chunkOverlap > Math.floor(chunkSize / 2)) throw malformed(`chunkOverlap: must be at most half of chunkSize (${Math.floor(chunkSize / 2)})`, { field: 'chunkOverlap' })
  const data = {
    name: finalName,
    description: blankToNull(input.description),
    embeddingModel: input.embeddingModel,
    collectionName: blankToNull(input.collectionName),
    chunkSize,
    chunkOverlap,
    ...(await references(deps.prisma, access.project.id, input)),
  }
  const row = await saveNamed('Knowledge base', finalName, () =>
    current
      ? deps.prisma.knowledgeBase.update({ where: { id: current.id }, data: { ...data, revision: { increment: 1 } }, include: withRefs })
      : deps.prisma.knowledgeBase.create({ data: { ...data, nameKey: nameKeyOf(finalName), projectId: access.project.id }, include: withRefs }),
  )
  return { knowledgeBase: await kbView(deps.prisma, row, access.project.name), deploymentResult: await deployKb(deps, access, row) }
}

/** Deletes the knowledge base with its documents and vectors, and undeploys it. */
export async function deleteKnowledgeBase(deps: Deps, actor: Actor, projectName: string, name: string): Promise<{ deploymentResult: DeploymentOutcome }> {
  const access = await aiAccess(deps, actor, projectName, 'MANAGE')
  const row = await removeKnowledgeBase(deps.prisma, access, name)
  const deploymentResult = await undeployFromProject(deps, access, 'KNOWLEDGE_BASE', row, row.name)
  return { deploymentResult }
}

/** The delete itself, in `db` (DELETE, or a declarative sync's transaction); undeployFromProject after the commit. */
export async function removeKnowledgeBase(db: Tx, access: ProjectAccess, name: string): Promise<KbWithRefs> {
  const row = await findKb(db, access, name)
  await db.knowledgeBase.delete({ where: { id: row.id } })
  return row
}
