import 'reflect-metadata'
import { buildSchema, type NonEmptyArray } from 'type-graphql'
import type { GraphQLSchema } from 'graphql'
import { AuthResolver, UserResolver } from './modules/auth/graphql.js'
import { CredentialResolver } from './modules/credentials/graphql.js'

/** Every module's resolvers: the GraphQL door. */
export const resolvers: NonEmptyArray<Function> = [AuthResolver, UserResolver, CredentialResolver]

export function buildGraphqlSchema(): Promise<GraphQLSchema> {
  return buildSchema({ resolvers, validate: false })
}
