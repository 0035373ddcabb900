import type { RouteDef } from './platform/http/routes.js'
import { authRoutes } from './modules/auth/rest.js'
import { credentialRoutes } from './modules/credentials/rest.js'
import { migrationRoutes } from './modules/migration/rest.js'

/** Every module's route table: the REST door (/apiops and /api) and the OpenAPI document. */
export const routeTables: RouteDef[] = [...authRoutes, ...credentialRoutes, ...migrationRoutes]
