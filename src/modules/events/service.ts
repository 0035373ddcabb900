// Live events for subscribers (issue 18 §3). Each event is re-judged when it arrives: the caller's token again
// (revoked, expired, locked: the subscription ends), then the caller's right to see the project (no right: the
// event is not sent), then the row is read, so what is sent is what the database holds now.
import type { Actor } from '../../platform/auth/actor.js'
import { authenticate, type Surface } from '../../platform/auth/tokens.js'
import type { Deps } from '../../platform/context.js'
import { DomainError, notFound } from '../../platform/errors/domain-error.js'
import { eventStream, type GatewayEvent } from '../../platform/events/bus.js'
import { authorizeInProject, PLATFORM_PROJECT, resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { auditEventView, type AuditEventView } from '../audit/service.js'

export interface Subscriber { actor: Actor; token: string; surface: Surface }

const noBus = () => new DomainError('internal', 'serviceUnavailable', 'Live events are not available on this instance')

/**
 * The shared loop: events the filter accepts are checked and loaded one by one; `load` returns null for an event
 * the caller may not see, and throws to end the subscription.
 */
function follow<T>(deps: Deps, who: Subscriber, accept: (e: GatewayEvent) => boolean, load: (e: GatewayEvent, actor: Actor) => Promise<T | null>, done?: (value: T) => boolean): AsyncGenerator<T> {
  if (!deps.events) throw noBus()
  // listening starts now, before the caller reads any current state, so no change falls in between
  const stream = eventStream(deps.events, accept)
  const generator = (async function* (): AsyncGenerator<T> {
    try {
      for await (const event of stream) {
        const actor = await authenticate(deps.prisma, who.token, who.surface) // throws: the subscription ends
        const value = await load(event, actor)
        if (value === null) continue
        yield value as T
        if (done?.(value as T)) return
      }
    } finally {
      stream.end()
    }
  })()
  // a generator ended before its first step never runs its finally: stop listening here as well
  const close = generator.return.bind(generator)
  generator.return = (value) => {
    stream.end()
    return close(value)
  }
  return generator
}

const hidden = async <T>(work: () => Promise<T>): Promise<T | null> => {
  try {
    return await work()
  } catch (err) {
    if (err instanceof DomainError && (err.kind === 'notFound' || err.kind === 'permission')) return null
    throw err
  }
}

/** Every audited write of one project (the platform project `admin`: also the installation-level ones). */
export async function subscribeAuditEvents(deps: Deps, who: Subscriber, projectName: string): Promise<AsyncGenerator<AuditEventView>> {
  const access = await authorizeInProject(deps.prisma, who.actor, projectName, 'PROJECT_MANAGEMENT', 'VIEW')
  const platform = access.project.name === PLATFORM_PROJECT
  return follow(deps, who, (e) => e.k === 'audit' && (e.p === projectName || (platform && e.p === null)), async (e, actor) => {
    if (!(await hidden(() => authorizeInProject(deps.prisma, actor, projectName, 'PROJECT_MANAGEMENT', 'VIEW')))) return null
    const row = await deps.prisma.auditEvent.findUnique({ where: { id: BigInt((e as { id: string }).id) } })
    return row ? auditEventView(row) : null
  })
}

export interface DeploymentOutcomeView {
  projectName: string; environmentName: string; kind: string; name: string; action: string; revision: number; acknowledged: boolean; at: string
}

/** What each environment answered to each push and outbox retry of one project. */
export async function subscribeDeploymentOutcomes(deps: Deps, who: Subscriber, projectName: string): Promise<AsyncGenerator<DeploymentOutcomeView>> {
  await resolveProjectAccess(deps.prisma, who.actor, projectName)
  return follow(deps, who, (e) => e.k === 'deployment' && e.p === projectName, async (e, actor) => {
    if (!(await hidden(() => resolveProjectAccess(deps.prisma, actor, projectName)))) return null
    const d = e as Extract<GatewayEvent, { k: 'deployment' }>
    const row = await deps.prisma.deploymentRecord.findUnique({
      where: { projectName_environmentName_kind_name: { projectName: d.p, environmentName: d.e, kind: d.kind, name: d.n } },
    })
    return row ? { ...row, at: row.at.toISOString() } : null
  })
}

const TERMINAL_RUN = new Set(['SUCCESS', 'PARTIAL', 'FAILED', 'CANCELLED', 'INTERRUPTED', 'LICENSE_REVOKED'])

/**
 * Progress of one bulk run until it ends: the run as it is now first, then every change, the last being terminal.
 * `read` is the module's own read with its permission check (limits bulk VIEW in the run's project).
 */
export async function subscribeBulkRun<R extends { runStatus: string }>(
  deps: Deps, who: Subscriber, runId: string, read: (actor: Actor, projectName: string) => Promise<R>,
): Promise<AsyncGenerator<R>> {
  const run = await deps.prisma.limitBulkRun.findUnique({ where: { runId }, select: { projectId: true } })
  const project = run && (await deps.prisma.project.findUnique({ where: { id: run.projectId }, select: { name: true } }))
  if (!project) throw notFound(`Bulk run '${runId}' not found`, { runId })
  const projectName = project.name
  const rest = follow(deps, who, (e) => e.k === 'bulkRun' && e.id === runId, (_e, actor) => hidden(() => read(actor, projectName)), (r) => TERMINAL_RUN.has(r.runStatus))
  let first: R
  try {
    first = await read(who.actor, projectName)
  } catch (err) {
    await rest.return(undefined)
    throw err
  }
  return (async function* (): AsyncGenerator<R> {
    try {
      yield first
      if (TERMINAL_RUN.has(first.runStatus)) return
      yield* rest
    } finally {
      await rest.return(undefined)
    }
  })()
}
