// Writes docs/vendor-pages.md: per module (src/modules/*), the vendor pages whose operations it serves and the
// version of each page read (the last commit that changed it in the fetched copy: short sha and date). A page
// belongs to a module when an operation it documents (the lines `METHOD /path` of its Endpoint section, else of the
// whole page) is a route of that module's table, same method and path up to parameter names and a trailing slash.
//
//   npx tsx scripts/vendor-pages.ts --docs /work/.mirror/apinizer+docs/repo --older /work/.mirror/apinizer+management-api-docs/repo
import { execFile, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import type { RouteDef } from '../src/platform/http/routes.js'
import { norm, operationsOf, pagesAt } from './lib/vendor-docs.js'

const arg = (name: string) => {
  const at = process.argv.indexOf(name)
  const value = at >= 0 ? process.argv[at + 1] : undefined
  if (!value) throw new Error(`${name} needs the git directory of the fetched repository`)
  return value
}
const SOURCES = [
  { repo: 'apinizer/docs', dir: arg('--docs'), prefix: 'api-reference/' },
  { repo: 'apinizer/management-api-docs', dir: arg('--older'), prefix: '02-api-reference/' },
]
const root = path.resolve(import.meta.dirname, '..')
const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 })

/**
 * The module of every route: the module of the smallest route table exporting it (a route is defined in one table
 * and spread into aggregating ones, e.g. environments/rest.ts takes the envvars and IP group routes).
 */
async function routesByModule(): Promise<Map<string, string>> {
  const files = fs.readdirSync(path.join(root, 'src/modules'), { recursive: true, encoding: 'utf8' }).filter((f) => /(^|\/|-)rest[\w-]*\.ts$/.test(f))
  const smallest = new Map<RouteDef, { module: string; size: number }>()
  for (const file of files) {
    for (const value of Object.values(await import(path.join(root, 'src/modules', file)))) {
      if (!Array.isArray(value) || !value.every((r) => r && typeof r === 'object' && 'method' in r && 'path' in r && 'handle' in r)) continue
      for (const route of value as RouteDef[]) {
        const seen = smallest.get(route)
        if (!seen || value.length < seen.size) smallest.set(route, { module: file.split('/')[0]!, size: value.length })
      }
    }
  }
  return new Map([...smallest].map(([r, { module }]) => [`${r.method.toUpperCase()} ${norm(r.path)}`, module]))
}

/** The last commit (short sha and date) that changed each page, as `git log -1 -- <page>` gives it (four at a time). */
async function versionsOf(dir: string, pages: string[]): Promise<Map<string, string>> {
  const run = promisify(execFile)
  const versions = new Map<string, string>()
  const queue = [...pages]
  const worker = async () => {
    for (let page = queue.shift(); page; page = queue.shift()) {
      versions.set(page, (await run('git', ['-C', dir, 'log', '-1', '--format=%h %ad', '--date=short', '--', page])).stdout.trim())
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()])
  return versions
}

interface Row { repo: string; page: string; version: string; operations: number }

const owner = await routesByModule()
const owned = new Set(owner.values())
const byModule = new Map<string, Row[]>()
for (const { repo, dir, prefix } of SOURCES) {
  const pages = git(dir, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n').filter((p) => p.startsWith(prefix) && /\.mdx?$/.test(p))
  const texts = pagesAt(dir, pages)
  const served = new Map<string, Map<string, number>>()
  for (const page of pages) {
    const counts = new Map<string, number>()
    for (const op of operationsOf(texts.get(page)!)) {
      const module = owner.get(op)
      if (module) counts.set(module, (counts.get(module) ?? 0) + 1)
    }
    if (counts.size) served.set(page, counts)
  }
  const versions = await versionsOf(dir, [...served.keys()])
  for (const [page, counts] of served) {
    for (const [module, operations] of counts) {
      const rows = byModule.get(module) ?? []
      byModule.set(module, rows)
      rows.push({ repo, page, version: versions.get(page)!, operations })
    }
  }
}

const modules = fs.readdirSync(path.join(root, 'src/modules')).filter((m) => fs.statSync(path.join(root, 'src/modules', m)).isDirectory()).sort()
const heads = SOURCES.map(({ repo, dir }) => `\`${repo}\` at ${git(dir, 'log', '-1', '--format=%h (%ad)', '--date=short').trim()}`)
const out = [
  '# Vendor pages each module follows',
  '',
  'Which pages of the vendor\'s public documentation each module serves, and the version of each page read: the',
  'last commit that changed the page (short sha, date) in the fetched repositories, ' + heads.join(' and ') + '.',
  'The newer `apinizer/docs` (`api-reference/…`, with its `openapi.yaml`) comes first; the older',
  '`apinizer/management-api-docs` (`02-api-reference/…`) is still followed where clients written against it exist (both',
  'shapes stay accepted, see README "Automation surface"). Where a page and the spec disagree the spec wins.',
  '',
  'A page is listed under a module when an operation it documents (its Endpoint section, else every `METHOD /path` it',
  'names) is a route of that module. Generated by `npx tsx scripts/vendor-pages.ts --docs <apinizer/docs git dir> --older',
  '<apinizer/management-api-docs git dir>`: run it again after reading newer pages.',
  '',
]
for (const module of modules) {
  const rows = (byModule.get(module) ?? []).sort((a, b) => (a.repo === b.repo ? a.page.localeCompare(b.page) : a.repo === 'apinizer/docs' ? -1 : 1))
  out.push(`## ${module}`, '')
  if (!rows.length) {
    out.push(owned.has(module) ? 'No vendor page: its operations follow the spec (and RUNTIME.md) only.' : 'No REST route of its own (GraphQL, or rules other modules call).', '')
    continue
  }
  out.push('| Repository | Page | Version read | Operations served |', '|---|---|---|---|')
  for (const r of rows) {
    const [sha, date] = r.version.split(' ')
    out.push(`| ${r.repo} | \`${r.page}\` | \`${sha}\` ${date} | ${r.operations} |`)
  }
  out.push('')
}
fs.writeFileSync(path.join(root, 'docs/vendor-pages.md'), out.join('\n'))
console.log(`wrote docs/vendor-pages.md: ${[...byModule.values()].reduce((n, rows) => n + rows.length, 0)} pages in ${byModule.size} of ${modules.length} modules`)
