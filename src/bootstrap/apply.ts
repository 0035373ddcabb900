import crypto from 'node:crypto'
import type { Prisma } from '../generated/prisma/client.js'
import type { Deps, Tx } from '../platform/context.js'
import { SYSTEM } from '../platform/auth/actor.js'
import { BOOTSTRAP_ACTOR, identifierOf, recordAuditEventsInTx, type AuditEventInput } from '../platform/audit/recorder.js'
import { DomainError } from '../platform/errors/domain-error.js'
import { HeapBudget } from '../platform/heap-budget.js'
import { createUser } from '../modules/auth/users.js'
import { ensureFirstRunAdmin } from '../modules/auth/first-run.js'
import { newCredentialRow } from '../modules/credentials/service.js'
import { CREDENTIAL_BATCH, insertCredentialRows } from '../modules/credentials/bulk.js'
import { findOrganization } from '../modules/projects/organizations.js'
import { insertApiClient } from '../modules/identity/api-clients.js'
import { insertApplications } from '../modules/identity/applications.js'
import { insertApiProxy } from '../modules/apiproxies/proxies/service.js'
import { insertStoredObject } from '../modules/objects/service.js'
import { createEnvironment } from '../modules/projects/environments.js'
import { createOrganization } from '../modules/projects/organizations.js'
import { createProject, ensurePlatformProject, setMemberPermissions } from '../modules/projects/projects.js'
import { applyBootstrapLicense } from '../modules/licence/service.js'
import { stillStored, type StoredProjects } from './existing.js'
import { BootstrapError, issueError, StreamedBootstrap, type CredentialBatch, type CredentialReader } from './read.js'
import { bootstrapSchema, type BootstrapCredential, type BootstrapFile, type BootstrapProject } from './schema.js'

export { BootstrapError, readBootstrapFile, StreamedBootstrap } from './read.js'
export { CredentialLookAhead } from './existing.js'

/** A document already in memory (a small file, a test, a benchmark): validated as a whole. */
export function parseBootstrap(text: string): BootstrapFile {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new BootstrapError('$', `not valid JSON (${(err as Error).message})`)
  }
  const parsed = bootstrapSchema.safeParse(json)
  if (!parsed.success) throw issueError(parsed.error)
  return parsed.data
}

export interface BootstrapSummary {
  created: number
  kept: number
  /** shared by the run's audit events and its log lines */
  correlationId: string
}

/** Audit events are written as they pile up (one per created entry), in the apply's transaction. */
const AUDIT_FLUSH = 5000

/**
 * Credentials read from a streamed file at a time: one username lookup each (their INSERTs go 1,000 rows a
 * statement). Large enough that the round trips stay few (20 lookups for 200,000 credentials), small enough that
 * what is held stays a few megabytes whatever the file's size.
 */
const READ_BATCH = 10_000

interface Run extends BootstrapSummary {
  tx: Tx
  /** one audit event per created entry not yet written */
  audit: AuditEventInput[]
  /** a project's credentials, by the project's index in the file, in batches */
  credentials: (project: number, p: BootstrapProject) => AsyncIterable<CredentialBatch>
}

const BOOTSTRAP_LOCK_KEY = 7301964222n

/** One entry of the file: its JSON path, the entry itself, and the project it belongs to. */
interface Entry { path: string; entry: object; project?: string }

/** `$.projects[0].credentials[2]` → `credentials`; `$.users[1]` → `users`. */
const collectionOf = (path: string) => /\.(\w+)\[\d+\]$/.exec(path)?.[1] ?? 'bootstrap'

/** A domain rule broken by one entry is reported at the entry's JSON path. */
async function atPath<T>(path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof DomainError) throw new BootstrapError(path, err.message)
    throw err
  }
}

function recordCreated(summary: Run, at: Entry) {
  summary.created++
  summary.audit.push({
    surface: 'BOOTSTRAP', actor: BOOTSTRAP_ACTOR, projectName: at.project ?? null, operation: 'bootstrap.create',
    objectType: collectionOf(at.path), objectName: identifierOf(at.entry), outcome: 'SUCCEEDED', correlationId: summary.correlationId,
  })
}

async function flushAudit(run: Run, atLeast = 1) {
  if (run.audit.length >= atLeast) await recordAuditEventsInTx(run.tx, run.audit.splice(0))
}

/**
 * Set-based step: `known` holds the natural keys that exist (looked up in one query per collection). An entry
 * whose key is known, or appeared earlier in the file, is kept; the others are created in file order.
 */
async function applyEach<E extends object>(
  summary: Run, entries: { entry: E; path: string }[], project: string | undefined,
  known: Set<string>, keyOf: (entry: E) => string, create: (entry: E) => Promise<unknown>,
) {
  for (const { entry, path } of entries) {
    const key = keyOf(entry)
    if (known.has(key)) {
      summary.kept++
      continue
    }
    await atPath(path, () => create(entry))
    known.add(key)
    recordCreated(summary, { path, entry, project })
  }
}

const withPaths = <E>(entries: E[], at: string) => entries.map((entry, i) => ({ entry, path: `${at}[${i}]` }))
const keysOf = <R>(rows: R[], keyOf: (row: R) => string) => new Set(rows.map(keyOf))
/** Natural key of a stored object: (type, kind, name). */
const objectKey = (o: { type: string; kind?: string | null; name: string }) => JSON.stringify([o.type, o.kind ?? '', o.name])

const VARIABLE_REFERENCE = /^\$\{[^}]+\}$/

/**
 * A `${variable}` password is a reference resolved at request time: kept as written, not sealed. A legacy
 * password is kept byte for byte in the format it came in.
 */
function storedPassword(entry: BootstrapCredential): { passwordCipher: string; passwordFormat: 'PLAIN' | 'SEALED' | 'REFERENCE' } | undefined {
  if (entry.legacyPassword) return { passwordCipher: entry.legacyPassword.value, passwordFormat: entry.legacyPassword.format === 'PLAIN' ? 'PLAIN' : 'SEALED' }
  if (entry.password && VARIABLE_REFERENCE.test(entry.password)) return { passwordCipher: entry.password, passwordFormat: 'REFERENCE' }
  return undefined
}

/**
 * Credentials are the collection that grows (hundreds of thousands): they come in batches (a streamed file reads
 * them from disk batch by batch), and each batch costs one lookup of the usernames that need attention and one
 * INSERT of its new rows, sealed in memory. Usernames are unique across the installation, so one held by another
 * project is a conflict, not "the same"; one listed twice in the file is kept the second time (the first is stored
 * by then, whichever batch it was in).
 */
async function applyCredentials(deps: Deps, tx: Tx, p: BootstrapProject, index: number, projectId: string, at: string, summary: Run) {
  const orgIds = new Map<string, string>()
  // a long file's batches leave their parse, rows and statements behind as garbage the 2 MB young generation
  // promotes; left to V8, the old generation grew to 400 MB at 200,000 credentials and kept the emptied pages after
  // start-up (issue 31 §3). Collected from the second batch on, whenever the heap grew its budget.
  const heap = new HeapBudget()
  let applied = 0
  const batches = summary.credentials(index, p)[Symbol.asyncIterator]()
  for (let next = batches.next(); ; ) {
    const read = await next
    if (read.done) break
    const batch = read.value
    // the next batch is read and parsed while this one's statements run in the database (handled: its error, if
    // any, is thrown when it is awaited)
    next = batches.next()
    next.catch(() => undefined)
    // Only the usernames that need attention come back: missing ones (no row) and ones another project holds. A
    // re-applied file whose credentials all exist reads no rows at all, however long it is. Each username is probed
    // on its unique index (LATERAL … LIMIT 1 keeps the planner from hashing the whole table per batch: with 10,000
    // usernames against 200,000 credentials it chose a hash join, 320 ms a batch against 45 ms probed).
    const attention = await tx.$queryRaw<{ username: string; projectId: string | null; projectName: string | null }[]>`
      SELECT u.username, c."projectId", p.name AS "projectName"
      FROM unnest(${batch.map((c) => c.entry.username)}::text[]) AS u(username)
        LEFT JOIN LATERAL (SELECT id, "projectId" FROM "Credential" WHERE username = u.username LIMIT 1) c ON true
        LEFT JOIN "Project" p ON p.id = c."projectId"
      WHERE c.id IS NULL OR c."projectId" <> ${projectId}`
    const missing = new Set(attention.filter((r) => r.projectId === null).map((r) => r.username))
    const owners = new Map(attention.filter((r) => r.projectId !== null).map((r) => [r.username, r as { projectId: string; projectName: string }]))
    const codes = [...new Set(batch.flatMap(({ entry: c }) => (c.organizationCode && !orgIds.has(c.organizationCode) ? [c.organizationCode] : [])))]
    if (codes.length) {
      for (const o of await tx.organization.findMany({ where: { projectId, code: { in: codes } }, select: { id: true, code: true } })) orgIds.set(o.code, o.id)
    }
    const created: (Entry & { entry: BootstrapCredential; organizationId: string | null })[] = []
    for (const { index: i, entry: c } of batch) {
      const path = `${at}[${i}]`
      const owner = owners.get(c.username)
      if (owner) throw new BootstrapError(path, `Credential username '${c.username}' is already taken in project '${owner.projectName}'`)
      if (!missing.has(c.username)) {
        summary.kept++
        continue
      }
      let organizationId: string | null = null
      if (c.organizationCode) {
        const code = c.organizationCode
        organizationId = orgIds.get(code) ?? (await atPath(path, () => findOrganization(tx, projectId, code))).id
      }
      missing.delete(c.username) // listed twice: the second is kept
      created.push({ path, entry: c, project: p.name, organizationId })
    }
    // Sealing a password is the costly part in this process (one AES-GCM cipher each): the next 1,000 are sealed
    // while the database inserts the previous 1,000.
    let inserting: Promise<unknown> = Promise.resolve()
    for (let i = 0; i < created.length; i += CREDENTIAL_BATCH) {
      const rows: Prisma.CredentialCreateManyInput[] = created.slice(i, i + CREDENTIAL_BATCH).map(({ entry: c, organizationId }) =>
        ({ ...newCredentialRow(deps.keyring, projectId, c, organizationId), ...storedPassword(c) }))
      await inserting
      inserting = insertCredentialRows(tx, rows)
      inserting.catch(() => undefined) // thrown where it is awaited
      await new Promise(setImmediate) // the statement goes out before the next rows are sealed
    }
    await inserting
    for (const entry of created) recordCreated(summary, entry)
    await flushAudit(summary, AUDIT_FLUSH)
    if (++applied > 1) heap.check()
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

async function applyProject(deps: Deps, tx: Tx, p: BootstrapProject, index: number, summary: Run, existing: Map<string, string>) {
  const at = `$.projects[${index}]`
  let projectId = existing.get(p.name)
  if (projectId) summary.kept++
  else {
    projectId = (await atPath(at, () => createProject(tx, SYSTEM, p))).id
    existing.set(p.name, projectId)
    recordCreated(summary, { path: at, entry: p, project: p.name })
  }
  const pid = projectId

  const memberRows = p.members.length
    ? await tx.membership.findMany({ where: { projectId: pid, user: { username: { in: p.members.map((m) => m.username) } } }, select: { user: { select: { username: true } } } })
    : []
  await applyEach(summary, withPaths(p.members, `${at}.members`), p.name, keysOf(memberRows, (r) => r.user.username), (m) => m.username,
    (m) => setMemberPermissions(tx, SYSTEM, p.name, m.username, m.permissions))

  const orgRows = p.organizations.length ? await tx.organization.findMany({ where: { projectId: pid, code: { in: p.organizations.map((o) => o.code) } }, select: { code: true } }) : []
  await applyEach(summary, organizationsInParentOrder(p.organizations).map(({ org, index }) => ({ entry: org, path: `${at}.organizations[${index}]` })), p.name,
    keysOf(orgRows, (r) => r.code), (o) => o.code, (o) => createOrganization(tx, SYSTEM, p.name, o))

  await applyCredentials(deps, tx, p, index, pid, `${at}.credentials`, summary)

  const appRows = p.applications.length ? await tx.application.findMany({ where: { projectId: pid, name: { in: p.applications.map((a) => a.name) } }, select: { name: true } }) : []
  const clientIds = p.applications.flatMap((a) => a.apiClients.map((c) => c.clientId))
  const knownApps = keysOf(appRows, (r) => r.name)
  const knownClients = keysOf(clientIds.length ? await tx.apiClient.findMany({ where: { clientId: { in: clientIds } }, select: { clientId: true } }) : [], (r) => r.clientId)
  // the new applications set-based (insertApplications: each one's rules, one query per check for them all; one by
  // one, each looked up its consumers by username, which PostgreSQL plans on the trigram index: minutes for a
  // thousand applications); the first refused one in file order names its path
  const fresh = p.applications.map((entry, i) => ({ entry, path: `${at}.applications[${i}]` })).filter(({ entry }, i, all) =>
    !knownApps.has(entry.name) && all.findIndex((o) => o.entry.name === entry.name) === i)
  summary.kept += p.applications.length - fresh.length
  if (fresh.length) {
    const { refused } = await insertApplications(tx, pid, fresh.map(({ entry }) => entry))
    const first = [...refused.keys()].sort((a, b) => a - b)[0]
    if (first !== undefined) await atPath(fresh[first]!.path, () => Promise.reject(refused.get(first)))
    for (const f of fresh) {
      knownApps.add(f.entry.name)
      recordCreated(summary, { ...f, project: p.name })
    }
  }
  for (const [i, a] of p.applications.entries()) {
    await applyEach(summary, withPaths(a.apiClients, `${at}.applications[${i}].apiClients`), p.name, knownClients, (c) => c.clientId,
      (c) => insertApiClient(tx, pid, { ...c, applicationName: a.name }))
  }

  const proxyRows = p.apiProxies.length ? await tx.apiProxy.findMany({ where: { projectId: pid, name: { in: p.apiProxies.map((x) => x.name) } }, select: { name: true } }) : []
  await applyEach(summary, withPaths(p.apiProxies, `${at}.apiProxies`), p.name, keysOf(proxyRows, (r) => r.name), (x) => x.name, (x) => insertApiProxy(tx, pid, x))

  const objectRows = p.objects.length ? await tx.storedObject.findMany({ where: { projectId: pid, name: { in: p.objects.map((o) => o.name) } }, select: { type: true, kind: true, name: true } }) : []
  await applyEach(summary, withPaths(p.objects, `${at}.objects`), p.name, keysOf(objectRows, objectKey), objectKey, (o) => insertStoredObject(tx, pid, o))
}

/** The credentials of a document in memory, in batches like a streamed file's. */
async function* inMemoryBatches(p: BootstrapProject): AsyncGenerator<CredentialBatch> {
  for (let i = 0; i < p.credentials.length; i += READ_BATCH) {
    yield p.credentials.slice(i, i + READ_BATCH).map((entry, k) => ({ index: i + k, entry }))
  }
}

/**
 * The apply's transaction timeout: 2 minutes, plus 20 ms per credential. A 200,000-credential first start takes about
 * 12 s on a quiet 2-core machine, but passed 120 s at load 24 (20,000 on PGlite: 160 s at load 36); a start-up that
 * fails because the machine is busy helps nobody. The limit is for a transaction that hangs, not for a long file.
 */
function applyTimeoutMs(credentials: number): number {
  return 120_000 + 20 * credentials
}

/**
 * Applies the bootstrap file in one transaction: whatever exists (same natural key) is left as it is,
 * whatever is missing is created, and a problem anywhere applies nothing. A streamed file (readBootstrapFile)
 * validated as a whole before; its credentials are read again here, batch by batch, but for the projects `stored`
 * names (all their credentials found stored while it validated, CredentialLookAhead) whose list has not moved since.
 */
export async function applyBootstrap(deps: Deps, input: BootstrapFile | StreamedBootstrap, stored: StoredProjects = new Map()): Promise<BootstrapSummary> {
  const correlationId = `bootstrap-${crypto.randomUUID()}`
  const streamed = input instanceof StreamedBootstrap ? input : undefined
  const file = streamed ? streamed.skeleton : (input as BootstrapFile)
  let created = 0
  let kept = 0
  await deps.prisma.$transaction(
    async (tx) => {
      let reader: CredentialReader | undefined
      const summary: Run = {
        created: 0, kept: 0, correlationId, tx, audit: [],
        credentials: (index, p) => (reader ? (streamed!.credentialCounts[index] ? reader.batches(index) : inMemoryBatches(p)) : inMemoryBatches(p)),
      }
      try {
        // instances starting together apply one after the other; the second then finds everything in place
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK_KEY})::text AS locked`
        if (streamed) {
          // a project whose credentials the validation pass found all stored (and still are) is not read again
          const unchanged = await stillStored(tx, stored)
          const credentials = summary.credentials
          summary.credentials = (index, p) => {
            if (!unchanged.has(index)) return credentials(index, p)
            summary.kept += streamed.credentialCounts[index]
            return inMemoryBatches({ ...p, credentials: [] })
          }
          if (streamed.credentialCounts.some((n, i) => n > 0 && !unchanged.has(i))) reader = streamed.reader(READ_BATCH)
        }
        await ensurePlatformProject(tx)
        if (file.license) await applyBootstrapLicense(tx, file.license)
        const envRows = file.environments.length ? await tx.environment.findMany({ where: { name: { in: file.environments.map((e) => e.name) } }, select: { name: true } }) : []
        await applyEach(summary, withPaths(file.environments, '$.environments'), undefined, keysOf(envRows, (r) => r.name), (e) => e.name, (e) => createEnvironment(tx, SYSTEM, e))
        const userRows = file.users.length ? await tx.user.findMany({ where: { username: { in: file.users.map((u) => u.username) } }, select: { username: true } }) : []
        await applyEach(summary, withPaths(file.users, '$.users'), undefined, keysOf(userRows, (r) => r.username), (u) => u.username, (u) => createUser(tx, SYSTEM, u))
        const projectRows = file.projects.length ? await tx.project.findMany({ where: { name: { in: file.projects.map((p) => p.name) } }, select: { id: true, name: true } }) : []
        const projects = new Map(projectRows.map((r) => [r.name, r.id]))
        for (const [i, p] of file.projects.entries()) await applyProject(deps, tx, p, i, summary, projects)
        // the file is still the one that validated (read to its end, compared byte for byte)
        await reader?.finish()
        // RUNTIME.md §3.1: after the file, so a file that lists users gets no extra one
        if ((await ensureFirstRunAdmin(deps, tx)).created) {
          summary.audit.push({
            surface: 'BOOTSTRAP', actor: BOOTSTRAP_ACTOR, projectName: null, operation: 'bootstrap.firstRunAdmin',
            objectType: 'users', objectName: 'admin', outcome: 'SUCCEEDED', correlationId,
          })
        }
        await flushAudit(summary)
        created = summary.created
        kept = summary.kept
      } finally {
        await reader?.close()
      }
    },
    { timeout: applyTimeoutMs(streamed ? streamed.credentialCounts.reduce((n, c) => n + c, 0) : file.projects.reduce((n, p) => n + p.credentials.length, 0)), maxWait: 30_000 },
  )
  return { created, kept, correlationId }
}
