// A compiled executor for the GraphQL door's queries (issue 31 §2, issue 30 §4). graphql-js's `execute` walks the
// document for every request and allocates, for each field of each row, a resolve-info object, a path and argument
// objects (≈ 750 B a field); graphql-jit compiles an operation once into a JavaScript function that reads plain fields
// as properties and builds the resolve info only when a resolver asks for it. The compiled function is kept with the
// parsed document Apollo already caches (its document store, keyed by the query's hash), one per operation name.
//
// What stays graphql-js's: mutations and subscriptions (their audit and ordering are graphql-js's own), any operation
// graphql-jit cannot compile, and any request whose variables graphql-jit refuses (graphql-js then answers, so the
// messages of a refused variable are graphql-js's, word for word). Validation (depth and cost limits, input rules) runs
// before either executor, in Apollo's pipeline; resolvers, DataLoaders, custom scalars and the audit wrapper are the
// schema's own and run the same under both.
import { execute, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql'
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit'
import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server'

type Gateway = ApolloServerOptionsWithGateway<BaseContext>['gateway']
type Executor = NonNullable<Awaited<ReturnType<Gateway['load']>>['executor']>
type ExecutorRequest = Parameters<Executor>[0]

/** not compilable: graphql-js executes this operation */
const FALLBACK = Symbol('graphql-js')
type Entry = CompiledQuery | typeof FALLBACK

/**
 * graphql-jit's errors inherit graphql-js's prototype but not its fields (no `extensions` object when the thrown
 * error had none, which Apollo's error formatting reads): each becomes graphql-js's own GraphQLError, with the same
 * message, locations, path and original error, as graphql-js's `locatedError` would have made it.
 */
function asGraphqlJsError(e: GraphQLError): GraphQLError {
  const original = e.originalError
  if (original instanceof GraphQLError && Array.isArray(original.path)) return original
  const err = new GraphQLError(e.message, { path: e.path, originalError: original ?? undefined, extensions: original instanceof GraphQLError ? original.extensions : undefined })
  if (e.locations !== undefined) (err as { locations?: GraphQLError['locations'] }).locations = e.locations
  return err
}

export class CompiledQueries {
  private readonly byDocument = new WeakMap<DocumentNode, Map<string, Entry>>()
  compiled = 0
  fallbacks = 0

  constructor(private readonly schema: GraphQLSchema) {}

  /** The compiled query for this document's operation, or FALLBACK; compiled once per document object and name. */
  entry(document: DocumentNode, operationName: string | null, kind: string): Entry {
    if (kind !== 'query') return FALLBACK
    let byName = this.byDocument.get(document)
    if (byName === undefined) this.byDocument.set(document, (byName = new Map()))
    const key = operationName ?? ''
    let entry = byName.get(key)
    if (entry === undefined) {
      const compiled = compileQuery(this.schema, document, operationName ?? undefined)
      entry = isCompiledQuery(compiled) ? compiled : FALLBACK
      if (entry === FALLBACK) this.fallbacks++
      else this.compiled++
      byName.set(key, entry)
    }
    return entry
  }

  async execute(rc: ExecutorRequest): Promise<ExecutionResult> {
    const variables = rc.request.variables
    const entry = this.entry(rc.document, rc.operationName, rc.operation.operation)
    if (entry !== FALLBACK) {
      const result = await entry.query(undefined, rc.context, variables)
      // no data: graphql-jit refused the variables before any resolver ran; graphql-js answers with its own words
      if (result.data !== undefined) {
        return result.errors === undefined ? result : { data: result.data, errors: result.errors.map(asGraphqlJsError) }
      }
    }
    return execute({ schema: this.schema, document: rc.document, contextValue: rc.context, variableValues: variables, operationName: rc.request.operationName })
  }
}

/**
 * Apollo Server's way to take another executor: a "gateway" that serves one fixed schema. Apollo still parses,
 * validates (with the configured validation rules), caches documents, runs the plugins and formats errors; only the
 * execution step is this gateway's.
 */
export function compiledQueriesGateway(schema: GraphQLSchema): { gateway: Gateway; queries: CompiledQueries } {
  const queries = new CompiledQueries(schema)
  const gateway: Gateway = {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' })
      return () => {}
    },
    async load() {
      return { executor: (rc) => queries.execute(rc) }
    },
    async stop() {},
  }
  return { gateway, queries }
}
