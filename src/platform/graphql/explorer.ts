import { createRequire } from 'node:module'
import path from 'node:path'
import express, { type Router } from 'express'

const require = createRequire(import.meta.url)
const dirOf = (pkg: string) => path.dirname(require.resolve(`${pkg}/package.json`))

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Gateway Management API — GraphQL explorer</title>
  <link rel="stylesheet" href="/graphql/explorer/graphiql/graphiql.min.css" />
  <style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>
</head>
<body>
  <div id="graphiql">Loading…</div>
  <script src="/graphql/explorer/react/umd/react.production.min.js"></script>
  <script src="/graphql/explorer/react-dom/umd/react-dom.production.min.js"></script>
  <script src="/graphql/explorer/graphiql/graphiql.min.js"></script>
  <script src="/graphql/explorer/graphql-ws/umd/graphql-ws.min.js"></script>
  <script>
    const token = localStorage.getItem('gatewayToken') || '';
    // subscriptions run over graphql-ws on the same path, signed in through connectionParams
    const wsClient = graphqlWs.createClient({
      url: location.origin.replace(/^http/, 'ws') + '/graphql', lazy: true,
      connectionParams: () => { const t = localStorage.getItem('gatewayToken') || ''; return t ? { authorization: 'Bearer ' + t } : {}; },
    });
    const fetcher = GraphiQL.createFetcher({ url: '/graphql', wsClient, headers: token ? { Authorization: 'Bearer ' + token } : {} });
    ReactDOM.createRoot(document.getElementById('graphiql')).render(
      React.createElement(GraphiQL, { fetcher, defaultEditorToolsVisibility: true }));
  </script>
</body>
</html>`

/** GraphiQL served from the installed packages: no CDN, works on a closed network. */
export function explorerRouter(): Router {
  const router = express.Router()
  router.use('/graphql/explorer/graphiql', express.static(dirOf('graphiql'), { index: false }))
  router.use('/graphql/explorer/react', express.static(dirOf('react'), { index: false }))
  router.use('/graphql/explorer/graphql-ws', express.static(dirOf('graphql-ws'), { index: false }))
  router.use('/graphql/explorer/react-dom', express.static(dirOf('react-dom'), { index: false }))
  router.get('/graphql', (req, res, next) => {
    if (!req.accepts('html') || req.accepts(['json', 'html']) === 'json' || req.query.query) return next()
    res.type('html').send(page)
  })
  return router
}
