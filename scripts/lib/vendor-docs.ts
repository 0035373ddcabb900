// Reading the vendor's api-reference pages (apinizer/docs, apinizer/management-api-docs): the operations a page
// documents and every page's text at HEAD. Used by scripts/vendor-pages.ts and scripts/vendor-examples.ts.
import { execFileSync } from 'node:child_process'

/** A path with its parameter names and query dropped, so `{name}`, `{apiProxyName}` and `:name` compare equal. */
export const norm = (p: string) => p.replace(/\?.*$/, '').replace(/\{[^}]+\}|:[A-Za-z_]\w*/g, '{}').replace(/\/+$/, '')
export const OPERATION = /\b(GET|POST|PUT|PATCH|DELETE)\s+"?(?:https?:\/\/[^/\s"]+)?(\/(?:apiops|api|apiportal)\/[^\s"`'<>)]*)/g

/** Every page's text at HEAD, read in one git process. */
export function pagesAt(dir: string, pages: string[]): Map<string, string> {
  const out = execFileSync('git', ['-C', dir, 'cat-file', '--batch'], { input: pages.map((p) => `HEAD:${p}`).join('\n') + '\n', maxBuffer: 256 << 20 })
  const texts = new Map<string, string>()
  let at = 0
  for (const page of pages) {
    const header = out.subarray(at, out.indexOf(10, at)).toString()
    const size = Number(header.split(' ')[2])
    const start = out.indexOf(10, at) + 1
    texts.set(page, out.subarray(start, start + size).toString('utf8'))
    at = start + size + 1
  }
  return texts
}

/** The operations a page documents (method and path as written): its Endpoint section's, or failing that every one the page names. */
export function rawOperationsOf(text: string): { method: string; path: string }[] {
  const section = /^## Endpoint\s*$([\s\S]*?)(?=^## )/m.exec(text)?.[1]
  const found = (s: string) => [...s.matchAll(OPERATION)].map(([, method, p]) => ({ method: method!, path: p! }))
  const inSection = section ? found(section) : []
  return inSection.length ? inSection : found(text)
}

/** The operations a page documents, normalized (`METHOD /path/{}`), each once. */
export function operationsOf(text: string): string[] {
  return [...new Set(rawOperationsOf(text).map(({ method, path }) => `${method} ${norm(path)}`))]
}
