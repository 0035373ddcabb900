// Counting the SQL statements of one GraphQL request: the operation runs in this process against the service's
// schema and dependencies, as the /graphql door runs it (per-request loaders, the caller's token), inside a
// statement log (src/platform/db/statement-log.ts), so background work of the service never counts.
import { execute, parse, type GraphQLSchema } from 'graphql'
import { authenticate } from '../../src/platform/auth/tokens.js'
import { recordStatements } from '../../src/platform/db/statement-log.js'
import { Loaders, type GqlContext } from '../../src/platform/graphql/context.js'
import { buildGraphqlSchema } from '../../src/schema.js'
import type { TestService } from './app.js'

let schema: Promise<GraphQLSchema> | undefined

/** Runs a query as `token`'s user; answers its data (errors throw) and the SQL of every statement it sent. */
export async function graphqlStatements(svc: TestService, query: string, variables: Record<string, unknown>, token: string) {
  const actor = await authenticate(svc.deps.prisma, token, 'graphql')
  const contextValue: GqlContext = { deps: svc.deps, actor, correlationId: 'statement-count', logger: svc.deps.logger, clientAddress: '127.0.0.1', loaders: new Loaders(), token }
  const document = parse(query)
  const built = await (schema ??= buildGraphqlSchema())
  const { result, statements } = await recordStatements(async () => execute({ schema: built, document, variableValues: variables, contextValue }))
  if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`)
  return { data: result.data as any, statements }
}
