import { z } from 'zod'

// The answer shapes of the REST surface, as zod schemas: the OpenAPI document renders them (z.toJSONSchema) and the
// integration tests validate every answer against the rendered form, so a view that changes without its schema
// fails the test that called it. A shape with an id (`schema.meta({ id: 'Name' })`, zod's global registry) becomes
// components.schemas.Name and is referenced by `$ref` wherever it is used.

const shared = <T extends z.ZodType>(schema: T, id: string, description: string): T => schema.meta({ id, description })

/** One environment's outcome of a push (spec §2.1). */
export const environmentResult = shared(
  z.object({ environmentName: z.string(), success: z.boolean(), message: z.string() }),
  'EnvironmentResult',
  'The outcome of a push to one environment',
)

/** The deploymentResult of a deploying write (spec §2.1): success, message, environmentResults[]. */
export const deploymentResult = shared(
  z.object({ success: z.boolean(), message: z.string(), environmentResults: z.array(environmentResult) }),
  'DeploymentResult',
  'The outcome of a deploying write, per environment (spec §2.1)',
)

/** The API proxy pages' form of deploymentResult: deploymentResults[] instead of environmentResults[]. */
export const proxyDeploymentResult = shared(
  z.object({ success: z.boolean(), message: z.string(), deploymentResults: z.array(environmentResult) }),
  'ProxyDeploymentResult',
  'deploymentResult as the API proxy pages write it (deploymentResults[])',
)

// Envelopes: written as JSON Schema (not zod) because operations combine them with their own fields by allOf.
const legacyStatus = { type: 'string', const: 'SUCCESS' } as const
/**
 * `success` beside status SUCCESS on every legacy answer (issue 28 §2, withLegacySuccess): true, unless the operation
 * reports an outcome of its own under that name (a connection test); each operation's schema pins it (openapi.ts).
 */
const legacySuccessFlag = { type: 'boolean', description: 'true: the call succeeded (a connection test reports its own outcome here)' } as const

/** components.schemas that are envelopes or error bodies (JSON Schema, referenced by the document and the tests). */
export const envelopeComponents = {
  LegacySuccess: {
    description: 'Legacy envelope (spec §7.1): status SUCCESS and success beside the fields of the answer',
    type: 'object',
    properties: { status: legacyStatus, success: legacySuccessFlag },
    required: ['status', 'success'],
  },
  LegacyList: {
    description: 'Legacy list envelope: status SUCCESS, success true, resultList[] and resultCount',
    type: 'object',
    properties: { status: legacyStatus, success: legacySuccessFlag, resultList: { type: 'array', items: {} }, resultCount: { type: 'integer', minimum: 0 } },
    required: ['status', 'success', 'resultList', 'resultCount'],
  },
  PagedEnvelope: {
    description: 'Common Contract paged envelope (spec §7.2): items of one page, page from 0, size, totals and the applied sort',
    type: 'object',
    properties: {
      status: legacyStatus,
      items: { type: 'array', items: {} },
      page: { type: 'integer', minimum: 0 },
      size: { type: 'integer', minimum: 1 },
      totalElements: { type: 'integer', minimum: 0 },
      totalPages: { type: 'integer', minimum: 0 },
      sort: { type: 'array', items: { type: 'string' } },
    },
    required: ['status', 'items', 'page', 'size', 'totalElements', 'totalPages', 'sort'],
  },
  LegacyError: {
    description: 'Legacy error body (spec §7.1)',
    type: 'object',
    properties: { status: { type: 'string', const: 'FAILURE' }, resultMessage: { type: 'string' } },
    required: ['status', 'resultMessage'],
  },
  CommonError: {
    description: 'Common Contract error body (spec §7.3): branch on errorKey; correlationId ties it to the logs',
    type: 'object',
    properties: { errorKey: { type: 'string' }, message: { type: 'string' }, params: { type: 'object' }, correlationId: { type: 'string' } },
    required: ['errorKey', 'message'],
  },
  OAuthError: {
    description: 'OAuth 2.0 token endpoint error (RFC 6749 §5.2)',
    type: 'object',
    properties: { error: { type: 'string' }, error_description: { type: 'string' } },
    required: ['error'],
  },
} as const

/**
 * The JSON body of a route's 2xx answers. `legacy`: status SUCCESS and success true beside `fields`; `legacyList`:
 * the legacy list envelope of `item` (plus `fields`); `page`: the paged envelope of `item`; `plain`: exactly `schema`;
 * `file`: bytes of one of `mediaTypes` (a ZIP, a PEM, plain text), not JSON; `negotiated`: the `json` body, or by
 * Accept the text of one of `mediaTypes` (CSV); `empty`: no body at all (a validation's 200).
 */
export type ResponseBody =
  | { kind: 'legacy'; fields: z.ZodObject }
  | { kind: 'legacyList'; item: z.ZodType; fields?: z.ZodObject }
  | { kind: 'page'; item: z.ZodType }
  | { kind: 'plain'; schema: z.ZodType }
  | { kind: 'file'; mediaTypes: string[] }
  | { kind: 'negotiated'; json: JsonResponseBody; mediaTypes: string[] }
  | { kind: 'empty' }

/** The JSON bodies of ResponseBody (those the drift check validates). */
export type JsonResponseBody = Extract<ResponseBody, { kind: 'legacy' | 'legacyList' | 'page' | 'plain' }>

export const legacyBody = (fields: z.ZodRawShape = {}): ResponseBody => ({ kind: 'legacy', fields: z.object(fields) })
export const legacyListBody = (item: z.ZodType, fields?: z.ZodRawShape): ResponseBody => ({ kind: 'legacyList', item, ...(fields ? { fields: z.object(fields) } : {}) })
export const pageBody = (item: z.ZodType): ResponseBody => ({ kind: 'page', item })
export const plainBody = (schema: z.ZodType): ResponseBody => ({ kind: 'plain', schema })
export const fileBody = (...mediaTypes: [string, ...string[]]): ResponseBody => ({ kind: 'file', mediaTypes })
/** The JSON `json`, or by Accept the text of another media type (a report as CSV). */
export const negotiatedBody = (json: ResponseBody, ...mediaTypes: [string, ...string[]]): ResponseBody => {
  if (json.kind === 'file' || json.kind === 'negotiated' || json.kind === 'empty') throw new Error('negotiatedBody: the first body must be JSON')
  return { kind: 'negotiated', json, mediaTypes }
}
/** A 2xx answer without a body (Content-Length 0): documented as such, and the drift check holds it to it. */
export const emptyBody: ResponseBody = { kind: 'empty' }

/** `success: true` and the deploymentResult, the answer of most legacy deploying writes. */
export const deployedBody = legacyBody({ success: z.literal(true), deploymentResult })
/** `success: true` alone (a legacy write that deploys nothing). */
export const successBody = legacyBody({ success: z.literal(true) })

type AllKeys<T> = T extends unknown ? keyof T : never
/** true when every value of View is a value of Out and View has no field Out does not name */
type Fits<View, Out> = [View] extends [Out] ? ([Exclude<AllKeys<View>, AllKeys<Out>>] extends [never] ? true : false) : false

/**
 * Ties a schema to the view function that builds the answer, at compile time: `describes<ConsumerView>()(schema)`
 * does not type-check when the view returns a field the schema lacks or a value it does not accept.
 */
export const describes =
  <View>() =>
  <S extends z.ZodType>(schema: S & (Fits<View, z.output<S>> extends true ? unknown : { viewDoesNotFitSchema: [View, z.output<S>] })): S =>
    schema

/** A view as JSON carries it: Dates become ISO 8601 strings (for `describes<AsJson<View>>()` of views holding Dates). */
export type AsJson<T> = T extends Date
  ? string
  : T extends (infer E)[]
    ? AsJson<E>[]
    : T extends object
      ? { [K in keyof T]: AsJson<T[K]> }
      : T
