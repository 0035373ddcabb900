// The REST door's audit hook: every successful non-GET call is recorded from its route and path.
import type { Actor } from '../auth/actor.js'
import type { Surface } from '../auth/tokens.js'
import type { Deps } from '../context.js'
import { auditActor, identifierOf, outcomeOf, recordAuditEvent } from '../audit/recorder.js'
import type { RouteDef, RouteInput } from './routes.js'

const PROJECT_PARAMS = new Set(['projectName', 'projectId'])

/**
 * The kind of object: the collection segment before the object's parameter (`credentials` of
 * `/credentials/:username/token/`), else the path's last literal segment (`api-clients` of a create).
 */
function objectTypeOf(route: RouteDef): string {
  if (route.audit && route.audit.objectType) return route.audit.objectType
  const segments = route.path.split('/').filter(Boolean)
  const objectParam = segments.findLastIndex((s) => s.startsWith(':') && !PROJECT_PARAMS.has(s.slice(1)))
  const before = objectParam > 0 ? segments[objectParam - 1] : undefined
  if (before && !before.startsWith(':')) return before
  return segments.filter((s) => !s.startsWith(':')).at(-1) ?? route.tag
}

/**
 * The object a call acted on: the last path parameter that is not the project (e.g. `:username` of
 * `/credentials/:username/token/`), else an identifier in the answer (a create's new key), else in the body.
 */
function objectNameOf(route: RouteDef, input: RouteInput, body: unknown): string | null {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]).filter((n) => !PROJECT_PARAMS.has(n))
  const last = names.at(-1)
  if (last && input.params[last]) return input.params[last]
  return identifierOf(body) ?? identifierOf(input.body)
}

const stringField = (value: unknown, field: string): string | null => {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined
  return typeof v === 'string' && v ? v : null
}

export async function auditRestCall(
  deps: Deps,
  route: RouteDef,
  call: { actor: Actor | null; input: RouteInput; correlationId: string; surface: Surface; status: number; body: unknown },
): Promise<void> {
  if (route.method === 'get' || route.audit === false || call.status >= 400) return
  const { input } = call
  const projectName = input.params.projectName ?? stringField(input.query, 'projectId') ?? stringField(input.body, 'projectId') ?? stringField(input.body, 'projectName')
  await recordAuditEvent(deps, {
    surface: call.surface === 'apiops' ? 'REST_APIOPS' : 'REST_API',
    actor: auditActor(call.actor, identifierOf(input.body)),
    projectName,
    operation: `${route.method.toUpperCase()} ${route.path}`,
    objectType: objectTypeOf(route),
    objectName: objectNameOf(route, input, Buffer.isBuffer(call.body) ? undefined : call.body),
    outcome: outcomeOf(call.status, call.body),
    httpStatus: call.status,
    correlationId: call.correlationId,
  })
}
