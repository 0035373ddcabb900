import crypto from 'node:crypto'
import type { KnowledgeDocument } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { findPage, type Page, type PagingQuery } from '../../../platform/envelopes/paging.js'
import { malformed, notFound } from '../../../platform/errors/domain-error.js'
import type { MultipartFile } from '../../../platform/http/routes.js'
import { chunkText } from './chunking.js'
import { aiAccess, blankToNull, namedPage } from '../common.js'
import { embedTexts } from './embeddings.js'
import { deployKb, findKb, kbNotFound, kbView, withRefs, type KbWithRefs, type KnowledgeBaseWrite } from './service.js'

// Documents of a knowledge base (spec §4.5): upload with chunking and embedding on ingest, list, read,
// delete, and reindex. Documents are addressed by id (spec §1 rule 2).

/** Largest document accepted by an upload. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024

export interface DocumentView {
  id: string
  knowledgeBaseName: string
  fileName: string
  mimeType: string
  sizeBytes: number
  sha256: string
  chunkCount: number
  embeddingModel: string
  dimension: number
  indexedAt: Date
  createdAt: Date
  /** only on the single-document read: the chunks' text in order (vectors are not returned) */
  chunks?: { ordinal: number; content: string }[]
}

const documentView = (doc: KnowledgeDocument, kbName: string): DocumentView => ({
  id: doc.id,
  knowledgeBaseName: kbName,
  fileName: doc.fileName,
  mimeType: doc.mimeType,
  sizeBytes: doc.sizeBytes,
  sha256: doc.sha256,
  chunkCount: doc.chunkCount,
  embeddingModel: doc.embeddingModel,
  dimension: doc.dimension,
  indexedAt: doc.indexedAt,
  createdAt: doc.createdAt,
})

/** UTF-8 text only: a document with NUL bytes or invalid UTF-8 is refused (no binary extraction here). */
function documentText(file: MultipartFile): string {
  if (file.bytes.length === 0) throw malformed('file: the uploaded document is empty', { field: 'file' })
  if (file.bytes.length > MAX_DOCUMENT_BYTES) throw malformed(`file: documents are limited to ${MAX_DOCUMENT_BYTES} bytes`, { field: 'file' })
  let decoded: string
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(file.bytes)
  } catch {
    throw malformed('file: only UTF-8 text documents are supported (text, Markdown, CSV, JSON, HTML…)', { field: 'file' })
  }
  if (decoded.includes('\u0000')) throw malformed('file: only UTF-8 text documents are supported (the file holds binary data)', { field: 'file' })
  if (!decoded.trim()) throw malformed('file: the uploaded document holds no text', { field: 'file' })
  return decoded.replace(/^\uFEFF/, '')
}

/** Chunks and embeds one text with the knowledge base's current provider, model and chunking. */
async function embedDocument(deps: Deps, kb: KbWithRefs, text: string) {
  const chunks = chunkText(text, kb.chunkSize, kb.chunkOverlap)
  const vectors = await embedTexts(kb.embeddingProvider, deps.keyring, kb.embeddingModel, chunks)
  return { chunks, vectors, dimension: vectors[0]?.length ?? 0 }
}

export interface DocumentWrite { document: DocumentView; deploymentResult: DeploymentOutcome }

/**
 * POST …/documents/ (multipart, part `file`): the text is split into chunks and each chunk embedded through
 * the embedding provider's /embeddings; the document, its chunks and vectors are stored together, or nothing
 * is stored when embedding fails.
 */
export async function uploadDocument(deps: Deps, actor: Actor, projectName: string, kbName: string, file: MultipartFile | undefined, fileName?: string): Promise<DocumentWrite> {
  const access = await aiAccess(deps, actor, projectName, 'MANAGE')
  const kb = await findKb(deps.prisma, access, kbName)
  if (!file) throw malformed("file: a multipart part named 'file' is required", { field: 'file' })
  const text = documentText(file)
  const { chunks, vectors, dimension } = await embedDocument(deps, kb, text)
  const name = blankToNull(fileName) ?? blankToNull(file.fileName) ?? 'document.txt'
  const [doc, updatedKb] = await deps.prisma.$transaction(async (tx) => {
    // embedding took time: the knowledge base may have been deleted meanwhile
    if (!(await tx.knowledgeBase.findUnique({ where: { id: kb.id }, select: { id: true } }))) throw kbNotFound(kb.name, access.project.name)
    const created = await tx.knowledgeDocument.create({
      data: {
        knowledgeBaseId: kb.id, fileName: name.slice(0, 500), mimeType: file.mimeType || 'text/plain', sizeBytes: file.bytes.length,
        sha256: crypto.createHash('sha256').update(file.bytes).digest('hex'), text, chunkCount: chunks.length,
        embeddingModel: kb.embeddingModel, dimension, indexedAt: new Date(),
      },
    })
    await tx.knowledgeChunk.createMany({ data: chunks.map((content, ordinal) => ({ documentId: created.id, knowledgeBaseId: kb.id, ordinal, content, embedding: vectors[ordinal] })) })
    const bumped = await tx.knowledgeBase.update({ where: { id: kb.id }, data: { revision: { increment: 1 } }, include: withRefs })
    return [created, bumped] as const
  })
  return { document: documentView(doc, kb.name), deploymentResult: await deployKb(deps, access, updatedKb) }
}

export async function listDocuments(deps: Deps, actor: Actor, projectName: string, kbName: string): Promise<DocumentView[]> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const kb = await findKb(deps.prisma, access, kbName)
  const docs = await deps.prisma.knowledgeDocument.findMany({ where: { knowledgeBaseId: kb.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], omit: { text: true } })
  return docs.map((d) => documentView(d as KnowledgeDocument, kb.name))
}

const DOCUMENT_SORT = { defaultSort: 'createdAt,asc', supported: ['createdAt', 'fileName', 'sizeBytes'] }

/** A page of a knowledge base's documents (the GraphQL list). */
export async function pageDocuments(deps: Deps, actor: Actor, projectName: string, kbName: string, paging: PagingQuery): Promise<Page<DocumentView>> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const kb = await findKb(deps.prisma, access, kbName)
  const { request, ...window } = namedPage(paging, DOCUMENT_SORT, {})
  const where = { knowledgeBaseId: kb.id }
  const page = await findPage(request, deps.prisma.knowledgeDocument.findMany({ where, omit: { text: true }, ...window }), deps.prisma.knowledgeDocument.count({ where }))
  return { ...page, items: page.items.map((d) => documentView(d as KnowledgeDocument, kb.name)) }
}

const documentNotFound = (id: string, kbName: string) => notFound(`Document '${id}' not found in knowledge base '${kbName}'`, { document: id })

async function findDocument(db: Tx, kb: KbWithRefs, documentId: string) {
  const id = documentId.trim()
  // ids are UUIDs: anything else cannot match and must not reach the database as a malformed uuid
  const doc = /^[0-9a-f-]{36}$/i.test(id) ? await db.knowledgeDocument.findFirst({ where: { id, knowledgeBaseId: kb.id } }) : null
  if (!doc) throw documentNotFound(documentId, kb.name)
  return doc
}

export async function getDocument(deps: Deps, actor: Actor, projectName: string, kbName: string, documentId: string): Promise<DocumentView> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const kb = await findKb(deps.prisma, access, kbName)
  const doc = await findDocument(deps.prisma, kb, documentId)
  const chunks = await deps.prisma.knowledgeChunk.findMany({ where: { documentId: doc.id }, orderBy: { ordinal: 'asc' }, select: { ordinal: true, content: true } })
  return { ...documentView(doc, kb.name), chunks }
}

/** Removes the document and its vectors, then redeploys the knowledge base. */
export async function deleteDocument(deps: Deps, actor: Actor, projectName: string, kbName: string, documentId: string): Promise<{ deploymentResult: DeploymentOutcome }> {
  const access = await aiAccess(deps, actor, projectName, 'MANAGE')
  const kb = await findKb(deps.prisma, access, kbName)
  const doc = await findDocument(deps.prisma, kb, documentId)
  const updatedKb = await deps.prisma.$transaction(async (tx) => {
    await tx.knowledgeDocument.delete({ where: { id: doc.id } })
    return tx.knowledgeBase.update({ where: { id: kb.id }, data: { revision: { increment: 1 } }, include: withRefs })
  })
  return { deploymentResult: await deployKb(deps, access, updatedKb) }
}

export interface ReindexResult extends KnowledgeBaseWrite { reindexedDocuments: number }

/**
 * Re-chunks and re-embeds documents with the knowledge base's current settings. All embeddings are computed first;
 * the stored vectors are replaced in one transaction only when all succeeded (nothing changes when one fails).
 */
async function reembed(deps: Deps, access: ProjectAccess, kb: KbWithRefs, docs: KnowledgeDocument[]): Promise<KbWithRefs> {
  const embedded: ({ doc: KnowledgeDocument } & Awaited<ReturnType<typeof embedDocument>>)[] = []
  for (const doc of docs) embedded.push({ doc, ...(await embedDocument(deps, kb, doc.text)) })
  return deps.prisma.$transaction(async (tx) => {
    if (!(await tx.knowledgeBase.findUnique({ where: { id: kb.id }, select: { id: true } }))) throw kbNotFound(kb.name, access.project.name)
    for (const { doc, chunks, vectors, dimension } of embedded) {
      // a document deleted while the others were embedded stays deleted
      if (!(await tx.knowledgeDocument.findUnique({ where: { id: doc.id }, select: { id: true } }))) continue
      await tx.knowledgeChunk.deleteMany({ where: { documentId: doc.id } })
      await tx.knowledgeChunk.createMany({ data: chunks.map((content, ordinal) => ({ documentId: doc.id, knowledgeBaseId: kb.id, ordinal, content, embedding: vectors[ordinal] })) })
      await tx.knowledgeDocument.update({ where: { id: doc.id }, data: { chunkCount: chunks.length, dimension, embeddingModel: kb.embeddingModel, indexedAt: new Date() } })
    }
    return tx.knowledgeBase.update({ where: { id: kb.id }, data: { revision: { increment: 1 } }, include: withRefs })
  })
}

/** POST …/reindex/: every document of the knowledge base re-chunked and re-embedded, then the knowledge base deployed. */
export async function reindexKnowledgeBase(deps: Deps, actor: Actor, projectName: string, kbName: string): Promise<ReindexResult> {
  const access = await aiAccess(deps, actor, projectName, 'MANAGE')
  const kb = await findKb(deps.prisma, access, kbName)
  const docs = await deps.prisma.knowledgeDocument.findMany({ where: { knowledgeBaseId: kb.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })
  const updatedKb = await reembed(deps, access, kb, docs)
  return {
    knowledgeBase: await kbView(deps.prisma, updatedKb, access.project.name),
    deploymentResult: await deployKb(deps, access, updatedKb),
    reindexedDocuments: docs.length,
  }
}

/**
 * POST …/documents/{documentId}/reindex/ (apinizer/docs reindex-knowledge-document): this document alone re-chunked
 * and re-embedded with the knowledge base's current settings, the others untouched; then the knowledge base deployed.
 */
export async function reindexDocument(deps: Deps, actor: Actor, projectName: string, kbName: string, documentId: string): Promise<DocumentWrite> {
  const access = await aiAccess(deps, actor, projectName, 'MANAGE')
  const kb = await findKb(deps.prisma, access, kbName)
  const doc = await findDocument(deps.prisma, kb, documentId)
  const updatedKb = await reembed(deps, access, kb, [doc])
  const reindexed = await deps.prisma.knowledgeDocument.findUnique({ where: { id: doc.id } })
  if (!reindexed) throw documentNotFound(documentId, kb.name)
  return { document: documentView(reindexed, kb.name), deploymentResult: await deployKb(deps, access, updatedKb) }
}
