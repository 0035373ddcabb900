import { legacySuccess } from '../../platform/envelopes/legacy.js'
import { legacyListBody, successBody } from '../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type HttpMethod, type RouteDef } from '../../platform/http/routes.js'
import { conditionInput, credentialListInput, endpointDeleteInput, endpointListInput, rlclInput } from './inputs.js'
import { z } from 'zod'
import { rlclSchema } from './view-schemas.js'
import { changeCondition, changeCredentials, changeEndpoints, createRlcl, deleteRlcl, getRlcl, listRlcls, updateRlcl, type ListChange } from './service.js'

// Vendor pages 02-api-reference/12-rlcl (crud, credentials, endpoints, condition), legacy envelope (spec §7.1).
// Writes need API_MANAGEMENT MANAGE (the vendor's ROLE_MANAGE_PROXIES); the list and get (beyond the pages) VIEW.

const BASE = '/apiops/projects/:projectName/rlcl'
const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const ok = (fields: object = {}) => ({ body: legacySuccess({ success: true, ...fields }) })
const audit = { objectType: 'RLCL', objectName: (input: { params: Record<string, string> }) => input.params.rlclName ?? null }
const CHANGE: Record<string, ListChange> = { post: 'add', put: 'replace', delete: 'remove' }
const VERB: Record<string, string> = { post: 'Add', put: 'Replace all', delete: 'Remove' }

const listWrite = (part: 'credentials' | 'endpoints', method: HttpMethod): RouteDef => ({
  method,
  path: `${BASE}/:rlclName/${part}/`,
  style: 'legacy',
  auth: 'token',
  tag: 'rlcl',
  summary: `${VERB[method]} ${part} of an RLCL (API_MANAGEMENT MANAGE)${method === 'delete' ? '; ones not in the list are ignored' : method === 'post' ? '; duplicates are ignored' : ''}`,
  body: { kind: 'json', required: true, schema: part === 'credentials' ? credentialListInput : method === 'delete' ? endpointDeleteInput : endpointListInput },
  audit,
  response: successBody,
  responses: {
    200: 'status SUCCESS, success true',
    400: part === 'credentials'
      ? `unknown project, missing API_MANAGEMENT MANAGE, RLCL not found, credentialNameList empty${method === 'delete' ? '' : ', credential not found in the project'}`
      : `unknown project, missing API_MANAGEMENT MANAGE, RLCL not found, endpointRateLimitList empty, a field invalid (named)${method === 'delete' ? '' : ', API proxy not found, endpoint (name and method) not found in the API proxy'}`,
    ...COMMON,
  },
  async handle(ctx, input) {
    const p = input.params
    await (part === 'credentials' ? changeCredentials : changeEndpoints)(ctx.deps, requireActor(ctx), p.projectName!, p.rlclName!, CHANGE[method]!, input.body)
    return ok()
  },
})

const conditionWrite = (method: 'post' | 'put' | 'delete'): RouteDef => ({
  method,
  path: `${BASE}/:rlclName/condition/`,
  style: 'legacy',
  auth: 'token',
  tag: 'rlcl',
  summary: { post: 'Add the condition of an RLCL that has none (API_MANAGEMENT MANAGE)', put: "Replace an RLCL's condition (API_MANAGEMENT MANAGE)", delete: 'Remove the condition: the RLCL then applies unconditionally (API_MANAGEMENT MANAGE)' }[method],
  ...(method === 'delete' ? {} : { body: { kind: 'json' as const, required: true, schema: conditionInput } }),
  audit,
  response: successBody,
  responses: {
    200: 'status SUCCESS, success true',
    400: `unknown project, missing API_MANAGEMENT MANAGE, RLCL not found${method === 'delete' ? '' : ', condition empty, a rule field invalid (named)'}${method === 'post' ? ', the RLCL already has a condition' : method === 'put' ? ', the RLCL has no condition' : ''}`,
    ...COMMON,
  },
  async handle(ctx, input) {
    const p = input.params
    await changeCondition(ctx.deps, requireActor(ctx), p.projectName!, p.rlclName!, CHANGE[method]! as 'add' | 'replace' | 'remove', input.body)
    return ok()
  },
})

export const rlclRoutes = defineRoutes([
  {
    method: 'get',
    path: `${BASE}/`,
    style: 'legacy',
    auth: 'token',
    tag: 'rlcl',
    summary: 'List the RLCLs of a project with their credentials, endpoint entries and condition (API_MANAGEMENT VIEW)',
    response: legacyListBody(rlclSchema, { success: z.literal(true) }),
    responses: { 200: 'status SUCCESS, success true, resultList, resultCount', 400: 'unknown project or missing API_MANAGEMENT VIEW', ...COMMON },
    async handle(ctx, input) {
      const items = await listRlcls(ctx.deps.prisma, requireActor(ctx), input.params.projectName!)
      return ok({ resultList: items, resultCount: items.length })
    },
  },
  {
    method: 'post',
    path: `${BASE}/`,
    style: 'legacy',
    auth: 'token',
    tag: 'rlcl',
    summary: 'Create an empty RLCL (API_MANAGEMENT MANAGE)',
    body: { kind: 'json', required: true, schema: rlclInput },
    audit: { objectType: 'RLCL', objectName: (input) => (input.body as { name?: unknown } | undefined)?.name?.toString() ?? null },
    response: successBody,
    responses: { 200: 'status SUCCESS, success true', 400: 'unknown project, missing API_MANAGEMENT MANAGE, name empty, RLCL with the same name exists, a field invalid (named)', ...COMMON },
    async handle(ctx, input) {
      await createRlcl(ctx.deps, requireActor(ctx), input.params.projectName!, input.body)
      return ok()
    },
  },
  {
    method: 'get',
    path: `${BASE}/:rlclName/`,
    style: 'legacy',
    auth: 'token',
    tag: 'rlcl',
    summary: 'One RLCL with its credentials, endpoint entries and condition (API_MANAGEMENT VIEW)',
    response: legacyListBody(rlclSchema, { success: z.literal(true) }),
    responses: { 200: 'status SUCCESS, success true, resultList [the RLCL], resultCount 1', 400: 'unknown project, missing API_MANAGEMENT VIEW, RLCL not found', ...COMMON },
    async handle(ctx, input) {
      return ok({ resultList: [await getRlcl(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.rlclName!)], resultCount: 1 })
    },
  },
  {
    method: 'put',
    path: `${BASE}/:rlclName/`,
    style: 'legacy',
    auth: 'token',
    tag: 'rlcl',
    summary: 'Update an RLCL: every field but the name; credentials, endpoints and condition stay (API_MANAGEMENT MANAGE)',
    body: { kind: 'json', required: true, schema: rlclInput },
    audit,
    response: successBody,
    responses: { 200: 'status SUCCESS, success true', 400: 'unknown project, missing API_MANAGEMENT MANAGE, RLCL not found, name empty or not the path name, a field invalid (named)', ...COMMON },
    async handle(ctx, input) {
      await updateRlcl(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.rlclName!, input.body)
      return ok()
    },
  },
  {
    method: 'delete',
    path: `${BASE}/:rlclName/`,
    style: 'legacy',
    auth: 'token',
    tag: 'rlcl',
    summary: 'Delete an RLCL with its credentials, endpoints and condition; undeployed from the environments (API_MANAGEMENT MANAGE)',
    audit,
    response: successBody,
    responses: { 200: 'status SUCCESS, success true', 400: 'unknown project, missing API_MANAGEMENT MANAGE, RLCL not found', ...COMMON },
    async handle(ctx, input) {
      await deleteRlcl(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.rlclName!)
      return ok()
    },
  },
  listWrite('credentials', 'post'),
  listWrite('credentials', 'put'),
  listWrite('credentials', 'delete'),
  listWrite('endpoints', 'post'),
  listWrite('endpoints', 'put'),
  listWrite('endpoints', 'delete'),
  conditionWrite('post'),
  conditionWrite('put'),
  conditionWrite('delete'),
])
