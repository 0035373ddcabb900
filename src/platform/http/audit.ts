// The REST door's audit hook: every successful non-GET call is recorded from its route and path, in the
// transaction of its first write.
import type { Actor } from '../auth/actor.js'
import type { Surface } from '../auth/tokens.js'
import type { Deps } from '../context.js'
import { openAudit, runAudited, settleAudit } from '../audit/context.js'
import { auditActor, identifierOf, outcomeOf } from '../audit/recorder.js'
import type { RouteDef, RouteInput, RouteResult } from './routes.js'

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
 * The object a call acted on: the route's own `audit.objectName`, else the last path parameter that is not
 * the project (e.g. `:username` of `/credentials/:username/token/`), else an identifier in the answer (a
 * create's new key), else in the body.
 */
function objectNameOf(route: RouteDef, input: RouteInput, body: unknown): string | null {
  const declared = route.audit ? route.audit.objectName?.(input, body) : null
  if (declared) return declared
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]).filter((n) => !PROJECT_PARAMS.has(n))
  const last = names.at(-1)
  if (last && input.params[last]) return input.params[last]
  return identifierOf(body) ?? identifierOf(input.body)
}

const stringField = (value: unknown, field: string): string | null => {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined
  return typeof v === 'string' && v ? v : null
}

/**
 * Runs a REST operation with its audit event pending: the first write inserts it in the write's own
 * transaction; when the call has answered, the event gets the outcome, status and object of the answer.
 * GETs, opted-out routes, refusals and dry runs (`audit: false` in the result) add no event.
 */
export async function auditedRestCall(
  deps: Deps,
  route: RouteDef,
  call: { actor: Actor | null; input: RouteInput; correlationId: string; surface: Surface },
  operation: () => Promise<RouteResult>,
): Promise<RouteResult> {
  if (route.method === 'get' || route.audit === false) return operation()
  const { input } = call
  const projectName = input.params.projectName ?? stringField(input.query, 'projectId') ?? stringField(input.body, 'projectId') ?? stringField(input.body, 'projectName')
  const pending = openAudit({
    surface: call.surface === 'apiops' ? 'REST_APIOPS' : 'REST_API',
    actor: auditActor(call.actor, identifierOf(input.body)),
    projectName,
    operation: `${route.method.toUpperCase()} ${route.path}`,
    objectType: objectTypeOf(route),
    objectName: objectNameOf(route, input, undefined),
    outcome: 'SUCCEEDED',
    httpStatus: 200,
    correlationId: call.correlationId,
  })
  let result: RouteResult
  try {
    result = await runAudited(pending, operation)
  } catch (err) {
    await settleAudit(deps, pending, null)
    throw err
  }
  const status = result.status ?? 200
  await settleAudit(deps, pending, result.audit === false || status >= 400 ? null : {
    outcome: outcomeOf(status, result.body),
    httpStatus: status,
    objectName: objectNameOf(route, input, Buffer.isBuffer(result.body) ? undefined : result.body),
  })
  return result
}
