import type { Deps, Tx } from '../platform/context.js'
import type { CredentialSink, SeenCredential, StreamedBootstrap } from './read.js'

/** Usernames looked up at a time during the validation pass (one statement each). */
const LOOKUP_BATCH = 10_000

/** Where one project's credentials stand after the lookups so far: all stored in that project, at that list version. */
interface AllStored { projectId: string; projectName: string; version: string | null; n: number }

/** A project (by its index in the file) whose credentials are all stored, and the version of its list then. */
export type StoredProjects = ReadonlyMap<number, { projectId: string; version: string | null }>

/**
 * A restart with the same file (issue 31 §3): the file is read as a stream twice (validated whole, then applied in
 * batches), and the second read was most of a restart's time. Looking the usernames up while the first pass reads
 * them tells which projects hold every credential of the file already; the apply then does not read those again
 * (it creates nothing there). A project drops out at its first missing username or one stored elsewhere (a first
 * start looks up one batch and stops). Each lookup also reads the project's `ListVersion` (moved by every statement
 * that inserts, deletes or renames its credentials, migration 20261127200000) in the same snapshot; the apply checks
 * that version again under its lock, so a change in between (a deleted credential, another instance's start) sends
 * the project back to the full read.
 */
export class CredentialLookAhead {
  private readonly pending: SeenCredential[] = []
  /** by project index; false once a credential is missing, stored elsewhere or the list moved between lookups */
  private readonly state = new Map<number, AllStored | false>()

  constructor(private readonly prisma: Deps['prisma']) {}

  /** the lookup under way: the file is read on while the database answers (one at a time, in file order) */
  private inFlight: Promise<void> = Promise.resolve()

  readonly sink: CredentialSink = async (found) => {
    for (const c of found) if (this.state.get(c.project) !== false) this.pending.push(c)
    if (this.pending.length >= LOOKUP_BATCH) await this.next()
  }

  private async next() {
    await this.inFlight
    const batch = this.pending.splice(0)
    this.inFlight = this.lookUp(batch)
    this.inFlight.catch(() => undefined) // thrown where it is awaited
  }

  private async lookUp(batch: SeenCredential[]) {
    const live = batch.filter((c) => this.state.get(c.project) !== false)
    if (!live.length) return
    // probed name by name on the unique index (LATERAL … LIMIT 1: a plain join is planned as a hash of the table)
    const rows = await this.prisma.$queryRaw<{ project: number; projectId: string | null; projectName: string | null; version: string | null; n: number }[]>`
      SELECT u.project, c."projectId", p.name AS "projectName", lv.v::text AS version, count(*)::int AS n
      FROM unnest(${live.map((c) => c.username)}::text[], ${live.map((c) => c.project)}::int[]) AS u(username, project)
        LEFT JOIN LATERAL (SELECT "projectId" FROM "Credential" WHERE username = u.username LIMIT 1) c ON true
        LEFT JOIN "Project" p ON p.id = c."projectId"
        LEFT JOIN "ListVersion" lv ON lv.list = 'Credential' AND lv.scope = c."projectId"
      GROUP BY 1, 2, 3, 4`
    const owners = new Map<number, typeof rows>()
    for (const r of rows) owners.set(r.project, [...(owners.get(r.project) ?? []), r])
    for (const [project, found] of owners) {
      const was = this.state.get(project)
      const [only] = found
      if (found.length !== 1 || only.projectId === null || only.projectName === null) this.state.set(project, false)
      else if (was === undefined) this.state.set(project, { projectId: only.projectId, projectName: only.projectName, version: only.version, n: only.n })
      else if (was && was.projectId === only.projectId && was.version === only.version) was.n += only.n
      else this.state.set(project, false)
    }
  }

  /** Once the file validated: the projects whose every credential the lookups found stored in that very project. */
  async stored(file: StreamedBootstrap): Promise<StoredProjects> {
    await this.next()
    await this.inFlight
    const stored = new Map<number, { projectId: string; version: string | null }>()
    for (const [index, state] of this.state) {
      if (state && state.projectName === file.skeleton.projects[index]?.name && state.n === file.credentialCounts[index]) {
        stored.set(index, { projectId: state.projectId, version: state.version })
      }
    }
    return stored
  }
}

/** Under the apply's lock: the stored projects whose credential list has not moved since it was looked up. */
export async function stillStored(tx: Tx, stored: StoredProjects): Promise<Set<number>> {
  if (!stored.size) return new Set()
  const ids = [...stored.values()].map((s) => s.projectId)
  const rows = await tx.$queryRaw<{ scope: string; version: string }[]>`
    SELECT scope, v::text AS version FROM "ListVersion" WHERE list = 'Credential' AND scope = ANY(${ids}::text[])`
  const now = new Map(rows.map((r) => [r.scope, r.version]))
  return new Set([...stored].filter(([, s]) => (now.get(s.projectId) ?? null) === s.version).map(([index]) => index))
}
