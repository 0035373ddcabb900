import { apiClientsToUndeploy, undeployRemovedApiClients } from '../../platform/deploy/api-client-undeploy.js'
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import type { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { type ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../platform/context.js'
import { deployIfPermitted, projectEnvironments } from '../../platform/deploy/project.js'
import { MAX_BATCH_MESSAGES, outcomeOfMessage, pushMessages, type DeployMessage, type DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { lifecycleConflict, malformedReason, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { containsText, findPage, orderByFor, parsePaging, parseSearch, type SearchQuery } from '../../platform/envelopes/paging.js'
import { mintPublicKey } from '../../platform/keys.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'
import { objectName } from '../../platform/validation/common.js'
import { findOrganization } from '../projects/organizations.js'
import { ipList } from './ip-list.js'
import { authorizeCredentials, IDENTITY } from './scope.js'
import { replaceCredentialRoles, resolveRoleIds, roleNameList } from './roles/service.js'
import { credentialOwners, credentialRuntimeConfig, type CredentialWithOwners } from './runtime.js'
import { partialTokenSettings, TOKEN_SETTINGS_AFTER_RESET } from './token-settings.js'


/** Free text stored as given: PostgreSQL text cannot hold NUL, so it is refused here with the field's name. */
export const freeText = (max: number) => z.string().max(max, `must be at most ${max} characters`).refine((v) => !v.includes('\u0000'), 'must not contain NUL characters')

// Every field a credential write may set, without defaults: an update changes only what it names.
// consumerKey is not part of any body: zod drops unknown keys, so a value sent under that name is ignored.
const credentialFields = z.object({
  username: objectName,
  password: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters').nullish(),
  fullName: freeText(200).nullish(),
  email: z.email().max(320).nullish(),
  description: freeText(1000).nullish(),
  enabled: z.boolean(),
  organizationCode: z.string().nullish(),
  expireDate: z.coerce.date().nullish(),
  syncManaged: z.boolean(),
  tokenSettings: partialTokenSettings.nullish(),
  roleNameList: roleNameList.nullish(),
  ipList: ipList.nullish(),
})

export const credentialInput = credentialFields.extend({ enabled: z.boolean().default(true), syncManaged: z.boolean().default(false) })
export type CredentialInput = z.input<typeof credentialInput>

export const credentialUpdate = credentialFields.partial()
export type CredentialUpdate = z.input<typeof credentialUpdate>

export interface CredentialWrite { credential: CredentialWithOwners; deploymentResult: DeploymentOutcome }

export const credentialNotFound = (username: string, projectName: string) =>
  notFound(`Credential '${username}' not found in project '${projectName}'`, { credential: username })

export async function findCredential(db: Tx, access: ProjectAccess, username: string): Promise<CredentialWithOwners> {
  // a name PostgreSQL cannot even compare names no credential
  if (username.includes('\u0000')) throw credentialNotFound(username.replaceAll('\u0000', '\\0'), access.project.name)
  const credential = await db.credential.findUnique({ where: { username }, include: credentialOwners })
  if (!credential || credential.projectId !== access.project.id) throw credentialNotFound(username, access.project.name)
  return credential
}

const access = authorizeCredentials

const deployMessage = (deps: Deps, credential: CredentialWithOwners, action: 'DEPLOY' | 'UNDEPLOY') => ({
  action: action as 'DEPLOY' | 'UNDEPLOY',
  kind: 'CREDENTIAL',
  name: credential.username,
  revision: credential.revision,
  config: action === 'DEPLOY' ? credentialRuntimeConfig(credential, deps.keyring) : { consumerKey: credential.consumerKey },
})

/** Pushes a saved credential when the caller holds IDENTITY DEPLOY_UNDEPLOY; otherwise reports it as not deployed. */
export const deployCredential = (deps: Deps, projectAccess: ProjectAccess, credential: CredentialWithOwners, action: 'DEPLOY' | 'UNDEPLOY') =>
  deployIfPermitted(deps, projectAccess, IDENTITY, deployMessage(deps, credential, action))
const deploy = deployCredential

/**
 * Pushes a saved credential as it now stands: DEPLOY when enabled, UNDEPLOY when disabled. Used after the
 * application lifecycle actions and transfers, which IDENTITY MANAGE alone may run (spec §5): their effect
 * on traffic must reach the gateway, so this push does not ask for DEPLOY_UNDEPLOY. Never throws on a
 * failed environment (the outcome says so); the save is never undone.
 */
export async function pushCredentialById(deps: Deps, credentialId: string): Promise<DeploymentOutcome> {
  const credential = await deps.prisma.credential.findUniqueOrThrow({ where: { id: credentialId }, include: { ...credentialOwners, project: true } })
  const message = deployMessage(deps, credential, credential.enabled ? 'DEPLOY' : 'UNDEPLOY')
  return deps.deployer.push(await projectEnvironments(deps.prisma, credential.projectId), { ...message, project: credential.project.name })
}

/**
 * Credentials read per query when many are pushed: pushMessages sends them in batches of MAX_BATCH_MESSAGES (500)
 * itself, so a larger read costs no batch its size, and saves the fixed cost of a read and a DeploymentRecord INSERT
 * per 500 (the 10,000 credentials of a declarative sync: 20 reads and records became 2; issue 29 §7).
 */
const PUSH_READ_CHUNK = 10 * MAX_BATCH_MESSAGES

/**
 * pushCredentialById for many credentials at once: each project's credentials reach its workers as batches
 * (RUNTIME.md §4.1), in the order given. Resolves with each credential's outcome by id.
 */
export async function pushCredentialsByIds(deps: Deps, credentialIds: string[]): Promise<Map<string, DeploymentOutcome>> {
  const outcomes = new Map<string, DeploymentOutcome>()
  for (let start = 0; start < credentialIds.length; start += PUSH_READ_CHUNK) {
    const ids = credentialIds.slice(start, start + PUSH_READ_CHUNK)
    const found = await deps.prisma.credential.findMany({ where: { id: { in: ids } }, include: { ...credentialOwners, project: true } })
    const byId = new Map(found.map((c) => [c.id, c]))
    const byProject = new Map<string, typeof found>()
    for (const id of ids) {
      const credential = byId.get(id)
      if (!credential) continue
      const list = byProject.get(credential.projectId)
      if (list) list.push(credential)
      else byProject.set(credential.projectId, [credential])
    }
    for (const [projectId, credentials] of byProject) {
      const messages = credentials.map((c) => ({ ...deployMessage(deps, c, c.enabled ? 'DEPLOY' : 'UNDEPLOY'), project: c.project.name }) satisfies DeployMessage)
      const batch = await pushMessages(deps.deployer, await projectEnvironments(deps.prisma, projectId), messages)
      credentials.forEach((c, i) => outcomes.set(c.id, outcomeOfMessage(batch, messages[i], i)))
    }
  }
  return outcomes
}

const seal = (keyring: SecretKeyring, password: string | null | undefined) => (password ? keyring.encrypt(password) : null)

/** Saves a new credential in the project (no deployment); the bootstrap and the deploying write share it. */
export async function insertCredential(db: Tx, keyring: SecretKeyring, projectId: string, raw: unknown) {
  const input = parseInput(credentialInput, raw)
  if (await db.credential.findUnique({ where: { username: input.username } })) throw usernameTaken(input.username)
  const org = input.organizationCode ? await findOrganization(db, projectId, input.organizationCode) : null
  const roleIds = await resolveRoleIds(db, projectId, input.roleNameList ?? [])
  const created = await db.credential.create({ data: newCredentialRow(keyring, projectId, input, org?.id ?? null) })
  await replaceCredentialRoles(db, created.id, roleIds)
  return db.credential.findUniqueOrThrow({ where: { id: created.id }, include: credentialOwners })
}

/** The row of a new credential from validated input: insertCredential and the bootstrap's batched inserts share it. */
export function newCredentialRow(keyring: SecretKeyring, projectId: string, input: z.output<typeof credentialInput>, organizationId: string | null) {
  return {
    projectId,
    username: input.username,
    consumerKey: mintPublicKey('csm'),
    passwordCipher: seal(keyring, input.password),
    fullName: input.fullName ?? null,
    email: input.email ?? null,
    description: input.description ?? null,
    enabled: input.enabled,
    organizationId,
    expireDate: input.expireDate ?? null,
    syncManaged: input.syncManaged,
    tokenSettings: input.tokenSettings ?? undefined,
    ipList: input.ipList ?? [],
  } satisfies Prisma.CredentialCreateManyInput
}

const usernameTaken = (username: string) =>
  malformedReason('credentialUsernameTaken', `Credential username '${username}' is already taken`, { field: 'username' })

export async function createCredential(deps: Deps, actor: Actor, projectName: string, raw: unknown): Promise<CredentialWrite> {
  const projectAccess = await access(deps.prisma, actor, projectName, 'MANAGE')
  const credential = await deps.prisma.$transaction((tx) => insertCredential(tx, deps.keyring, projectAccess.project.id, raw)).catch((err: unknown) => {
    // two creates of one username at once: the unique index decides, the loser hears what the check would have said
    if ((err as { code?: string } | null)?.code === 'P2002') throw usernameTaken(parseInput(credentialInput, raw).username)
    throw err
  })
  return { credential, deploymentResult: await deploy(deps, projectAccess, credential, 'DEPLOY') }
}

export async function updateCredential(deps: Deps, actor: Actor, projectName: string, username: string, raw: unknown): Promise<CredentialWrite> {
  const projectAccess = await access(deps.prisma, actor, projectName, 'MANAGE')
  const input = parseInput(credentialUpdate, raw)
  const credential = await deps.prisma.$transaction(async (tx) => {
    const current = await findCredential(tx, projectAccess, username)
    if (input.username && input.username !== current.username && (await tx.credential.findUnique({ where: { username: input.username } }))) throw usernameTaken(input.username)
    // a revoked credential stays disabled (schema: Credential.revokedAt)
    if (input.enabled && current.revokedAt) throw lifecycleConflict('credentialRevoked', `Credential '${username}' is revoked and cannot be enabled`)
    const data: Prisma.CredentialUncheckedUpdateInput = {
      username: input.username,
      fullName: input.fullName,
      email: input.email,
      description: input.description,
      enabled: input.enabled,
      expireDate: input.expireDate,
      syncManaged: input.syncManaged,
      revision: { increment: 1 },
    }
    // Whoever sets `enabled` by hand (even to the value it has) takes it over from a suspended application:
    // its resume then leaves the credential as that person left it.
    if (input.enabled !== undefined) data.suspendedByApplication = false
    if (input.password) Object.assign(data, sealedPassword(deps.keyring, input.password))
    if (input.tokenSettings !== undefined) data.tokenSettings = input.tokenSettings ?? undefined
    if (input.ipList !== undefined) data.ipList = input.ipList ?? []
    if (input.organizationCode !== undefined) {
      data.organizationId = input.organizationCode ? (await findOrganization(tx, projectAccess.project.id, input.organizationCode)).id : null
    }
    if (input.roleNameList !== undefined) await replaceCredentialRoles(tx, current.id, await resolveRoleIds(tx, projectAccess.project.id, input.roleNameList ?? []))
    return tx.credential.update({ where: { id: current.id }, data, include: credentialOwners })
  })
  return { credential, deploymentResult: await deploy(deps, projectAccess, credential, 'DEPLOY') }
}

/** A new password replaces whatever was stored (a sealed value, a reference or a legacy plain value). */
const sealedPassword = (keyring: SecretKeyring, password: string) => ({ passwordCipher: keyring.encrypt(password), passwordFormat: 'SEALED' as const })

/**
 * PATCH …/credentials/{username}/: replaces the password only (sealed, never echoed), then deploys the
 * credential like any write (the push needs IDENTITY DEPLOY_UNDEPLOY).
 */
export async function changeCredentialPassword(deps: Deps, actor: Actor, projectName: string, username: string, raw: unknown): Promise<CredentialWrite> {
  const projectAccess = await access(deps.prisma, actor, projectName, 'MANAGE')
  const { password } = parseInput(passwordChange, raw)
  const credential = await deps.prisma.$transaction(async (tx) => {
    const current = await findCredential(tx, projectAccess, username)
    return tx.credential.update({ where: { id: current.id }, data: { ...sealedPassword(deps.keyring, password), revision: { increment: 1 } }, include: credentialOwners })
  })
  deps.logger.info({ project: projectName, credential: credential.username, revision: credential.revision }, 'credential password changed')
  return { credential, deploymentResult: await deploy(deps, projectAccess, credential, 'DEPLOY') }
}

/**
 * Issues the credential a new random password (its secret for basic authentication), saved sealed and deployed like
 * a password change. The answer carries the secret this once: no door reads it back.
 */
export async function resetCredentialSecret(deps: Deps, actor: Actor, projectName: string, username: string): Promise<CredentialWrite & { secret: string }> {
  const secret = randomBytes(24).toString('base64url')
  return { ...(await changeCredentialPassword(deps, actor, projectName, username, { password: secret })), secret }
}

/** The body of a password change: other fields are ignored (zod drops them). */
export const passwordChange = z.object({
  password: z.string({ error: 'is required' }).min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
})

export async function deleteCredential(deps: Deps, actor: Actor, projectName: string, username: string): Promise<DeploymentOutcome> {
  const projectAccess = await access(deps.prisma, actor, projectName, 'MANAGE')
  const credential = await findCredential(deps.prisma, projectAccess, username)
  // the API clients the credential owns as a consumer go with it (cascade): read first, undeployed after the commit
  const clients = await deps.prisma.$transaction(async (tx) => {
    const owned = await apiClientsToUndeploy(tx, { credentialId: credential.id })
    await tx.credential.delete({ where: { id: credential.id } })
    return owned
  })
  const outcome = await deploy(deps, projectAccess, credential, 'UNDEPLOY')
  const failed = (await undeployRemovedApiClients(deps, clients)).filter((u) => !u.success)
  if (failed.length) deps.logger.warn({ project: projectName, credential: username, apiClients: failed }, 'API client undeploy not acknowledged (the outbox retries it)')
  return outcome
}

/**
 * Revokes a credential for good: disabled, marked revoked (it can no longer be enabled, and an
 * application's resume leaves it alone), then undeployed. Revoking again re-sends the undeploy.
 */
export async function revokeCredential(deps: Deps, actor: Actor, projectName: string, username: string): Promise<CredentialWrite> {
  const projectAccess = await access(deps.prisma, actor, projectName, 'MANAGE')
  const current = await findCredential(deps.prisma, projectAccess, username)
  const credential = await deps.prisma.credential.update({
    where: { id: current.id },
    data: { revokedAt: current.revokedAt ?? new Date(), enabled: false, suspendedByApplication: false, revision: { increment: 1 } },
    include: credentialOwners,
  })
  deps.logger.info({ project: projectName, credential: username }, 'credential revoked')
  return { credential, deploymentResult: await deploy(deps, projectAccess, credential, 'UNDEPLOY') }
}

/**
 * DELETE …/credentials/{username}/token/ (spec §4.2): resets the token settings to the §2.3 values, saves,
 * then pushes to every environment of the project. Without IDENTITY DEPLOY_UNDEPLOY the reset stays
 * saved and the result says it was not deployed.
 */
export async function resetCredentialToken(deps: Deps, actor: Actor, projectName: string, username: string): Promise<CredentialWrite> {
  const projectAccess = await access(deps.prisma, actor, projectName, 'MANAGE')
  const current = await findCredential(deps.prisma, projectAccess, username)
  const credential = await deps.prisma.credential.update({
    where: { id: current.id },
    data: { tokenSettings: TOKEN_SETTINGS_AFTER_RESET, revision: { increment: 1 } },
    include: credentialOwners,
  })
  deps.logger.info({ project: projectName, credential: username, revision: credential.revision }, 'credential token settings reset')
  return { credential, deploymentResult: await deploy(deps, projectAccess, credential, 'DEPLOY') }
}

export async function getCredential(deps: Deps, actor: Actor, projectName: string, username: string) {
  const projectAccess = await access(deps.prisma, actor, projectName, 'VIEW')
  return findCredential(deps.prisma, projectAccess, username)
}

export async function listCredentials(deps: Deps, actor: Actor, projectName: string) {
  const projectAccess = await access(deps.prisma, actor, projectName, 'VIEW')
  return deps.prisma.credential.findMany({ where: { projectId: projectAccess.project.id }, orderBy: { username: 'asc' }, include: credentialOwners })
}

export const CREDENTIAL_SORT = { defaultSort: 'username,asc', supported: ['username', 'fullName', 'createdAt'] } as const

/** One page of the project's credentials, those whose user name or full name contains the search when one is given. */
export async function pageCredentials(deps: Deps, actor: Actor, projectName: string, query: SearchQuery) {
  const projectAccess = await access(deps.prisma, actor, projectName, 'VIEW')
  const page = parsePaging(query, CREDENTIAL_SORT)
  const search = parseSearch(query.search)
  const where: Prisma.CredentialWhereInput = {
    projectId: projectAccess.project.id,
    ...(search ? { OR: [{ username: containsText(search) }, { fullName: containsText(search) }] } : {}),
  }
  return findPage(
    page,
    // no include: the Credential fields read each relation in one batch per request, and only for the keys that are set
    deps.prisma.credential.findMany({ where, orderBy: orderByFor(page, 'username'), skip: page.skip, take: page.take }),
    deps.prisma.credential.count({ where }),
  )
}
