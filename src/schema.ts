import 'reflect-metadata'
import { buildSchema, type NonEmptyArray } from 'type-graphql'
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql'
import { AuthResolver, UserResolver } from './modules/auth/graphql.js'
import { CredentialResolver } from './modules/credentials/graphql.js'

/** Every module's resolvers: the GraphQL door. */
export const resolvers: NonEmptyArray<Function> = [AuthResolver, UserResolver, CredentialResolver]

export function buildGraphqlSchema(): Promise<GraphQLSchema> {
  return buildSchema({ resolvers, validate: false })
}

/** The SDL as checked in at schema/schema.graphql: sorted, so that only real changes show as drift. */
export async function printSchemaSdl(): Promise<string> {
  return printSchema(lexicographicSortSchema(await buildGraphqlSchema())) + '\n'
}
