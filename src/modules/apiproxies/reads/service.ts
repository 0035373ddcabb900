import { z } from 'zod'
import type { ApiProxy } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { DomainError, malformed } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { authorizeInProject } from '../../../platform/scope/project-scope.js'
import { listEnvironmentVariables } from '../../envvars/service.js'
import { listMethods, methodsQuery } from '../methods/service.js'
import { findProxy, proxyDetailOf } from '../proxies/automation/service.js'
import { kindWithArticle } from '../shared/kinds.js'
import { endpointsFromSpec, replaceSpecEndpoints } from '../spec/spec-import.js'

// Reads of an API proxy the vendor document lists without a page (openapi.yaml getFullApiProxy,
// findEnvironmentVariablesBy…, getSpecAPIOfSpecGet, updateSpecAPIOfSpecPut): the full proxy with its endpoints (and
// policies), the environment variables it uses, and the specification it was built from (read and replaced).

export const fullQuery = z.object({ withPolicies: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().describe('include the proxy-level and per-endpoint policy lists (default false)') })

const POLICY_LISTS = { REQUEST: 'requestPolicyList', RESPONSE: 'responsePolicyList', ERROR: 'errorPolicyList' } as const

/** GET …/apiProxies/{name}/full: the proxy read (GET …/{name}/) with type, endpointList and, withPolicies, its policy lists. */
export async function fullProxy(db: Tx, actor: Actor, projectName: string, proxyName: string, query: unknown) {
  const access = await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'VIEW')
  const withPolicies = parseInput(fullQuery, query ?? {}).withPolicies === 'true'
  const proxy = await findProxy(db, access.project.id, proxyName)
  const [detail, endpointList] = await Promise.all([proxyDetailOf(db, access, proxy), listMethods(db, actor, projectName, proxy.name, { withPolicies: String(withPolicies) })])
  let lists = {}
  if (withPolicies) {
    const rows = await db.apiProxyPolicy.findMany({ where: { apiProxyId: proxy.id, endpointId: null }, orderBy: [{ pipeline: 'asc' }, { position: 'asc' }] })
    lists = Object.fromEntries(Object.entries(POLICY_LISTS).map(([pipeline, field]) => [field, rows.filter((p) => p.pipeline === pipeline).map((p) => ({ type: p.type, name: p.name, description: p.description, active: p.active }))]))
  }
  return { ...detail, type: proxy.kind, soapToRest: false, endpointList, ...lists }
}

/**
 * GET …/apiProxies/{name}/?withPolicies=: the proxy read with its methods (`endpointList`, with their policy lists
 * when asked), answered in both published shapes: the fields at the top level (the older get-api-proxy page) and the
 * same object as `resultList[0]` (the newest page and openapi.yaml getAPIProxyDetails, ApiOpsResponseApiProxy).
 */
export async function proxyWithMethods(db: Tx, actor: Actor, projectName: string, proxyName: string, query: unknown) {
  const access = await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'VIEW')
  const withPolicies = parseInput(methodsQuery, query ?? {}).withPolicies ?? 'false'
  const proxy = await findProxy(db, access.project.id, proxyName)
  const [detail, endpointList] = await Promise.all([proxyDetailOf(db, access, proxy), listMethods(db, actor, projectName, proxy.name, { withPolicies })])
  const fields = { ...detail, endpointList }
  return { ...fields, success: true as const, resultList: [fields], resultCount: 1 as const }
}

/** `${NAME}` anywhere in a text: a reference to the environment variable NAME (the policies' convention). */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_.-]{0,199})\}/g
function referencedNames(values: unknown[]): Set<string> {
  const names = new Set<string>()
  const walk = (v: unknown): void => {
    if (typeof v === 'string') for (const m of v.matchAll(REFERENCE)) names.add(m[1]!.toLowerCase())
    else if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object') Object.values(v).forEach(walk)
  }
  values.forEach(walk)
  return names
}

/**
 * GET …/apiProxies/{name}/environment-variables/: the project's variables the proxy names as `${NAME}` in its
 * settings, its policies or its endpoints (API_MANAGEMENT VIEW for the proxy; the variables are read as their own
 * pages read them, which needs PROJECT_MANAGEMENT VIEW; secret values null).
 */
export async function proxyEnvironmentVariables(db: Tx, actor: Actor, projectName: string, proxyName: string) {
  const access = await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'VIEW')
  const proxy = await findProxy(db, access.project.id, proxyName)
  const [policies, endpoints] = await Promise.all([
    db.apiProxyPolicy.findMany({ where: { apiProxyId: proxy.id }, select: { config: true } }),
    db.gatewayEndpoint.findMany({ where: { apiProxyId: proxy.id }, select: { routing: true, rewriteRules: true, policies: true } }),
  ])
  const names = referencedNames([proxy.settings, proxy.routing, ...policies.map((p) => p.config), ...endpoints])
  const variables = await listEnvironmentVariables(db, actor, projectName)
  return variables.filter((v) => v.projectName === access.project.name && names.has(v.name.toLowerCase()))
}

/** The proxy's specification as the vendor's SpecApi shows it (objects are addressed by name: ids carry names). */
export function specView(proxy: ApiProxy, projectName: string) {
  return {
    id: proxy.name,
    projectId: projectName,
    apiProxyId: proxy.name,
    apiProxyRevision: proxy.revision,
    specCreationType: proxy.creationType,
    importedContentOfBackendApi: proxy.specDocument,
    soapSchemaList: [] as { schemaNo: number; schemaBody: string; originalLocation: string | null; schemaNamespace: string | null }[],
  }
}

/** GET …/apiProxies/{name}/spec/ (API_MANAGEMENT VIEW). */
export async function getProxySpec(db: Tx, actor: Actor, projectName: string, proxyName: string) {
  const access = await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'VIEW')
  return specView(await findProxy(db, access.project.id, proxyName), access.project.name)
}

export const specApiInput = z
  .strictObject({
    id: z.string().max(200).nullish(),
    projectId: z.string().max(200).nullish(),
    apiProxyId: z.string().max(200).nullish(),
    apiProxyRevision: z.number({ error: 'must be an integer' }).int('must be an integer').nullish(),
    specCreationType: z.enum(['OPEN_API', 'SWAGGER', 'WSDL', 'REVERSE_PROXY'], { error: 'must be OPEN_API, SWAGGER, WSDL or REVERSE_PROXY' }).nullish(),
    importedContentOfBackendApi: z.string({ error: 'is required: the OpenAPI or Swagger document (JSON or YAML text)' }).min(1, 'is required: the OpenAPI or Swagger document (JSON or YAML text)').max(5 * 1024 * 1024, 'is larger than 5 MB'),
    soapSchemaList: z.array(z.unknown()).max(0, 'SOAP schemas apply to WSDL proxies, whose schemas this page does not replace').nullish(),
  })
  .meta({ id: 'SpecApi', description: "An API proxy's specification (vendor SpecApi); ids carry names" })

/**
 * PUT …/apiProxies/{name}/spec/: replaces the document of a proxy built from one (OPEN_API or SWAGGER); its endpoints
 * follow the new document (those that stay keep their policies) and the revision moves on, so the proxy shows
 * redeployRequired where it runs (API_MANAGEMENT MANAGE). apiProxyRevision, when given, must be the current one.
 */
export async function replaceProxySpec(deps: Deps, actor: Actor, projectName: string, proxyName: string, raw: unknown) {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'API_MANAGEMENT', 'MANAGE')
  const proxy = await findProxy(deps.prisma, access.project.id, proxyName)
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw malformed('The request body must be a JSON object', { field: 'body' })
  const input = parseInput(specApiInput, raw)
  if (proxy.kind !== 'REST' || !proxy.creationType || !['OPEN_API', 'SWAGGER'].includes(proxy.creationType)) {
    throw malformed(`API proxy '${proxy.name}' is ${proxy.kind === 'REST' ? `a REST proxy created as ${proxy.creationType ?? 'a reverse proxy'}` : kindWithArticle(proxy.kind) + ' proxy'}; only proxies built from an OpenAPI or Swagger document have a specification to replace`, { apiProxy: proxy.name })
  }
  if (input.specCreationType && input.specCreationType !== proxy.creationType) throw malformed(`specCreationType: API proxy '${proxy.name}' was created as ${proxy.creationType}; the type can not change`, { field: 'specCreationType' })
  for (const [field, expected] of [['projectId', [access.project.name, access.project.id]], ['apiProxyId', [proxy.name, proxy.id]], ['id', [proxy.name, proxy.id]]] as const) {
    const given = input[field]
    if (given && !expected.includes(given)) throw malformed(`${field}: '${given}' is not ${field === 'projectId' ? `project '${access.project.name}'` : `API proxy '${proxy.name}'`}`, { field })
  }
  const endpoints = endpointsFromSpec(input.importedContentOfBackendApi, 'importedContentOfBackendApi', proxy)
  const updated = await deps.prisma.$transaction(async (tx) => {
    const current = await findProxy(tx, access.project.id, proxy.name)
    if (input.apiProxyRevision != null && input.apiProxyRevision !== current.revision) {
      throw new DomainError('conflict', 'versionConflict', `apiProxyRevision: API proxy '${current.name}' is at revision ${current.revision}, not ${input.apiProxyRevision}; read it again`, { field: 'apiProxyRevision', revision: current.revision })
    }
    await replaceSpecEndpoints(tx, current.id, endpoints)
    return tx.apiProxy.update({ where: { id: current.id }, data: { specDocument: input.importedContentOfBackendApi, revision: { increment: 1 } } })
  })
  return specView(updated, access.project.name)
}
