import { z } from 'zod'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { legacyDeploymentResult, legacySuccess, legacyList } from '../../platform/envelopes/legacy.js'
import { deploymentResult, legacyListBody, fileBody, legacyBody } from '../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type MultipartBody, type RouteContext, type RouteDef, type RouteInput } from '../../platform/http/routes.js'
import { createCertificate, deleteCertificate, exportCertificate, getCertificate, listCertificates, truststoreCertificates, updateCertificate, type CertificateInput } from './certificates.js'
import { createKey, deleteKey, keyBodySchema, getKey, listKeys, updateKey } from './crypto-keys.js'
import { jwkCreateBodySchema, jwkGenerateBodySchema, jwkSourceBodyOf } from './jwk-bodies.js'
import { refreshOptions } from './jwk-refresh.js'
import { createJwk, deleteJwk, jwkUpdateBodySchema, generateJwkObject, getJwk, listJwks, updateJwk } from './jwks.js'
import { createKeystore, deleteKeystore, keystoreBodySchema, getKeystore, listKeystores, updateKeystore } from './keystores.js'
import { certificateSchema, cryptoKeySchema, jwkSchema, keystoreSchema } from './view-schemas.js'

// What the keys pages' routes (here and modules/key-files) share: their constants and the write answer.

export const BASE = '/apiops/projects/:projectName'
export const TAG = 'keys-secrets'
export const AUTH_401 = 'missing, invalid, expired or revoked token'
export const VIEW = '(permission: CERTIFICATE VIEW)'
export const MANAGE = '(permission: CERTIFICATE MANAGE; pushed to the gateways with CERTIFICATE DEPLOY_UNDEPLOY)'
export const DENIED = 'unknown project or missing CERTIFICATE permission'

export const project = (input: RouteInput) => input.params.projectName!

/** The write answers: success and deploymentResult, the saved object in resultList (none on delete). */
export const writtenFields = { success: z.literal(true), deploymentResult }
export const writtenBody = (item: z.ZodType, extra: z.ZodRawShape = {}) => legacyListBody(item, { ...writtenFields, ...extra })

/** The pages' write answer: success and deploymentResult, beside status SUCCESS; the saved object in resultList. */
export const written = (outcome: DeploymentOutcome, item?: unknown, extra: Record<string, unknown> = {}) =>
  legacySuccess({ success: true, deploymentResult: legacyDeploymentResult(outcome), ...(item === undefined ? {} : { resultList: [item], resultCount: 1 }), ...extra })

// The keys and secrets pages of /apiops (legacy envelope): certificates, keys, keystores and JWKs. Asset category
// CERTIFICATE: VIEW for reads, MANAGE for writes; a write is pushed only with DEPLOY_UNDEPLOY as well (else it is
// saved and its deploymentResult says why it was not pushed). Their files (import-file, export-file): files/rest.ts.

const deletedBody = legacyBody(writtenFields)

/** The update queries of certificates, keys and keystores: what happens to the JWKs taken from the object. */
const refreshQuery = z.object({
  jwkUpdateAction: z.enum(['NULLIFY', 'UPDATE']).optional().describe('UPDATE re-derives the JWKs taken from the object (updateScope default SAME_PROJECT); NULLIFY detaches them'),
  updateScope: z.enum(['SAME_PROJECT', 'ALL_PROJECTS']).optional(),
  updateReferencedJwks: z.enum(['true', 'false']).optional().describe('older form of jwkUpdateAction=UPDATE (needs updateScope)'),
})

/** The delete queries of certificates, keys and keystores: what happens to the JWKs taken from the object. */
const jwkDeleteQuery = z.object({
  jwkDeleteAction: z.enum(['NULLIFY', 'DELETE']).optional().describe('NULLIFY (default) keeps the JWKs taken from the object, detached from it; DELETE deletes and undeploys them too (refused while a credential names one)'),
})

const certificateForm = z.object({
  certificateName: z.string().optional().meta({ description: 'unique in the project (create only; the path names it on update); or the query parameter' }),
  alias: z.string().optional().meta({ description: 'unique per environment; or the query parameter' }),
  certificateDescription: z.string().optional(),
  environmentList: z.string().optional().meta({ description: 'comma-separated environment names of the project; or the query parameter' }),
  pemEncodedFile: z.string().meta({ contentMediaType: 'application/x-pem-file', description: 'PEM certificate; several CERTIFICATE blocks are the leaf then its chain' }),
})

/** The newest document (openapi.yaml createCertificate, updateCertificate) sends the fields as query parameters. */
const certificateQuery = z.object({
  certificateName: z.string().optional().describe('as the form field (a form field wins)'),
  alias: z.string().optional().describe('as the form field'),
  certificateDescription: z.string().optional().describe('as the form field'),
  environmentList: z.union([z.string(), z.array(z.string())]).optional().describe('comma-separated, or repeated; as the form field'),
})

/** The form's fields, else the query's; the file part (or a text part of that name). */
function certificateInput(input: RouteInput): CertificateInput {
  const body = input.body as MultipartBody
  const file = body.files.pemEncodedFile?.bytes ?? (body.fields.pemEncodedFile ? Buffer.from(body.fields.pemEncodedFile) : null)
  // the fields the query gives and the form lacks are already among the form's (platform/http/router.ts withQueryFields)
  return { ...body.fields, pemEncodedFile: file }
}

const multipart = { kind: 'multipart' as const, schema: certificateForm, required: true, files: ['pemEncodedFile'], maxFileBytes: 256 * 1024 }
const certName = (input: RouteInput) => (input.body as MultipartBody | undefined)?.fields?.certificateName ?? (typeof input.query.certificateName === 'string' ? input.query.certificateName : null)
const bodyName = (input: RouteInput) => {
  const b = input.body as Record<string, unknown> | undefined
  return typeof b?.name === 'string' ? b.name : null
}

const contentDisposition = (fileName: string) => `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`

const certificateRoutes: RouteDef[] = [
  {
    method: 'get', path: `${BASE}/certificates/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: `List the project's certificates without their file content ${VIEW}`,
    response: legacyListBody(certificateSchema),
    responses: { 200: 'status SUCCESS, resultList (name, description, certificateEnvironmentList), resultCount', 400: DENIED, 401: AUTH_401 },
    handle: async (ctx, input) => ({ body: legacyList(await listCertificates(ctx.deps, requireActor(ctx), project(input))) }),
  },
  {
    method: 'get', path: `${BASE}/certificates/truststore/:environmentName/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: `The certificates of an environment's trust store: those of the admin project deployed to it (admin project only) ${VIEW}`,
    response: legacyListBody(certificateSchema),
    responses: { 200: 'status SUCCESS, resultList, resultCount', 400: `${DENIED}; not the admin project; unknown environment`, 401: AUTH_401 },
    handle: async (ctx, input) => ({ body: legacyList(await truststoreCertificates(ctx.deps, requireActor(ctx), project(input), input.params.environmentName!)) }),
  },
  {
    method: 'get', path: `${BASE}/certificates/:certificateName/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: `One certificate with its content (base64 DER) per environment ${VIEW}`,
    response: legacyListBody(certificateSchema),
    responses: { 200: 'status SUCCESS, resultList with the certificate', 400: `${DENIED}; certificate not found`, 401: AUTH_401 },
    handle: async (ctx, input) => ({ body: legacyList([await getCertificate(ctx.deps, requireActor(ctx), project(input), input.params.certificateName!)]) }),
  },
  ...(['export', 'export-file'] as const).map((segment): RouteDef => ({
    method: 'get', path: `${BASE}/certificates/:certificateName/${segment}/`, style: 'legacy', auth: 'token', tag: TAG,
    summary: `${segment === 'export' ? '' : 'The same download as …/export/ (the name the key, keystore and JWK file downloads use). '}Download the certificate: a ZIP of {name}-{environment}.cer (DER) files, or with format PEM or DER one environment's certificate ${VIEW}`,
    query: z.object({ format: z.enum(['ZIP', 'PEM', 'DER']).optional(), environmentName: z.string().optional() }),
    // the content type the export chose (certificates.ts exportCertificate): ZIP, PEM text, DER
    response: fileBody('application/octet-stream', 'application/x-pem-file', 'application/pkix-cert'),
    responses: { 200: 'the file (application/octet-stream ZIP, application/x-pem-file or application/pkix-cert)', 400: `${DENIED}; certificate or environment not found; unknown format`, 401: AUTH_401 },
    async handle(ctx, input) {
      const q = input.query
      const file = await exportCertificate(ctx.deps, requireActor(ctx), project(input), input.params.certificateName!, typeof q.format === 'string' ? q.format : undefined, typeof q.environmentName === 'string' ? q.environmentName : undefined)
      return { body: file.bytes, headers: { 'content-type': file.contentType, 'content-disposition': contentDisposition(file.fileName) } }
    },
  })),
  {
    method: 'post', path: `${BASE}/certificates/`, style: 'legacy', auth: 'token', tag: TAG, body: multipart, query: certificateQuery,
    audit: { objectType: 'CERTIFICATE', objectName: certName },
    summary: `Create a certificate from a PEM file (multipart) and deploy it to the listed environments ${MANAGE}`,
    response: writtenBody(certificateSchema, { warnings: z.array(z.string()) }),
    responses: {
      200: 'status SUCCESS, success, deploymentResult, warnings (expired or not yet valid: accepted), resultList with the certificate',
      400: `${DENIED}; a required field empty; not a certificate; a private key in the file; name or alias taken; unknown environment`, 401: AUTH_401,
    },
    async handle(ctx, input) {
      const r = await createCertificate(ctx.deps, requireActor(ctx), project(input), certificateInput(input))
      return { body: written(r.outcome, r.certificate, { warnings: r.warnings }) }
    },
  },
  {
    method: 'put', path: `${BASE}/certificates/:certificateName/`, style: 'legacy', auth: 'token', tag: TAG, body: multipart,
    audit: { objectType: 'CERTIFICATE' },
    summary: `Replace a certificate (file, alias, environments; dropped environments are undeployed), then deploy it ${MANAGE}`,
    query: refreshQuery.extend(certificateQuery.shape),
    response: writtenBody(certificateSchema, { warnings: z.array(z.string()), updatedJwks: z.array(z.string()) }),
    responses: { 200: 'as create, plus updatedJwks (the JWKs re-derived with updateReferencedJwks)', 400: `as create; certificate not found; updateScope missing with updateReferencedJwks`, 401: AUTH_401 },
    async handle(ctx, input) {
      const r = await updateCertificate(ctx.deps, requireActor(ctx), project(input), input.params.certificateName!, certificateInput(input), refreshOptions(input.query))
      return { body: written(r.outcome, r.certificate, { warnings: r.warnings, updatedJwks: r.updatedJwks }) }
    },
  },
  {
    method: 'delete', path: `${BASE}/certificates/:certificateName/`, style: 'legacy', auth: 'token', tag: TAG, audit: { objectType: 'CERTIFICATE' },
    summary: `Delete a certificate and undeploy it from its environments ${MANAGE}`,
    query: jwkDeleteQuery,
    response: deletedBody,
    responses: { 200: 'status SUCCESS, success, deploymentResult (the certificate and any JWKs deleted with it, per environment)', 400: `${DENIED}; certificate not found; jwkDeleteAction invalid; a JWK to delete named by a credential`, 401: AUTH_401 },
    handle: async (ctx, input) => ({ body: written(await deleteCertificate(ctx.deps, requireActor(ctx), project(input), input.params.certificateName!, input.query.jwkDeleteAction)) }),
  },
]

interface Crud {
  segment: string; param: string; what: string; objectType: string; listNote: string
  list: (ctx: RouteContext, input: RouteInput) => Promise<unknown[]>
  get: (ctx: RouteContext, input: RouteInput) => Promise<unknown>
  create: (ctx: RouteContext, input: RouteInput) => Promise<{ outcome: DeploymentOutcome; item: unknown; updatedJwks?: string[] }>
  update: (ctx: RouteContext, input: RouteInput) => Promise<{ outcome: DeploymentOutcome; item: unknown; updatedJwks?: string[] }>
  remove: (ctx: RouteContext, input: RouteInput) => Promise<DeploymentOutcome>
  refresh: boolean
  /** the request body schema of the writes (checked by the module's parser) */
  bodySchema?: z.ZodType
  /** the PUT body schema when it differs from the POST one */
  putBodySchema?: z.ZodType
  /** the answer schema of one object */
  item: z.ZodType
}

function crudRoutes(r: Crud): RouteDef[] {
  const one = `${BASE}/${r.segment}/:${r.param}/`
  return [
    {
      method: 'get', path: `${BASE}/${r.segment}/`, style: 'legacy', auth: 'token', tag: TAG,
      summary: `List the project's ${r.what}s (${r.listNote}) ${VIEW}`,
      response: legacyListBody(r.item),
      responses: { 200: 'status SUCCESS, resultList, resultCount', 400: DENIED, 401: AUTH_401 },
      handle: async (ctx, input) => ({ body: legacyList(await r.list(ctx, input)) }),
    },
    {
      method: 'get', path: one, style: 'legacy', auth: 'token', tag: TAG,
      summary: `One ${r.what} (${r.listNote}) ${VIEW}`,
      response: legacyListBody(r.item),
      responses: { 200: 'status SUCCESS, resultList with the object', 400: `${DENIED}; ${r.what} not found`, 401: AUTH_401 },
      handle: async (ctx, input) => ({ body: legacyList([await r.get(ctx, input)]) }),
    },
    {
      method: 'post', path: `${BASE}/${r.segment}/`, style: 'legacy', auth: 'token', tag: TAG, body: { kind: 'json', required: true, ...(r.bodySchema ? { schema: r.bodySchema } : {}) },
      audit: { objectType: r.objectType, objectName: bodyName },
      summary: `Create a ${r.what} and deploy it ${MANAGE}`,
      response: writtenBody(r.item),
      responses: { 200: 'status SUCCESS, success, deploymentResult, resultList with the object', 400: `${DENIED}; invalid body (the message names the field); name taken`, 401: AUTH_401 },
      async handle(ctx, input) {
        const w = await r.create(ctx, input)
        return { body: written(w.outcome, w.item) }
      },
    },
    {
      method: 'put', path: one, style: 'legacy', auth: 'token', tag: TAG, body: { kind: 'json', required: true, ...(r.putBodySchema ?? r.bodySchema ? { schema: (r.putBodySchema ?? r.bodySchema)! } : {}) }, audit: { objectType: r.objectType },
      summary: `Update a ${r.what} (full replacement; a blank secret keeps the stored one of its environment) and deploy it ${MANAGE}`,
      ...(r.refresh ? { query: refreshQuery } : {}),
      response: writtenBody(r.item, { updatedJwks: z.array(z.string()).optional() }),
      responses: { 200: 'as create', 400: `${DENIED}; ${r.what} not found; invalid body`, 401: AUTH_401 },
      async handle(ctx, input) {
        const w = await r.update(ctx, input)
        return { body: written(w.outcome, w.item, w.updatedJwks ? { updatedJwks: w.updatedJwks } : {}) }
      },
    },
    {
      method: 'delete', path: one, style: 'legacy', auth: 'token', tag: TAG, audit: { objectType: r.objectType },
      summary: `Delete a ${r.what} and undeploy it ${MANAGE}`,
      ...(r.refresh ? { query: jwkDeleteQuery } : {}),
      response: deletedBody,
      responses: { 200: `status SUCCESS, success, deploymentResult${r.refresh ? ` (the ${r.what} and any JWKs deleted with it, per environment)` : ''}`, 400: `${DENIED}; ${r.what} not found${r.refresh ? '; jwkDeleteAction invalid; a JWK to delete named by a credential' : ''}`, 401: AUTH_401 },
      handle: async (ctx, input) => ({ body: written(await r.remove(ctx, input)) }),
    },
  ]
}

const keyRoutes = crudRoutes({
  item: cryptoKeySchema, bodySchema: keyBodySchema,
  segment: 'keys', param: 'keyName', what: 'key', objectType: 'CRYPTO_KEY_INFO', refresh: true,
  listNote: 'public key and metadata; the private key is write-only',
  list: (ctx, input) => listKeys(ctx.deps, requireActor(ctx), project(input)),
  get: (ctx, input) => getKey(ctx.deps, requireActor(ctx), project(input), input.params.keyName!),
  create: async (ctx, input) => {
    const w = await createKey(ctx.deps, requireActor(ctx), project(input), input.body)
    return { outcome: w.outcome, item: w.key }
  },
  update: async (ctx, input) => {
    const w = await updateKey(ctx.deps, requireActor(ctx), project(input), input.params.keyName!, input.body, refreshOptions(input.query))
    return { outcome: w.outcome, item: w.key, updatedJwks: w.updatedJwks }
  },
  remove: (ctx, input) => deleteKey(ctx.deps, requireActor(ctx), project(input), input.params.keyName!, input.query.jwkDeleteAction),
})

const keystoreRoutes = crudRoutes({
  item: keystoreSchema, bodySchema: keystoreBodySchema,
  segment: 'keystores', param: 'keystoreName', what: 'keystore', objectType: 'KEY_STORE', refresh: true,
  listNote: 'type and entries; the file and its passwords are write-only',
  list: (ctx, input) => listKeystores(ctx.deps, requireActor(ctx), project(input)),
  get: (ctx, input) => getKeystore(ctx.deps, requireActor(ctx), project(input), input.params.keystoreName!),
  create: async (ctx, input) => {
    const w = await createKeystore(ctx.deps, requireActor(ctx), project(input), input.body)
    return { outcome: w.outcome, item: w.keystore }
  },
  update: async (ctx, input) => {
    const w = await updateKeystore(ctx.deps, requireActor(ctx), project(input), input.params.keystoreName!, input.body, refreshOptions(input.query))
    return { outcome: w.outcome, item: w.keystore, updatedJwks: w.updatedJwks }
  },
  remove: (ctx, input) => deleteKeystore(ctx.deps, requireActor(ctx), project(input), input.params.keystoreName!, input.query.jwkDeleteAction),
})

const jwkCrud = crudRoutes({
  item: jwkSchema, bodySchema: jwkCreateBodySchema, putBodySchema: jwkUpdateBodySchema,
  segment: 'jwks', param: 'jwkName', what: 'JWK', objectType: 'JWK', refresh: false,
  listNote: 'public members only; private members are write-only',
  list: (ctx, input) => listJwks(ctx.deps, requireActor(ctx), project(input)),
  get: (ctx, input) => getJwk(ctx.deps, requireActor(ctx), project(input), input.params.jwkName!),
  create: async (ctx, input) => {
    const w = await createJwk(ctx.deps, requireActor(ctx), project(input), input.body)
    return { outcome: w.outcome, item: w.jwk }
  },
  update: async (ctx, input) => {
    const w = await updateJwk(ctx.deps, requireActor(ctx), project(input), input.params.jwkName!, input.body)
    return { outcome: w.outcome, item: w.jwk }
  },
  remove: (ctx, input) => deleteJwk(ctx.deps, requireActor(ctx), project(input), input.params.jwkName!),
})

const PARSE_DOORS = [
  { segment: 'generate', summary: 'Generate a JWK: RSA 2048/3072/4096, EC P-256/384/521 or secp256k1, OCT or OKP, with use, algorithm, kid type and validity' },
  { segment: 'parse-from-url', summary: 'Create a JWK fetched from a URL (a JWK or a JWK Set with kid; bounded by urlOption* and the private-address rule)', source: 'URL' as const },
  { segment: 'parse-from-clipboard', summary: 'Create a JWK from pasted JSON (jwkStr: a JWK, or a JWK Set with kid)', source: 'COPY_PASTE' as const },
  { segment: 'parse-from-certificate', summary: 'Create a JWK from the public key of a certificate of the project (x5c carried)', source: 'CERTIFICATE' as const },
  { segment: 'parse-from-key', summary: 'Create a JWK from a key of the project (its private key when the environment has one)', source: 'KEY' as const },
  { segment: 'parse-from-keystore', summary: 'Create a JWK from a keystore entry (aliasName) of the project', source: 'KEYSTORE' as const },
]

const jwkDoors: RouteDef[] = PARSE_DOORS.map((d) => ({
  method: 'post', path: `${BASE}/jwks/${d.segment}`, style: 'legacy', auth: 'token', tag: TAG,
  body: { kind: 'json', required: true, schema: d.source === undefined ? jwkGenerateBodySchema : jwkSourceBodyOf(d.source) },
  audit: { objectType: 'JWK', objectName: bodyName },
  summary: `${d.summary}, then deploy it ${MANAGE}`,
  response: writtenBody(jwkSchema),
  responses: { 200: 'status SUCCESS, success, deploymentResult, resultList with the JWK (public members)', 400: `${DENIED}; invalid body (the message names the field); name taken; source not found`, 401: AUTH_401 },
  async handle(ctx: RouteContext, input: RouteInput) {
    const w = d.source === undefined
      ? await generateJwkObject(ctx.deps, requireActor(ctx), project(input), input.body)
      : await createJwk(ctx.deps, requireActor(ctx), project(input), input.body, d.source)
    return { body: written(w.outcome, w.jwk) }
  },
}))

// the key files' routes (modules/key-files) stand between these two tables in src/routes.ts: /keys/import-file
// must match before /keys/{name}
export const certificateRouteTable = defineRoutes(certificateRoutes)
export const keysRoutes = defineRoutes([...keyRoutes, ...keystoreRoutes, ...jwkDoors, ...jwkCrud])
