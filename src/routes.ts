import type { RouteDef } from './platform/http/routes.js'
import { authRoutes } from './modules/auth/rest.js'
import { credentialRoutes } from './modules/credentials/rest.js'
import { apiClientRoutes } from './modules/apiclients/rest.js'
import { identityLifecycleRoutes } from './modules/identity/lifecycle-rest.js'
import { identityReadRoutes } from './modules/identity/rest.js'
import { migrationRoutes } from './modules/migration/rest.js'
import { geolocationRoutes } from './modules/geolocation/rest.js'
import { auditRoutes } from './modules/audit/rest.js'

// One import and one entry line per module, so that modules are added without touching each other's lines.
/** Every module's route table: the REST door (/apiops and /api) and the OpenAPI document. */
export const routeTables: RouteDef[] = [
  ...authRoutes,
  ...credentialRoutes,
  ...identityLifecycleRoutes,
  ...identityReadRoutes,
  ...migrationRoutes,
  ...apiClientRoutes,
  ...geolocationRoutes,
  ...auditRoutes,
]
