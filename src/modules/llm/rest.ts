import { z } from 'zod'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { legacyList, legacySuccess } from '../../platform/envelopes/legacy.js'
import { defineRoutes, requireActor, type MultipartBody, type RouteContext, type RouteDef, type RouteInput } from '../../platform/http/routes.js'
import { legacyDeploymentResult } from '../../platform/envelopes/legacy.js'
import { testVectorDbConnection } from './vector-dbs/connection-test.js'
import { testProviderConnection } from './providers/connection-test.js'
import { definitionInput, deleteDefinition, getDefinition, listDefinitions, saveDefinition } from './providers/definitions.js'
import { deleteDocument, getDocument, listDocuments, MAX_DOCUMENT_BYTES, reindexDocument, reindexKnowledgeBase, uploadDocument } from './knowledge/documents.js'
import { deleteKnowledgeBase, getKnowledgeBase, knowledgeBaseInput, listKnowledgeBases, saveKnowledgeBase } from './knowledge/service.js'
import { deleteModel, getModel, listModels, modelInput, saveModel } from './models/service.js'
import { deleteProvider, getProvider, listProviders, providerInput, saveProvider } from './providers/service.js'
import { deleteVectorDb, getVectorDb, listVectorDbs, saveVectorDb, vectorDbInput } from './vector-dbs/service.js'
import { deploymentResult, legacyBody, legacyListBody } from '../../platform/http/response-schemas.js'
import { providerConnectionTestSchema, vectorDbTestSchema, knowledgeDocumentSchema, knowledgeBaseSchema, llmModelSchema, llmProviderDefinitionSchema, llmProviderSchema, vectorDbSchema } from './view-schemas.js'

const BASE = '/apiops/projects/:projectName'
const TAG = 'ai-gateway'
const COMMON_400 = 'unknown project, missing AI_DEVELOPMENT permission, invalid body (message names the field)'
const AUTH_401 = 'missing, invalid, expired or revoked token'

type Handler = (ctx: RouteContext, input: RouteInput) => Promise<unknown>

/** The legacy answer of a write: the saved object in resultList and the push outcome in deploymentResult. */
const written = (item: unknown, outcome: DeploymentOutcome) => ({
  ...(item === undefined ? {} : { resultList: [item], resultCount: 1 }),
  deploymentResult: legacyDeploymentResult(outcome),
})

interface CrudResource {
  /** path segment under the project, e.g. llm-providers */
  segment: string
  /** path parameter of one object */
  param: string
  what: string
  /** object type of the audit trail */
  objectType: string
  list: Handler
  get: Handler
  save(ctx: RouteContext, input: RouteInput, mode: 'upsert' | 'update'): Promise<{ item: unknown; outcome: DeploymentOutcome }>
  remove: (ctx: RouteContext, input: RouteInput) => Promise<DeploymentOutcome>
  /** extra text for the write summaries */
  note?: string
  /** the answer schema of one object, and the body validator of its writes */
  item: z.ZodType
  input: z.ZodType
}

/** GET list, GET one, POST upsert, PUT (must exist), DELETE (undeploys): the shape every AI resource shares (spec §4.5). */
function crudRoutes(r: CrudResource): RouteDef[] {
  const one = `${BASE}/${r.segment}/:${r.param}/`
  const audit = { objectType: r.objectType }
  return [
    {
      method: 'get', path: `${BASE}/${r.segment}/`, style: 'legacy', auth: 'token', tag: TAG,
      summary: `List the ${r.what}s of the project`,
      response: legacyListBody(r.item),
      responses: { 200: 'status SUCCESS, resultList, resultCount (0 when empty)', 400: 'unknown project or missing AI_DEVELOPMENT VIEW', 401: AUTH_401 },
      handle: async (ctx, input) => ({ body: legacyList((await r.list(ctx, input)) as unknown[]) }),
    },
    {
      method: 'get', path: one, style: 'legacy', auth: 'token', tag: TAG,
      summary: `Read one ${r.what}`,
      response: legacyListBody(r.item),
      responses: { 200: 'status SUCCESS, resultList with the one object, resultCount 1', 400: `unknown project, ${r.what} not found, or missing AI_DEVELOPMENT VIEW`, 401: AUTH_401 },
      handle: async (ctx, input) => ({ body: legacyList([await r.get(ctx, input)]) }),
    },
    {
      method: 'post', path: one, style: 'legacy', auth: 'token', tag: TAG, audit,
      summary: `Create the ${r.what}, or update it when the name exists (upsert), then deploy it${r.note ? `. ${r.note}` : ''}`,
      body: { kind: 'json', required: true, schema: r.input },
      response: legacyListBody(r.item, { deploymentResult }),
      responses: { 200: 'status SUCCESS, resultList with the saved object, deploymentResult', 400: `${COMMON_400}; name missing or different from the path`, 401: AUTH_401 },
      handle: async (ctx, input) => {
        const { item, outcome } = await r.save(ctx, input, 'upsert')
        return { body: legacySuccess(written(item, outcome)) }
      },
    },
    {
      method: 'put', path: one, style: 'legacy', auth: 'token', tag: TAG, audit,
      summary: `Update an existing ${r.what} (full replacement; blank secrets keep the stored ones), then deploy it${r.note ? `. ${r.note}` : ''}`,
      body: { kind: 'json', required: true, schema: r.input },
      response: legacyListBody(r.item, { deploymentResult }),
      responses: { 200: 'status SUCCESS, resultList with the saved object, deploymentResult', 400: `${COMMON_400}; ${r.what} not found; name different from the path`, 401: AUTH_401 },
      handle: async (ctx, input) => {
        const { item, outcome } = await r.save(ctx, input, 'update')
        return { body: legacySuccess(written(item, outcome)) }
      },
    },
    {
      method: 'delete', path: one, style: 'legacy', auth: 'token', tag: TAG, audit,
      summary: `Delete the ${r.what} and undeploy it`,
      response: legacyBody({ deploymentResult }),
      responses: { 200: 'status SUCCESS and deploymentResult', 400: `unknown project, ${r.what} not found or still in use, missing AI_DEVELOPMENT MANAGE`, 401: AUTH_401 },
      handle: async (ctx, input) => ({ body: legacySuccess(written(undefined, await r.remove(ctx, input))) }),
    },
  ]
}

const project = (input: RouteInput) => input.params.projectName

const providerRoutes = crudRoutes({
  item: llmProviderSchema, input: providerInput,
  segment: 'llm-providers', param: 'providerName', what: 'LLM provider', objectType: 'LLM_PROVIDER',
  note: 'Body of spec §2.7 with _class "llm"',
  list: (ctx, input) => listProviders(ctx.deps, requireActor(ctx), project(input)),
  get: (ctx, input) => getProvider(ctx.deps, requireActor(ctx), project(input), input.params.providerName),
  async save(ctx, input, mode) {
    const { provider, deploymentResult } = await saveProvider(ctx.deps, requireActor(ctx), project(input), input.params.providerName, input.body, mode)
    return { item: provider, outcome: deploymentResult }
  },
  remove: async (ctx, input) => (await deleteProvider(ctx.deps, requireActor(ctx), project(input), input.params.providerName)).deploymentResult,
})

const definitionRoutes = crudRoutes({
  item: llmProviderDefinitionSchema, input: definitionInput,
  segment: 'llm-provider-definitions', param: 'definitionName', what: 'provider definition', objectType: 'LLM_PROVIDER_DEFINITION',
  note: 'Built-in definitions are read-only',
  list: (ctx, input) => listDefinitions(ctx.deps, requireActor(ctx), project(input)),
  get: (ctx, input) => getDefinition(ctx.deps, requireActor(ctx), project(input), input.params.definitionName),
  async save(ctx, input, mode) {
    const { definition, deploymentResult } = await saveDefinition(ctx.deps, requireActor(ctx), project(input), input.params.definitionName, input.body, mode)
    return { item: definition, outcome: deploymentResult }
  },
  remove: async (ctx, input) => (await deleteDefinition(ctx.deps, requireActor(ctx), project(input), input.params.definitionName)).deploymentResult,
})

const modelRoutes = crudRoutes({
  item: llmModelSchema, input: modelInput,
  segment: 'llm-models', param: 'modelName', what: 'model catalog entry', objectType: 'LLM_MODEL',
  note: 'The path name is the modelId',
  list: (ctx, input) => listModels(ctx.deps, requireActor(ctx), project(input)),
  get: (ctx, input) => getModel(ctx.deps, requireActor(ctx), project(input), input.params.modelName),
  async save(ctx, input, mode) {
    const { model, deploymentResult } = await saveModel(ctx.deps, requireActor(ctx), project(input), input.params.modelName, input.body, mode)
    return { item: model, outcome: deploymentResult }
  },
  remove: async (ctx, input) => (await deleteModel(ctx.deps, requireActor(ctx), project(input), input.params.modelName)).deploymentResult,
})

const vectorDbRoutes = crudRoutes({
  item: vectorDbSchema, input: vectorDbInput,
  segment: 'vector-dbs', param: 'vectorDbName', what: 'vector store connection', objectType: 'VECTOR_DB',
  note: 'Body of spec §2.11 with _class "vector-db"',
  list: (ctx, input) => listVectorDbs(ctx.deps, requireActor(ctx), project(input)),
  get: (ctx, input) => getVectorDb(ctx.deps, requireActor(ctx), project(input), input.params.vectorDbName),
  async save(ctx, input, mode) {
    const { vectorDb, deploymentResult } = await saveVectorDb(ctx.deps, requireActor(ctx), project(input), input.params.vectorDbName, input.body, mode)
    return { item: vectorDb, outcome: deploymentResult }
  },
  remove: async (ctx, input) => (await deleteVectorDb(ctx.deps, requireActor(ctx), project(input), input.params.vectorDbName)).deploymentResult,
})

const knowledgeBaseRoutes = crudRoutes({
  item: knowledgeBaseSchema, input: knowledgeBaseInput,
  segment: 'knowledge-bases', param: 'name', what: 'knowledge base', objectType: 'KNOWLEDGE_BASE',
  note: 'embeddingProviderId and vectorDbId are connection ids',
  list: (ctx, input) => listKnowledgeBases(ctx.deps, requireActor(ctx), project(input)),
  get: (ctx, input) => getKnowledgeBase(ctx.deps, requireActor(ctx), project(input), input.params.name),
  async save(ctx, input, mode) {
    const { knowledgeBase, deploymentResult } = await saveKnowledgeBase(ctx.deps, requireActor(ctx), project(input), input.params.name, input.body, mode)
    return { item: knowledgeBase, outcome: deploymentResult }
  },
  remove: async (ctx, input) => (await deleteKnowledgeBase(ctx.deps, requireActor(ctx), project(input), input.params.name)).deploymentResult,
})

const documentForm = z.object({
  file: z.string().meta({ contentMediaType: 'text/plain', description: 'the document: UTF-8 text (text, Markdown, CSV, JSON, HTML…); required, non-empty' }),
  fileName: z.string().optional().meta({ description: 'display name; falls back to the uploaded file name, then document.txt' }),
})

const extraRoutes = defineRoutes([
  {
    method: 'post', path: `${BASE}/llm-providers/:providerName/test-connection/`, style: 'legacy', auth: 'token', tag: TAG, audit: false,
    access: { category: 'AI_DEVELOPMENT', level: 'MANAGE' },
    summary: 'Test a stored LLM provider from this service (GET {endpoint}/models with its credentials); an optional body (_class llm) tests changed values, never saved, and must bring the credential again when it changes the connection target',
    body: { kind: 'json', required: false, schema: providerInput },
    response: legacyBody({ deploymentResult: providerConnectionTestSchema }),
    responses: {
      200: 'status SUCCESS and deploymentResult (success, envName apimanager, detail); a failed test is success false with the reason',
      400: `${COMMON_400}; unknown provider; _class missing; connection target changed without the credential`, 401: AUTH_401,
    },
    async handle(ctx, input) {
      const deploymentResult = await testProviderConnection(ctx.deps, requireActor(ctx), project(input), input.params.providerName, input.body)
      return { body: legacySuccess({ deploymentResult }) }
    },
  },
  {
    method: 'post', path: `${BASE}/vector-dbs/:vectorDbName/test-connection/`, style: 'legacy', auth: 'token', tag: TAG, audit: false,
    summary: 'Test a vector store connection with the supplied values (stored values are never loaded; blank secrets stay blank)',
    body: { kind: 'json', required: true, schema: vectorDbInput },
    response: legacyBody({ deploymentResult: vectorDbTestSchema }),
    responses: {
      200: 'status SUCCESS and deploymentResult (success, message, responseTime, reachable, statusCode, extensionVersion); a failed test is success false',
      400: `${COMMON_400}; _class, dbType or transport missing`, 401: AUTH_401,
    },
    async handle(ctx, input) {
      const deploymentResult = await testVectorDbConnection(ctx.deps, requireActor(ctx), project(input), input.params.vectorDbName, input.body)
      return { body: legacySuccess({ deploymentResult }) }
    },
  },
  {
    method: 'post', path: `${BASE}/knowledge-bases/:name/reindex/`, style: 'legacy', auth: 'token', tag: TAG, audit: { objectType: 'KNOWLEDGE_BASE' },
    summary: 'Re-chunk and re-embed every document of the knowledge base with its current settings, then deploy it',
    response: legacyListBody(knowledgeBaseSchema, { deploymentResult }),
    responses: { 200: 'status SUCCESS, resultList with the knowledge base, deploymentResult', 400: 'unknown project or knowledge base, embedding failed (nothing changed), missing AI_DEVELOPMENT MANAGE', 401: AUTH_401 },
    async handle(ctx, input) {
      const { knowledgeBase, deploymentResult } = await reindexKnowledgeBase(ctx.deps, requireActor(ctx), project(input), input.params.name)
      return { body: legacySuccess(written(knowledgeBase, deploymentResult)) }
    },
  },
  {
    method: 'post', path: `${BASE}/knowledge-bases/:kbName/documents/:documentId/reindex/`, style: 'legacy', auth: 'token', tag: TAG, audit: { objectType: 'KNOWLEDGE_BASE' },
    access: { category: 'AI_DEVELOPMENT', level: 'MANAGE' },
    summary: 'Re-chunk and re-embed one document with the knowledge base\'s current settings (the others untouched), then deploy the knowledge base',
    response: legacyBody({ deploymentResult }),
    responses: { 200: 'status SUCCESS and deploymentResult', 400: 'unknown project, knowledge base or document (or one of another knowledge base), embedding failed (nothing changed), missing AI_DEVELOPMENT MANAGE', 401: AUTH_401 },
    async handle(ctx, input) {
      const { deploymentResult } = await reindexDocument(ctx.deps, requireActor(ctx), project(input), input.params.kbName, input.params.documentId)
      return { body: legacySuccess(written(undefined, deploymentResult)) }
    },
  },
  {
    method: 'post', path: `${BASE}/knowledge-bases/:kbName/documents/`, style: 'legacy', auth: 'token', tag: TAG, audit: { objectType: 'KNOWLEDGE_BASE' },
    summary: 'Upload a document (multipart part file): chunked and embedded through the embedding provider on ingest, vectors stored',
    body: { kind: 'multipart', schema: documentForm, required: true, files: ['file'], maxFileBytes: MAX_DOCUMENT_BYTES },
    response: legacyListBody(knowledgeDocumentSchema, { deploymentResult }),
    responses: { 200: 'status SUCCESS, resultList with the document (its id addresses it), deploymentResult', 400: 'no file part, empty or non-text file, embedding failed (nothing stored), unknown knowledge base', 401: AUTH_401 },
    async handle(ctx, input) {
      const body = input.body as MultipartBody
      const { document, deploymentResult } = await uploadDocument(ctx.deps, requireActor(ctx), project(input), input.params.kbName, body.files.file, body.fields.fileName)
      return { body: legacySuccess(written(document, deploymentResult)) }
    },
  },
  {
    method: 'get', path: `${BASE}/knowledge-bases/:kbName/documents/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: 'List the documents of a knowledge base',
    response: legacyListBody(knowledgeDocumentSchema),
    responses: { 200: 'status SUCCESS, resultList, resultCount', 400: 'unknown project or knowledge base, missing AI_DEVELOPMENT VIEW', 401: AUTH_401 },
    handle: async (ctx, input) => ({ body: legacyList(await listDocuments(ctx.deps, requireActor(ctx), project(input), input.params.kbName)) }),
  },
  {
    method: 'get', path: `${BASE}/knowledge-bases/:kbName/documents/:documentId/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: 'Read one document with its chunks (text only, no vectors)',
    response: legacyListBody(knowledgeDocumentSchema),
    responses: { 200: 'status SUCCESS, resultList with the document', 400: 'unknown project, knowledge base or document', 401: AUTH_401 },
    handle: async (ctx, input) => ({ body: legacyList([await getDocument(ctx.deps, requireActor(ctx), project(input), input.params.kbName, input.params.documentId)]) }),
  },
  {
    method: 'delete', path: `${BASE}/knowledge-bases/:kbName/documents/:documentId/`, style: 'legacy', auth: 'token', tag: TAG, audit: { objectType: 'KNOWLEDGE_BASE' },
    summary: 'Delete a document and its vectors, then redeploy the knowledge base',
    response: legacyBody({ deploymentResult }),
    responses: { 200: 'status SUCCESS and deploymentResult', 400: 'unknown project, knowledge base or document', 401: AUTH_401 },
    async handle(ctx, input) {
      const { deploymentResult } = await deleteDocument(ctx.deps, requireActor(ctx), project(input), input.params.kbName, input.params.documentId)
      return { body: legacySuccess(written(undefined, deploymentResult)) }
    },
  },
])

/** The REST door of the LLM module (spec §4.5). Literal sub-paths come before the /{name}/ routes. */
export const llmRoutes: RouteDef[] = [
  ...extraRoutes,
  ...providerRoutes,
  ...definitionRoutes,
  ...modelRoutes,
  ...vectorDbRoutes,
  ...knowledgeBaseRoutes,
]
