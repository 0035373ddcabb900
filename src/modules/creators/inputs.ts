import { z } from 'zod'

// Bodies of the creators (vendor openapi.yaml schemas DbToApi, MockApi, ScriptToApi: id, name, description,
// projectId) with the method definitions the vendor's API Creator pages describe (en/develop/api-proxy-creation/
// api-creator-db-api-creation, -mock-api-creation, -script-api-creation). One schema per body: the REST door,
// the GraphQL input and the OpenAPI document all come from these.

/** The creator kinds: kinds of the API_CREATOR transfer type, and the path segment each is served under. */
export const CREATOR_KINDS = {
  DB2API: { segment: 'db2apis', param: 'db2ApiName', idParam: 'db2ApiId', label: 'DB2API', graphql: 'Db2Api' },
  MOCKAPI: { segment: 'mockapis', param: 'mockApiName', idParam: 'mockApiId', label: 'MockAPI', graphql: 'MockApi' },
  SCRIPT2API: { segment: 'script2apis', param: 'script2ApiName', idParam: 'script2ApiId', label: 'Script2API', graphql: 'Script2Api' },
} as const
export type CreatorKind = keyof typeof CREATOR_KINDS
export const CREATOR_KIND_NAMES = Object.keys(CREATOR_KINDS) as CreatorKind[]

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')
const required = (max: number) => text(max).refine((s) => s.trim().length > 0, 'must not be blank')

/** The pages' HTTP methods of a creator's method/endpoint. */
export const CREATOR_HTTP_METHODS = ['GET', 'POST', 'PUT', 'HEAD', 'OPTIONS', 'DELETE', 'PATCH', 'TRACE', 'ALL', 'QUERY'] as const
export const SQL_STATEMENT_TYPES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'PROCEDURE', 'TRUNCATE', 'BATCH_INSERT'] as const
export const SCRIPT_LANGUAGES = ['GROOVY', 'JAVASCRIPT'] as const
const MAX_METHODS = 500

/** What every method/endpoint has: its Name/URL, HTTP method and description. */
const methodBase = {
  name: required(500).describe('the Name/URL of the method, e.g. /employees'),
  httpMethod: z.enum(CREATOR_HTTP_METHODS),
  description: text(2000).nullish(),
}

const db2ApiParameter = z.strictObject({
  name: required(200),
  dataType: text(50).nullish().describe('e.g. STRING, NUMBER, DATE'),
  paramType: z.enum(['IN', 'OUT', 'IN_OUT', 'CURSOR']).nullish(),
  testValue: text(2000).nullish(),
})

export const db2ApiMethodInput = z.strictObject({
  ...methodBase,
  connectionName: required(200).describe('a database connection of the project (connections of type database)'),
  timeout: z.number().int().min(1, 'must be at least 1').max(3600, 'must be at most 3600').nullish().describe('query timeout in seconds'),
  sqlStatementType: z.enum(SQL_STATEMENT_TYPES).nullish(),
  sql: text(100_000).nullish(),
  operationType: z.enum(['FIND']).nullish().describe('NoSQL operation type'),
  query: text(100_000).nullish().describe('NoSQL query'),
  parameterList: z.array(db2ApiParameter).max(200, 'must hold at most 200 entries').nullish(),
})

const mockHeader = z.strictObject({ name: required(500), value: text(8000) })
const mockResponse = z.strictObject({
  contentType: text(200).nullish(),
  condition: text(8000).nullish().describe('when this example is returned; absent: the default response'),
  body: text(1_000_000).nullish(),
})

export const mockApiMethodInput = z.strictObject({
  ...methodBase,
  statusCode: z.number().int().min(100, 'must be an HTTP status code (100-599)').max(599, 'must be an HTTP status code (100-599)').nullish(),
  headerList: z.array(mockHeader).max(200, 'must hold at most 200 entries').nullish(),
  responseList: z.array(mockResponse).max(100, 'must hold at most 100 entries').nullish(),
})

export const script2ApiMethodInput = z.strictObject({
  ...methodBase,
  scriptLanguage: z.enum(SCRIPT_LANGUAGES),
  script: text(1_000_000),
})

/** The vendor schema's fields: id and projectId are the source's (a promotion sends them); they are not stored. */
const creatorBase = {
  id: text(200).nullish().describe("the source's id; read-only, the object is named by the path"),
  name: required(200).nullish().describe('when present, the name in the path'),
  description: text(2000).nullish(),
  projectId: text(200).nullish().describe("the source project's id; read-only"),
}

const methods = <T extends z.ZodType>(item: T) => z.array(item).max(MAX_METHODS, `must hold at most ${MAX_METHODS} entries`).nullish()

export const db2ApiInput = z.strictObject({ ...creatorBase, endpointList: methods(db2ApiMethodInput) })
export const mockApiInput = z.strictObject({ ...creatorBase, endpointList: methods(mockApiMethodInput) })
export const script2ApiInput = z.strictObject({ ...creatorBase, endpointList: methods(script2ApiMethodInput) })

export const CREATOR_INPUTS = { DB2API: db2ApiInput, MOCKAPI: mockApiInput, SCRIPT2API: script2ApiInput } as const
export type CreatorInput = z.output<typeof db2ApiInput> | z.output<typeof mockApiInput> | z.output<typeof script2ApiInput>

/** POST /apiops/utility/creators/batch-names: the ids (the vendor's `List`), `type` in the query. */
export const creatorIdList = z.array(text(200)).max(1000, 'must hold at most 1000 ids')
export const creatorTypeQuery = z.object({
  type: z.string().describe(`the creator kind: ${CREATOR_KIND_NAMES.join(', ')} (case-insensitive)`),
})
