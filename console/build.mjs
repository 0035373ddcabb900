// Builds the admin console into dist/console (run by `npm run build`, so by postinstall): esbuild bundles
// console/src (Preact, graphql-ws, the typed operations) offline from node_modules; every file is written with a
// content hash in its name, next to its gzip-compressed twin that the service serves (src/platform/http/console.ts).
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { build } from 'esbuild'

const here = import.meta.dirname
const out = path.resolve(here, '../dist/console')
fs.rmSync(out, { recursive: true, force: true })

const result = await build({
  entryPoints: [path.join(here, 'src/main.tsx')],
  outdir: path.join(out, 'assets'),
  entryNames: '[name]-[hash]',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
})

const assets = Object.keys(result.metafile.outputs).map((p) => path.relative(out, path.resolve(p)).split(path.sep).join('/'))
const script = assets.find((a) => a.endsWith('.js'))
const style = assets.find((a) => a.endsWith('.css'))
const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gateway console</title>
${style ? `<link rel="stylesheet" href="/console/${style}">\n` : ''}<script type="module" src="/console/${script}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The console needs JavaScript.</noscript>
</body>
</html>
`
fs.writeFileSync(path.join(out, 'index.html'), html)
for (const file of [...assets, 'index.html']) {
  const full = path.join(out, file)
  fs.writeFileSync(`${full}.gz`, zlib.gzipSync(fs.readFileSync(full), { level: 9 }))
}
const gz = assets.filter((a) => a.endsWith('.js')).reduce((n, a) => n + fs.statSync(path.join(out, `${a}.gz`)).size, 0)
console.log(`console: ${assets.join(', ')} (JavaScript ${(gz / 1024).toFixed(1)} KB gzipped)`)
