import { EnvironmentVariableResolver } from '../envvars/graphql.js'
import { IpGroupResolver } from '../objects/ip-groups/graphql.js'

/** GraphQL twins of the automation surface: the same services as the /apiops routes. */
export const automationResolvers = [EnvironmentVariableResolver, IpGroupResolver]
