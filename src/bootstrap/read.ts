import crypto from 'node:crypto'
import fs from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import { getManyValues, none } from 'stream-chain/defs.js'
import { Assembler } from 'stream-json/core/assembler.js'
import { jsonParser } from 'stream-json/core/parser.js'
import type parser from 'stream-json/core/parser.js'
import type { z } from 'zod'
import { fieldPath } from '../platform/errors/validation.js'
import { bootstrapCredential, bootstrapSchema, type BootstrapCredential, type BootstrapFile } from './schema.js'

/**
 * A bootstrap file read as a stream (RUNTIME.md §3; issue 31 §3): a file of 200,000 credentials is never held
 * whole, neither its text nor its parse. stream-json turns the file into JSON tokens 64 KB at a time; everything
 * but the projects' credentials is assembled into the file's skeleton (its small part: users, environments,
 * projects with their members, organizations, applications, proxies and objects), each credential is assembled
 * alone, checked or handed on, and dropped.
 *
 * Two passes: `readBootstrapFile` validates the whole file before anything is written (a file that does not
 * validate is refused as a whole, with the JSON path of its first problem); the apply then reads the credentials
 * again, in bounded batches, inside its transaction, and refuses a file that changed in between. A project whose
 * credentials were all found stored during the first pass (a restart with the same file) is not read again
 * (existing.ts).
 */

/** A bootstrap file that cannot be applied; the message starts with the JSON path of the first problem. */
export class BootstrapError extends Error {
  constructor(readonly jsonPath: string, problem: string) {
    super(`${jsonPath}: ${problem}`)
    this.name = 'BootstrapError'
  }
}

export const jsonPath = (path: readonly PropertyKey[]) => {
  const rendered = fieldPath(path)
  return rendered ? (rendered.startsWith('[') ? `$${rendered}` : `$.${rendered}`) : '$'
}

/** The first issue of a failed parse as a BootstrapError; `remap` may rewrite its path first. */
export function issueError(error: z.ZodError, remap: (path: PropertyKey[]) => PropertyKey[] = (p) => p): BootstrapError {
  const issue = error.issues[0]
  const path = remap(issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path)
  return new BootstrapError(jsonPath(path), issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message)
}

type Token = parser.Token

/** One credential of the file: its project's index in `projects`, its own in that project's `credentials`. */
interface CredentialAt { project: number; index: number; raw: unknown }

const VALUE_START = new Set<Token['name']>(['startObject', 'startArray', 'stringValue', 'numberValue', 'nullValue', 'trueValue', 'falseValue'])

/**
 * The skeleton assembler stands at `$.projects[i].credentials` (an array) when its stack is
 * [root, 'projects', projects, null, project, 'credentials'].
 */
const atCredentials = (s: Assembler) =>
  s.stack.length === 6 && s.stack[1] === 'projects' && s.stack[5] === 'credentials' && Array.isArray(s.stack[2]) && Array.isArray(s.current)

interface Walked { skeleton?: unknown; digest?: string }

/**
 * The file's tokens, 64 KB at a time: yields the credentials each block completed; once the file is read, `out`
 * holds the skeleton (each project's `credentials` an empty list) and the SHA-256 of the file's bytes.
 */
async function* walk(file: string, out: Walked): AsyncGenerator<CredentialAt[]> {
  // a flushable stage: text in, tokens out; called with `none` at the end of the input, it flushes
  const parse = jsonParser({ packValues: true, streamValues: false }) as (text: string | typeof none) => ReturnType<ReturnType<typeof jsonParser>>
  const skeleton = new Assembler()
  const element = new Assembler()
  const hash = crypto.createHash('sha256')
  const decoder = new StringDecoder('utf8')
  let inElement = false
  let sawToken = false
  let project = -1
  let next = 0

  const feed = (tokens: Token[], found: CredentialAt[]) => {
    for (const token of tokens) {
      if (!inElement && VALUE_START.has(token.name) && atCredentials(skeleton)) inElement = true
      const asm = inElement ? element : skeleton
      // JSON.parse would keep the last of two equal keys; a file that says one thing twice is refused instead
      if (token.name === 'keyValue' && asm.current !== null && Object.hasOwn(asm.current as object, token.value)) {
        const at = inElement ? [...skeleton.path, (skeleton.stack[2] as unknown[]).length === project ? next : 0, ...element.path] : skeleton.path
        throw new BootstrapError(jsonPath([...at, token.value]), 'field listed twice')
      }
      asm.consume(token)
      if (inElement && element.done) {
        const p = (skeleton.stack[2] as unknown[]).length
        if (p !== project) (project = p), (next = 0)
        found.push({ project: p, index: next++, raw: element.current })
        inElement = false
      }
    }
    if (tokens.length) sawToken = true
  }

  const stream = fs.createReadStream(file, { highWaterMark: 1 << 16 })
  try {
    for await (const chunk of stream) {
      hash.update(chunk as Buffer)
      const found: CredentialAt[] = []
      const tokens = parseJson(() => parse(decoder.write(chunk as Buffer)))
      feed(tokens, found)
      if (found.length) yield found
    }
  } catch (err) {
    // the file system's errors (ENOENT, EACCES, EISDIR, …); anything else is ours
    if (typeof (err as NodeJS.ErrnoException).code !== 'string' || err instanceof BootstrapError) throw err
    throw new BootstrapError('$', `cannot read ${file}: ${(err as Error).message}`)
  } finally {
    stream.destroy()
  }
  const found: CredentialAt[] = []
  feed(parseJson(() => parse(decoder.end())), found)
  feed(parseJson(() => parse(none)), found)
  if (found.length) yield found
  if (!sawToken) throw new BootstrapError('$', 'not valid JSON (the file is empty)')
  out.skeleton = skeleton.current
  out.digest = hash.digest('hex')
}

function parseJson(step: () => ReturnType<ReturnType<typeof jsonParser>>): Token[] {
  let tokens
  try {
    tokens = step()
  } catch (err) {
    throw new BootstrapError('$', `not valid JSON (${(err as Error).message})`)
  }
  return tokens === none ? [] : getManyValues(tokens)
}

/** A bootstrap file that validated as a whole; its credentials are read again, in batches, when it is applied. */
export class StreamedBootstrap {
  constructor(
    readonly path: string,
    /** the file without its credentials: each project's `credentials` is empty */
    readonly skeleton: BootstrapFile,
    /** how many credentials each project lists, by the project's index */
    readonly credentialCounts: readonly number[],
    readonly digest: string,
  ) {}

  /** Reads the credentials again, in file order; `finish` then checks that the file is the one validated. */
  reader(batchSize: number): CredentialReader {
    return new CredentialReader(this, batchSize)
  }
}

/** A valid credential of the file as the validation pass sees it: its project's index and its username. */
export interface SeenCredential { project: number; username: string }
/** Told of each block's valid credentials during the validation pass (the apply's look-ahead, existing.ts). */
export type CredentialSink = (found: SeenCredential[]) => Promise<void>

/**
 * Validation pass: the whole file against the bootstrap schema, one credential at a time. The first problem is the
 * one a parse of the whole document would report: the skeleton is parsed with each project's first invalid
 * credential (if any) standing for its list, and the path given that credential's own index.
 */
export async function readBootstrapFile(file: string, seen?: CredentialSink): Promise<StreamedBootstrap> {
  const walked: Walked = {}
  const firstInvalid = new Map<number, CredentialAt>()
  const counts: number[] = []
  for await (const found of walk(file, walked)) {
    const valid: SeenCredential[] = []
    for (const at of found) {
      counts[at.project] = at.index + 1
      const parsed = bootstrapCredential.safeParse(at.raw)
      if (parsed.success) valid.push({ project: at.project, username: parsed.data.username })
      else if (!firstInvalid.has(at.project)) firstInvalid.set(at.project, at)
    }
    if (seen && valid.length) await seen(valid)
  }
  const skeleton = walked.skeleton as { projects: { credentials: unknown[] }[] }
  for (const [p, at] of firstInvalid) skeleton.projects[p].credentials = [at.raw]
  const parsed = bootstrapSchema.safeParse(skeleton)
  if (!parsed.success) {
    throw issueError(parsed.error, (path) =>
      path[0] === 'projects' && path[2] === 'credentials' && path.length > 3 ? [...path.slice(0, 3), firstInvalid.get(path[1] as number)!.index, ...path.slice(4)] : path)
  }
  return new StreamedBootstrap(file, parsed.data, parsed.data.projects.map((_, i) => counts[i] ?? 0), walked.digest!)
}

/** A batch of one project's credentials, validated again, with each entry's index in its project's list. */
export type CredentialBatch = { index: number; entry: BootstrapCredential }[]

/**
 * Apply pass: the credentials of a validated file, project by project in file order, at most `batchSize` held at a
 * time. The reader is shared by the projects: each project's batches end where the next project's credentials begin.
 */
export class CredentialReader {
  private readonly walked: Walked = {}
  private readonly chunks: AsyncGenerator<CredentialAt[]>
  private pending: CredentialAt[] = []
  private ended = false

  constructor(private readonly source: StreamedBootstrap, private readonly batchSize: number) {
    this.chunks = walk(source.path, this.walked)
  }

  private async fill(project: number) {
    for (;;) {
      // the credentials of projects before this one that were not asked for (all stored already) are passed over
      let passed = 0
      while (passed < this.pending.length && this.pending[passed].project < project) passed++
      if (passed) this.pending.splice(0, passed)
      const last = this.pending[this.pending.length - 1]
      if (this.ended || (last && (last.project !== project || this.pending.length >= this.batchSize))) return
      const next = await this.chunks.next()
      if (next.done) this.ended = true
      else for (const at of next.value) this.pending.push(at)
    }
  }

  async *batches(project: number): AsyncGenerator<CredentialBatch> {
    for (;;) {
      await this.fill(project)
      let n = 0
      while (n < this.pending.length && n < this.batchSize && this.pending[n].project === project) n++
      if (!n) return
      const taken = this.pending.splice(0, n)
      yield taken.map((at) => {
        const parsed = bootstrapCredential.safeParse(at.raw)
        if (!parsed.success) throw this.changed()
        return { index: at.index, entry: parsed.data }
      })
    }
  }

  /** Reads what is left and refuses a file that is not, byte for byte, the one that validated. */
  async finish(): Promise<void> {
    while (!this.ended) {
      const next = await this.chunks.next()
      if (next.done) this.ended = true
    }
    if (this.walked.digest !== this.source.digest) throw this.changed()
  }

  /** Stops reading (an apply that failed half-way): the file is closed. */
  async close(): Promise<void> {
    await this.chunks.return(undefined)
  }

  private changed() {
    return new BootstrapError('$', `${this.source.path} changed while it was applied`)
  }
}
