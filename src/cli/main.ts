import fs from 'node:fs'
import { parseArgs } from 'node:util'
import { Ajv2020 } from 'ajv/dist/2020.js'
import * as ajvFormats from 'ajv-formats'
import { apiClient, ApiError, type ApplyResult, type Plan } from './api.js'
import { CliError, formatDocument, mergeDocuments, readSources, resolveReferences, type LoadedFile } from './files.js'
import { renderApply, renderDrift, renderPlan } from './render.js'
import stateSchema from './state-schema.json' with { type: 'json' }

/**
 * gwctl: a project as a file (docs/declarative.md). Exit codes: plan and drift 0 none / 2 changes / 1 error;
 * apply and sync 0 applied (every push acknowledged) / 4 applied but a push failed (the outbox retries it) / 1 nothing
 * applied; dump and validate 0 / 1.
 */
export const JSON_OUTPUT_VERSION = 1

const USAGE = `usage: gwctl <command> [options]

commands:
  dump      --project P [-o file] [--format yaml|json] [--secrets none|refs] [--namespace N]
  validate  -f file [--online --project P]
  plan      --project P -f file [--mode apply|sync] [--json] [--out plan.json]
  apply     --project P -f file | --plan plan.json   (creates and updates, never deletes)
  sync      --project P -f file | --plan plan.json   (also deletes what the file lacks, in the collections it lists)
  drift     --project P [--namespace N] [--json]

options:
  --url URL            the service (GWCTL_URL, default http://127.0.0.1:8080)
  --token TOKEN        a personal access token (GWCTL_TOKEN)
  -f, --file PATH      a state file, a directory of state files, or - (stdin); repeatable
  --change-ref REF     recorded with every audit event of an apply (GWCTL_CHANGE_REFERENCE; e.g. a commit SHA)
  --idempotency-key K  an apply retried with the same key answers the first outcome
  --json               versioned JSON output (formatVersion ${JSON_OUTPUT_VERSION})
`

interface Io { stdout: (s: string) => void; stderr: (s: string) => void; env: NodeJS.ProcessEnv }

const OPTIONS = {
  url: { type: 'string' }, token: { type: 'string' }, project: { type: 'string' }, file: { type: 'string', short: 'f', multiple: true },
  output: { type: 'string', short: 'o' }, format: { type: 'string' }, secrets: { type: 'string' }, namespace: { type: 'string' },
  mode: { type: 'string' }, json: { type: 'boolean' }, out: { type: 'string' }, plan: { type: 'string' }, online: { type: 'boolean' },
  'change-ref': { type: 'string' }, 'idempotency-key': { type: 'string' }, help: { type: 'boolean', short: 'h' },
} as const

type Values = ReturnType<typeof parse>['values']
const parse = (args: string[]) => parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true })

const need = (v: string | undefined, flag: string) => {
  if (!v) throw new CliError(`${flag} is required`)
  return v
}

function oneOf<T extends string>(v: string | undefined, allowed: readonly T[], flag: string, fallback: T): T {
  if (v === undefined) return fallback
  if (!(allowed as readonly string[]).includes(v)) throw new CliError(`${flag} must be one of ${allowed.join(', ')}`)
  return v as T
}

// ajv-formats is CommonJS with only a default export: the plugin is the namespace's default or that default's default
type FormatsPlugin = (ajv: Ajv2020) => unknown
const formatsNamespace = ajvFormats as unknown as { default: FormatsPlugin & { default?: FormatsPlugin } }
const addFormats: FormatsPlugin = formatsNamespace.default.default ?? formatsNamespace.default

/** Offline checks: the JSON Schema of the format, then references between objects inside the file. */
export function validateOffline(doc: Record<string, unknown>): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false })
  addFormats(ajv)
  const check = ajv.compile(stateSchema)
  const errors: string[] = []
  if (!check(doc)) {
    for (const e of check.errors ?? []) {
      const where = e.instancePath.replace(/^\//, '').replace(/\/(\d+)(?=\/|$)/g, '[$1]').replaceAll('/', '.') || 'document'
      const extra = e.keyword === 'additionalProperties' ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'` : ''
      errors.push(`${where}: ${e.message}${extra}`)
    }
  }
  const names = (key: string, field = 'name') => new Set(((doc[key] as Record<string, unknown>[] | undefined) ?? []).map((o) => o?.[field]))
  if (Array.isArray(doc.rlcls)) {
    const credentials = doc.credentials ? names('credentials', 'username') : null
    const proxies = doc.apiProxies ? names('apiProxies') : null
    ;(doc.rlcls as Record<string, unknown>[]).forEach((r, i) => {
      for (const u of (r?.credentialNameList as string[] | undefined) ?? []) if (credentials && !credentials.has(u)) errors.push(`rlcls[${i}].credentialNameList: credential '${u}' is not in the file`)
      for (const e of (r?.endpointRateLimitList as { apiProxyName?: string }[] | undefined) ?? []) if (proxies && e?.apiProxyName && !proxies.has(e.apiProxyName)) errors.push(`rlcls[${i}].endpointRateLimitList: API proxy '${e.apiProxyName}' is not in the file`)
    })
  }
  return errors
}

function loadDocument(values: Values, io: Io): { document: Record<string, unknown>; files: LoadedFile[] } {
  const files = readSources(values.file ?? [])
  const merged = mergeDocuments(files)
  const errors = validateOffline(merged)
  if (errors.length) throw new CliError(`the state file is invalid:\n  ${errors.join('\n  ')}`)
  return { document: resolveReferences(merged, files, io.env) as Record<string, unknown>, files }
}

function describeApiError(err: ApiError): string {
  const lines = [`error: ${err.body.message ?? `HTTP ${err.status}`}${err.body.errorKey ? ` (${err.body.errorKey}${err.body.params?.reason ? `: ${String(err.body.params.reason)}` : ''})` : ''}`]
  const list = err.body.params?.errors
  if (Array.isArray(list)) for (const e of list as { path?: string; message?: string }[]) lines.push(`  ${e.path ?? ''}: ${e.message ?? ''}`)
  return `${lines.join('\n')}\n`
}

async function planFor(api: ReturnType<typeof apiClient>, project: string, document: Record<string, unknown>, mode: 'apply' | 'sync'): Promise<Plan> {
  try {
    return await api.plan(project, document, mode)
  } catch (err) {
    // sync into a project that does not exist creates it with the file's environments (system administrators)
    if (!(err instanceof ApiError) || err.status !== 404 || mode !== 'sync' || err.body.params?.project !== project) throw err
    await api.createProject(project, Array.isArray(document.environments) ? (document.environments as string[]) : [])
    return api.plan(project, document, mode)
  }
}

async function command(name: string, values: Values, io: Io): Promise<number> {
  const conn = { url: values.url ?? io.env.GWCTL_URL ?? 'http://127.0.0.1:8080', token: values.token ?? io.env.GWCTL_TOKEN }
  const api = apiClient(conn)
  const print = (value: unknown) => io.stdout(`${JSON.stringify(value, null, 2)}\n`)
  switch (name) {
    case 'dump': {
      const project = need(values.project, '--project')
      const format = oneOf(values.format, ['yaml', 'json'] as const, '--format', values.output?.endsWith('.json') ? 'json' : 'yaml')
      const doc = await api.dump(project, { secrets: oneOf(values.secrets, ['none', 'refs'] as const, '--secrets', 'none'), ...(values.namespace ? { namespace: values.namespace } : {}) })
      const text = formatDocument(doc, format)
      if (values.output) fs.writeFileSync(values.output, text)
      else io.stdout(text)
      return 0
    }
    case 'validate': {
      const files = readSources(values.file ?? [])
      const merged = mergeDocuments(files)
      const errors = validateOffline(merged)
      if (!errors.length) resolveReferences(merged, files, io.env)
      if (!errors.length && values.online) {
        const result = await api.validate(need(values.project, '--project (with --online)'), resolveReferences(merged, files, io.env) as Record<string, unknown>, oneOf(values.mode, ['apply', 'sync'] as const, '--mode', 'apply'))
        for (const e of result.errors as { path: string; message: string }[]) errors.push(`${e.path}: ${e.message}`)
      }
      if (values.json) print({ formatVersion: JSON_OUTPUT_VERSION, valid: errors.length === 0, errors })
      else io.stdout(errors.length ? `invalid:\n  ${errors.join('\n  ')}\n` : 'valid\n')
      return errors.length ? 1 : 0
    }
    case 'plan': {
      const project = need(values.project, '--project')
      const { document } = loadDocument(values, io)
      const plan = await api.plan(project, document, oneOf(values.mode, ['apply', 'sync'] as const, '--mode', 'apply'))
      if (values.out) fs.writeFileSync(values.out, `${JSON.stringify(plan, null, 2)}\n`)
      if (values.json) print(plan)
      else io.stdout(renderPlan(plan))
      return plan.changes.length ? 2 : 0
    }
    case 'apply':
    case 'sync': {
      const project = need(values.project, '--project')
      let plan: Pick<Plan, 'id' | 'changes' | 'mode'>
      if (values.plan) {
        const saved = JSON.parse(fs.readFileSync(values.plan, 'utf8')) as Plan
        if (!saved?.id) throw new CliError(`${values.plan}: not a plan (gwctl plan --out writes one)`)
        if (saved.mode !== name) throw new CliError(`${values.plan}: a plan of mode ${saved.mode}; run gwctl ${saved.mode}`)
        plan = saved
      } else {
        const { document } = loadDocument(values, io)
        plan = await planFor(api, project, document, name)
        if (!values.json) io.stdout(renderPlan(plan as Plan))
      }
      const result: ApplyResult = await api.apply(project, plan.id, { changeReference: values['change-ref'] ?? io.env.GWCTL_CHANGE_REFERENCE, idempotencyKey: values['idempotency-key'] })
      if (values.json) print(result)
      else io.stdout(renderApply(result))
      return result.pushFailed ? 4 : 0
    }
    case 'drift': {
      const drift = await api.drift(need(values.project, '--project'), values.namespace)
      if (values.json) print(drift)
      else io.stdout(renderDrift(drift))
      return drift.drift.length ? 2 : 0
    }
    default:
      throw new CliError(`unknown command '${name}'\n${USAGE}`)
  }
}

export async function main(args: string[], io: Io): Promise<number> {
  let values: Values
  let positionals: string[]
  try {
    ;({ values, positionals } = parse(args))
  } catch (err) {
    io.stderr(`error: ${(err as Error).message}\n${USAGE}`)
    return 1
  }
  if (values.help || !positionals.length) {
    io.stdout(USAGE)
    return positionals.length || values.help ? 0 : 1
  }
  try {
    return await command(positionals[0]!, values, io)
  } catch (err) {
    if (err instanceof ApiError) io.stderr(describeApiError(err))
    else if (err instanceof CliError) io.stderr(`error: ${err.message}\n`)
    else io.stderr(`error: ${(err as Error)?.stack ?? String(err)}\n`)
    return 1
  }
}
