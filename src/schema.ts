import 'reflect-metadata'
import { buildSchema, type NonEmptyArray } from 'type-graphql'
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql'
import { AuthResolver, UserResolver } from './modules/auth/graphql.js'
import { CredentialResolver } from './modules/credentials/graphql.js'
import { ApiProxyResolver } from './modules/apiproxies/graphql.js'
import { ApiClientManagerResolver } from './modules/apiclients/graphql.js'
import { ApiClientResolver, ApplicationResolver } from './modules/identity/graphql.js'
import { ApplicationReadResolver, ConsumerResolver } from './modules/identity/consumers-graphql.js'
import { EntitlementResolver } from './modules/identity/entitlements-graphql.js'
import { IdentityLifecycleResolver } from './modules/identity/lifecycle-graphql.js'
import { GeolocationResolver } from './modules/geolocation/graphql.js'
import { WebhookConnectionResolver } from './modules/webhooks/graphql.js'
import { AuditEventResolver } from './modules/audit/graphql.js'
import { StoredObjectResolver } from './modules/objects/graphql.js'
import { EnvironmentResolver, OrganizationResolver, ProjectResolver } from './modules/projects/graphql.js'

/** Every module's resolvers: the GraphQL door. */
export const resolvers: NonEmptyArray<Function> = [
  AuthResolver,
  UserResolver,
  CredentialResolver,
  EnvironmentResolver,
  ProjectResolver,
  OrganizationResolver,
  ApplicationResolver,
  ApiClientResolver,
  ApplicationReadResolver,
  ConsumerResolver,
  EntitlementResolver,
  IdentityLifecycleResolver,
  ApiProxyResolver,
  StoredObjectResolver,
  ApiClientManagerResolver,
  GeolocationResolver,
  WebhookConnectionResolver,
  AuditEventResolver,
]

export function buildGraphqlSchema(): Promise<GraphQLSchema> {
  return buildSchema({ resolvers, validate: false })
}

/** The SDL as checked in at schema/schema.graphql: sorted, so that only real changes show as drift. */
export async function printSchemaSdl(): Promise<string> {
  return printSchema(lexicographicSortSchema(await buildGraphqlSchema())) + '\n'
}
