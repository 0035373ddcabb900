// GraphQL subscriptions over graphql-ws on the HTTP server's port and path /graphql (issue 18 §3). The caller
// signs in with connectionParams ({ authorization: 'Bearer …' } or { 'service-token': '…' }); a connection
// without a valid token is closed with 4403 before any operation.
import crypto from 'node:crypto'
import type http from 'node:http'
import type { GraphQLSchema } from 'graphql'
import { useServer } from 'graphql-ws/use/ws'
import { WebSocketServer } from 'ws'
import { authenticate, presentedToken } from '../auth/tokens.js'
import type { Actor } from '../auth/actor.js'
import type { Deps } from '../context.js'
import { DomainError } from '../errors/domain-error.js'
import { Loaders, type GqlContext } from './context.js'

type Params = Record<string, unknown> | undefined
type Extra = { actor?: Actor; token?: string }

const tokenOf = (params: Params) => {
  const headers: Record<string, string | undefined> = {}
  for (const [k, v] of Object.entries(params ?? {})) if (typeof v === 'string') headers[k.toLowerCase()] = v
  return presentedToken(headers)
}

export function serveSubscriptions(httpServer: http.Server, schema: GraphQLSchema, deps: Deps): { dispose(): Promise<void> } {
  const wss = new WebSocketServer({ server: httpServer, path: '/graphql' })
  const server = useServer<Record<string, unknown>, Extra>({
    schema,
    onConnect: async (ctx) => {
      const token = tokenOf(ctx.connectionParams)
      try {
        ctx.extra.actor = await authenticate(deps.prisma, token, 'graphql')
        ctx.extra.token = token
        return true
      } catch (err) {
        if (err instanceof DomainError) return false
        throw err
      }
    },
    context: (ctx): GqlContext => {
      const correlationId = crypto.randomUUID()
      return {
        deps,
        actor: ctx.extra.actor ?? null,
        token: ctx.extra.token,
        correlationId,
        logger: deps.logger.child({ correlationId, surface: 'graphql-ws' }),
        clientAddress: ctx.extra.request.socket.remoteAddress ?? 'unknown',
        loaders: new Loaders(),
      }
    },
  }, wss)
  return {
    dispose: async () => {
      await server.dispose()
    },
  }
}
