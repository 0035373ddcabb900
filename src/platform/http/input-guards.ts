import type { Request } from 'express'
import { DomainError, malformed } from '../errors/domain-error.js'
import { fieldPath } from '../errors/validation.js'

/**
 * Limits every request meets before any module sees it (documented in the README, "Request limits"):
 * bad input is refused here with a 400 (413 for size), in the surface's envelope, never reaching the
 * database or a recursive walk as a 500.
 */
export const REQUEST_LIMITS = {
  /** a JSON body (REST and GraphQL) */
  jsonBodyBytes: 10 * 1024 * 1024,
  /** a form-encoded body (the token endpoint): large enough to name an over-long field instead of refusing the body */
  formBodyBytes: 2 * 1024 * 1024,
  /** one form field (user name, password, grant type) */
  formFieldChars: 1024,
  /** objects and arrays nested in one JSON value */
  jsonDepth: 64,
  /** a multipart body beyond its file parts' own bounds (text fields, part headers) */
  multipartOverheadBytes: 1024 * 1024,
  /** one text part of a multipart body (400 reason fieldTooLong beyond) */
  multipartFieldBytes: 64 * 1024,
  /**
   * Lingering close (linger.ts): after an answer sent while the request body is still arriving, the rest of
   * the body is read and discarded up to this many bytes, for at most lingerMs, before the connection is cut.
   */
  lingerBytes: 64 * 1024 * 1024,
  lingerMs: 10_000,
} as const

/**
 * A body, or one file part of a multipart body, over its size limit: 413 in the surface's envelope
 * (malformedRequest, reason bodyTooLarge or fileTooLarge naming the part, with limitBytes).
 */
export class BodyTooLargeError extends DomainError {
  constructor(
    readonly limitBytes: number,
    part?: string,
  ) {
    super(
      'validation',
      'malformedRequest',
      part === undefined ? `Request body is larger than ${limitBytes} bytes` : `Part '${part}' is larger than ${limitBytes} bytes`,
      part === undefined ? { reason: 'bodyTooLarge', limitBytes } : { field: part, reason: 'fileTooLarge', limitBytes },
    )
  }
}

const NUL = '\u0000'

const nulRefusal = (field: string) =>
  malformed(`${field}: must not contain the NUL character`, { field, reason: 'nulCharacter' })

/** Path segments and query parameters, as decoded: no NUL anywhere (PostgreSQL text cannot hold it). */
export function guardUrlInput(params: Record<string, unknown>, query: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(params)) if (typeof value === 'string' && value.includes(NUL)) throw nulRefusal(name)
  for (const [name, value] of Object.entries(query)) {
    if (name.includes(NUL)) throw nulRefusal('query')
    guardValue(value, [name], 1)
  }
}

/**
 * Walks a decoded value (JSON body, GraphQL variables, form fields): no NUL in any string or key, and no
 * nesting deeper than the depth limit. The first problem names its field (`servers[0].name`).
 */
export function guardValue(value: unknown, path: (string | number)[] = [], depth = 0): void {
  // one path, pushed and popped: a body of many thousand objects walked without a path array and an entries array
  // per value (a 10 MB declarative document: 139 MB of garbage before)
  walkGuarded(value, [...path], depth)
}

function walkGuarded(value: unknown, path: (string | number)[], depth: number): void {
  if (typeof value === 'string') {
    if (value.includes(NUL)) throw nulRefusal(fieldPath(path) || 'body')
    return
  }
  if (value === null || typeof value !== 'object') return
  if (depth >= REQUEST_LIMITS.jsonDepth) {
    const field = fieldPath(path) || 'body'
    throw malformed(`${field}: nested deeper than ${REQUEST_LIMITS.jsonDepth} levels`, { field, reason: 'nestingTooDeep', maxDepth: REQUEST_LIMITS.jsonDepth })
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i)
      walkGuarded(value[i], path, depth + 1)
      path.pop()
    }
    return
  }
  // only plain data: uploads and other objects a middleware attached are not input text
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) return
  const record = value as Record<string, unknown>
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue
    if (key.includes(NUL)) throw nulRefusal(fieldPath(path) || 'body')
    path.push(key)
    walkGuarded(record[key], path, depth + 1)
    path.pop()
  }
}

/** 413 at once for a body whose Content-Length is over the limit, before reading any of it. */
export function refuseDeclaredOversize(req: Request, limitBytes: number): void {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limitBytes) {
    req.resume() // discard the rest, so the connection can answer
    throw new BodyTooLargeError(limitBytes)
  }
}

/**
 * Reads the whole body up to `limitBytes` (413 beyond, decided from Content-Length when it is sent). Read through the
 * stream's events, not `for await`: the async iterator costs a generator, its promises and end-of-stream listeners per
 * request (the GraphQL door reads a body on every request, issue 31 §2). Beyond the limit the rest is discarded so the
 * connection can answer; a request closed before its body ended rejects as the iterator did.
 */
export async function readRawBody(req: Request, limitBytes: number): Promise<Buffer> {
  refuseDeclaredOversize(req, limitBytes)
  if (req.readableEnded) return Buffer.alloc(0)
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const settle = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('close', onClose)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limitBytes) {
        settle()
        req.resume()
        reject(new BodyTooLargeError(limitBytes))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      settle()
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))
    }
    const onError = (err: Error) => {
      settle()
      reject(err)
    }
    const onClose = () => {
      settle()
      reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }))
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
    req.on('close', onClose)
  })
}

/** A body without a Content-Type is read as JSON; one of another media type counts as no JSON body. */
const mayCarryJson = (req: Request) => !req.headers['content-type'] || req.is(['json', '+json']) !== false

/**
 * A JSON body: undefined when none was sent (no bytes, only whitespace, or another media type), 400 when
 * not JSON or not an object or array, then the NUL and depth guards over all of it.
 */
export async function readJsonBody(req: Request): Promise<unknown> {
  if (!mayCarryJson(req)) return undefined
  const text = (await readRawBody(req, REQUEST_LIMITS.jsonBodyBytes)).toString('utf8').trim()
  if (text === '') return undefined
  if (text[0] !== '{' && text[0] !== '[') throw malformed('Request body must be a JSON object or array', { reason: 'bodyNotJson' })
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw malformed('Request body is not valid JSON', { reason: 'bodyNotJson' })
  }
  guardValue(value)
  return value
}

/** A form-encoded body: every field a string of bounded length without NUL (the first value of a repeated name). */
export async function readFormBody(req: Request): Promise<Record<string, string>> {
  if (!req.is('application/x-www-form-urlencoded')) {
    throw malformed('Content-Type must be application/x-www-form-urlencoded', { reason: 'unsupportedMediaType' })
  }
  const raw = await readRawBody(req, REQUEST_LIMITS.formBodyBytes)
  const fields: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(raw.toString('utf8'))) {
    if (name in fields) continue
    if (value.length > REQUEST_LIMITS.formFieldChars) {
      throw malformed(`${name}: must be at most ${REQUEST_LIMITS.formFieldChars} characters`, { field: name, reason: 'fieldTooLong' })
    }
    if (value.includes(NUL) || name.includes(NUL)) throw nulRefusal(name)
    fields[name] = value
  }
  return fields
}
