// The GraphQL door's audit hook: every top-level mutation field that resolved without error is recorded.
// Mutations that write nothing (previews, tests) opt out with @Extensions({ audit: false }).
import type { ApolloServerPlugin } from '@apollo/server'
import { defaultFieldResolver, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql'
import { openAudit, runAudited, settleAudit, type AuditSettlement } from '../audit/context.js'
import { auditActor, identifierOf, outcomeOf, type AuditEventInput } from '../audit/recorder.js'
import type { GqlContext } from './context.js'

const VERB = /^(create|update|upsert|delete|remove|set|replace|register|revoke|rotate|reset|suspend|resume|transfer|activate|deactivate|end|publish|retire|open|upload|import|export|apply|disable|enable|add|grant|cancel|retry|rollback|run|start|reindex|login|issue|test)(?=[A-Z])/

/** `createWebhookConnection` → `WebhookConnection`; a mutation without a known verb names itself. */
const objectTypeOf = (fieldName: string) => fieldName.replace(VERB, '') || fieldName

const stringArg = (args: Record<string, unknown>, name: string) => {
  const nested = args.input as Record<string, unknown> | undefined
  const value = args[name] ?? (nested && typeof nested === 'object' ? nested[name] : undefined)
  return typeof value === 'string' && value ? value : null
}

function eventOf(info: GraphQLResolveInfo, args: Record<string, unknown>, result: unknown, ctx: GqlContext): AuditEventInput {
  return {
    surface: 'GRAPHQL',
    actor: auditActor(ctx.actor, args.username),
    projectName: stringArg(args, 'projectName') ?? stringArg(args, 'project'),
    operation: info.fieldName,
    objectType: objectTypeOf(info.fieldName),
    objectName: identifierOf(args) ?? identifierOf(args.input) ?? identifierOf(result),
    outcome: outcomeOf(200, result),
    httpStatus: null,
    correlationId: ctx.correlationId,
  }
}

const settlementsOf = new WeakMap<object, Promise<void>[]>()
const audited = new WeakSet<GraphQLSchema>()

/**
 * Each top-level mutation field runs with its event pending (inserted by its first write, in that write's
 * transaction) and settled when the field resolved: with the result's object and outcome, or, on an error,
 * with nothing added. The Mutation type's resolvers are wrapped once, when the schema is built, rather than
 * through a plugin's willResolveField: that hook makes Apollo wrap every field of every type and call the
 * plugins for each one, a cost every query paid for the sake of its mutation fields.
 */
export function auditMutationFields(schema: GraphQLSchema): GraphQLSchema {
  if (audited.has(schema)) return schema
  audited.add(schema)
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    if (field.extensions?.audit === false) continue
    const resolve = field.resolve ?? defaultFieldResolver
    field.resolve = (source, args: Record<string, unknown>, ctx: GqlContext, info) => {
      const pending = openAudit(eventOf(info, args, undefined, ctx))
      const settle = (settlement: AuditSettlement | null) => {
        const done = settleAudit(ctx.deps, pending, settlement)
        // over graphql-ws nothing waits for it; settleAudit logs its own failures
        settlementsOf.get(ctx)?.push(done)
      }
      const succeeded = (result: unknown) => {
        settle({ outcome: outcomeOf(200, result), httpStatus: null, objectName: eventOf(info, args, result, ctx).objectName })
        return result
      }
      const failed = (err: unknown) => {
        settle(null)
        throw err
      }
      return runAudited(pending, async () => resolve(source, args, ctx, info)).then(succeeded, failed)
    }
  }
  return schema
}

/** An HTTP answer waits for the settling of its mutations' events (auditMutationFields) before it is sent. */
export const auditSettlements: ApolloServerPlugin<GqlContext> = {
  async requestDidStart({ contextValue }) {
    const settlements: Promise<void>[] = []
    settlementsOf.set(contextValue, settlements)
    return {
      async willSendResponse() {
        await Promise.all(settlements)
      },
    }
  },
}
