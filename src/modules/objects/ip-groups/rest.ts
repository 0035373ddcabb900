import { legacySuccess } from '../../../platform/envelopes/legacy.js'
import { successBody } from '../../../platform/http/response-schemas.js'
import { defineRoutes, requireActor } from '../../../platform/http/routes.js'
import { addIpGroupIps, createIpGroup, deleteIpGroup, ipGroupBody, ipListBody, removeIpGroupIps, replaceIpGroupIps, updateIpGroup } from './service.js'

const BASE = '/apiops/projects/:projectName/ipGroups'
const PERMISSION = 'permission: PROJECT_MANAGEMENT MANAGE (or IP_GROUP MANAGE)'
const TOKEN_401 = 'missing, invalid, expired or revoked token'
const ok = () => ({ body: legacySuccess({ success: true }) })
const common400 = 'unknown project, not a member, or missing PROJECT_MANAGEMENT MANAGE'

/** Vendor folder 11-ip-groups: IP groups are the project's IP_GROUP stored objects (not deployed by themselves). */
export const ipGroupRoutes = defineRoutes([
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
