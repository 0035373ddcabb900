import { Arg, Args, Ctx, Extensions, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { withoutNulls } from '../../platform/graphql/inputs.js'
import { DeploymentResultType, PagingArgs } from '../../platform/graphql/types.js'
import { testVectorDbConnection } from './vector-dbs/connection-test.js'
import { testProviderConnection } from './providers/connection-test.js'
import { deleteDefinition, getDefinition, listDefinitions, saveDefinition } from './providers/definitions.js'
import {
  HttpHeaderType, KnowledgeBaseInputType, KnowledgeBasePage, KnowledgeBaseType, KnowledgeBaseWriteType, KnowledgeDocumentPage, KnowledgeDocumentType,
  KnowledgeDocumentWriteType, LlmCatalogModelInputType, LlmCatalogModelPage, LlmCatalogModelType, LlmCatalogModelWriteType, LlmProviderDefinitionInputType,
  LlmProviderConnectionTestType, LlmProviderDefinitionType, LlmProviderDefinitionWriteType, LlmProviderInputType, LlmProviderPage, LlmProviderType, LlmProviderWriteType,
  ResolvedProviderUrlType,
} from './graphql-types.js'
import { VectorDbConnectionTestType, VectorDbInputType, VectorDbPage, VectorDbType, VectorDbWriteType } from './vector-dbs/graphql-types.js'
import { deleteDocument, getDocument, MAX_DOCUMENT_BYTES, pageDocuments, reindexDocument, reindexKnowledgeBase, uploadDocument } from './knowledge/documents.js'
import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal'
import { readUpload } from '../../platform/graphql/upload.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { deleteKnowledgeBase, getKnowledgeBase, pageKnowledgeBases, saveKnowledgeBase } from './knowledge/service.js'
import { deleteModel, getModel, pageModels, saveModel } from './models/service.js'
import { deleteProvider, getProvider, pageProviders, saveProvider, type ProviderView } from './providers/service.js'
import { aiProxiesUsingProviders, type ProviderRef } from './proxy-references.js'
import { resolveProviderUrls } from './providers/urls.js'
import { deleteVectorDb, getVectorDb, pageVectorDbs, saveVectorDb } from './vector-dbs/service.js'

type Mode = 'upsert' | 'update'
const deployment = (outcome: DeploymentOutcome) => DeploymentResultType.from(outcome)

/** GraphQL sends null for absent fields; the services read absent and null alike, nested lists included. */
const plain = <T extends object>(input: T): Record<string, unknown> => {
  const out = withoutNulls({ ...input }) as Record<string, unknown>
  for (const [k, v] of Object.entries(out)) {
    if (Array.isArray(v)) out[k] = v.map((e) => (e && typeof e === 'object' ? withoutNulls({ ...e }) : e))
    else if (v && typeof v === 'object') out[k] = withoutNulls({ ...v })
  }
  return out
}

/** The name argument stands for the path segment: the body name defaults to it (and must equal it when sent). */
const named = (input: object, name: string, field = 'name') => {
  const body = plain(input)
  return { ...body, [field]: body[field] ?? name }
}

@Resolver(() => LlmProviderType)
export class LlmProviderResolver {
  @Query(() => LlmProviderPage, { description: 'The LLM providers of a project (AI_DEVELOPMENT VIEW); sort name, createdAt, updatedAt' })
  async llmProviders(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => PagingArgs) paging: PagingArgs) {
    return pageProviders(ctx.deps, requireViewer(ctx), projectName, paging)
  }

  @Query(() => LlmProviderType)
  async llmProvider(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getProvider(ctx.deps, requireViewer(ctx), projectName, name)
  }

  @FieldResolver(() => [ResolvedProviderUrlType], { description: 'The resolved URL and extra headers of every request type (read-only)' })
  resolvedUrls(@Root() provider: ProviderView): ResolvedProviderUrlType[] {
    return resolveProviderUrls(provider).map((r) => ({
      requestType: r.requestType,
      url: r.url,
      headers: Object.entries(r.headers).map(([name, value]): HttpHeaderType => ({ name, value })),
    }))
  }

  @FieldResolver(() => [String], { description: 'Names of the AI proxies whose routing references this provider' })
  async usedByRefs(@Ctx() ctx: GqlContext, @Root() provider: ProviderView): Promise<string[]> {
    if (provider.usedByRefs) return provider.usedByRefs
    // one query for every provider of the request (a list page asks for all of them at once)
    const loader = ctx.loaders.get<ProviderRef, string[]>('llmProvider.usedByRefs', (refs) => aiProxiesUsingProviders(ctx.deps.prisma, refs))
    return loader.load({ projectId: provider.projectId, providerName: provider.name })
  }

  @Mutation(() => LlmProviderWriteType, { description: 'Creates, or updates when the name exists (REST POST). Saves, then deploys' })
  async upsertLlmProvider(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('input', () => LlmProviderInputType) input: LlmProviderInputType,
  ) {
    return this.save(ctx, projectName, name, input, 'upsert')
  }

  @Mutation(() => LlmProviderWriteType, { description: 'Updates an existing provider (REST PUT). Blank secrets keep the stored ones' })
  async updateLlmProvider(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('input', () => LlmProviderInputType) input: LlmProviderInputType,
  ) {
    return this.save(ctx, projectName, name, input, 'update')
  }

  @Mutation(() => DeploymentResultType, { description: 'Deletes and undeploys' })
  async deleteLlmProvider(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return deployment((await deleteProvider(ctx.deps, requireViewer(ctx), projectName, name)).deploymentResult)
  }

  @Mutation(() => LlmProviderConnectionTestType, {
    description: 'Tests a stored LLM provider from this service; input (never saved) tests changed values and must bring the credential again when it changes the connection target (AI_DEVELOPMENT MANAGE)',
  })
  @Extensions({ audit: false })
  async testLlmProviderConnection(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('input', () => LlmProviderInputType, { nullable: true }) input: LlmProviderInputType | null,
  ) {
    return testProviderConnection(ctx.deps, requireViewer(ctx), projectName, name, input ? { ...named(input, name), _class: 'llm' } : undefined)
  }

  private async save(ctx: GqlContext, projectName: string, name: string, input: LlmProviderInputType, mode: Mode) {
    const { provider, deploymentResult } = await saveProvider(ctx.deps, requireViewer(ctx), projectName, name, { ...named(input, name), _class: 'llm' }, mode)
    return { provider, deploymentResult: deployment(deploymentResult) }
  }
}

@Resolver()
export class LlmCatalogResolver {
  @Query(() => [LlmProviderDefinitionType], { description: 'Built-in and custom provider definitions (AI_DEVELOPMENT VIEW)' })
  async llmProviderDefinitions(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return listDefinitions(ctx.deps, requireViewer(ctx), projectName)
  }

  @Query(() => LlmProviderDefinitionType)
  async llmProviderDefinition(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getDefinition(ctx.deps, requireViewer(ctx), projectName, name)
  }

  @Mutation(() => LlmProviderDefinitionWriteType, { description: 'Creates or updates a custom definition; built-ins are read-only' })
  async upsertLlmProviderDefinition(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('input', () => LlmProviderDefinitionInputType) input: LlmProviderDefinitionInputType,
  ) {
    return this.saveDefinition(ctx, projectName, name, input, 'upsert')
  }

  @Mutation(() => LlmProviderDefinitionWriteType)
  async updateLlmProviderDefinition(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('input', () => LlmProviderDefinitionInputType) input: LlmProviderDefinitionInputType,
  ) {
    return this.saveDefinition(ctx, projectName, name, input, 'update')
  }

  @Mutation(() => DeploymentResultType)
  async deleteLlmProviderDefinition(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return deployment((await deleteDefinition(ctx.deps, requireViewer(ctx), projectName, name)).deploymentResult)
  }

  @Query(() => LlmCatalogModelPage, { description: 'The model catalog of a project (AI_DEVELOPMENT VIEW); sort modelId, pricePerMillionInput, createdAt, updatedAt' })
  async llmModels(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => PagingArgs) paging: PagingArgs) {
    return pageModels(ctx.deps, requireViewer(ctx), projectName, paging)
  }

  @Query(() => LlmCatalogModelType)
  async llmModel(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('modelId', () => String) modelId: string) {
    return getModel(ctx.deps, requireViewer(ctx), projectName, modelId)
  }

  @Mutation(() => LlmCatalogModelWriteType)
  async upsertLlmModel(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('modelId', () => String) modelId: string,
    @Arg('input', () => LlmCatalogModelInputType) input: LlmCatalogModelInputType,
  ) {
    return this.saveModel(ctx, projectName, modelId, input, 'upsert')
  }

  @Mutation(() => LlmCatalogModelWriteType)
  async updateLlmModel(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('modelId', () => String) modelId: string,
    @Arg('input', () => LlmCatalogModelInputType) input: LlmCatalogModelInputType,
  ) {
    return this.saveModel(ctx, projectName, modelId, input, 'update')
  }

  @Mutation(() => DeploymentResultType)
  async deleteLlmModel(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('modelId', () => String) modelId: string) {
    return deployment((await deleteModel(ctx.deps, requireViewer(ctx), projectName, modelId)).deploymentResult)
  }

  private async saveDefinition(ctx: GqlContext, projectName: string, name: string, input: LlmProviderDefinitionInputType, mode: Mode) {
    const { definition, deploymentResult } = await saveDefinition(ctx.deps, requireViewer(ctx), projectName, name, named(input, name), mode)
    return { definition, deploymentResult: deployment(deploymentResult) }
  }

  private async saveModel(ctx: GqlContext, projectName: string, modelId: string, input: LlmCatalogModelInputType, mode: Mode) {
    const { model, deploymentResult } = await saveModel(ctx.deps, requireViewer(ctx), projectName, modelId, input.name ? plain(input) : named(input, modelId, 'modelId'), mode)
    return { model, deploymentResult: deployment(deploymentResult) }
  }
}

@Resolver()
export class VectorDbResolver {
  @Query(() => VectorDbPage, { description: 'The vector store connections of a project (AI_DEVELOPMENT VIEW); sort name, createdAt, updatedAt' })
  async vectorDbs(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => PagingArgs) paging: PagingArgs) {
    return pageVectorDbs(ctx.deps, requireViewer(ctx), projectName, paging)
  }

  @Query(() => VectorDbType)
  async vectorDb(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getVectorDb(ctx.deps, requireViewer(ctx), projectName, name)
  }

  @Mutation(() => VectorDbWriteType)
  async upsertVectorDb(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('input', () => VectorDbInputType) input: VectorDbInputType,
  ) {
    return this.save(ctx, projectName, name, input, 'upsert')
  }

  @Mutation(() => VectorDbWriteType)
  async updateVectorDb(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('input', () => VectorDbInputType) input: VectorDbInputType,
  ) {
    return this.save(ctx, projectName, name, input, 'update')
  }

  @Mutation(() => DeploymentResultType)
  async deleteVectorDb(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return deployment((await deleteVectorDb(ctx.deps, requireViewer(ctx), projectName, name)).deploymentResult)
  }

  @Mutation(() => VectorDbConnectionTestType, { description: 'Tests the supplied values (stored ones are never loaded; blank secrets stay blank)' })
  @Extensions({ audit: false })
  async testVectorDbConnection(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('input', () => VectorDbInputType) input: VectorDbInputType,
  ) {
    return testVectorDbConnection(ctx.deps, requireViewer(ctx), projectName, name, { ...named(input, name), _class: 'vector-db' })
  }

  private async save(ctx: GqlContext, projectName: string, name: string, input: VectorDbInputType, mode: Mode) {
    const { vectorDb, deploymentResult } = await saveVectorDb(ctx.deps, requireViewer(ctx), projectName, name, { ...named(input, name), _class: 'vector-db' }, mode)
    return { vectorDb, deploymentResult: deployment(deploymentResult) }
  }
}

@Resolver()
export class KnowledgeBaseResolver {
  @Query(() => KnowledgeBasePage, { description: 'The knowledge bases of a project (AI_DEVELOPMENT VIEW); sort name, createdAt, updatedAt' })
  async knowledgeBases(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => PagingArgs) paging: PagingArgs) {
    return pageKnowledgeBases(ctx.deps, requireViewer(ctx), projectName, paging)
  }

  @Query(() => KnowledgeBaseType)
  async knowledgeBase(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getKnowledgeBase(ctx.deps, requireViewer(ctx), projectName, name)
  }

  @Query(() => KnowledgeDocumentPage, { description: 'Documents of a knowledge base; sort createdAt, fileName, sizeBytes' })
  async knowledgeDocuments(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('knowledgeBase', () => String) knowledgeBase: string,
    @Args(() => PagingArgs) paging: PagingArgs,
  ) {
    return pageDocuments(ctx.deps, requireViewer(ctx), projectName, knowledgeBase, paging)
  }

  @Query(() => KnowledgeDocumentType, { description: 'One document with its chunks' })
  async knowledgeDocument(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('knowledgeBase', () => String) knowledgeBase: string,
    @Arg('id', () => String) id: string,
  ) {
    return getDocument(ctx.deps, requireViewer(ctx), projectName, knowledgeBase, id)
  }

  @Mutation(() => KnowledgeBaseWriteType)
  async upsertKnowledgeBase(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('input', () => KnowledgeBaseInputType) input: KnowledgeBaseInputType,
  ) {
    return this.save(ctx, projectName, name, input, 'upsert')
  }

  @Mutation(() => KnowledgeBaseWriteType)
  async updateKnowledgeBase(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('input', () => KnowledgeBaseInputType) input: KnowledgeBaseInputType,
  ) {
    return this.save(ctx, projectName, name, input, 'update')
  }

  @Mutation(() => DeploymentResultType, { description: 'Deletes the knowledge base with its documents and vectors, and undeploys it' })
  async deleteKnowledgeBase(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return deployment((await deleteKnowledgeBase(ctx.deps, requireViewer(ctx), projectName, name)).deploymentResult)
  }

  @Mutation(() => KnowledgeBaseWriteType, { description: 'Re-chunks and re-embeds every document; nothing changes when embedding fails' })
  async reindexKnowledgeBase(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    const { knowledgeBase, deploymentResult } = await reindexKnowledgeBase(ctx.deps, requireViewer(ctx), projectName, name)
    return { knowledgeBase, deploymentResult: deployment(deploymentResult) }
  }

  @Mutation(() => KnowledgeDocumentWriteType, {
    description: 'Adds a UTF-8 text document, chunked and embedded on ingest: as a multipart upload (`file`) or as text (`content`), exactly one',
  })
  async uploadKnowledgeDocument(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('knowledgeBase', () => String) knowledgeBase: string,
    @Arg('fileName', () => String, { nullable: true, description: 'defaults to the uploaded file name' }) fileName: string | null,
    @Arg('content', () => String, { nullable: true }) content: string | null,
    @Arg('file', () => GraphQLUpload, { nullable: true }) upload: Promise<FileUpload> | null,
    @Arg('mimeType', () => String, { nullable: true, defaultValue: 'text/plain' }) mimeType: string,
  ) {
    if ((content == null) === (upload == null)) throw malformed('give exactly one of file (upload) and content', { field: 'file' })
    const file = upload ? await readUpload(upload, 'file', MAX_DOCUMENT_BYTES) : { bytes: Buffer.from(content ?? '', 'utf8'), fileName: fileName ?? undefined, mimeType }
    const { document, deploymentResult } = await uploadDocument(ctx.deps, requireViewer(ctx), projectName, knowledgeBase, file ?? undefined, fileName ?? undefined)
    return { document, deploymentResult: deployment(deploymentResult) }
  }

  @Mutation(() => KnowledgeDocumentWriteType, { description: 'Re-chunks and re-embeds one document (the others untouched); nothing changes when embedding fails (AI_DEVELOPMENT MANAGE)' })
  async reindexKnowledgeDocument(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('knowledgeBase', () => String) knowledgeBase: string,
    @Arg('id', () => String) id: string,
  ) {
    const { document, deploymentResult } = await reindexDocument(ctx.deps, requireViewer(ctx), projectName, knowledgeBase, id)
    return { document, deploymentResult: deployment(deploymentResult) }
  }

  @Mutation(() => DeploymentResultType, { description: 'Deletes a document and its vectors' })
  async deleteKnowledgeDocument(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('knowledgeBase', () => String) knowledgeBase: string,
    @Arg('id', () => String) id: string,
  ) {
    return deployment((await deleteDocument(ctx.deps, requireViewer(ctx), projectName, knowledgeBase, id)).deploymentResult)
  }

  private async save(ctx: GqlContext, projectName: string, name: string, input: KnowledgeBaseInputType, mode: Mode) {
    const { knowledgeBase, deploymentResult } = await saveKnowledgeBase(ctx.deps, requireViewer(ctx), projectName, name, named(input, name), mode)
    return { knowledgeBase, deploymentResult: deployment(deploymentResult) }
  }
}
