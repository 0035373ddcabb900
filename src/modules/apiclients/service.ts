import type { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { requirePermission, type PermissionLevel, type ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../platform/context.js'
import { DomainError, lifecycleConflict, malformed, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { mintPublicKey } from '../../platform/keys.js'
import { authorizeInProject, refusePlatformScope, resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { unvalidatedText } from '../../platform/validation/common.js'
import { createApiClientInput, declaredApiClientInput, issuanceFields, updateApiClientInput, type IssuanceInput } from './inputs.js'
import { apiClientsToUndeploy, clientWithOwners, pushApiClientRuntime, readApiClientRuntime, type ClientWithOwners, type RemovedApiClient, type RuntimeDeploymentView } from '../identity/api-client-runtime.js'
import { carryClientSecret, issueClientSecret, liveSecretValue, retireClientSecrets } from './secrets.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'

const IDENTITY = 'IDENTITY'

/** The outcome of every API client write (spec §2.6); clientSecret only when one was issued, shown this once. */
export interface ApiClientWrite { apiClient: ClientWithOwners; runtimeDeployment: RuntimeDeploymentView; clientSecret?: string }

export const apiClientNotFound = (apiClientKey: string) => notFound(`API client '${apiClientKey}' not found`, { apiClient: apiClientKey })

const loadClient = (db: Tx, where: Prisma.ApiClientWhereUniqueInput) => db.apiClient.findUnique({ where, include: clientWithOwners })

/**
 * Resolves a client by key and the caller's rights in the client's project. A caller who cannot see that
 * project gets the same not found as for an unknown key, so keys of other projects cannot be probed.
 */
/** The name of the project owning a client, for the access decision before the body is read; unknown: not found. */
export async function apiClientProjectName(db: Tx, apiClientKey: string): Promise<string> {
  const client = await db.apiClient.findUnique({ where: { apiClientKey }, select: { project: { select: { name: true } } } })
  if (!client) throw apiClientNotFound(apiClientKey)
  return client.project.name
}

export async function authorizeApiClient(deps: Deps, actor: Actor, apiClientKey: string, level: PermissionLevel): Promise<{ client: ClientWithOwners; access: ProjectAccess }> {
  const client = await loadClient(deps.prisma, { apiClientKey })
  if (!client) throw apiClientNotFound(apiClientKey)
  const access = await resolveProjectAccess(deps.prisma, actor, client.project.name).catch((err: unknown) => {
    throw err instanceof DomainError && err.kind === 'notFound' ? apiClientNotFound(apiClientKey) : err
  })
  requirePermission(access, IDENTITY, level)
  return { client, access }
}

function checkWindow(validFrom: Date | null | undefined, expiresAt: Date | null | undefined) {
  if (validFrom && expiresAt && expiresAt.getTime() <= validFrom.getTime()) {
    throw malformed('expiresAt must be after validFrom', { field: 'expiresAt', reason: 'apiClient.validityWindow' })
  }
}

const toLong = (n: number | null | undefined) => (n === undefined ? undefined : n === null ? null : BigInt(n))

/** Issuance fields as stored: absent keeps, null clears (allowedGrantTypes clears to an empty list). */
function issuanceData(i: IssuanceInput) {
  return {
    allowedGrantTypes: i.allowedGrantTypes === undefined ? undefined : (i.allowedGrantTypes ?? []),
    tokenEndpointAuthMethod: i.tokenEndpointAuthMethod,
    tokenIssuanceProfile: i.tokenIssuanceProfile,
    tokenNeverExpires: i.tokenNeverExpires,
    tokenExpiresInAmount: toLong(i.tokenExpiresInAmount),
    tokenExpiresInUnit: i.tokenExpiresInUnit,
    refreshTokenAllowed: i.refreshTokenAllowed,
    refreshTokenCount: i.refreshTokenCount,
    refreshTokenExpiresInAmount: toLong(i.refreshTokenExpiresInAmount),
    refreshTokenExpiresInUnit: i.refreshTokenExpiresInUnit,
    jwtSignatureAlgorithm: i.jwtSignatureAlgorithm,
  }
}

/** The owner named in a create body: an application or a consumer (credential) of the same project. */
async function resolveOwner(db: Tx, projectId: string, b: { applicationKey?: string; applicationName?: string; consumerKey?: string; consumerUsername?: string }) {
  if (b.applicationKey !== undefined || b.applicationName !== undefined) {
    const ref = (b.applicationKey ?? b.applicationName)!
    const app = b.applicationKey !== undefined
      ? await db.application.findUnique({ where: { applicationKey: ref } })
      : await db.application.findUnique({ where: { projectId_name: { projectId, name: ref } } })
    if (!app || app.projectId !== projectId) throw notFound(`Application '${ref}' not found`, { application: ref })
    if (app.appStatus === 'ARCHIVED' || app.appStatus === 'PENDING_DELETION') {
      throw lifecycleConflict('apiClient.ownerTerminal', `Application '${app.name}' is ${app.appStatus} and cannot own new API clients`, { application: ref })
    }
    return { applicationId: app.id, credentialId: null, organizationId: app.organizationId }
  }
  const ref = (b.consumerKey ?? b.consumerUsername)!
  const consumer = b.consumerKey !== undefined
    ? await db.credential.findUnique({ where: { consumerKey: ref } })
    : await db.credential.findUnique({ where: { username: ref } })
  if (!consumer || consumer.projectId !== projectId) throw notFound(`Consumer '${ref}' not found`, { consumer: ref })
  if (consumer.revokedAt) throw lifecycleConflict('apiClient.ownerTerminal', `Consumer '${consumer.username}' is revoked and cannot own new API clients`, { consumer: ref })
  return { applicationId: null, credentialId: consumer.id, organizationId: consumer.organizationId }
}

/** POST /api/api-clients: a DRAFT client of an application or consumer, with its first secret unless told otherwise. */
export async function createManagedApiClient(deps: Deps, actor: Actor, raw: unknown): Promise<ApiClientWrite> {
  // access before validation (issue 28 §6): the project the body names is decided on before the body's rules
  const named = unvalidatedText(raw, 'projectName')
  refusePlatformScope(named)
  const early = named === undefined ? undefined : await authorizeInProject(deps.prisma, actor, named, IDENTITY, 'MANAGE')
  const input = parseInput(createApiClientInput, raw)
  const access = early ?? (await authorizeInProject(deps.prisma, actor, input.projectName, IDENTITY, 'MANAGE'))
  const owner = await resolveOwner(deps.prisma, access.project.id, input)
  checkWindow(input.validFrom, input.expiresAt)
  const clientId = input.clientId ?? mintPublicKey('cid')
  if (await deps.prisma.apiClient.findUnique({ where: { clientId } })) {
    throw new DomainError('conflict', 'nameAlreadyExists', `Client id '${clientId}' is already taken`, { field: 'clientId' })
  }
  const { id, clientSecret } = await deps.prisma.$transaction(async (tx) => {
    const created = await tx.apiClient.create({
      data: {
        projectId: access.project.id,
        apiClientKey: mintPublicKey('acl'),
        clientId,
        name: input.name,
        operationalState: 'DRAFT',
        readiness: input.issueSecret ? 'READY' : 'PENDING_SECRET',
        validFrom: input.validFrom ?? null,
        expiresAt: input.expiresAt ?? null,
        ...owner,
        ...issuanceData(input),
        allowedGrantTypes: input.allowedGrantTypes ?? [],
      },
    })
    const secret = input.issueSecret ? await issueClientSecret(tx, deps.keyring, created.id) : null
    return { id: created.id, clientSecret: secret?.clientSecret }
  })
  deps.logger.info({ project: access.project.name, clientId }, 'API client created')
  return finish(deps, id, clientSecret)
}

async function finish(deps: Deps, id: string, clientSecret?: string): Promise<ApiClientWrite> {
  const runtimeDeployment = await pushApiClientRuntime(deps, id)
  const apiClient = (await loadClient(deps.prisma, { id }))!
  return { apiClient, runtimeDeployment, ...(clientSecret ? { clientSecret } : {}) }
}

type Action = 'update' | 'activate' | 'suspend' | 'rotateSecret' | 'revoke'

/** The lifecycle of spec §3.5: DRAFT/SUSPENDED → ACTIVE, ACTIVE → SUSPENDED, anything → REVOKED, which is final. */
function assertAllowed(client: ClientWithOwners, action: Action) {
  const params = { apiClient: client.apiClientKey, operationalState: client.operationalState }
  const state = client.operationalState
  if (state === 'REVOKED') throw lifecycleConflict('apiClient.revokedIsFinal', `API client '${client.apiClientKey}' is revoked; a revoked client is final`, params)
  if (action === 'activate') {
    if (state === 'ACTIVE') throw lifecycleConflict('apiClient.alreadyActive', `API client '${client.apiClientKey}' is already ACTIVE`, params)
    if (client.readiness !== 'READY') {
      throw lifecycleConflict('apiClient.notReady', `API client '${client.apiClientKey}' is ${client.readiness}; issue a secret (actions/rotate-secret) before activating`, { ...params, readiness: client.readiness })
    }
  }
  if (action === 'suspend') {
    if (state === 'SUSPENDED') throw lifecycleConflict('apiClient.alreadySuspended', `API client '${client.apiClientKey}' is already SUSPENDED`, params)
    if (state !== 'ACTIVE') throw lifecycleConflict('apiClient.notActive', `Only an ACTIVE API client can be suspended; '${client.apiClientKey}' is ${state}`, params)
  }
}

/**
 * One write on an existing client: checks the move, saves it under the next version (a concurrent write in
 * between is a versionConflict, never a lost update), then pushes and answers the envelope.
 */
async function writeClient(
  deps: Deps,
  client: ClientWithOwners,
  action: Action,
  data: (client: ClientWithOwners) => Prisma.ApiClientUpdateManyMutationInput,
  inTransaction?: (tx: Tx, client: ClientWithOwners) => Promise<string | undefined>,
): Promise<ApiClientWrite> {
  const apiClientKey = client.apiClientKey
  assertAllowed(client, action)
  const clientSecret = await deps.prisma.$transaction(async (tx) => {
    const { count } = await tx.apiClient.updateMany({ where: { id: client.id, version: client.version }, data: { ...data(client), version: { increment: 1 } } })
    if (!count) {
      const current = await tx.apiClient.findUnique({ where: { id: client.id }, select: { version: true } })
      throw versionConflict(client.version, current?.version ?? null)
    }
    return inTransaction?.(tx, client)
  })
  deps.logger.info({ apiClientKey, action }, 'API client written')
  return finish(deps, client.id, clientSecret)
}

const versionConflict = (expected: number, current: number | null) =>
  new DomainError('conflict', 'versionConflict', `API client version is ${current}, not ${expected}`, { entity: 'apiClient', expected, current })

/** A write on the client a key names, by a caller holding IDENTITY MANAGE in its project. */
const managedClient = async (deps: Deps, actor: Actor, apiClientKey: string) => (await authorizeApiClient(deps, actor, apiClientKey, 'MANAGE')).client

export async function updateManagedApiClient(deps: Deps, actor: Actor, apiClientKey: string, raw: unknown): Promise<ApiClientWrite> {
  const found = await managedClient(deps, actor, apiClientKey)
  const input = parseInput(updateApiClientInput, raw)
  return writeClient(deps, found, 'update', (client) => {
    if (input.version !== undefined && input.version !== client.version) throw versionConflict(input.version, client.version)
    checkWindow(input.validFrom === undefined ? client.validFrom : input.validFrom, input.expiresAt === undefined ? client.expiresAt : input.expiresAt)
    return { name: input.name, validFrom: input.validFrom, expiresAt: input.expiresAt, ...issuanceData(input) }
  })
}

export const activateApiClient = async (deps: Deps, actor: Actor, apiClientKey: string) =>
  writeClient(deps, await managedClient(deps, actor, apiClientKey), 'activate', () => ({ operationalState: 'ACTIVE' }))

export const suspendApiClient = async (deps: Deps, actor: Actor, apiClientKey: string) =>
  writeClient(deps, await managedClient(deps, actor, apiClientKey), 'suspend', () => ({ operationalState: 'SUSPENDED' }))

/** A new secret version, shown once; the previous version is retired at once. A PENDING_SECRET client becomes READY. */
export const rotateApiClientSecret = async (deps: Deps, actor: Actor, apiClientKey: string) =>
  writeClient(
    deps, await managedClient(deps, actor, apiClientKey), 'rotateSecret',
    (client) => (client.readiness === 'PENDING_SECRET' ? { readiness: 'READY' } : {}),
    async (tx, client) => (await issueClientSecret(tx, deps.keyring, client.id)).clientSecret,
  )

/** Terminal: the client is undeployed everywhere; environments that miss it are retried by the outbox (PENDING). */
export const revokeApiClient = async (deps: Deps, actor: Actor, apiClientKey: string) =>
  writeClient(deps, await managedClient(deps, actor, apiClientKey), 'revoke', () => ({ operationalState: 'REVOKED' }), async (tx, client) => {
    await retireClientSecrets(tx, client.id)
    return undefined
  })

export async function getManagedApiClient(deps: Deps, actor: Actor, apiClientKey: string): Promise<ClientWithOwners> {
  return (await authorizeApiClient(deps, actor, apiClientKey, 'VIEW')).client
}

/** GET …/runtime-deployment: the durable record, or null when the client was never pushed. Writes nothing. */
export async function getApiClientRuntimeDeployment(deps: Deps, actor: Actor, apiClientKey: string) {
  const { client } = await authorizeApiClient(deps, actor, apiClientKey, 'VIEW')
  const runtimeDeployment = await readApiClientRuntime(deps, client.id)
  return runtimeDeployment ? { apiClient: client, runtimeDeployment } : null
}

/** The issuance fields a declared client leaves out are cleared (a declared list describes its clients whole). */
const ISSUANCE_KEYS = Object.keys(issuanceFields) as (keyof IssuanceInput)[]

/**
 * The API clients an application declares (declarative state, through the identity module's transfer adapter), inside
 * the caller's transaction: each validated by the manager surface's schema and rules (validity window, client id unique
 * in the installation); a new one is created as POST /api/api-clients with issueSecret false creates it (DRAFT,
 * PENDING_SECRET: a plan never mints a secret it could not show); a listed one is updated as PATCH does (a revoked one
 * is refused, as PATCH refuses it); one of the application the list leaves out is deleted, as the identity page's
 * DELETE does. Errors name `apiClients[i].<field>`. Answers the ids to push after the commit, and the clients it
 * deleted, to undeploy after the commit (undeployRemovedApiClients). A secret the file carries (`secrets`, by client id:
 * the value gwctl resolved from a reference) becomes the client's next secret version when it differs from the live one
 * (carryClientSecret: a new client is READY then); a client the file gives no secret keeps its own.
 */
export async function writeDeclaredApiClients(
  tx: Tx, keyring: SecretKeyring, projectId: string, app: { id: string; organizationId: string | null }, raw: unknown[], secrets: ReadonlyMap<string, string> = new Map(),
): Promise<{ touched: string[]; removed: RemovedApiClient[] }> {
  const inputs = raw.map((r, i) => {
    try {
      return parseInput(declaredApiClientInput, r)
    } catch (err) {
      throw err instanceof DomainError && typeof err.params.field === 'string' ? malformed(`apiClients[${i}].${err.message}`, { field: `apiClients[${i}].${err.params.field}` }) : err
    }
  })
  const current = new Map((await tx.apiClient.findMany({ where: { applicationId: app.id }, include: clientWithOwners })).map((c) => [c.clientId, c]))
  const touched: string[] = []
  for (const [i, input] of inputs.entries()) {
    const at = (field: string) => `apiClients[${i}].${field}`
    if (inputs.findIndex((o) => o.clientId === input.clientId) !== i) throw malformed(`${at('clientId')}: '${input.clientId}' appears twice`, { field: at('clientId') })
    try {
      checkWindow(input.validFrom, input.expiresAt)
    } catch (err) {
      throw err instanceof DomainError ? malformed(`${at('expiresAt')}: ${err.message}`, { field: at('expiresAt'), reason: 'apiClient.validityWindow' }) : err
    }
    const issuance = issuanceData(Object.fromEntries(ISSUANCE_KEYS.map((k) => [k, input[k] ?? null])) as IssuanceInput)
    const fields = { name: input.name, validFrom: input.validFrom ?? null, expiresAt: input.expiresAt ?? null, ...issuance }
    const secret = secrets.get(input.clientId)
    if (secret !== undefined && (secret.length < 16 || secret.length > 512)) {
      throw malformed(`${at('clientSecret')}: must be 16 to 512 characters`, { field: at('clientSecret') })
    }
    const existing = current.get(input.clientId)
    if (existing) {
      current.delete(input.clientId)
      const live = secret === undefined ? undefined : await tx.apiClientSecret.findFirst({ where: { apiClientId: existing.id, retiredAt: null }, orderBy: { version: 'desc' }, select: { secretCipher: true } })
      const newSecret = secret !== undefined && liveSecretValue(keyring, live?.secretCipher) !== secret
      if (sameClient(existing, fields) && !newSecret) continue
      if (existing.operationalState === 'REVOKED') {
        throw lifecycleConflict('apiClient.revokedIsFinal', `API client '${input.clientId}' is revoked; a revoked client is final`, { field: at('clientId'), apiClient: existing.apiClientKey })
      }
      if (newSecret) await carryClientSecret(tx, keyring, existing.id, secret)
      await tx.apiClient.update({ where: { id: existing.id }, data: { ...fields, ...(newSecret && existing.readiness === 'PENDING_SECRET' ? { readiness: 'READY' as const } : {}), version: { increment: 1 } } })
      touched.push(existing.id)
      continue
    }
    if (await tx.apiClient.findUnique({ where: { clientId: input.clientId } })) {
      throw new DomainError('conflict', 'nameAlreadyExists', `Client id '${input.clientId}' is already taken`, { field: at('clientId') })
    }
    const created = await tx.apiClient.create({
      data: {
        projectId, apiClientKey: mintPublicKey('acl'), clientId: input.clientId, operationalState: 'DRAFT', readiness: secret === undefined ? 'PENDING_SECRET' : 'READY',
        applicationId: app.id, credentialId: null, organizationId: app.organizationId, ...fields, allowedGrantTypes: fields.allowedGrantTypes ?? [],
      },
    })
    if (secret !== undefined) await carryClientSecret(tx, keyring, created.id, secret)
    touched.push(created.id)
  }
  const removed = current.size ? await apiClientsToUndeploy(tx, { id: { in: [...current.values()].map((c) => c.id) } }) : []
  if (removed.length) await tx.apiClient.deleteMany({ where: { id: { in: removed.map((c) => c.id) } } })
  return { touched, removed }
}

const sameClient = (row: ClientWithOwners, fields: Record<string, unknown>) =>
  Object.entries(fields).every(([k, v]) => {
    const stored = (row as Record<string, unknown>)[k]
    if (v instanceof Date || stored instanceof Date) return (stored as Date | null)?.getTime() === (v as Date | null)?.getTime()
    if (Array.isArray(v)) return JSON.stringify(v) === JSON.stringify(stored)
    return String(stored ?? null) === String(v ?? null) // bigint amounts compared as text
  })
