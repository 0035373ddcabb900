// The GraphQL door's audit hook: every top-level mutation field that resolved without error is recorded.
// Mutations that write nothing (previews, tests) opt out with @Extensions({ audit: false }).
import type { ApolloServerPlugin } from '@apollo/server'
import type { GraphQLResolveInfo } from 'graphql'
import { auditActor, identifierOf, outcomeOf, recordAuditEvent, type AuditEventInput } from '../audit/recorder.js'
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

export const auditMutations: ApolloServerPlugin<GqlContext> = {
  async requestDidStart() {
    const events: AuditEventInput[] = []
    return {
      async executionDidStart() {
        return {
          willResolveField({ info, args, contextValue }) {
            if (info.parentType.name !== 'Mutation' || info.path.prev) return
            if (info.parentType.getFields()[info.fieldName]?.extensions?.audit === false) return
            return (error, result) => {
              if (!error) events.push(eventOf(info, args as Record<string, unknown>, result, contextValue))
            }
          },
        }
      },
      async willSendResponse({ contextValue }) {
        for (const event of events) await recordAuditEvent(contextValue.deps, event)
      },
    }
  },
}
