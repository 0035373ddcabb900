// Rewrites test/openapi/known-gaps.json from the route tables: the operations whose 2xx answers have no schema yet
// and the request bodies without one. test/openapi/openapi-document.test.ts fails when a gap appears that the file
// does not list, or the file lists one that is gone, so the list only shrinks on purpose.
//
// With `--vendor <openapi.yaml>` (for example the vendor's document, `git -C /work/.mirror/apinizer+docs/repo show
// HEAD:openapi.yaml > /tmp/vendor.yaml`) it writes nothing and prints, per tag of that document, how many of its
// operations the route tables serve (same method, same path up to parameter names and a trailing slash), and the
// ones they do not.
import fs from 'node:fs'
import path from 'node:path'
import YAML from 'yaml'
import { buildOpenApi, openApiGaps } from '../src/platform/http/openapi.js'
import { routeTables } from '../src/routes.js'

const vendorAt = process.argv.indexOf('--vendor')
if (vendorAt >= 0) {
  const file = process.argv[vendorAt + 1]
  if (!file) throw new Error('--vendor needs the path of an OpenAPI document')
  const norm = (p: string) => p.replace(/\{[^}]+\}|:[A-Za-z_]\w*/g, '{}').replace(/\/+$/, '')
  const ours = new Set(routeTables.map((r) => `${r.method.toUpperCase()} ${norm(r.path)}`))
  const doc = YAML.parse(fs.readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, { tags?: string[] }>> }
  const byTag = new Map<string, { served: number; total: number; missing: string[] }>()
  let served = 0
  let total = 0
  for (const [p, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
      const key = `${method.toUpperCase()} ${norm(p)}`
      const tag = op.tags?.[0] ?? '(none)'
      const t = byTag.get(tag) ?? { served: 0, total: 0, missing: [] }
      byTag.set(tag, t)
      t.total++
      total++
      if (ours.has(key)) (t.served++, served++)
      else t.missing.push(`${method.toUpperCase()} ${p}`)
    }
  }
  console.log(`served ${served} of ${total} operations of ${file}`)
  for (const [tag, t] of [...byTag].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${tag}: ${t.served}/${t.total}`)
    for (const m of t.missing) console.log(`  - ${m}`)
  }
} else {
  const target = path.resolve(import.meta.dirname, '../test/openapi/known-gaps.json')
  const { untypedResponses, bareBodies } = openApiGaps(buildOpenApi(routeTables, '0'))
  fs.writeFileSync(target, JSON.stringify({ untypedResponses, bareBodies }, null, 2) + '\n')
  console.log(`wrote ${path.relative(process.cwd(), target)}: ${untypedResponses.length} untyped answers, ${bareBodies.length} bare bodies`)
}
