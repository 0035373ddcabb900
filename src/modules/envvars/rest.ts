import { legacyDeploymentResult, legacyList, legacySuccess } from '../../platform/envelopes/legacy.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { defineRoutes, requireActor } from '../../platform/http/routes.js'
import {
  createEnvironmentVariable, deleteEnvironmentVariable, environmentVariableInput, getEnvironmentVariable, listEnvironmentVariables,
  updateEnvironmentVariable,
} from './service.js'
import type { EnvironmentVariableView } from './values.js'
import { environmentVariableSchema } from './view-schemas.js'
import { deployedBody, legacyListBody } from '../../platform/http/response-schemas.js'
import { z } from 'zod'

const BASE = '/apiops/projects/:projectName/environmentVariables'
const TOKEN_401 = 'missing, invalid, expired or revoked token'
const DEPLOYED = 'status SUCCESS, success true and deploymentResult (success, message, environmentResults[] of environmentName, success, message)'
const common400 = 'unknown project, not a member, or missing PROJECT_MANAGEMENT'

/** The page's variable object, without our revision/updatedAt bookkeeping. */
const pageShape = ({ revision: _r, updatedAt: _u, ...fields }: EnvironmentVariableView) => fields
const deployed = (outcome: DeploymentOutcome) => ({ body: legacySuccess({ success: true, deploymentResult: legacyDeploymentResult(outcome) }) })

/** Vendor folder 10-environment-variables. Secret values are write-only: reads show null and a *Set flag. */
export const envVarRoutes = defineRoutes([
  {
    method: 'get',
    path: `${BASE}/`,
    style: 'legacy',
    auth: 'token',
    tag: 'environment-variables',
    summary: 'List a project\'s environment variables; in project admin every project\'s (permission: PROJECT_MANAGEMENT VIEW)',
    response: legacyListBody(environmentVariableSchema, { success: z.literal(true) }),
    responses: { 200: 'status SUCCESS, success true, resultList[] of variables (secret values null), resultCount', 400: `${common400} VIEW`, 401: TOKEN_401 },
    async handle(ctx, input) {
      const rows = await listEnvironmentVariables(ctx.deps.prisma, requireActor(ctx), input.params.projectName)
      return { body: { success: true, ...legacyList(rows.map(pageShape)) } }
    },
  },
  {
    method: 'get',
    path: `${BASE}/:name/`,
    style: 'legacy',
    auth: 'token',
    tag: 'environment-variables',
    summary: 'Get one environment variable by name (case-insensitive) (permission: PROJECT_MANAGEMENT VIEW)',
    response: legacyListBody(environmentVariableSchema, { success: z.literal(true) }),
    responses: { 200: 'status SUCCESS, success true, resultList with the variable (secret values null), resultCount 1', 400: `variable not found, ${common400} VIEW`, 401: TOKEN_401 },
    async handle(ctx, input) {
      const row = await getEnvironmentVariable(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.name)
      return { body: { success: true, ...legacyList([pageShape(row)]) } }
    },
  },
  {
    method: 'post',
    path: `${BASE}/:name/`,
    style: 'legacy',
    auth: 'token',
    tag: 'environment-variables',
    summary: 'Create an environment variable and deploy it to every environment of the project (permission: PROJECT_MANAGEMENT MANAGE; the push needs PROJECT_MANAGEMENT DEPLOY_UNDEPLOY)',
    body: { kind: 'json', schema: environmentVariableInput, required: true },
    response: deployedBody,
    responses: {
      200: DEPLOYED,
      400: `name empty, path name differing from body name, name already exists, global value or environment values missing, unknown environment, ${common400} MANAGE`,
      401: TOKEN_401,
    },
    async handle(ctx, input) {
      const { deploymentResult } = await createEnvironmentVariable(ctx.deps, requireActor(ctx), input.params.projectName, input.params.name, input.body)
      return deployed(deploymentResult)
    },
  },
  {
    method: 'put',
    path: `${BASE}/:name/`,
    style: 'legacy',
    auth: 'token',
    tag: 'environment-variables',
    summary: 'Replace an environment variable (a different body name renames it) and deploy it (permission: PROJECT_MANAGEMENT MANAGE; the push needs DEPLOY_UNDEPLOY)',
    body: { kind: 'json', schema: environmentVariableInput, required: true },
    response: deployedBody,
    responses: { 200: DEPLOYED, 400: `variable not found, new name already exists, invalid body, ${common400} MANAGE`, 401: TOKEN_401 },
    async handle(ctx, input) {
      const { deploymentResult } = await updateEnvironmentVariable(ctx.deps, requireActor(ctx), input.params.projectName, input.params.name, input.body)
      return deployed(deploymentResult)
    },
  },
  {
    method: 'delete',
    path: `${BASE}/:name/`,
    style: 'legacy',
    auth: 'token',
    tag: 'environment-variables',
    summary: 'Delete an environment variable and undeploy it from every environment (permission: PROJECT_MANAGEMENT MANAGE; the push needs DEPLOY_UNDEPLOY)',
    response: deployedBody,
    responses: { 200: DEPLOYED, 400: `variable not found, ${common400} MANAGE`, 401: TOKEN_401 },
    async handle(ctx, input) {
      return deployed(await deleteEnvironmentVariable(ctx.deps, requireActor(ctx), input.params.projectName, input.params.name))
    },
  },
])
