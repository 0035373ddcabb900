import crypto from 'node:crypto'
import fs from 'node:fs'
import type { Deps, Tx } from '../platform/context.js'
import { SYSTEM } from '../platform/auth/actor.js'
import { BOOTSTRAP_ACTOR, identifierOf, recordAuditEventsInTx, type AuditEventInput } from '../platform/audit/recorder.js'
import { DomainError } from '../platform/errors/domain-error.js'
import { fieldPath } from '../platform/errors/validation.js'
import { createUser } from '../modules/auth/users.js'
import { insertCredential } from '../modules/credentials/service.js'
import { insertApiClient } from '../modules/identity/api-clients.js'
import { insertApplication } from '../modules/identity/applications.js'
import { insertApiProxy } from '../modules/apiproxies/service.js'
import { insertStoredObject } from '../modules/objects/service.js'
import { createEnvironment } from '../modules/projects/environments.js'
import { createOrganization } from '../modules/projects/organizations.js'
import { createProject, ensurePlatformProject, setMemberPermissions } from '../modules/projects/projects.js'
import { applyBootstrapLicense } from '../modules/licence/service.js'
import { bootstrapSchema, type BootstrapFile, type BootstrapProject } from './schema.js'

/** A bootstrap file that cannot be applied; the message starts with the JSON path of the first problem. */
export class BootstrapError extends Error {
  constructor(readonly jsonPath: string, problem: string) {
    super(`${jsonPath}: ${problem}`)
    this.name = 'BootstrapError'
  }
}

const jsonPath = (path: readonly PropertyKey[]) => {
  const rendered = fieldPath(path)
  return rendered ? (rendered.startsWith('[') ? `$${rendered}` : `$.${rendered}`) : '$'
}

export function parseBootstrap(text: string): BootstrapFile {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new BootstrapError('$', `not valid JSON (${(err as Error).message})`)
  }
  const parsed = bootstrapSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path
    throw new BootstrapError(jsonPath(path), issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message)
  }
  return parsed.data
}

export interface BootstrapSummary {
  created: number
  kept: number
  /** one audit event per created entry, recorded in the same transaction */
  audit: AuditEventInput[]
  /** shared by the run's audit events and its log lines */
  correlationId: string
}

const BOOTSTRAP_LOCK_KEY = 7301964222n

/** One entry of the file: its JSON path, the entry itself, and the project it belongs to. */
interface Entry { path: string; entry: object; project?: string }

/** `$.projects[0].credentials[2]` → `credentials`; `$.users[1]` → `users`. */
const collectionOf = (path: string) => /\.(\w+)\[\d+\]$/.exec(path)?.[1] ?? 'bootstrap'

/** Runs `create` for one entry unless it exists; failures are reported at the entry's JSON path. */
async function step(summary: BootstrapSummary, at: Entry, exists: () => Promise<unknown>, create: () => Promise<unknown>) {
  try {
    if (await exists()) {
      summary.kept++
      return
    }
    await create()
    summary.created++
    summary.audit.push({
      surface: 'BOOTSTRAP', actor: BOOTSTRAP_ACTOR, projectName: at.project ?? null, operation: 'bootstrap.create',
      objectType: collectionOf(at.path), objectName: identifierOf(at.entry), outcome: 'SUCCEEDED', correlationId: summary.correlationId,
    })
  } catch (err) {
    if (err instanceof DomainError) throw new BootstrapError(at.path, err.message)
    throw err
  }
}

const VARIABLE_REFERENCE = /^\$\{[^}]+\}$/

/**
 * A `${variable}` password is a reference resolved at request time: kept as written, not sealed. A legacy
 * password is kept byte for byte in the format it came in.
 */
async function storeLegacyPassword(tx: Tx, credentialId: string, entry: BootstrapProject['credentials'][number]) {
  if (entry.legacyPassword) {
    const format = entry.legacyPassword.format === 'PLAIN' ? 'PLAIN' : 'SEALED'
    await tx.credential.update({ where: { id: credentialId }, data: { passwordCipher: entry.legacyPassword.value, passwordFormat: format } })
  } else if (entry.password && VARIABLE_REFERENCE.test(entry.password)) {
    await tx.credential.update({ where: { id: credentialId }, data: { passwordCipher: entry.password, passwordFormat: 'REFERENCE' } })
  }
}

/** Parents before children, whatever order the file lists organizations in. */
function organizationsInParentOrder(orgs: BootstrapProject['organizations']) {
  const ordered: { org: (typeof orgs)[number]; index: number }[] = []
  const placed = new Set<string>()
  let pending = orgs.map((org, index) => ({ org, index }))
  while (pending.length) {
    const ready = pending.filter(({ org }) => !org.parentCode || placed.has(org.parentCode) || !orgs.some((o) => o.code === org.parentCode))
    if (!ready.length) return [...ordered, ...pending] // a cycle: applying reports the unknown parent at its path
    for (const r of ready) placed.add(r.org.code)
    ordered.push(...ready)
    pending = pending.filter((p) => !ready.includes(p))
  }
  return ordered
}

async function applyProject(deps: Deps, tx: Tx, p: BootstrapProject, at: string, summary: BootstrapSummary) {
  await step(summary, { path: at, entry: p, project: p.name }, () => tx.project.findUnique({ where: { name: p.name } }), () => createProject(tx, SYSTEM, p))
  const project = await tx.project.findUniqueOrThrow({ where: { name: p.name } })
  const projectId = project.id

  for (const [i, m] of p.members.entries()) {
    await step(summary, { path: `${at}.members[${i}]`, entry: m, project: p.name },
      () => tx.membership.findFirst({ where: { projectId, user: { username: m.username } } }),
      () => setMemberPermissions(tx, SYSTEM, p.name, m.username, m.permissions))
  }
  for (const { org, index } of organizationsInParentOrder(p.organizations)) {
    await step(summary, { path: `${at}.organizations[${index}]`, entry: org, project: p.name },
      () => tx.organization.findUnique({ where: { projectId_code: { projectId, code: org.code } } }),
      () => createOrganization(tx, SYSTEM, p.name, org))
  }
  for (const [i, c] of p.credentials.entries()) {
    await step(summary, { path: `${at}.credentials[${i}]`, entry: c, project: p.name },
      async () => {
        // usernames are unique across the installation: one held by another project is a conflict, not "the same"
        const existing = await tx.credential.findUnique({ where: { username: c.username }, include: { project: true } })
        if (existing && existing.projectId !== projectId) {
          throw new DomainError('validation', 'credentialUsernameTaken', `Credential username '${c.username}' is already taken in project '${existing.project.name}'`)
        }
        return existing
      },
      async () => {
        const created = await insertCredential(tx, deps.keyring, projectId, c)
        await storeLegacyPassword(tx, created.id, c)
      })
  }
  for (const [i, a] of p.applications.entries()) {
    await step(summary, { path: `${at}.applications[${i}]`, entry: a, project: p.name },
      () => tx.application.findUnique({ where: { projectId_name: { projectId, name: a.name } } }),
      () => insertApplication(tx, projectId, a))
    for (const [j, client] of a.apiClients.entries()) {
      await step(summary, { path: `${at}.applications[${i}].apiClients[${j}]`, entry: client, project: p.name },
        () => tx.apiClient.findUnique({ where: { clientId: client.clientId } }),
        () => insertApiClient(tx, projectId, { ...client, applicationName: a.name }))
    }
  }
  for (const [i, proxy] of p.apiProxies.entries()) {
    await step(summary, { path: `${at}.apiProxies[${i}]`, entry: proxy, project: p.name },
      () => tx.apiProxy.findUnique({ where: { projectId_name: { projectId, name: proxy.name } } }),
      () => insertApiProxy(tx, projectId, proxy))
  }
  for (const [i, o] of p.objects.entries()) {
    await step(summary, { path: `${at}.objects[${i}]`, entry: o, project: p.name },
      () => tx.storedObject.findUnique({ where: { projectId_type_kind_name: { projectId, type: o.type, kind: o.kind ?? '', name: o.name } } }),
      () => insertStoredObject(tx, projectId, o))
  }
}

/**
 * Applies the bootstrap file in one transaction: whatever exists (same natural key) is left as it is,
 * whatever is missing is created, and a problem anywhere applies nothing.
 */
export async function applyBootstrap(deps: Deps, file: BootstrapFile): Promise<BootstrapSummary> {
  const summary: BootstrapSummary = { created: 0, kept: 0, audit: [], correlationId: `bootstrap-${crypto.randomUUID()}` }
  await deps.prisma.$transaction(
    async (tx) => {
      // instances starting together apply one after the other; the second then finds everything in place
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK_KEY})::text AS locked`
      await ensurePlatformProject(tx)
      if (file.license) await applyBootstrapLicense(tx, file.license)
      for (const [i, env] of file.environments.entries()) {
        await step(summary, { path: `$.environments[${i}]`, entry: env }, () => tx.environment.findUnique({ where: { name: env.name } }), () => createEnvironment(tx, SYSTEM, env))
      }
      for (const [i, user] of file.users.entries()) {
        await step(summary, { path: `$.users[${i}]`, entry: user }, () => tx.user.findUnique({ where: { username: user.username } }), () => createUser(tx, SYSTEM, user))
      }
      for (const [i, p] of file.projects.entries()) await applyProject(deps, tx, p, `$.projects[${i}]`, summary)
      await recordAuditEventsInTx(tx, summary.audit)
    },
    { timeout: 120_000, maxWait: 30_000 },
  )
  return summary
}

export function readBootstrapFile(file: string): BootstrapFile {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new BootstrapError('$', `cannot read ${file}: ${(err as Error).message}`)
  }
  return parseBootstrap(text)
}
