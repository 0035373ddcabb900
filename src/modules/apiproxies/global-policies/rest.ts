import { z } from 'zod'
import { legacyDeploymentResult, legacyList, legacySuccess } from '../../../platform/envelopes/legacy.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { deploymentResult, legacyBody, legacyListBody } from '../../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteDef, type RouteInput } from '../../../platform/http/routes.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { globalPolicyBody } from './inputs.js'
import { createGlobalPolicy, deleteGlobalPolicy, GLOBAL_POLICY_CATEGORIES, getGlobalPolicy, listGlobalPolicies, updateGlobalPolicy } from './service.js'
import { globalPolicySchema } from './view-schemas.js'

const TOKEN_401 = 'missing, invalid, expired or revoked token'

export interface CollectionWrite<V> { view: V; deploymentResult: DeploymentOutcome | null }

/** The five legacy routes of a named project collection whose writes answer the descriptor and may redeploy proxies. */
export interface NamedCollection<V> {
  base: string
  item: string
  /** the categories whose VIEW or MANAGE the service accepts (the first is named in refusals) */
  categories: string[]
  tag: string
  label: string
  permission: string
  body: z.ZodType
  item400: string
  schema: z.ZodType
  list(db: Tx, actor: Actor, projectName: string): Promise<V[]>
  get(db: Tx, actor: Actor, projectName: string, name: string): Promise<V>
  create(deps: Deps, actor: Actor, projectName: string, body: unknown): Promise<CollectionWrite<V>>
  update(deps: Deps, actor: Actor, projectName: string, name: string, body: unknown): Promise<CollectionWrite<V>>
  remove(deps: Deps, actor: Actor, projectName: string, name: string): Promise<DeploymentOutcome | null>
}

const withDeployment = (views: unknown[], outcome: DeploymentOutcome | null) => ({ ...legacyList(views), ...(outcome ? { deploymentResult: legacyDeploymentResult(outcome) } : {}) })
const bodyName = (input: RouteInput) => {
  const name = (input.body as { name?: unknown } | null)?.name
  return typeof name === 'string' ? name : null
}

export function namedCollectionRoutes<V>(c: NamedCollection<V>): RouteDef[] {
  const read = { category: c.categories, level: 'VIEW' } as const
  const manage = { category: c.categories, level: 'MANAGE' } as const
  const written = legacyListBody(c.schema, { deploymentResult: deploymentResult.optional().describe('the redeploy of the API proxies the change applies to, where they run; absent when none runs') })
  const common400 = `project not found, or the caller lacks ${c.permission}`
  return defineRoutes([
    {
      method: 'get', path: `${c.base}/`, access: read, style: 'legacy', auth: 'token', tag: c.tag,
      summary: `List the project's ${c.label}s (${c.permission} VIEW)`,
      response: legacyListBody(c.schema),
      responses: { 200: 'status SUCCESS, resultList[] of descriptors, resultCount', 400: common400, 401: TOKEN_401 },
      async handle(ctx, input) {
        return { body: legacyList(await c.list(ctx.deps.prisma, requireActor(ctx), input.params.projectName)) }
      },
    },
    {
      method: 'get', path: `${c.base}/:${c.item}/`, access: read, style: 'legacy', auth: 'token', tag: c.tag,
      summary: `One ${c.label} by name, case-insensitive (${c.permission} VIEW)`,
      response: legacyListBody(c.schema),
      responses: { 200: 'status SUCCESS, resultList with the descriptor, resultCount 1', 400: `${c.label} not found, ${common400}`, 401: TOKEN_401 },
      async handle(ctx, input) {
        return { body: legacyList([await c.get(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params[c.item]!)]) }
      },
    },
    {
      method: 'post', path: `${c.base}/`, access: manage, style: 'legacy', auth: 'token', tag: c.tag,
      summary: `Create a ${c.label} from its snapshot, named by the body (${c.permission} MANAGE)`,
      body: { kind: 'json', schema: c.body, required: true },
      audit: { objectName: bodyName },
      response: written,
      responses: { 200: 'status SUCCESS, resultList with the descriptor, resultCount 1', 400: `name empty or taken, ${c.item400}, ${common400}`, 401: TOKEN_401 },
      async handle(ctx, input) {
        const out = await c.create(ctx.deps, requireActor(ctx), input.params.projectName, input.body)
        return { body: withDeployment([out.view], out.deploymentResult) }
      },
    },
    {
      method: 'put', path: `${c.base}/:${c.item}/`, access: manage, style: 'legacy', auth: 'token', tag: c.tag,
      summary: `Replace a ${c.label}; the body's name, when given, must match the path (${c.permission} MANAGE)`,
      body: { kind: 'json', schema: c.body, required: true },
      response: written,
      responses: { 200: 'status SUCCESS, resultList with the descriptor, resultCount 1, deploymentResult when proxies were redeployed', 400: `${c.label} not found, name differing from the path, ${c.item400}, ${common400}`, 401: TOKEN_401 },
      async handle(ctx, input) {
        const out = await c.update(ctx.deps, requireActor(ctx), input.params.projectName, input.params[c.item]!, input.body)
        return { body: withDeployment([out.view], out.deploymentResult) }
      },
    },
    {
      method: 'delete', path: `${c.base}/:${c.item}/`, access: manage, style: 'legacy', auth: 'token', tag: c.tag,
      summary: `Delete a ${c.label} (${c.permission} MANAGE)`,
      response: legacyBody({ deploymentResult }),
      responses: { 200: 'status SUCCESS, deploymentResult (success true when nothing had to be redeployed)', 400: `${c.label} not found, ${common400}`, 401: TOKEN_401 },
      async handle(ctx, input) {
        const outcome = await c.remove(ctx.deps, requireActor(ctx), input.params.projectName, input.params[c.item]!)
        return { body: legacySuccess({ deploymentResult: outcome ? legacyDeploymentResult(outcome) : { success: true, message: 'No API proxy to redeploy', environmentResults: [] } }) }
      },
    },
  ])
}

/** Vendor api-reference/global-policies. */
export const globalPolicyRoutes = namedCollectionRoutes({
  base: '/apiops/projects/:projectName/globalPolicies', item: 'policyName', tag: 'global-policies', label: 'global policy',
  permission: 'API_MANAGEMENT (or GLOBAL_POLICY)', body: globalPolicyBody, schema: globalPolicySchema,
  item400: '_class missing or not a policy type here, a field invalid for the type, type differing from the stored one',
  categories: GLOBAL_POLICY_CATEGORIES,
  list: listGlobalPolicies, get: getGlobalPolicy, create: createGlobalPolicy, update: updateGlobalPolicy, remove: deleteGlobalPolicy,
})
