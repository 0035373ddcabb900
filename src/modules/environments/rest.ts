import { legacyList } from '../../platform/envelopes/legacy.js'
import { defineRoutes, requireActor, type RouteDef } from '../../platform/http/routes.js'
import { fileBody, legacyListBody } from '../../platform/http/response-schemas.js'
import { z } from 'zod'
import { envVarRoutes } from '../envvars/rest.js'
import { ipGroupRoutes } from '../objects/ip-groups/rest.js'
import { listAllEnvironments, listProjectEnvironments, listVisibleProjects } from './service.js'

const TOKEN_401 = 'missing, invalid, expired or revoked token'

/** A project as GET /apiops/projects/ lists it. */
const projectItem = z.object({ name: z.string(), description: z.string().nullable() }).meta({ id: 'ProjectSummary' })
/** An environment with its deployment state (EnvironmentView). */
const environmentItem = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.string(),
    status: z.enum(['PUBLISHED', 'UNPUBLISHED', 'REPUBLISH_REQUIRED']),
    accessUrl: z.string().nullable(),
    deployed: z.boolean(),
    redeployRequired: z.boolean(),
  })
  .meta({ id: 'EnvironmentState' })

const plainText = (text: string) => ({ body: Buffer.from(text, 'utf8'), headers: { 'content-type': 'text/plain; charset=utf-8' } })

/** The environments a project deploys to, for any member of it. */
const projectEnvironmentsRoute = (path: string): RouteDef => ({
  method: 'get',
  path,
  style: 'legacy',
  auth: 'token',
  tag: 'environments',
  summary: 'List the environments a project deploys to, with their deployment state for that project (permission: project membership)',
  responses: {
    200: 'status SUCCESS, success, resultList[] of id, name, description, type, status, accessUrl, deployed, redeployRequired; resultCount',
    400: 'project not found or the caller is not a member of it',
    401: TOKEN_401,
  },
  response: legacyListBody(environmentItem, { success: z.literal(true) }),
  async handle(ctx, input) {
    return { body: { success: true, ...legacyList(await listProjectEnvironments(ctx.deps.prisma, requireActor(ctx), input.params.projectName)) } }
  },
})

/** Vendor folders 02-projects, 03-environments and 16-test. */
const projectEnvironmentRoutes = defineRoutes([
  {
    method: 'get',
    path: '/apiops/projects/',
    style: 'legacy',
    auth: 'token',
    tag: 'projects',
    summary: 'List the projects the caller can see (permission: project membership; a system administrator sees all)',
    responses: { 200: 'status SUCCESS, resultList[] of name and description, resultCount', 401: TOKEN_401 },
    response: legacyListBody(projectItem),
    async handle(ctx) {
      return { body: legacyList(await listVisibleProjects(ctx.deps.prisma, requireActor(ctx))) }
    },
  },
  {
    method: 'get',
    path: '/apiops/environments/',
    style: 'legacy',
    auth: 'token',
    tag: 'environments',
    summary: 'List every environment with its deployment state (permission: system administrator)',
    responses: {
      200: 'status SUCCESS, success, resultList[] of name, description, type, status (PUBLISHED, UNPUBLISHED, REPUBLISH_REQUIRED), accessUrl, deployed, redeployRequired; resultCount',
      400: 'caller not a system administrator',
      401: TOKEN_401,
    },
    response: legacyListBody(environmentItem, { success: z.literal(true) }),
    async handle(ctx) {
      return { body: { success: true, ...legacyList(await listAllEnvironments(ctx.deps.prisma, requireActor(ctx))) } }
    },
  },
  // the older pages' path (management-api-docs 03-environments) and the newer one (apinizer/docs environments)
  projectEnvironmentsRoute('/apiops/environments/:projectName'),
  projectEnvironmentsRoute('/apiops/projects/:projectName/environments/'),
  {
    method: 'get',
    path: '/apiops/test/healthcheck',
    style: 'legacy',
    auth: 'public',
    tag: 'test',
    summary: 'Plain text OK when the management API is up (no token needed)',
    responses: { 200: 'text/plain OK' },
    response: fileBody('text/plain'),
    async handle() {
      return plainText('OK')
    },
  },
  {
    method: 'get',
    path: '/apiops/test/hello/:name',
    style: 'legacy',
    auth: 'token',
    tag: 'test',
    summary: 'Plain text "Hello {name}" for a valid token: checks a token works (permission: any valid token)',
    responses: { 200: 'text/plain Hello {name}', 401: TOKEN_401 },
    response: fileBody('text/plain'),
    async handle(_ctx, input) {
      return plainText(`Hello ${input.params.name}`)
    },
  },
])

/** The /apiops automation surface of projects, environments, environment variables, IP groups and test. */
export const automationRoutes: RouteDef[] = [...projectEnvironmentRoutes, ...envVarRoutes, ...ipGroupRoutes]
