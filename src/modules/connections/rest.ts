import { z } from 'zod'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { legacyDeploymentResult, legacyList, legacySuccess } from '../../platform/envelopes/legacy.js'
import { defineRoutes, requireActor } from '../../platform/http/routes.js'
import { createConnection, deleteConnection, getConnection, listConnections, updateConnection } from './service.js'
import { testConnection } from './testers/index.js'
import { CONNECTION_TYPES } from './types/index.js'
import { deployedBody, legacyBody, legacyListBody } from '../../platform/http/response-schemas.js'
import { connectionSchema, connectionTestSchema } from './view-schemas.js'

const BASE = '/apiops/projects/:projectName/connections'
const TAG = 'connections'
const TOKEN_401 = 'missing, invalid, expired or revoked token'
const DEPLOYED = 'status SUCCESS, success true and deploymentResult (success, message, environmentResults[] of environmentName, success, message); environmentResults empty when deployToWorker is false'
const common400 = 'unknown project, not a member, or missing CONNECTION (or PROJECT_MANAGEMENT)'
const TYPES = CONNECTION_TYPES.join(', ')
const body = { kind: 'json' as const, schema: z.object({ type: z.string().describe(`one of ${TYPES} (also activemq, linuxscript)`), name: z.string() }).loose(), required: true }
const deployed = (outcome: DeploymentOutcome) => ({ body: legacySuccess({ success: true, deploymentResult: legacyDeploymentResult(outcome) }) })

/**
 * Vendor folder 06-connections: one typed CRUD with `type` as discriminator. Secret fields are write-only:
 * every read shows them null with a `<field>Set` flag. Beyond the pages: POST …/{connectionName}/test.
 */
export const connectionRoutes = defineRoutes([
  {
    method: 'get',
    path: `${BASE}/`,
    style: 'legacy',
    auth: 'token',
    tag: TAG,
    summary: `List a project's connections of one type, ?type= (required: ${TYPES}) (permission: CONNECTION or PROJECT_MANAGEMENT VIEW)`,
    query: z.object({ type: z.string().optional().describe(`required (the page: you must specify the connection type); one of ${TYPES}`) }),
    response: legacyListBody(connectionSchema, { success: z.literal(true) }),
    responses: { 200: 'status SUCCESS, success true, resultList[] of connections (secrets null, <field>Set flags), resultCount', 400: `type missing or unknown, ${common400} VIEW`, 401: TOKEN_401 },
    async handle(ctx, input) {
      const rows = await listConnections(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.query.type as string | undefined, { typeRequired: true })
      return { body: { success: true, ...legacyList(rows) } }
    },
  },
  {
    method: 'get',
    path: `${BASE}/:connectionName/`,
    style: 'legacy',
    auth: 'token',
    tag: TAG,
    summary: 'Get one connection by name (case-insensitive) (permission: CONNECTION or PROJECT_MANAGEMENT VIEW)',
    response: legacyListBody(connectionSchema, { success: z.literal(true) }),
    responses: { 200: 'status SUCCESS, success true, resultList with the connection (secrets null, <field>Set flags), resultCount 1', 400: `connection not found, ${common400} VIEW`, 401: TOKEN_401 },
    async handle(ctx, input) {
      const row = await getConnection(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.connectionName)
      return { body: { success: true, ...legacyList([row]) } }
    },
  },
  {
    method: 'post',
    path: `${BASE}/:connectionName/`,
    style: 'legacy',
    auth: 'token',
    tag: TAG,
    summary: 'Create a connection of any type and, with deployToWorker (default true), deploy it to every environment of the project (permission: CONNECTION or PROJECT_MANAGEMENT MANAGE; the push needs DEPLOY_UNDEPLOY)',
    body,
    response: deployedBody,
    responses: {
      200: DEPLOYED,
      400: `type missing or unknown, name missing or differing from the path, name already exists, a field of the type invalid or missing (the message names it), loopback/private target refused on test, ${common400} MANAGE`,
      401: TOKEN_401,
    },
    audit: { objectType: 'CONNECTION' },
    async handle(ctx, input) {
      const { deploymentResult } = await createConnection(ctx.deps, requireActor(ctx), input.params.projectName, input.params.connectionName, input.body)
      return deployed(deploymentResult)
    },
  },
  {
    method: 'put',
    path: `${BASE}/:connectionName/`,
    style: 'legacy',
    auth: 'token',
    tag: TAG,
    summary: 'Update a connection: the body is applied over the stored one (absent fields and secrets keep their value; a different name renames); the type cannot change (permission: CONNECTION or PROJECT_MANAGEMENT MANAGE; the push needs DEPLOY_UNDEPLOY)',
    body,
    response: deployedBody,
    responses: { 200: DEPLOYED, 400: `connection not found, type changed, new name already exists, a field invalid, ${common400} MANAGE`, 401: TOKEN_401 },
    audit: { objectType: 'CONNECTION' },
    async handle(ctx, input) {
      const { deploymentResult } = await updateConnection(ctx.deps, requireActor(ctx), input.params.projectName, input.params.connectionName, input.body)
      return deployed(deploymentResult)
    },
  },
  {
    method: 'delete',
    path: `${BASE}/:connectionName/`,
    style: 'legacy',
    auth: 'token',
    tag: TAG,
    summary: 'Delete a connection and undeploy it from every environment (permission: CONNECTION or PROJECT_MANAGEMENT MANAGE; the push needs DEPLOY_UNDEPLOY)',
    response: deployedBody,
    responses: { 200: DEPLOYED, 400: `connection not found, ${common400} MANAGE`, 401: TOKEN_401 },
    audit: { objectType: 'CONNECTION' },
    async handle(ctx, input) {
      return deployed(await deleteConnection(ctx.deps, requireActor(ctx), input.params.projectName, input.params.connectionName))
    },
  },
  {
    method: 'post',
    path: `${BASE}/:connectionName/test`,
    style: 'legacy',
    auth: 'token',
    tag: TAG,
    summary: 'Connect to the connection\'s server with its type\'s client, bounded by CONNECTION_TEST_TIMEOUT_MS; writes nothing (permission: CONNECTION or PROJECT_MANAGEMENT MANAGE)',
    response: legacyBody(connectionTestSchema.shape),
    responses: {
      200: 'status SUCCESS, success (the test\'s outcome), message, durationMs',
      400: `connection not found, loopback or private target (field named) unless CONNECTION_TEST_ALLOW_PRIVATE, ${common400} MANAGE`,
      401: TOKEN_401,
    },
    audit: false,
    async handle(ctx, input) {
      return { body: legacySuccess(await testConnection(ctx.deps, requireActor(ctx), input.params.projectName, input.params.connectionName)) }
    },
  },
])
