import 'reflect-metadata'
import http from 'node:http'
import { createRequire } from 'node:module'
import express, { type Request, type Response } from 'express'
import { ApolloServer } from '@apollo/server'
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled'
import type { Deps } from './platform/context.js'
import { DomainError } from './platform/errors/domain-error.js'
import { renderCommonError } from './platform/envelopes/common.js'
import { Loaders, type GqlContext } from './platform/graphql/context.js'
import { correlationIdOnErrors, formatGraphqlError, outageAnswers } from './platform/graphql/errors.js'
import { auditMutationFields, auditSettlements } from './platform/graphql/audit.js'
import { graphqlActor, graphqlAuthentication } from './platform/graphql/authentication.js'
import { apolloExpress } from './platform/graphql/apollo-express.js'
import { outageMonitor } from './platform/db/outage-monitor.js'
import { explorerRouter } from './platform/graphql/explorer.js'
import { graphqlBodyGuard, operationLimits } from './platform/graphql/limits.js'
import { graphqlMultipart } from './platform/graphql/upload.js'
import { drainAwareness, drainHttpServer } from './platform/http/drain.js'
import { closeAfterEarlyAnswer } from './platform/http/linger.js'
import { consoleRouter } from './platform/http/console.js'
import { buildOpenApi, openApiYaml } from './platform/http/openapi.js'
import { correlationOf, loggerOf, requestContext } from './platform/http/request-context.js'
import { mountRoutes } from './platform/http/router.js'
import { routeTables } from './routes.js'
import { graphqlSchema } from './schema.js'
import { serveSubscriptions } from './platform/graphql/subscriptions.js'
import { compiledQueriesGateway } from './platform/graphql/compiled-executor.js'

const version = (createRequire(import.meta.url)('../package.json') as { version: string }).version

export interface App {
  httpServer: http.Server
  /** /healthz answers 200 only while ready */
  setReady(ready: boolean): void
  /** stops accepting, drains in-flight requests, stops GraphQL */
  stop(): Promise<void>
}

export async function createApp(deps: Deps): Promise<App> {
  let ready = false
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', false)
  const httpServer = http.createServer(app)
  // Idle keep-alive connections outlive the clients' own idle timeouts (fetch: 4 s, load balancers: 60 s), so
  // the client, not the server, closes them and never writes into a socket the server is closing.
  // Draining still closes idle connections at once.
  httpServer.keepAliveTimeout = 65_000
  httpServer.headersTimeout = 66_000

  app.use(requestContext(deps.logger, deps.metrics))
  const drain = drainAwareness()
  app.use(drain.middleware)
  app.use(closeAfterEarlyAnswer())
  const monitor = outageMonitor(deps)
  // ready: started and not draining, and the database answers (a probe shared by concurrent checks, good for 1 s)
  app.get('/healthz', async (_req, res) => {
    res.locals.routeTemplate = '/healthz'
    const database = ready ? await monitor.reachable() : undefined
    const up = ready && database === true
    res.status(up ? 200 : 503).json(database === false ? { status: 'DOWN', database: 'UNREACHABLE' } : { status: up ? 'UP' : 'DOWN' })
  })
  // alive: the process serves HTTP, whatever the database does (orchestrators restart on this one, not on /healthz)
  app.get('/livez', (_req, res) => {
    res.locals.routeTemplate = '/livez'
    res.json({ status: 'UP' })
  })
  app.get('/metrics', async (_req, res) => {
    res.locals.routeTemplate = '/metrics'
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics())
  })
  // Built on first request, not at start: the document and its YAML cost ~0.1 s of start-up CPU and memory
  // that most processes never need.
  let openApi: ReturnType<typeof buildOpenApi> | undefined
  let openApiYamlText: string | undefined
  const openApiDocument = () => (openApi ??= buildOpenApi(routeTables, version))
  app.get('/apiops/openapi.json', (_req, res) => {
    res.locals.routeTemplate = '/apiops/openapi.json'
    res.json(openApiDocument())
  })
  app.get('/apiops/openapi.yaml', (_req, res) => {
    res.locals.routeTemplate = '/apiops/openapi.yaml'
    res.type('application/yaml').send((openApiYamlText ??= openApiYaml(openApiDocument())))
  })
  // GraphQL before the REST route table: express tries each route's pattern in order, and /graphql is one path
  const schema = auditMutationFields(await graphqlSchema())
  // queries run compiled (graphql-jit), mutations and subscriptions through graphql-js (compiled-executor.ts);
  // GRAPHQL_EXECUTOR=graphql-js runs every operation through graphql-js, as before (comparison, fallback)
  const executor = deps.config.graphqlExecutor === 'graphql-js' ? { schema } : { gateway: compiledQueriesGateway(schema).gateway }
  const apollo = new ApolloServer<GqlContext>({
    ...executor,
    validationRules: operationLimits,
    formatError: formatGraphqlError,
    includeStacktraceInErrorResponses: false,
    // main.ts owns signal handling: drain HTTP, stop GraphQL, then close the database, in that order
    stopOnTerminationSignals: false,
    // no cache hints here: the cache-control plugin's per-field hook only ever concluded `no-store` (set below)
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled(), correlationIdOnErrors, auditSettlements, outageAnswers((err) => monitor.report(err))],
  })
  await apollo.start()
  app.use(explorerRouter())
  app.use(
    '/graphql',
    (_req, res, next) => {
      res.locals.routeTemplate = '/graphql'
      res.setHeader('cache-control', 'no-store')
      next()
    },
    graphqlMultipart(),
    graphqlBodyGuard(),
    graphqlAuthentication(deps),
    apolloExpress(apollo, async ({ req, res }) => ({
      deps,
      actor: graphqlActor(deps, res),
      correlationId: correlationOf(res),
      logger: loggerOf(res),
      clientAddress: req.socket.remoteAddress ?? 'unknown',
      loaders: new Loaders(),
    })),
  )

  mountRoutes(app, routeTables, deps)
  app.use(consoleRouter())

  // graphql-ws on the same port and path (issue 18 §3)
  const subscriptions = serveSubscriptions(httpServer, schema, deps)

  app.use((req: Request, res: Response) => {
    const message = `No endpoint ${req.method} ${req.path}`
    if (req.path.startsWith('/apiops')) res.status(404).json({ status: 'FAILURE', resultMessage: message })
    else res.status(404).json(renderCommonError(new DomainError('notFound', 'resourceNotFound', message), correlationOf(res)).body)
  })

  return {
    httpServer,
    setReady: (value) => {
      ready = value
    },
    stop: async () => {
      ready = false
      monitor.stop()
      drain.begin()
      await subscriptions.dispose()
      await drainHttpServer(httpServer)
      await apollo.stop()
    },
  }
}
