import { defineRoutes, requireActor } from '../../platform/http/routes.js'
import { z } from 'zod'
import { describes, plainBody } from '../../platform/http/response-schemas.js'
import { describeSession, issueAccessToken } from './service.js'

const tokenAnswer = describes<Awaited<ReturnType<typeof issueAccessToken>>>()(
  z.object({ access_token: z.string(), token_type: z.string(), expires_in: z.number().int().optional() }).meta({ id: 'AccessTokenResponse' }),
)
const sessionAnswer = describes<Awaited<ReturnType<typeof describeSession>>>()(
  z.object({ username: z.string(), role: z.string(), audience: z.string(), expiresAt: z.string().nullable() }).meta({ id: 'Session' }),
)

export const authRoutes = defineRoutes([
  {
    method: 'post',
    path: '/apiops/auth/token',
    style: 'oauth',
    auth: 'public',
    tag: 'auth',
    summary: 'Obtain a personal access token with a user name and password (client_credentials grant)',
    body: {
      kind: 'form',
      required: true,
      schema: z.object({
        grant_type: z.literal('client_credentials'),
        client_id: z.string().describe('user name'),
        client_secret: z.string().describe('password'),
      }),
    },
    responses: {
      200: 'access_token, token_type Bearer, expires_in when the user has a token lifetime',
      400: 'unsupported_grant_type, or invalid_request when the body is not form-encoded',
      401: 'unauthorized_client: unknown user, wrong password, locked or disabled (one identical answer)',
    },
    response: plainBody(tokenAnswer),
    async handle(ctx, input) {
      const body = await issueAccessToken(ctx.deps, input.body, input.clientAddress)
      return { body, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } }
    },
  },  {
    method: 'get',
    path: '/api/session',
    style: 'common',
    auth: 'token',
    tag: 'auth',
    summary: 'The caller of the manager surface: user, role and the audience and expiry of the presented token',
    responses: { 200: 'username, role, audience, expiresAt', 401: 'missing, invalid, expired or revoked token' },
    response: plainBody(sessionAnswer),
    async handle(ctx) {
      return { body: await describeSession(ctx.deps, requireActor(ctx)) }
    },
  },
])
