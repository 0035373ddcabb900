import fs from 'node:fs'
import path from 'node:path'
import { CORE_SCHEMA, dump as dumpYaml, load as loadYaml, YAMLException } from 'js-yaml'

/**
 * Reading state files for gwctl: `-f` takes a file, a directory (its .yaml/.yml/.json files merged, in name order) or
 * `-` (stdin). YAML 1.2 core schema (dates stay strings); JSON is YAML too, but a .json file is parsed as JSON so its
 * errors name the JSON position. References `${env:NAME}` and `${file:path}` are resolved here, never by the server.
 */
export class CliError extends Error {}

export interface LoadedFile { name: string; dir: string; document: Record<string, unknown> }

const isPlain = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

function lineColumn(text: string, offset: number) {
  const before = text.slice(0, offset)
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') }
}

export function parseText(name: string, text: string): Record<string, unknown> {
  let value: unknown
  if (name.endsWith('.json')) {
    try {
      value = JSON.parse(text)
    } catch (err) {
      const m = /position (\d+)/.exec((err as Error).message)
      const at = m ? lineColumn(text, Number(m[1])) : null
      throw new CliError(`${name}${at ? `:${at.line}:${at.column}` : ''}: malformed JSON: ${(err as Error).message}`)
    }
  } else {
    try {
      value = loadYaml(text, { schema: CORE_SCHEMA, filename: name })
    } catch (err) {
      if (err instanceof YAMLException) throw new CliError(`${name}:${err.mark ? `${err.mark.line + 1}:${err.mark.column + 1}` : ''}: malformed YAML: ${err.reason}`)
      throw err
    }
  }
  if (!isPlain(value)) throw new CliError(`${name}: a state file must be a mapping (formatVersion, project, environments, collections…)`)
  return value
}

function readStdin(): string {
  return fs.readFileSync(0, 'utf8')
}

/** The files named by -f (each a file, a directory or -). */
export function readSources(sources: string[]): LoadedFile[] {
  if (!sources.length) throw new CliError('-f is required: a state file, a directory of state files, or - for stdin')
  const out: LoadedFile[] = []
  for (const source of sources) {
    if (source === '-') {
      out.push({ name: '<stdin>', dir: process.cwd(), document: parseText('<stdin>', readStdin()) })
      continue
    }
    let stat: fs.Stats
    try {
      stat = fs.statSync(source)
    } catch {
      throw new CliError(`${source}: no such file or directory`)
    }
    const files = stat.isDirectory()
      ? fs.readdirSync(source).filter((f) => /\.(ya?ml|json)$/i.test(f)).sort().map((f) => path.join(source, f))
      : [source]
    if (!files.length) throw new CliError(`${source}: the directory holds no .yaml, .yml or .json file`)
    for (const file of files) out.push({ name: file, dir: path.dirname(path.resolve(file)), document: parseText(file, fs.readFileSync(file, 'utf8')) })
  }
  return out
}

const HEADER = new Set(['formatVersion', 'project', 'environments', 'namespace'])

/** One document from several files: header fields must agree, collections are concatenated. */
export function mergeDocuments(files: LoadedFile[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {}
  for (const f of files) {
    for (const [key, value] of Object.entries(f.document)) {
      if (HEADER.has(key)) {
        if (key in merged && JSON.stringify(merged[key]) !== JSON.stringify(value)) throw new CliError(`${f.name}: ${key} differs from the other files (${JSON.stringify(merged[key])})`)
        merged[key] = value
      } else if (Array.isArray(value)) {
        merged[key] = [...((merged[key] as unknown[] | undefined) ?? []), ...value]
      } else {
        merged[key] = value
      }
    }
  }
  return merged
}

const REFERENCE = /\$\{(env|file):([^}]*)\}/g

/** Replaces every ${env:NAME} / ${file:path} in string values; an unset variable or unreadable file is an error naming it. */
export function resolveReferences(value: unknown, files: LoadedFile[], env: NodeJS.ProcessEnv, where = ''): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (_m, kind: string, ref: string) => {
      if (kind === 'env') {
        const v = env[ref]
        if (v === undefined) throw new CliError(`${where}: \${env:${ref}} is not set (environment variable ${ref})`)
        return v
      }
      const candidates = path.isAbsolute(ref) ? [ref] : files.map((f) => path.join(f.dir, ref))
      for (const c of candidates) if (fs.existsSync(c)) return fs.readFileSync(c, 'utf8').replace(/\r?\n$/, '')
      throw new CliError(`${where}: \${file:${ref}} cannot be read`)
    })
  }
  if (Array.isArray(value)) return value.map((v, i) => resolveReferences(v, files, env, `${where}[${i}]`))
  if (isPlain(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveReferences(v, files, env, where ? `${where}.${k}` : k)]))
  return value
}

export function formatDocument(doc: unknown, format: 'yaml' | 'json'): string {
  return format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : dumpYaml(doc, { schema: CORE_SCHEMA, noRefs: true, lineWidth: 160, sortKeys: false })
}
