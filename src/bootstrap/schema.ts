import { z } from 'zod'
import { createUserInput } from '../modules/auth/users.js'
import { credentialInput } from '../modules/credentials/service.js'
import { apiClientFields } from '../modules/identity/api-clients.js'
import { applicationInput } from '../modules/identity/applications.js'
import { apiProxyInput } from '../modules/apiproxies/proxies/service.js'
import { checkObjectKind, storedObjectFields } from '../modules/objects/service.js'
import { environmentInput } from '../modules/projects/environments.js'
import { organizationInput } from '../modules/projects/organizations.js'
import { permissionInput, projectInput } from '../modules/projects/projects.js'
import { objectName } from '../platform/validation/common.js'
import { licenseInput } from '../modules/licence/service.js'

// The file reuses each service's own input schema, made strict so that a misspelt field is refused
// instead of silently ignored.
const member = z.strictObject({ username: objectName, permissions: z.array(permissionInput.strict()).default([]) })

const application = applicationInput.strict().extend({
  apiClients: z.array(apiClientFields.omit({ applicationName: true, credentialUsername: true }).strict()).default([]),
})

/** One entry of a project's `credentials`: the collection that grows, read from the file one entry at a time. */
export const bootstrapCredential = credentialInput.omit({ roleNameList: true }).strict().extend({
  /**
   * A password as an older installation stored it: PLAIN text, or SEALED_ELSEWHERE (sealed under a key this
   * installation does not hold). Kept byte for byte, for the secret carry-over to API clients.
   */
  legacyPassword: z.strictObject({ format: z.enum(['PLAIN', 'SEALED_ELSEWHERE']), value: z.string().min(1) }).optional(),
})

const project = projectInput.strict().extend({
  members: z.array(member).default([]),
  organizations: z.array(organizationInput.strict()).default([]),
  credentials: z.array(bootstrapCredential).default([]),
  applications: z.array(application).default([]),
  apiProxies: z.array(apiProxyInput.strict()).default([]),
  objects: z.array(storedObjectFields.strict().superRefine(checkObjectKind)).default([]),
})

/** RUNTIME.md §3: the starting content of an installation. */
export const bootstrapSchema = z.strictObject({
  environments: z.array(environmentInput.strict()).default([]),
  users: z.array(createUserInput.strict()).default([]),
  projects: z.array(project).default([]),
  /** the installation licence (docs/limits-bulk.md); absent: the stored one stays (none stored: every module licensed) */
  license: licenseInput.optional(),
})

export type BootstrapFile = z.output<typeof bootstrapSchema>
export type BootstrapProject = BootstrapFile['projects'][number]
export type BootstrapCredential = z.output<typeof bootstrapCredential>
