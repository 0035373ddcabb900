import type { ApiProxy, Prisma } from '../../../../generated/prisma/client.js'
import { actorName, type Actor } from '../../../../platform/auth/actor.js'
import type { ProjectAccess } from '../../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../../platform/context.js'
import { mergeOutcomes, type DeploymentOutcome } from '../../../../platform/deploy/pusher.js'
import { DomainError, malformed, notFound } from '../../../../platform/errors/domain-error.js'
import { parseInput } from '../../../../platform/errors/validation.js'
import { authorizeInProject } from '../../../../platform/scope/project-scope.js'
import { kindWithArticle } from '../../shared/kinds.js'
import { deleteApiProxyAndUndeploy } from '../delete.js'
import { deployHistoryInput } from '../../deployments/record.js'
import { deploymentListOf, environmentsNamed, pushProxy, requestedDeployment, unpushProxy } from './deploy.js'
import { clientRouteOf, maintenanceOf, pathName, proxyMetadataInput, routingOf, SPECLESS_TYPES, specCredentialsOf, type ProxyMetadata, type ProxySettings } from './inputs.js'
import { routingViewOf } from '../../ai/routing-store.js'
import { settingsViewOf } from '../../settings/service.js'
import { fetchSpecDocument } from '../../../../platform/http/outbound-fetch.js'
import { endpointsFromSpec, endpointsFromWsdl, replaceSpecEndpoints, type SpecEndpoint } from '../../spec/spec-import.js'

// API proxies of the automation surface (vendor 04-api-proxies/crud and /deployment): created and re-parsed
// from an OpenAPI/Swagger document (URL or uploaded file) or as a reverse proxy; deployed per environment.
// The proxy is the same ApiProxy row GraphQL, export and the audit trail see.

/** Where the specification comes from: the metadata's specUrl, or an uploaded file. */
export type SpecSource = { from: 'url' } | { from: 'file'; bytes: Buffer | null }

export interface ProxyWrite {
  proxy: ApiProxy
  /** null when the write asked for no deployment */
  deploymentResult: DeploymentOutcome | null
}

const proxyNotFound = (name: string) => notFound(`API proxy '${name}' not found`, { apiProxy: name })
const json = (v: unknown) => v as Prisma.InputJsonValue

export const settingsOf = (proxy: Pick<ApiProxy, 'settings'>) => (proxy.settings ?? null) as ProxySettings | null

export async function findProxy(db: Tx, projectId: string, rawName: string): Promise<ApiProxy> {
  const name = pathName(rawName, 'apiProxyName')
  const proxy = await db.apiProxy.findUnique({ where: { projectId_name: { projectId, name } } })
  if (!proxy) throw proxyNotFound(name)
  return proxy
}

/** The SOAP options apply to WSDL proxies only. */
function checkSupported(input: ProxyMetadata) {
  if (input.apiProxyCreationType === 'WSDL') return
  for (const field of ['soapToRest', 'enableWSA', 'enableWSRM'] as const) {
    if (input[field]) throw malformed(`${field}: applies to SOAP (WSDL) proxies only`, { field })
  }
}

/** A document's endpoints by the creation type: a WSDL's operations, or an OpenAPI/Swagger document's. */
const endpointsOf = (input: ProxyMetadata, text: string, field: 'specFile' | 'specUrl', proxy: Pick<ApiProxy, 'kind' | 'name'>) =>
  input.apiProxyCreationType === 'WSDL' ? endpointsFromWsdl(text, field, proxy) : endpointsFromSpec(text, field, proxy)

/** The SOAP options a WSDL proxy keeps (null for the other types). */
const soapOf = (input: ProxyMetadata, stored?: ProxySettings['soap']): ProxySettings['soap'] =>
  input.apiProxyCreationType === 'WSDL'
    ? { soapToRest: input.soapToRest ?? stored?.soapToRest ?? false, enableWSA: input.enableWSA ?? stored?.enableWSA ?? false, enableWSRM: input.enableWSRM ?? stored?.enableWSRM ?? false }
    : null

/** The specUrl with the query-parameter credentials of specAuthorizationValueList added (sent once, never stored). */
function specUrlWith(specUrl: string, query: [string, string][]): string {
  if (!query.length || !URL.canParse(specUrl)) return specUrl
  const url = new URL(specUrl)
  for (const [k, v] of query) url.searchParams.append(k, v)
  return url.toString()
}

/**
 * The document's endpoints and its text (none for a reverse proxy or an EMPTY_API proxy), fetched or read
 * before anything is written.
 */
async function specEndpoints(deps: Deps, input: ProxyMetadata, source: SpecSource, proxy: Pick<ApiProxy, 'kind' | 'name'>): Promise<{ endpoints: SpecEndpoint[]; text: string } | null> {
  if (input.apiProxyCreationType === 'EMPTY_API' && source.from === 'file') {
    throw malformed('apiProxyCreationType: EMPTY_API proxies have no specification file; create them from the URL form (no specUrl)', { field: 'apiProxyCreationType' })
  }
  if (SPECLESS_TYPES.includes(input.apiProxyCreationType)) return null
  if (source.from === 'file') {
    if (!source.bytes?.length) throw malformed(`specFile: is required for ${input.apiProxyCreationType}`, { field: 'specFile' })
    const text = source.bytes.toString('utf8')
    return { endpoints: endpointsOf(input, text, 'specFile', proxy), text }
  }
  if (!input.specUrl) throw malformed(`specUrl: is required for ${input.apiProxyCreationType}`, { field: 'specUrl' })
  const { headers, query } = specCredentialsOf(input.specAuthorizationValueList)
  // a refusal names the URL as sent (without the query credentials)
  const text = await fetchSpecDocument(specUrlWith(input.specUrl, query), { ...deps.config.specFetch, headers })
  return { endpoints: endpointsOf(input, text, 'specUrl', proxy), text }
}

/** The relative path must not be another proxy's (case-sensitive, as paths are). */
async function checkRelativePath(db: Tx, projectId: string, relativePath: string, selfId?: string) {
  const clash = await db.apiProxy.findFirst({ where: { projectId, relativePath, ...(selfId ? { id: { not: selfId } } : {}) }, select: { name: true } })
  if (clash) throw new DomainError('conflict', 'relativePathAlreadyUsed', `clientRoute.relativePathList[0]: '${relativePath}' is already the relative path of API proxy '${clash.name}'`, { field: 'clientRoute.relativePathList[0]', apiProxy: clash.name })
}

const manage = (db: Tx, actor: Actor, projectName: string) => authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'MANAGE')

const raceOnName = (name: string) => (err: unknown) => {
  if ((err as { code?: string } | null)?.code === 'P2002') throw new DomainError('conflict', 'nameAlreadyExists', `API proxy '${name}' already exists`, { field: 'apiProxyName', apiProxy: name })
  throw err
}

/** POST …/apiProxies/url/ and …/file/: a new REST proxy; deploys when `deploy` is true. */
export async function createProxyFromSpec(deps: Deps, actor: Actor, projectName: string, raw: unknown, source: SpecSource): Promise<ProxyWrite> {
  const access = await manage(deps.prisma, actor, projectName)
  const input = parseInput(proxyMetadataInput, raw ?? {})
  checkSupported(input)
  if (!input.clientRoute) throw malformed('clientRoute: is required when creating an API proxy', { field: 'clientRoute' })
  const projectId = access.project.id
  const name = input.apiProxyName
  const clash = await deps.prisma.apiProxy.findFirst({ where: { projectId, name: { equals: name, mode: 'insensitive' } }, select: { name: true } })
  if (clash) throw new DomainError('conflict', 'nameAlreadyExists', `API proxy '${clash.name}' already exists`, { field: 'apiProxyName', apiProxy: clash.name })
  const clientRoute = clientRouteOf(input.clientRoute)
  await checkRelativePath(deps.prisma, projectId, clientRoute.relativePathList[0]!)
  const environments = input.deploy ? await environmentsNamed(deps.prisma, access, input.deployTargetEnvironmentNameList ?? []) : []
  const spec = await specEndpoints(deps, input, source, { kind: 'REST', name })
  const endpoints = spec?.endpoints
  const settings: ProxySettings = {
    specUrl: source.from === 'url' ? (input.specUrl ?? null) : null,
    clientRoute,
    routing: routingOf(input.routingInfo),
    backendApiVersion: input.backendApiVersion ?? null,
    maintenanceMode: maintenanceOf(input.maintenanceModeSetting),
    categoryList: [],
    requestBodyReadBehavior: input.requestBodyReadBehavior ?? 'ALWAYS_READ',
    responseBodyReadBehavior: input.responseBodyReadBehavior ?? 'ALWAYS_READ',
    soap: soapOf(input),
  }
  const proxy = await deps.prisma.$transaction(async (tx) => {
    await checkRelativePath(tx, projectId, clientRoute.relativePathList[0]!)
    const proxy = await tx.apiProxy.create({
      data: {
        projectId, name, kind: 'REST', description: input.apiProxyDescription || null, creationType: input.apiProxyCreationType,
        relativePath: clientRoute.relativePathList[0]!, settings: json(settings), revision: 1, specDocument: spec?.text ?? null,
      },
    })
    if (endpoints?.length) await replaceSpecEndpoints(tx, proxy.id, endpoints)
    return proxy
  }).catch(raceOnName(name))
  return { proxy, deploymentResult: await requestedDeployment(deps, access, proxy, !!input.deploy, environments, { username: actorName(actor) }) }
}

/**
 * PUT …/apiProxies/url/ and …/file/: re-parses an existing proxy named by apiProxyName. The creation type must
 * stay; an empty description, an absent client route or routing keep the stored ones. Endpoints that stay in
 * the document keep their policies.
 */
export async function updateProxyFromSpec(deps: Deps, actor: Actor, projectName: string, raw: unknown, source: SpecSource): Promise<ProxyWrite> {
  const access = await manage(deps.prisma, actor, projectName)
  const input = parseInput(proxyMetadataInput, raw ?? {})
  checkSupported(input)
  const projectId = access.project.id
  const current = await deps.prisma.apiProxy.findUnique({ where: { projectId_name: { projectId, name: input.apiProxyName } } })
  if (!current) throw notFound(`API proxy '${input.apiProxyName}' can not be re-parsed because it does not exist; create it first`, { apiProxy: input.apiProxyName })
  if (current.kind !== 'REST') throw malformed(`API proxy '${current.name}' is ${kindWithArticle(current.kind)} proxy; only REST proxies are built from a specification`, { apiProxy: current.name, kind: current.kind })
  if (input.apiProxyCreationType === 'EMPTY_API') {
    throw malformed(`apiProxyCreationType: API proxy '${current.name}' has no specification to re-parse (EMPTY_API); add or update its endpoints one by one`, { field: 'apiProxyCreationType' })
  }
  if (current.creationType && current.creationType !== input.apiProxyCreationType) {
    throw malformed(`apiProxyCreationType: API proxy '${current.name}' was created as ${current.creationType}; the type can not change`, { field: 'apiProxyCreationType' })
  }
  const stored = settingsOf(current)
  const clientRoute = input.clientRoute ? clientRouteOf(input.clientRoute) : stored?.clientRoute ?? null
  if (!clientRoute) throw malformed(`clientRoute: is required: API proxy '${current.name}' has no client route yet`, { field: 'clientRoute' })
  const relativePath = clientRoute.relativePathList[0]!
  await checkRelativePath(deps.prisma, projectId, relativePath, current.id)
  const environments = input.deploy ? await environmentsNamed(deps.prisma, access, input.deployTargetEnvironmentNameList ?? []) : []
  const spec = await specEndpoints(deps, input, source, current)
  const endpoints = spec?.endpoints
  const settings: ProxySettings = {
    // the sections of the settings pages (CORS, cache, mTLS…) survive a re-parse
    ...(stored ?? {}),
    specUrl: source.from === 'url' ? (input.specUrl ?? null) : stored?.specUrl ?? null,
    clientRoute,
    routing: routingOf(input.routingInfo, stored?.routing),
    backendApiVersion: input.backendApiVersion ?? stored?.backendApiVersion ?? null,
    maintenanceMode: maintenanceOf(input.maintenanceModeSetting, stored?.maintenanceMode),
    categoryList: stored?.categoryList ?? [],
    requestBodyReadBehavior: input.requestBodyReadBehavior ?? stored?.requestBodyReadBehavior ?? 'ALWAYS_READ',
    responseBodyReadBehavior: input.responseBodyReadBehavior ?? stored?.responseBodyReadBehavior ?? 'ALWAYS_READ',
    soap: soapOf(input, stored?.soap),
  }
  const proxy = await deps.prisma.$transaction(async (tx) => {
    await checkRelativePath(tx, projectId, relativePath, current.id)
    if (endpoints) await replaceSpecEndpoints(tx, current.id, endpoints)
    return tx.apiProxy.update({
      where: { id: current.id },
      data: {
        description: input.apiProxyDescription || current.description, creationType: input.apiProxyCreationType, relativePath,
        settings: json(settings), revision: { increment: 1 }, ...(spec ? { specDocument: spec.text } : {}),
      },
    })
  })
  return { proxy, deploymentResult: await requestedDeployment(deps, access, proxy, !!input.deploy, environments, { username: actorName(actor) }) }
}

/** GET …/apiProxies/: every proxy of the project by name (API_MANAGEMENT VIEW). */
export async function listProxies(db: Tx, actor: Actor, projectName: string) {
  const access = await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'VIEW')
  const rows = await db.apiProxy.findMany({ where: { projectId: access.project.id }, orderBy: { name: 'asc' }, select: { name: true, description: true, kind: true, relativePath: true } })
  return rows.map((r) => ({ name: r.name, description: r.description, type: r.kind, relativePath: r.relativePath, soapToRest: false }))
}

/** GET …/apiProxies/{name}/: the proxy with its client route, routing and deployment state per environment. */
export async function proxyDetail(db: Tx, actor: Actor, projectName: string, name: string) {
  const access = await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'VIEW')
  const proxy = await findProxy(db, access.project.id, name)
  return proxyDetailOf(db, access, proxy)
}

const clientRouteView = (route: ProxySettings['clientRoute'] | null) => (route ? { ...route, virtualHostList: route.hostList } : null)

export async function proxyDetailOf(db: Tx, access: ProjectAccess, proxy: ApiProxy) {
  const settings = settingsOf(proxy)
  const [endpointCount, deploymentList] = await Promise.all([db.gatewayEndpoint.count({ where: { apiProxyId: proxy.id } }), deploymentListOf(db, access.project.id, proxy)])
  return {
    name: proxy.name,
    description: proxy.description,
    apiType: proxy.kind,
    creationType: proxy.creationType,
    categoryList: settings?.categoryList ?? [],
    sharingType: (settings as { sharingType?: string } | null)?.sharingType ?? 'PROJECT',
    relativePath: proxy.relativePath,
    // a proxy created with only a relativePath (the AI/MCP/A2A pages) reads its route as the default one on that path
    clientRoute: clientRouteView(settings?.clientRoute ?? (proxy.relativePath ? clientRouteOf({ relativePathList: [proxy.relativePath] }) : null)),
    routing: ['AI', 'MCP', 'A2A'].includes(proxy.kind) ? routingViewOf(proxy) : (settings?.routing ?? null),
    specUrl: settings?.specUrl ?? null,
    backendApiVersion: settings?.backendApiVersion ?? null,
    maintenanceModeSetting: settings?.maintenanceMode ?? null,
    requestBodyReadBehavior: settings?.requestBodyReadBehavior ?? 'ALWAYS_READ',
    responseBodyReadBehavior: settings?.responseBodyReadBehavior ?? 'ALWAYS_READ',
    soapSettings: settings?.soap ?? null,
    ...settingsViewOf(proxy.settings),
    endpointCount,
    revision: proxy.revision,
    deploymentList,
  }
}

async function deploymentTarget(deps: Deps, actor: Actor, projectName: string, proxyName: string, environmentName: string) {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'API_MANAGEMENT', 'DEPLOY_UNDEPLOY')
  const proxy = await findProxy(deps.prisma, access.project.id, proxyName)
  const [environment] = await environmentsNamed(deps.prisma, access, [pathName(environmentName, 'environmentName')], 'environmentName')
  return { access, proxy, environment: environment! }
}

/**
 * POST …/apiProxies/{name}/environments/{env}/: (re)deploys the proxy to one environment; the optional body
 * (description, persistent) annotates its deploy history record.
 */
export async function deployProxy(deps: Deps, actor: Actor, projectName: string, proxyName: string, environmentName: string, body?: unknown): Promise<DeploymentOutcome> {
  const { access, proxy, environment } = await deploymentTarget(deps, actor, projectName, proxyName, environmentName)
  const notes = parseInput(deployHistoryInput, body ?? {})
  return pushProxy(deps, access.project.name, proxy, [environment], { ...notes, username: actorName(actor) })
}

/**
 * DELETE …/apiProxies/{name}/environments/{env}/: undeploys the proxy from one environment where it runs; the
 * optional body (description, persistent) annotates the undeploy history record, as the page says.
 */
export async function undeployProxy(deps: Deps, actor: Actor, projectName: string, proxyName: string, environmentName: string, body?: unknown): Promise<DeploymentOutcome> {
  const { access, proxy, environment } = await deploymentTarget(deps, actor, projectName, proxyName, environmentName)
  const notes = parseInput(deployHistoryInput, body ?? {})
  const row = await deps.prisma.apiProxyDeployment.findUnique({ where: { apiProxyId_environmentName: { apiProxyId: proxy.id, environmentName: environment.name } } })
  if (!row) throw malformed(`API proxy '${proxy.name}' is not deployed to environment '${environment.name}'`, { apiProxy: proxy.name, environment: environment.name })
  return unpushProxy(deps, access.project.name, proxy, [environment], { ...notes, username: actorName(actor) })
}

/** DELETE …/apiProxies/{name}/: deletes the proxy (policies and endpoints with it) and undeploys it where it runs. */
export async function deleteProxy(deps: Deps, actor: Actor, projectName: string, name: string): Promise<DeploymentOutcome> {
  return mergeOutcomes(await deleteApiProxyAndUndeploy(deps, actor, projectName, pathName(name, 'apiProxyName')))
}
