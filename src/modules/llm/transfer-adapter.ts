import type { KnowledgeBase, LlmProvider, Prisma } from '../../generated/prisma/client.js'
import { malformedReason } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import type { AdapterContext, Advisory, ObjectRef, PortableObject, TransferAdapter } from '../../platform/transfer/registry.js'
import { nameKeyOf, open } from './common.js'
import { findDefinition } from './providers/definitions.js'
import { pushKnowledgeBase } from './knowledge/service.js'
import { findProvider, providerData, providerInput, pushProvider, type StoredMetadata } from './providers/service.js'

/**
 * Export/transfer adapters of the LLM module (contributed to the transfer registry through
 * `transferAdapters`, see src/modules/transfer/adapters/index.ts).
 *
 * LLM_PROVIDER: the write body of spec §2.7 without ids, timestamps, health or presence flags. apiKey,
 * apiSecret and serviceAccountJson travel as secrets, secret metadata values as `metadata:<key>`. A custom
 * provider definition is named by its name; when the target has no definition of that name the provider
 * falls back to its type's built-in definition (advisory transfer.unresolvedReference).
 *
 * KNOWLEDGE_BASE: the configuration, its embedding provider named (a dependency of type LLM_PROVIDER) and
 * its vector store named (not an exportable type: resolved by name in the target, else left empty with an
 * advisory), plus every document with its chunks and vectors, so an import needs no embedding call.
 */

const PROVIDER = 'LLM_PROVIDER'
const KNOWLEDGE_BASE = 'KNOWLEDGE_BASE'
const METADATA_SECRET = 'metadata:'

const unresolved = (object: ObjectRef, type: string, name: string): Advisory => ({
  level: 'WARNING',
  key: 'transfer.unresolvedReference',
  params: { object: `${object.type}/${object.name}`, type, name },
})

// ---- LLM_PROVIDER -------------------------------------------------------------------------------------------

async function providerToPortable(ctx: AdapterContext, row: LlmProvider): Promise<PortableObject> {
  const k = ctx.deps.keyring
  const secrets: Record<string, string> = {}
  for (const [field, sealed] of [['apiKey', row.apiKeyCipher], ['apiSecret', row.apiSecretCipher], ['serviceAccountJson', row.serviceAccountJsonCipher]] as const) {
    if (sealed && k.knows(sealed)) secrets[field] = k.decrypt(sealed)
  }
  const metadata = (row.metadata as unknown as StoredMetadata[]).map((m) => {
    if (m.secret && m.valueCipher && k.knows(m.valueCipher)) secrets[METADATA_SECRET + m.key] = open(k, m.valueCipher)!
    return { key: m.key, value: m.secret ? null : m.value, secret: m.secret }
  })
  // a custom definition travels by name (its id means nothing elsewhere); a built-in's id is its name
  const definition = row.providerDefinitionId ? await findDefinition(ctx.db, row.projectId, row.providerDefinitionId) : null
  return {
    type: PROVIDER,
    kind: null,
    name: row.name,
    data: {
      description: row.description,
      enabled: row.enabled,
      providerType: row.providerType,
      endpoint: row.endpoint,
      apiVersion: row.apiVersion,
      organizationId: row.organizationId,
      authScheme: row.authScheme,
      authHeaderName: row.authHeaderName,
      region: row.region,
      supportedModels: row.supportedModels,
      providerRpmLimit: row.providerRpmLimit,
      providerTpmLimit: row.providerTpmLimit,
      coldStartRetryEnabled: row.coldStartRetryEnabled,
      deploymentType: row.deploymentType,
      providerDefinitionId: definition?.name ?? null,
      allowedModelIds: row.allowedModelIds,
      metadata,
    },
    secrets,
    dependencies: [],
  }
}

export const llmProviderAdapter: TransferAdapter = {
  type: PROVIDER,
  category: PROVIDER,
  kinds: null,
  secretFields: ['apiKey', 'apiSecret', 'serviceAccountJson', 'metadata'],
  scope: 'project',
  source: 'llm',

  async findByName(ctx, name) {
    const row = await findProvider(ctx.db, ctx.access.project.id, name)
    return row ? [await providerToPortable(ctx, row)] : []
  },

  async listNames(ctx) {
    const rows = await ctx.db.llmProvider.findMany({ where: { projectId: ctx.access.project.id }, select: { name: true }, orderBy: { nameKey: 'asc' } })
    return rows.map((r) => r.name)
  },

  /** Creates or replaces the provider; a secret the package does not carry keeps the target's own value. */
  async write(ctx, object, existing) {
    const advisories: Advisory[] = []
    const projectId = ctx.access.project.id
    const d = object.data
    let definitionRef = typeof d.providerDefinitionId === 'string' ? d.providerDefinitionId : null
    if (definitionRef && !(await findDefinition(ctx.db, projectId, definitionRef))) {
      advisories.push(unresolved(object, 'LLM_PROVIDER_DEFINITION', definitionRef))
      definitionRef = null
    }
    const metadata = ((d.metadata ?? []) as { key: string; value: string | null; secret: boolean }[]).map((m) =>
      m.secret ? { ...m, value: object.secrets[METADATA_SECRET + m.key] ?? null } : m,
    )
    const input = parseInput(providerInput, {
      ...d,
      _class: 'llm',
      name: object.name,
      providerDefinitionId: definitionRef,
      metadata,
      apiKey: object.secrets.apiKey ?? null,
      apiSecret: object.secrets.apiSecret ?? null,
      serviceAccountJson: object.secrets.serviceAccountJson ?? null,
    })
    const current = existing ? await findProvider(ctx.db, projectId, object.name) : null
    const data = await providerData(ctx.db, ctx.deps.keyring, projectId, input, current)
    if (current) await ctx.db.llmProvider.update({ where: { id: current.id }, data: { ...data, revision: { increment: 1 } } })
    else await ctx.db.llmProvider.create({ data: { ...data, name: object.name, nameKey: nameKeyOf(object.name), projectId } })
    return advisories
  },

  /** Imported providers reach the gateways like any saved provider. */
  async afterImport(deps, access, written) {
    for (const ref of written) await pushProvider(deps, access, ref.name)
    return []
  },
}

// ---- KNOWLEDGE_BASE -----------------------------------------------------------------------------------------

interface PortableDocument {
  fileName: string
  mimeType: string
  sizeBytes: number
  sha256: string
  text: string
  embeddingModel: string
  dimension: number
  chunks: { content: string; embedding: number[] }[]
}

type KbWithRefs = KnowledgeBase & { embeddingProvider: LlmProvider; vectorDb: { name: string } | null }

async function knowledgeBaseToPortable(ctx: AdapterContext, kb: KbWithRefs): Promise<PortableObject> {
  const docs = await ctx.db.knowledgeDocument.findMany({
    where: { knowledgeBaseId: kb.id },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { chunks: { orderBy: { ordinal: 'asc' }, select: { content: true, embedding: true } } },
  })
  const documents: PortableDocument[] = docs.map((doc) => ({
    fileName: doc.fileName, mimeType: doc.mimeType, sizeBytes: doc.sizeBytes, sha256: doc.sha256, text: doc.text,
    embeddingModel: doc.embeddingModel, dimension: doc.dimension, chunks: doc.chunks,
  }))
  return {
    type: KNOWLEDGE_BASE,
    kind: null,
    name: kb.name,
    data: {
      description: kb.description,
      embeddingProviderName: kb.embeddingProvider.name,
      embeddingModel: kb.embeddingModel,
      vectorDbName: kb.vectorDb?.name ?? null,
      collectionName: kb.collectionName,
      chunkSize: kb.chunkSize,
      chunkOverlap: kb.chunkOverlap,
      documents,
    },
    secrets: {},
    dependencies: [{ type: PROVIDER, kind: null, name: kb.embeddingProvider.name }],
  }
}

const withRefs = { embeddingProvider: true, vectorDb: { select: { name: true } } } as const

export const knowledgeBaseAdapter: TransferAdapter = {
  type: KNOWLEDGE_BASE,
  category: KNOWLEDGE_BASE,
  kinds: null,
  secretFields: [],
  scope: 'project',
  source: 'llm',

  async findByName(ctx, name) {
    const kb = await ctx.db.knowledgeBase.findUnique({ where: { projectId_nameKey: { projectId: ctx.access.project.id, nameKey: nameKeyOf(name) } }, include: withRefs })
    return kb ? [await knowledgeBaseToPortable(ctx, kb)] : []
  },

  async listNames(ctx) {
    const rows = await ctx.db.knowledgeBase.findMany({ where: { projectId: ctx.access.project.id }, select: { name: true }, orderBy: { nameKey: 'asc' } })
    return rows.map((r) => r.name)
  },

  /**
   * Creates or replaces the knowledge base with its documents and vectors (replace drops the target's
   * documents). The embedding provider must exist in the target or come in the same package (dependencies
   * are written first); otherwise the import fails as a whole (no preflight check: a preflight cannot see
   * whether the package carries the provider).
   */
  async write(ctx, object, existing) {
    const advisories: Advisory[] = []
    const projectId = ctx.access.project.id
    const d = object.data
    const providerName = String(d.embeddingProviderName ?? '')
    const provider = await findProvider(ctx.db, projectId, providerName)
    if (!provider) {
      throw malformedReason('knowledgeBaseProviderMissing', `Embedding provider '${providerName}' of knowledge base '${object.name}' does not exist in this project`, {
        knowledgeBase: object.name, provider: providerName,
      })
    }
    const vectorDbName = typeof d.vectorDbName === 'string' ? d.vectorDbName : null
    const vectorDb = vectorDbName ? await ctx.db.vectorDb.findUnique({ where: { projectId_nameKey: { projectId, nameKey: nameKeyOf(vectorDbName) } } }) : null
    if (vectorDbName && !vectorDb) advisories.push(unresolved(object, 'VECTOR_DB', vectorDbName))
    const config = {
      description: (d.description as string | null) ?? null,
      embeddingProviderId: provider.id,
      embeddingModel: String(d.embeddingModel),
      vectorDbId: vectorDb?.id ?? null,
      collectionName: (d.collectionName as string | null) ?? null,
      chunkSize: Number(d.chunkSize),
      chunkOverlap: Number(d.chunkOverlap),
    }
    const current = existing ? await ctx.db.knowledgeBase.findUnique({ where: { projectId_nameKey: { projectId, nameKey: nameKeyOf(object.name) } } }) : null
    let kbId: string
    if (current) {
      await ctx.db.knowledgeDocument.deleteMany({ where: { knowledgeBaseId: current.id } })
      kbId = (await ctx.db.knowledgeBase.update({ where: { id: current.id }, data: { ...config, revision: { increment: 1 } } })).id
    } else {
      kbId = (await ctx.db.knowledgeBase.create({ data: { ...config, name: object.name, nameKey: nameKeyOf(object.name), projectId } })).id
    }
    for (const doc of (d.documents ?? []) as PortableDocument[]) {
      const created = await ctx.db.knowledgeDocument.create({
        data: {
          knowledgeBaseId: kbId, fileName: doc.fileName, mimeType: doc.mimeType, sizeBytes: doc.sizeBytes, sha256: doc.sha256, text: doc.text,
          chunkCount: doc.chunks.length, embeddingModel: doc.embeddingModel, dimension: doc.dimension, indexedAt: new Date(),
        },
      })
      const chunks: Prisma.KnowledgeChunkCreateManyInput[] = doc.chunks.map((c, ordinal) => ({ documentId: created.id, knowledgeBaseId: kbId, ordinal, content: c.content, embedding: c.embedding }))
      if (chunks.length) await ctx.db.knowledgeChunk.createMany({ data: chunks })
    }
    return advisories
  },

  async afterImport(deps, access, written) {
    for (const ref of written) await pushKnowledgeBase(deps, access, ref.name)
    return []
  },
}

/**
 * The adapters of this module. Deliberately not named `transferAdapters` (the name the transfer registry
 * loads automatically): while bootstrap files still create LLM_PROVIDER and KNOWLEDGE_BASE objects as opaque
 * stored objects, switching the types to these adapters is the transfer module's decision (see docs/llm.md).
 */
export const llmTransferAdapters: TransferAdapter[] = [llmProviderAdapter, knowledgeBaseAdapter]
