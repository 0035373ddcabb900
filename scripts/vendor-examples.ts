// The newest vendor pages' request examples, sent to the service (issue 32 §0).
//
//   npx tsx scripts/vendor-examples.ts --docs /work/.mirror/apinizer+docs/repo
//
// Extracts every (page, method, path, JSON request example) of `api-reference/` at HEAD (the operation of the page's
// Endpoint section, the ```json blocks of its Request section) into test/openapi/vendor-examples.json, then runs
// test/openapi/vendor-examples.test.ts, which sends each example as ADMIN to one service on a fresh database and, with
// VENDOR_EXAMPLES_REPORT set, writes the per-folder summary to docs/vendor-examples.md. Without --docs it only reruns
// the sweep on the committed examples.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pagesAt, rawOperationsOf } from './lib/vendor-docs.js'

const root = path.resolve(import.meta.dirname, '..')
const target = path.join(root, 'test/openapi/vendor-examples.json')
const docsAt = process.argv.indexOf('--docs')

/** `multipart`: the page sends the example as a form (its Form Data table): the JSON in field `json`, a file in field `file`. */
export interface VendorExample { page: string; method: string; path: string; index: number; body: unknown; multipart?: { json: string; file: string | null } }

/** The Form Data table of a Request section: its `string (JSON)` field and its `file` field, when it has a JSON one. */
export function multipartOf(request: string): VendorExample['multipart'] {
  const table = /^###+ Form Data\s*$([\s\S]*?)(?=^#)/m.exec(request + '\n#')?.[1]
  if (!table) return undefined
  const rows = [...table.matchAll(/^\|\s*`?(\w+)`?\s*\|\s*([^|]+?)\s*\|/gm)].map(([, field, type]) => ({ field: field!, type: type!.toLowerCase() }))
  const json = rows.find((r) => r.type.includes('json'))?.field
  if (!json) return undefined
  return { json, file: rows.find((r) => r.type === 'file')?.field ?? null }
}

if (docsAt >= 0) {
  const dir = process.argv[docsAt + 1]
  if (!dir) throw new Error('--docs needs the git directory of apinizer/docs')
  const pages = execFileSync('git', ['-C', dir, 'ls-tree', '-r', '--name-only', 'HEAD'], { encoding: 'utf8' })
    .split('\n')
    .filter((p) => p.startsWith('api-reference/') && /\.mdx?$/.test(p))
  const texts = pagesAt(dir, pages)
  const examples: VendorExample[] = []
  let unparsable = 0
  for (const page of pages) {
    const text = texts.get(page)!
    const op = rawOperationsOf(text)[0]
    if (!op || !['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method)) continue
    // the Request section: from `## Request` to `## Response` (or the next top-level section)
    const request = /^## Request\s*$([\s\S]*?)(?=^## (?!#))/m.exec(text + '\n## End\n')?.[1] ?? ''
    const multipart = multipartOf(request)
    let index = 0
    for (const [, block] of request.matchAll(/```json\s*\n([\s\S]*?)```/g)) {
      try {
        examples.push({ page, method: op.method, path: op.path.replace(/\/+$/, ''), index: index++, body: JSON.parse(block!), ...(multipart ? { multipart } : {}) })
      } catch {
        unparsable++
      }
    }
  }
  fs.writeFileSync(target, JSON.stringify(examples, null, 1) + '\n')
  console.log(`wrote ${path.relative(root, target)}: ${examples.length} examples of ${new Set(examples.map((e) => e.page)).size} pages (${unparsable} blocks not JSON, left out)`)
}

if (process.argv.includes('--no-sweep')) process.exit(0)
const run = spawnSync('npx', ['vitest', 'run', 'test/openapi/vendor-examples.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, VENDOR_EXAMPLES_REPORT: path.join(root, 'docs/vendor-examples.md') },
})
process.exit(run.status ?? 1)
