// The admin console at /console (issue 30): the files console/build.mjs wrote into dist/console at install, served
// gzip-compressed to clients that accept it (the build keeps a .gz twin of each), hashed assets cached for good,
// every other path below /console answered with the page (the console routes in the browser). Read once, on the
// first request; nothing is built or downloaded at run time.
import fs from 'node:fs'
import path from 'node:path'
import { Router, type Request, type Response } from 'express'

const DIR = path.resolve(import.meta.dirname, '../../../dist/console')

interface Asset { type: string; body: Buffer; gzip: Buffer | null }

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.html': 'text/html; charset=utf-8' }

// the console talks to its own origin only (GraphQL over HTTP and graphql-ws)
const POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'"

function load(dir: string): Map<string, Asset> | null {
  if (!fs.existsSync(path.join(dir, 'index.html'))) return null
  const files = new Map<string, Asset>()
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name
      if (entry.isDirectory()) walk(rel)
      else if (!rel.endsWith('.gz')) {
        const full = path.join(dir, rel)
        const gz = `${full}.gz`
        files.set(rel, { type: TYPES[path.extname(rel)] ?? 'application/octet-stream', body: fs.readFileSync(full), gzip: fs.existsSync(gz) ? fs.readFileSync(gz) : null })
      }
    }
  }
  walk('')
  return files
}

function send(req: Request, res: Response, asset: Asset, cache: string) {
  res.setHeader('content-type', asset.type)
  res.setHeader('cache-control', cache)
  res.setHeader('vary', 'accept-encoding')
  res.setHeader('content-security-policy', POLICY)
  res.setHeader('x-content-type-options', 'nosniff')
  res.setHeader('referrer-policy', 'no-referrer')
  const gzip = asset.gzip && req.acceptsEncodings('gzip', 'identity') === 'gzip'
  if (gzip) res.setHeader('content-encoding', 'gzip')
  res.end(req.method === 'HEAD' ? undefined : gzip ? asset.gzip : asset.body)
}

export function consoleRouter(dir = DIR): Router {
  let files: Map<string, Asset> | null | undefined
  const router = Router()
  router.get(/^\/console(\/.*)?$/, (req, res) => {
    res.locals.routeTemplate = '/console'
    files ??= load(dir)
    if (!files) {
      res.status(503).type('text/plain').send('The console is not built: run npm run build')
      files = undefined
      return
    }
    const rel = req.path.slice('/console/'.length)
    if (rel.startsWith('assets/')) {
      const asset = files.get(rel)
      if (!asset) return void res.status(404).type('text/plain').send('Not found')
      return send(req, res, asset, 'public, max-age=31536000, immutable')
    }
    send(req, res, files.get('index.html')!, 'no-cache')
  })
  return router
}
