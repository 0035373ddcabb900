import { z } from 'zod'
import { legacyList, legacySuccess } from '../../../platform/envelopes/legacy.js'
import { legacyListBody, successBody } from '../../../platform/http/response-schemas.js'
import { defineRoutes, requireActor } from '../../../platform/http/routes.js'
import { addIpGroupIps, createIpGroup, deleteIpGroup, getIpGroup, ipGroupBody, ipListBody, listIpGroups, removeIpGroupIps, replaceIpGroupIps, updateIpGroup, type IpGroupView } from './service.js'

const BASE = '/apiops/projects/:projectName/ipGroups'
const PERMISSION = 'permission: PROJECT_MANAGEMENT MANAGE (or IP_GROUP MANAGE)'
const TOKEN_401 = 'missing, invalid, expired or revoked token'
const ok = () => ({ body: legacySuccess({ success: true }) })
const common400 = 'unknown project, not a member, or missing PROJECT_MANAGEMENT MANAGE'

/** The read of an IP group (api-reference/ip-groups/crud/get-ip-group, list-ip-groups): name, description, ipList. */
const ipGroupSchema = z.object({
  name: z.string(),
  description: z.string().nullable().describe('null when none was given'),
  ipList: z.array(z.string()).describe('IP addresses and CIDR ranges, as added'),
}).meta({ id: 'IpGroup' })
const ipGroupRead = (g: IpGroupView) => ({ name: g.name, description: g.description, ipList: g.ipList })
const VIEW = 'permission: PROJECT_MANAGEMENT VIEW (or IP_GROUP VIEW)'

/** Vendor folder 11-ip-groups: IP groups are the project's IP_GROUP stored objects (not deployed by themselves). */
export const ipGroupRoutes = defineRoutes([
  {
    method: 'get',
    path: `${BASE}/`,
    style: 'legacy',
    auth: 'token',
    tag: 'ip-groups',
    summary: `List the project's IP groups by name, each with its IPs (${VIEW})`,
    response: legacyListBody(ipGroupSchema),
    responses: { 200: 'status SUCCESS, resultList (name, description, ipList), resultCount', 400: 'unknown project, not a member, or missing PROJECT_MANAGEMENT VIEW', 401: TOKEN_401 },
    handle: async (ctx, input) => ({ body: legacyList((await listIpGroups(ctx.deps.prisma, requireActor(ctx), input.params.projectName)).map(ipGroupRead)) }),
  },
  {
    method: 'get',
    path: `${BASE}/:ipGroupName/`,
    style: 'legacy',
    auth: 'token',
    tag: 'ip-groups',
    summary: `One IP group with its IPs, as the single element of resultList (${VIEW})`,
    response: legacyListBody(ipGroupSchema),
    responses: { 200: 'status SUCCESS, resultList (the group), resultCount 1', 400: 'IP group not found, unknown project, not a member, or missing PROJECT_MANAGEMENT VIEW', 401: TOKEN_401 },
    handle: async (ctx, input) => ({ body: legacyList([ipGroupRead(await getIpGroup(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.ipGroupName))]) }),
  },
  {
    method: 'post',
    path: `${BASE}/`,
    style: 'legacy',
    auth: 'token',
    tag: 'ip-groups',
    summary: `Create an empty IP group (${PERMISSION})`,
    body: { kind: 'json', schema: ipGroupBody, required: true },
    audit: { objectType: 'ipGroups' },
    response: successBody,
    responses: { 200: 'status SUCCESS, success true', 400: `name empty or invalid, name already exists in the project, ${common400}`, 401: TOKEN_401 },
    async handle(ctx, input) {
      await createIpGroup(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.body)
      return ok()
    },
  },
  {
    method: 'put',
    path: `${BASE}/:ipGroupName/`,
    style: 'legacy',
    auth: 'token',
    tag: 'ip-groups',
    summary: `Update an IP group's description; the body name must equal the path name (${PERMISSION})`,
    body: { kind: 'json', schema: ipGroupBody, required: true },
    response: successBody,
    responses: { 200: 'status SUCCESS, success true', 400: `name empty or differing from the path, IP group not found, ${common400}`, 401: TOKEN_401 },
    async handle(ctx, input) {
      await updateIpGroup(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.ipGroupName, input.body)
      return ok()
    },
  },
  {
    method: 'delete',
    path: `${BASE}/:ipGroupName/`,
    style: 'legacy',
    auth: 'token',
    tag: 'ip-groups',
    summary: `Delete an IP group and its IPs (${PERMISSION})`,
    response: successBody,
    responses: { 200: 'status SUCCESS, success true', 400: `IP group not found, ${common400}`, 401: TOKEN_401 },
    async handle(ctx, input) {
      await deleteIpGroup(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.ipGroupName)
      return ok()
    },
  },
  {
    method: 'post',
    path: `${BASE}/:ipGroupName/ips/`,
    style: 'legacy',
    auth: 'token',
    tag: 'ip-groups',
    summary: `Add IP addresses or CIDR ranges to an IP group; duplicates are ignored (${PERMISSION})`,
    body: { kind: 'json', schema: ipListBody, required: true },
    response: successBody,
    responses: { 200: 'status SUCCESS, success true', 400: `ipList missing, empty or holding an invalid IP/CIDR, IP group not found, ${common400}`, 401: TOKEN_401 },
    async handle(ctx, input) {
      await addIpGroupIps(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.ipGroupName, input.body)
      return ok()
    },
  },
  {
    method: 'put',
    path: `${BASE}/:ipGroupName/ips/`,
    style: 'legacy',
    auth: 'token',
    tag: 'ip-groups',
    summary: `Replace every IP of an IP group; an empty list empties it (${PERMISSION})`,
    body: { kind: 'json', schema: ipListBody, required: true },
    response: successBody,
    responses: { 200: 'status SUCCESS, success true', 400: `ipList missing or holding an invalid IP/CIDR, IP group not found, ${common400}`, 401: TOKEN_401 },
    async handle(ctx, input) {
      await replaceIpGroupIps(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.ipGroupName, input.body)
      return ok()
    },
  },
  {
    method: 'delete',
    path: `${BASE}/:ipGroupName/ips/`,
    style: 'legacy',
    auth: 'token',
    tag: 'ip-groups',
    summary: `Remove the listed IPs from an IP group; ones not in it are ignored (${PERMISSION})`,
    body: { kind: 'json', schema: ipListBody, required: true },
    response: successBody,
    responses: { 200: 'status SUCCESS, success true', 400: `ipList missing, empty or holding an invalid IP/CIDR, IP group not found, ${common400}`, 401: TOKEN_401 },
    async handle(ctx, input) {
      await removeIpGroupIps(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.ipGroupName, input.body)
      return ok()
    },
  },
])
