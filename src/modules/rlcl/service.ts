import { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import type { ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../platform/context.js'
import { pushBatchWithOutbox } from '../../platform/deploy/batch.js'
import { projectEnvironments } from '../../platform/deploy/project.js'
import type { DeployMessage } from '../../platform/deploy/pusher.js'
import { DomainError, malformed, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { authorizeInProject } from '../../platform/scope/project-scope.js'
import { pathName } from '../apiproxies/proxies/automation/inputs.js'
import { validateRuleSpec } from '../limits/shared/rule-spec.js'
import { compileRlcl, generalQuotaSpec, rlclInclude, rlclView, ALL, type EntrySettings, type RlclRow, type RlclView } from './views.js'
import { conditionInput, credentialListInput, endpointDeleteInput, endpointListInput, rlclInput, type EndpointEntryInput, type RlclInput } from './inputs.js'

// Rate-limit control lists (vendor 12-rlcl, issue 17 §4). An RLCL is the limits engine's request-rate rule bound to
// credentials and endpoints: each endpoint entry's rate (permittedMessageCount, timeInterval,
// timeIntervalPeriodLength, timeIntervalWindowType) is the engine's rule spec { requestRate: { windows: [one] } },
// validated by validateRuleSpec and compiled by compileCustomRule, so both reach the workers in one form. Every
// write pushes the whole list (kind RLCL) to the project's environments; what an environment misses goes to the
// retry outbox. Deleting it undeploys it.

export const DEPLOY_KIND = 'RLCL'
const json = (v: unknown) => v as Prisma.InputJsonValue

const authorize = (db: Tx, actor: Actor, projectName: string, level: 'VIEW' | 'MANAGE') => authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', level)

const rlclNotFound = (name: string) => notFound(`RLCL (${name}) is not found!`, { rlcl: name })

async function findRlcl(db: Tx, projectId: string, rawName: string) {
  const name = pathName(rawName, 'rlclName')
  const row = await db.rlcl.findUnique({ where: { projectId_name: { projectId, name } } })
  if (!row) throw rlclNotFound(name)
  return row
}


/** The deploy message of one stored RLCL, as its batch item (a newer push supersedes an older one in the outbox). */
function deployItem(access: ProjectAccess, row: RlclRow) {
  const message: DeployMessage = { action: 'DEPLOY', project: access.project.name, kind: DEPLOY_KIND, name: row.name, revision: row.revision, config: compileRlcl(row) }
  return { message, subject: `rlcl:${row.id}:${row.revision}`, supersedePrefix: `rlcl:${row.id}:` }
}

async function push(deps: Pick<Deps, 'prisma' | 'deployer'>, access: ProjectAccess, rlclId: string, undeploy?: { name: string; revision: number }) {
  const row = undeploy ? null : await deps.prisma.rlcl.findUniqueOrThrow({ where: { id: rlclId }, include: rlclInclude })
  const item = row
    ? deployItem(access, row)
    : (() => {
        const message: DeployMessage = { action: 'UNDEPLOY', project: access.project.name, kind: DEPLOY_KIND, name: undeploy!.name, revision: undeploy!.revision, config: null }
        return { message, subject: `rlcl:${rlclId}:${message.revision}`, supersedePrefix: `rlcl:${rlclId}:` }
      })()
  const environments = await projectEnvironments(deps.prisma, access.project.id)
  await pushBatchWithOutbox(deps, environments, [item])
}

/** One write on an RLCL in a transaction that bumps its revision, then the push of the result. */
async function writeRlcl(deps: Deps, actor: Actor, projectName: string, rlclName: string, change: (tx: Tx, row: { id: string; projectId: string }) => Promise<void>) {
  const access = await authorize(deps.prisma, actor, projectName, 'MANAGE')
  const id = await deps.prisma.$transaction(async (tx) => {
    const row = await findRlcl(tx, access.project.id, rlclName)
    await change(tx, row)
    await tx.rlcl.update({ where: { id: row.id }, data: { revision: { increment: 1 } } })
    return row.id
  })
  await push(deps, access, id)
}

// ---- reads (beyond the vendor pages: the list and one RLCL, API_MANAGEMENT VIEW) ----

export async function listRlcls(db: Tx, actor: Actor, projectName: string): Promise<RlclView[]> {
  const access = await authorize(db, actor, projectName, 'VIEW')
  const rows = await db.rlcl.findMany({ where: { projectId: access.project.id }, include: rlclInclude, orderBy: { name: 'asc' } })
  return rows.map(rlclView)
}

export async function getRlcl(db: Tx, actor: Actor, projectName: string, rlclName: string): Promise<RlclView> {
  const access = await authorize(db, actor, projectName, 'VIEW')
  const row = await findRlcl(db, access.project.id, rlclName)
  return rlclView(await db.rlcl.findUniqueOrThrow({ where: { id: row.id }, include: rlclInclude }))
}

// ---- CRUD ----

/**
 * The stored fields of a create, update or import, with the newest page's rules (create-rlcl.mdx):
 * - identitySource AUTH_RESOLVED takes the identity the authentication policy resolved: executionOrder is forced
 *   to AFTER_API_METHOD (after the API's own policies, so authentication ran) and targetVariable is ignored;
 * - outOfTargetAction GENERAL_QUOTA needs generalQuotaPermittedMessageCount and generalQuotaTimeIntervalPeriodLength
 *   greater than 0 and generalQuotaTimeInterval; the quota is the limits engine's request-rate window (validated by
 *   it, compiled for the push like an endpoint entry's). With BLOCK the quota fields are not kept.
 */
function rlclFields(input: RlclInput) {
  const identitySource = input.identitySource ?? 'VARIABLE'
  const authResolved = identitySource === 'AUTH_RESOLVED'
  const outOfTargetAction = input.outOfTargetAction ?? 'BLOCK'
  const quota = outOfTargetAction === 'GENERAL_QUOTA'
  if (quota) {
    for (const field of ['generalQuotaPermittedMessageCount', 'generalQuotaTimeIntervalPeriodLength'] as const) {
      if (!(typeof input[field] === 'number' && input[field] > 0)) throw malformed(`${field} must be greater than 0 when outOfTargetAction is GENERAL_QUOTA!`, { field })
    }
    if (!input.generalQuotaTimeInterval) throw malformed('generalQuotaTimeInterval is required when outOfTargetAction is GENERAL_QUOTA!', { field: 'generalQuotaTimeInterval' })
    generalQuotaSpec(input.generalQuotaPermittedMessageCount!, input.generalQuotaTimeInterval, input.generalQuotaTimeIntervalPeriodLength!, input.timeIntervalWindowType ?? 'FIXED')
  }
  return {
    description: input.description || null,
    enabled: input.enabled ?? true,
    executionOrder: authResolved ? 'AFTER_API_METHOD' : (input.executionOrder ?? 'FIRST'),
    cacheConnectionTimeoutInSeconds: input.cacheConnectionTimeoutInSeconds ?? 3,
    cacheErrorHandlingType: input.cacheErrorHandlingType ?? 'FAIL',
    timeIntervalWindowType: input.timeIntervalWindowType ?? 'FIXED',
    showRateLimitStatisticsInResponseHeader: input.showRateLimitStatisticsInResponseHeader ?? false,
    targetVariable: input.targetVariable && !authResolved ? json(input.targetVariable) : Prisma.DbNull,
    identitySource,
    targetAudienceRuleList: json(input.targetAudienceRuleList ?? []),
    outOfTargetAction,
    generalQuotaMode: input.generalQuotaMode ?? 'TOTAL',
    generalQuotaPermittedMessageCount: quota ? input.generalQuotaPermittedMessageCount! : null,
    generalQuotaTimeIntervalPeriodLength: quota ? input.generalQuotaTimeIntervalPeriodLength! : null,
    generalQuotaTimeInterval: quota ? input.generalQuotaTimeInterval! : null,
  }
}


const exists = (name: string) => new DomainError('conflict', 'nameAlreadyExists', `An RLCL with same name (${name}) already exists in project!`, { field: 'name', rlcl: name })

const emptyBody = (field: string) => malformed(`${field} value can not be empty!`, { field })

/** POST …/rlcl/: a new, empty RLCL (no credentials, endpoints or condition); the name is unique in the project. */
export async function createRlcl(deps: Deps, actor: Actor, projectName: string, body: unknown): Promise<void> {
  const access = await authorize(deps.prisma, actor, projectName, 'MANAGE')
  const raw = (body ?? {}) as Record<string, unknown>
  if (typeof raw !== 'object' || raw.name === undefined || raw.name === null || raw.name === '') throw emptyBody('name')
  const input = parseInput(rlclInput, body)
  const projectId = access.project.id
  const clash = await deps.prisma.rlcl.findFirst({ where: { projectId, name: { equals: input.name, mode: 'insensitive' } }, select: { name: true } })
  if (clash) throw exists(clash.name)
  const row = await deps.prisma.rlcl
    .create({ data: { projectId, name: input.name, ...rlclFields(input) } })
    .catch((err: unknown) => {
      if ((err as { code?: string } | null)?.code === 'P2002') throw exists(input.name)
      throw err
    })
  await push(deps, access, row.id)
}

/** PUT …/rlcl/{name}/: every field but the name (which must be the path's); credentials and endpoints stay. */
export async function updateRlcl(deps: Deps, actor: Actor, projectName: string, rlclName: string, body: unknown): Promise<void> {
  const raw = (body ?? {}) as Record<string, unknown>
  await writeRlcl(deps, actor, projectName, rlclName, async (tx, row) => {
    if (typeof raw !== 'object' || raw.name === undefined || raw.name === null || raw.name === '') throw emptyBody('name')
    const input = parseInput(rlclInput, body)
    const stored = await tx.rlcl.findUniqueOrThrow({ where: { id: row.id }, select: { name: true } })
    if (input.name !== stored.name) throw malformed(`name (${input.name}) must match the RLCL name in the path (${stored.name}); an RLCL cannot be renamed`, { field: 'name' })
    await tx.rlcl.update({ where: { id: row.id }, data: rlclFields(input) })
  })
}

/** DELETE …/rlcl/{name}/: the list with its credentials, endpoints and condition; undeployed everywhere. */
export async function deleteRlcl(deps: Deps, actor: Actor, projectName: string, rlclName: string): Promise<void> {
  const access = await authorize(deps.prisma, actor, projectName, 'MANAGE')
  const row = await deps.prisma.$transaction((tx) => removeRlcl(tx, access.project.id, rlclName))
  await undeployRemovedRlcl(deps, access, row)
}

/** The delete itself, in `db` (DELETE's transaction, or a declarative sync's): the list with its credentials, endpoints and condition. */
export async function removeRlcl(db: Tx, projectId: string, rlclName: string): Promise<{ id: string; name: string; revision: number }> {
  const row = await findRlcl(db, projectId, rlclName)
  await db.rlcl.delete({ where: { id: row.id } })
  return row
}

/** After the delete committed: undeployed everywhere, through the outbox. */
export const undeployRemovedRlcl = (deps: Pick<Deps, 'prisma' | 'deployer'>, access: ProjectAccess, row: { id: string; name: string; revision: number }) =>
  push(deps, access, row.id, { name: row.name, revision: row.revision + 1 })

// ---- credentials ----

export type ListChange = 'add' | 'replace' | 'remove'

/** POST (add, duplicates ignored), PUT (replace the list) and DELETE (remove; names not in the list ignored). */
export async function changeCredentials(deps: Deps, actor: Actor, projectName: string, rlclName: string, change: ListChange, body: unknown): Promise<void> {
  await writeRlcl(deps, actor, projectName, rlclName, async (tx, row) => {
    const raw = body as { credentialNameList?: unknown } | null | undefined
    if (!raw || typeof raw !== 'object' || raw.credentialNameList === undefined || raw.credentialNameList === null || (Array.isArray(raw.credentialNameList) && raw.credentialNameList.length === 0)) throw emptyBody('credentialNameList')
    const names = [...new Set(parseInput(credentialListInput, body).credentialNameList)]
    const found = await tx.credential.findMany({ where: { projectId: row.projectId, username: { in: names } }, select: { id: true, username: true } })
    if (change === 'remove') {
      await tx.rlclCredential.deleteMany({ where: { rlclId: row.id, credentialId: { in: found.map((c) => c.id) } } })
      return
    }
    const missing = names.find((n) => !found.some((c) => c.username === n))
    if (missing !== undefined) throw notFound(`Credential with name (${missing}) is not found in project!`, { credential: missing })
    if (change === 'replace') await tx.rlclCredential.deleteMany({ where: { rlclId: row.id } })
    await tx.rlclCredential.createMany({ data: found.map((c) => ({ rlclId: row.id, credentialId: c.id })), skipDuplicates: true })
  })
}

// ---- endpoints ----

/** The engine's names for the rate members, back to the page's. */
const RATE_FIELD: Record<string, string> = { permittedMessageCount: 'permittedMessageCount', interval: 'timeInterval', periodLength: 'timeIntervalPeriodLength', windowType: 'timeIntervalWindowType' }

/** The entry's rate as the limits engine's request-rate rule spec, validated by the engine itself. */
function ruleSpecOf(entry: EndpointEntryInput, index: number) {
  const spec = { requestRate: { windows: [{ permittedMessageCount: entry.permittedMessageCount, interval: entry.timeInterval, periodLength: entry.timeIntervalPeriodLength, windowType: entry.timeIntervalWindowType }] } }
  const field = `endpointRateLimitList[${index}]`
  try {
    return validateRuleSpec('REQUEST_RATE', spec, field)
  } catch (err) {
    if (!(err instanceof DomainError)) throw err
    const inner = String(err.params.field ?? '')
    const member = RATE_FIELD[inner.split('.').pop() ?? ''] ?? 'permittedMessageCount'
    const problem = err.message.includes(': ') ? err.message.slice(err.message.lastIndexOf(': ') + 2) : err.message
    throw malformed(`${field}.${member}: ${problem}`, { field: `${field}.${member}` })
  }
}

interface ResolvedEntry { apiProxyId: string; endpointId: string | null; entryKey: string; entry: EndpointEntryInput | null; index: number }

/** apiProxyName, endpointName and endpointHTTPMethod to (proxy, endpoint or ALL); unknown ones are refused unless `lenient`. */
async function resolveEntries(tx: Tx, projectId: string, entries: { apiProxyName: string; endpointName?: string | null; endpointHTTPMethod?: string | null }[], lenient: boolean) {
  const proxyNames = [...new Set(entries.map((e) => e.apiProxyName))]
  const proxies = await tx.apiProxy.findMany({ where: { projectId, name: { in: proxyNames } }, select: { id: true, name: true } })
  const out: (Omit<ResolvedEntry, 'entry'> | null)[] = []
  for (const [index, e] of entries.entries()) {
    const field = `endpointRateLimitList[${index}]`
    const proxy = proxies.find((p) => p.name === e.apiProxyName)
    if (!proxy) {
      if (lenient) { out.push(null); continue }
      throw notFound(`API Proxy with name (${e.apiProxyName}) is not found in project!`, { apiProxy: e.apiProxyName })
    }
    const name = e.endpointName ?? null
    const method = e.endpointHTTPMethod ?? null
    const all = name === ALL || method === ALL
    if (all) {
      if ((name !== null && name !== ALL) || (method !== null && method !== ALL)) {
        throw malformed(`${field}: endpointName and endpointHTTPMethod must both be ALL (or one omitted) to cover every endpoint`, { field: `${field}.${name === ALL ? 'endpointHTTPMethod' : 'endpointName'}` })
      }
      out.push({ apiProxyId: proxy.id, endpointId: null, entryKey: `${proxy.id}:${ALL}`, index })
      continue
    }
    if (name === null) throw malformed(`${field}.endpointName: is required unless endpointHTTPMethod is ALL`, { field: `${field}.endpointName` })
    if (method === null) throw malformed(`${field}.endpointHTTPMethod: is required unless endpointName is ALL`, { field: `${field}.endpointHTTPMethod` })
    // one method + path may exist in several path versions: the unversioned one first
    const endpoint = await tx.gatewayEndpoint.findFirst({ where: { apiProxyId: proxy.id, method, path: name }, orderBy: { version: 'asc' }, select: { id: true } })
    if (!endpoint) {
      if (lenient) { out.push(null); continue }
      throw notFound(`API Endpoint with name (${name}) and method type (${method}) is not found in API Proxy!`, { apiProxy: proxy.name, endpoint: name, method })
    }
    out.push({ apiProxyId: proxy.id, endpointId: endpoint.id, entryKey: `${proxy.id}:${endpoint.id}`, index })
  }
  return out
}

const settingsOf = (e: EndpointEntryInput): EntrySettings => ({
  cacheConnectionTimeoutInSeconds: e.cacheConnectionTimeoutInSeconds,
  cacheErrorHandlingType: e.cacheErrorHandlingType,
  timeIntervalWindowType: e.timeIntervalWindowType,
  targetVariable: e.targetVariable ?? null,
  targetIdentityValue: e.targetIdentityValue ?? null,
  showRateLimitStatisticsInResponseHeader: e.showRateLimitStatisticsInResponseHeader ?? false,
  enabled: e.enabled ?? true,
})

/** POST (add; an entry already there for the endpoint is kept), PUT (replace all) and DELETE (remove matching ones). */
export async function changeEndpoints(deps: Deps, actor: Actor, projectName: string, rlclName: string, change: ListChange, body: unknown): Promise<void> {
  await writeRlcl(deps, actor, projectName, rlclName, async (tx, row) => {
    const raw = body as { endpointRateLimitList?: unknown } | null | undefined
    if (!raw || typeof raw !== 'object' || raw.endpointRateLimitList === undefined || raw.endpointRateLimitList === null || (Array.isArray(raw.endpointRateLimitList) && raw.endpointRateLimitList.length === 0)) throw emptyBody('endpointRateLimitList')
    if (change === 'remove') {
      const list = parseInput(endpointDeleteInput, body).endpointRateLimitList
      const keys = (await resolveEntries(tx, row.projectId, list, true)).filter((r) => r !== null).map((r) => r.entryKey)
      await tx.rlclEndpoint.deleteMany({ where: { rlclId: row.id, entryKey: { in: keys } } })
      return
    }
    const list = parseInput(endpointListInput, body).endpointRateLimitList
    const specs = list.map(ruleSpecOf)
    const resolved = (await resolveEntries(tx, row.projectId, list, false)) as Omit<ResolvedEntry, 'entry'>[]
    if (change === 'replace') await tx.rlclEndpoint.deleteMany({ where: { rlclId: row.id } })
    const existing = new Set((await tx.rlclEndpoint.findMany({ where: { rlclId: row.id }, select: { entryKey: true } })).map((e) => e.entryKey))
    const last = await tx.rlclEndpoint.aggregate({ where: { rlclId: row.id }, _max: { position: true } })
    let position = last._max.position ?? 0
    const data: Prisma.RlclEndpointCreateManyInput[] = []
    for (const r of resolved) {
      if (existing.has(r.entryKey)) continue // duplicates are ignored, the first one stays
      existing.add(r.entryKey)
      data.push({ rlclId: row.id, apiProxyId: r.apiProxyId, endpointId: r.endpointId, entryKey: r.entryKey, ruleSpec: json(specs[r.index]), settings: json(settingsOf(list[r.index]!)), position: ++position })
    }
    await tx.rlclEndpoint.createMany({ data })
  })
}

// ---- condition ----

/** POST (only when the RLCL has none), PUT (replace; only when it has one) and DELETE (applied unconditionally after). */
export async function changeCondition(deps: Deps, actor: Actor, projectName: string, rlclName: string, change: 'add' | 'replace' | 'remove', body: unknown): Promise<void> {
  await writeRlcl(deps, actor, projectName, rlclName, async (tx, row) => {
    const stored = await tx.rlcl.findUniqueOrThrow({ where: { id: row.id }, select: { name: true, condition: true } })
    if (change === 'remove') {
      await tx.rlcl.update({ where: { id: row.id }, data: { condition: Prisma.DbNull } })
      return
    }
    const raw = body as { conditionRuleList?: unknown } | null | undefined
    if (!raw || typeof raw !== 'object' || raw.conditionRuleList === undefined || raw.conditionRuleList === null || (Array.isArray(raw.conditionRuleList) && raw.conditionRuleList.length === 0)) throw emptyBody('condition')
    const input = parseInput(conditionInput, body)
    if (change === 'add' && stored.condition !== null) throw new DomainError('conflict', 'conditionAlreadyExists', `RLCL (${stored.name}) already has a condition; use the update endpoint to replace it`, { rlcl: stored.name })
    if (change === 'replace' && stored.condition === null) throw notFound(`RLCL (${stored.name}) has no condition to update; use the add endpoint`, { rlcl: stored.name })
    await tx.rlcl.update({ where: { id: row.id }, data: { condition: json(input.conditionRuleList) } })
  })
}

// ---- transfer (export/import packages: modules/rlcl/transfer-adapter.ts) ----



/** The project's RLCLs named `names` (exact names), with what their portable form needs. */
export function findRlclsByName(db: Tx, projectId: string, names: string[]): Promise<RlclRow[]> {
  return db.rlcl.findMany({ where: { projectId, name: { in: names } }, include: rlclInclude, orderBy: { name: 'asc' } })
}

/** The create/update body's fields of an RLCL view (the name apart). */
const RLCL_FIELDS = [
  'description', 'enabled', 'executionOrder', 'cacheConnectionTimeoutInSeconds', 'cacheErrorHandlingType', 'timeIntervalWindowType', 'showRateLimitStatisticsInResponseHeader', 'targetVariable',
  'identitySource', 'targetAudienceRuleList', 'outOfTargetAction', 'generalQuotaMode', 'generalQuotaPermittedMessageCount', 'generalQuotaTimeIntervalPeriodLength', 'generalQuotaTimeInterval',
] as const

/**
 * Creates (replace false) or replaces an RLCL from its view (rlclView without id: the fields, `condition`,
 * `credentialNameList`, `endpointRateLimitList`) inside the caller's transaction, through the pages' own rules:
 * rlclInput, conditionInput, credentialListInput and endpointListInput, each entry's rate through the engine's
 * validateRuleSpec, and the same resolution of credentials (by username), proxies and endpoints. A name the
 * project lacks is the pages' notFound (`Credential with name (X) is not found in project!`…). Everything is
 * validated before anything is written. Replace drops the stored credentials and entries for the view's.
 * Nothing is pushed: deployImportedRlcls does after the commit.
 */
export async function writeImportedRlcl(tx: Tx, projectId: string, name: string, view: Record<string, unknown>, replace: boolean): Promise<void> {
  const input = parseInput(rlclInput, { name, ...Object.fromEntries(RLCL_FIELDS.filter((f) => view[f] !== undefined).map((f) => [f, view[f]])) })
  const condition = view.condition === null || view.condition === undefined ? null : parseInput(conditionInput, view.condition).conditionRuleList
  const rawCredentials = view.credentialNameList ?? []
  const credentialNames = Array.isArray(rawCredentials) && rawCredentials.length === 0 ? [] : [...new Set(parseInput(credentialListInput, { credentialNameList: rawCredentials }).credentialNameList)]
  // a read's endpointId (an id of the source installation) is not part of an entry's body
  const rawEntries = Array.isArray(view.endpointRateLimitList)
    ? view.endpointRateLimitList.map((e: unknown) => (e && typeof e === 'object' && !Array.isArray(e) ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'endpointId')) : e))
    : (view.endpointRateLimitList ?? [])
  const entries = Array.isArray(rawEntries) && rawEntries.length === 0 ? [] : parseInput(endpointListInput, { endpointRateLimitList: rawEntries }).endpointRateLimitList
  const specs = entries.map(ruleSpecOf)

  const credentials = credentialNames.length ? await tx.credential.findMany({ where: { projectId, username: { in: credentialNames } }, select: { id: true, username: true } }) : []
  const missing = credentialNames.find((n) => !credentials.some((c) => c.username === n))
  if (missing !== undefined) throw notFound(`Credential with name (${missing}) is not found in project!`, { credential: missing })
  const resolved = entries.length ? ((await resolveEntries(tx, projectId, entries, false)) as Omit<ResolvedEntry, 'entry'>[]) : []

  const data = { ...rlclFields(input), condition: condition ? json(condition) : Prisma.DbNull }
  let rlclId: string
  if (replace) {
    const row = await findRlcl(tx, projectId, name)
    await tx.rlcl.update({ where: { id: row.id }, data: { ...data, revision: { increment: 1 } } })
    await tx.rlclCredential.deleteMany({ where: { rlclId: row.id } })
    await tx.rlclEndpoint.deleteMany({ where: { rlclId: row.id } })
    rlclId = row.id
  } else {
    const clash = await tx.rlcl.findFirst({ where: { projectId, name: { equals: input.name, mode: 'insensitive' } }, select: { name: true } })
    if (clash) throw exists(clash.name)
    rlclId = (await tx.rlcl.create({ data: { projectId, name: input.name, ...data } })).id
  }
  if (credentials.length) await tx.rlclCredential.createMany({ data: credentials.map((c) => ({ rlclId, credentialId: c.id })) })
  const seen = new Set<string>()
  const rows: Prisma.RlclEndpointCreateManyInput[] = []
  for (const r of resolved) {
    if (seen.has(r.entryKey)) continue // as on the pages: the first entry for an endpoint stays
    seen.add(r.entryKey)
    rows.push({ rlclId, apiProxyId: r.apiProxyId, endpointId: r.endpointId, entryKey: r.entryKey, ruleSpec: json(specs[r.index]), settings: json(settingsOf(entries[r.index]!)), position: rows.length + 1 })
  }
  if (rows.length) await tx.rlclEndpoint.createMany({ data: rows })
}

/** After an import committed: the named RLCLs pushed to the project's environments as one batch, as writes do. */
export async function deployImportedRlcls(deps: Pick<Deps, 'prisma' | 'deployer'>, access: ProjectAccess, names: string[]): Promise<void> {
  if (!names.length) return
  const rows = await findRlclsByName(deps.prisma, access.project.id, names)
  if (!rows.length) return
  const environments = await projectEnvironments(deps.prisma, access.project.id)
  await pushBatchWithOutbox(deps, environments, rows.map((row) => deployItem(access, row)))
}
