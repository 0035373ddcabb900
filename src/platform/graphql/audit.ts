// The GraphQL door's audit hook: every top-level mutation field that resolved without error is recorded.
// Mutations that write nothing (previews, tests) opt out with @Extensions({ audit: false }).
import type { ApolloServerPlugin } from '@apollo/server'
import type { GraphQLResolveInfo } from 'graphql'
import { enterAudit, openAudit, settleAudit } from '../audit/context.js'
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

/**
 * Each top-level mutation field runs with its event pending (inserted by its first write, in that write's
 * transaction) and settled when the field resolved: with the result's object and outcome, or, on an error,
 * with nothing added.
 */
export const auditMutations: ApolloServerPlugin<GqlContext> = {
  async requestDidStart() {
    const settlements: Promise<void>[] = []
    return {
      async executionDidStart() {
        return {
          willResolveField({ info, args, contextValue }) {
            if (info.parentType.name !== 'Mutation' || info.path.prev) return
            if (info.parentType.getFields()[info.fieldName]?.extensions?.audit === false) return
            const pending = openAudit(eventOf(info, args as Record<string, unknown>, undefined, contextValue))
            enterAudit(pending)
            return (error, result) => {
              const settlement = error ? null : { outcome: outcomeOf(200, result), httpStatus: null, objectName: eventOf(info, args as Record<string, unknown>, result, contextValue).objectName }
              settlements.push(settleAudit(contextValue.deps, pending, settlement))
            }
          },
        }
      },
      async willSendResponse() {
        await Promise.all(settlements)
      },
    }
  },
}
