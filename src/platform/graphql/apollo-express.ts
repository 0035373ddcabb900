// The GraphQL door's hand-over to Apollo Server: what @as-integrations/express5 did, less its per-request costs
// (issue 31 §2). The request head is handed over as a HeaderMap of the same headers; the query string is read only for
// a GET (the one method that carries the operation there). An accept header of `*/*` (the default of fetch and curl)
// or plain `application/json` is handed over as no accept header: Apollo answers both exactly as it answers none
// (`application/json; charset=utf-8`; an incremental-delivery operation refused 406), but then without a Negotiator
// parsing the header for the content type. Any other accept header is Apollo's to judge as before
// (application/graphql-response+json, 406 for a type GraphQL cannot answer in).
import type { Request, Response } from 'express'
import { HeaderMap, type ApolloServer, type BaseContext, type ContextFunction } from '@apollo/server'

const plainJsonAccept = (key: string, value: string) => key === 'accept' && (value === '*/*' || value === 'application/json')

export function apolloExpress<C extends BaseContext>(server: ApolloServer<C>, context: ContextFunction<[{ req: Request; res: Response }], C>) {
  server.assertStarted('apolloExpress()')
  return async (req: Request, res: Response) => {
    if (!('body' in req)) {
      res.status(500).send('`req.body` is not set: the GraphQL body guard did not run before Apollo')
      return
    }
    const headers = new HeaderMap()
    const raw = req.headers
    for (const key in raw) {
      const value = raw[key]
      if (value === undefined) continue
      const text = Array.isArray(value) ? value.join(', ') : value
      if (!plainJsonAccept(key, text)) headers.set(key, text)
    }
    const method = req.method.toUpperCase()
    const q = method === 'GET' ? req.url.indexOf('?') : -1
    const answer = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method, headers, search: q < 0 ? '' : req.url.slice(q), body: req.body },
      context: () => context({ req, res }),
    })
    for (const [key, value] of answer.headers) res.setHeader(key, value)
    res.statusCode = answer.status || 200
    if (answer.body.kind === 'complete') {
      res.send(answer.body.string)
      return
    }
    for await (const chunk of answer.body.asyncIterator) {
      res.write(chunk)
      if (typeof (res as { flush?: () => void }).flush === 'function') (res as unknown as { flush: () => void }).flush()
    }
    res.end()
  }
}
