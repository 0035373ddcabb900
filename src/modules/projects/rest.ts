import { defineRoutes, requireActor, type RouteDef } from '../../platform/http/routes.js'
import { plainBody } from '../../platform/http/response-schemas.js'
import { createOrganization, deleteOrganization, getOrganization, organizationInput, organizationUpdate, updateOrganization } from './organizations.js'
import { credentialOrganizationView } from './views.js'
import { credentialOrganizationSchema } from './view-schemas.js'

// Credential organizations over REST (vendor api-reference/credential-organizations/crud/*): the service the
// GraphQL door (createOrganization, organization, updateOrganization, deleteOrganization) calls. The pages answer
// the bare CredentialOrganizationDTO, 201 on create, 204 on delete, 404 for an unknown code and 409 for a taken
// one: the problem-style errors spec §7.1 allows on legacy endpoints (the Common Contract renderer, errorKey).

const BASE = '/apiops/projects/:projectName/credential-organizations'
const TAG = 'credential-organizations'
const VIEW = { category: 'IDENTITY', level: 'VIEW' } as const
const MANAGE = { category: 'IDENTITY', level: 'MANAGE' } as const
const REFUSALS = {
  401: 'missing, invalid, expired or revoked token',
  403: 'permissionDenied: the caller lacks IDENTITY (VIEW for the read, MANAGE for writes)',
  404: 'resourceNotFound: unknown project, no organization with this code in the project, or parentOrganizationCode naming none (params.organization)',
}
const BODY_400 = 'malformedRequest (params.field): code blank or invalid, nameDefault/name blank or differing, unknown field, metadata key twice, a new secret entry without value'
const organization = plainBody(credentialOrganizationSchema)

export const credentialOrganizationRoutes: RouteDef[] = defineRoutes([
  {
    method: 'post',
    path: `${BASE}/`,
    style: 'common',
    auth: 'token',
    tag: TAG,
    summary: 'Create a credential organization: code (unique in the project), nameDefault, nameSecondary, parentOrganizationCode, metadata entries (secret values sealed, never shown) (IDENTITY MANAGE)',
    access: MANAGE,
    body: { kind: 'json', schema: organizationInput },
    response: organization,
    responses: { 201: 'the organization (secret metadata values null)', 400: BODY_400, 409: 'nameAlreadyExists: an organization with this code exists in the project', ...REFUSALS },
    audit: { objectType: 'ORGANIZATION', objectName: (input) => ((input.body as { code?: unknown } | null)?.code as string | undefined) ?? null },
    async handle(ctx, input) {
      const org = await createOrganization(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.body as never, ctx.deps.keyring)
      return { status: 201, body: await credentialOrganizationView(ctx.deps.prisma, org) }
    },
  },
  {
    method: 'get',
    path: `${BASE}/:code`,
    style: 'common',
    auth: 'token',
    tag: TAG,
    summary: 'One credential organization by code (IDENTITY VIEW)',
    access: VIEW,
    response: organization,
    responses: { 200: 'the organization (secret metadata values null)', ...REFUSALS },
    async handle(ctx, input) {
      const org = await getOrganization(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.code!)
      return { body: await credentialOrganizationView(ctx.deps.prisma, org) }
    },
  },
  {
    method: 'put',
    path: `${BASE}/:code`,
    style: 'common',
    auth: 'token',
    tag: TAG,
    summary: 'Update a credential organization: nameDefault and nameSecondary when non-blank, parentOrganizationCode, metadata replaces the list (a secret entry without value keeps its stored one); code never changes (IDENTITY MANAGE)',
    access: MANAGE,
    body: { kind: 'json', schema: organizationUpdate },
    response: organization,
    responses: { 200: 'the organization (secret metadata values null)', 400: `${BODY_400}, code differing from the path's, parent making a cycle`, ...REFUSALS },
    audit: { objectType: 'ORGANIZATION' },
    async handle(ctx, input) {
      const org = await updateOrganization(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.code!, input.body as never, ctx.deps.keyring)
      return { body: await credentialOrganizationView(ctx.deps.prisma, org) }
    },
  },
  {
    method: 'delete',
    path: `${BASE}/:code`,
    style: 'common',
    auth: 'token',
    tag: TAG,
    summary: 'Delete a credential organization; refused while it has sub-organizations (IDENTITY MANAGE)',
    access: MANAGE,
    responses: { 204: 'deleted', 409: 'lifecycleConflict (params.reason organizationHasChildren)', ...REFUSALS },
    audit: { objectType: 'ORGANIZATION' },
    async handle(ctx, input) {
      await deleteOrganization(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.code!)
      return { status: 204 }
    },
  },
])

