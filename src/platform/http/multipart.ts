import type { IncomingHttpHeaders } from 'node:http'
import { createRequire } from 'node:module'
import type { Readable, Writable } from 'node:stream'
import type { Request } from 'express'
import { DomainError, malformed } from '../errors/domain-error.js'
import { BodyTooLargeError, refuseDeclaredOversize, REQUEST_LIMITS } from './input-guards.js'
import type { MultipartBody } from './routes.js'

/** The part of busboy's API used here (busboy ships no type declarations). */
interface BusboyEvents {
  on(event: 'file', listener: (name: string, stream: Readable & { truncated?: boolean }, info: { filename?: string; mimeType: string }) => void): this
  on(event: 'field', listener: (name: string, value: string, info: { valueTruncated: boolean }) => void): this
  on(event: 'partsLimit' | 'filesLimit' | 'fieldsLimit' | 'close', listener: () => void): this
  on(event: 'error', listener: (err: Error) => void): this
}
type Busboy = BusboyEvents & Writable
type BusboyFactory = (config: {
  headers: IncomingHttpHeaders
  limits: { fileSize: number; fieldSize: number; parts: number; files: number; fields: number }
}) => Busboy
const busboy = createRequire(import.meta.url)('busboy') as BusboyFactory

export interface MultipartLimits {
  /** each file part */
  maxFileBytes: number
  /** the whole body, as sent (decided from Content-Length when it is declared, else while reading) */
  maxBodyBytes: number
}

/** Part headers and boundaries that may surround a text part, beyond its own bound (busboy: 16 KiB of headers). */
const PART_FRAMING_BYTES = 20 * 1024

const fieldTooLong = (name?: string) =>
  malformed(`${name === undefined ? 'A text part' : `Part '${name}'`} is longer than ${REQUEST_LIMITS.multipartFieldBytes} bytes`, {
    ...(name === undefined ? {} : { field: name }),
    reason: 'fieldTooLong',
    limitBytes: REQUEST_LIMITS.multipartFieldBytes,
  })

/**
 * Reads a whole multipart/form-data body with busboy: text fields, and file parts into memory up to a size.
 * The first limit crossed (a file part, a text part, the whole body, the number of parts) stops the parsing at
 * once and refuses (413 for a size, 400 fieldTooLong or tooManyParts); the router's answer then closes the
 * connection gracefully (linger.ts) while the rest of the body is discarded. Memory stays within the limits.
 */
export function readMultipart(req: Request, limits: MultipartLimits): Promise<MultipartBody> {
  if (!req.is('multipart/form-data')) {
    return Promise.reject(malformed('Content-Type must be multipart/form-data', { reason: 'unsupportedMediaType' }))
  }
  refuseDeclaredOversize(req, limits.maxBodyBytes)
  return new Promise((resolve, reject) => {
    let parser: Busboy
    try {
      // one byte over each bound, so that a part of exactly the bound is whole and the next byte is refused
      const fieldSize = REQUEST_LIMITS.multipartFieldBytes + 1
      parser = busboy({ headers: req.headers, limits: { fileSize: limits.maxFileBytes + 1, fieldSize, parts: 20, files: 5, fields: 15 } })
    } catch (err) {
      reject(malformed(`Malformed multipart/form-data request: ${(err as Error).message}`, { reason: 'bodyNotMultipart' }))
      return
    }
    const body: MultipartBody = { fields: {}, files: {} }
    let settled = false
    /** the first refusal wins: the body is no longer parsed, and the router answers at once */
    const stop = (err: DomainError) => {
      if (settled) return
      settled = true
      req.unpipe(parser)
      req.off('data', measure)
      reject(err)
    }
    const pending: Promise<void>[] = []
    // bytes parsed since busboy last reported anything, while no file part is open: a text part (or headers,
    // preamble) running past its bound is refused without waiting for its end
    let quietBytes = 0
    let openFile = false
    let reported = false
    parser.on('file', (name, stream, info) => {
      openFile = reported = true
      pending.push(
        new Promise<void>((done) => {
          const chunks: Buffer[] = []
          stream.on('limit', () => stop(new BodyTooLargeError(limits.maxFileBytes, name)))
          stream.on('data', (c: Buffer) => {
            if (!settled) chunks.push(c)
          })
          stream.on('error', () => done())
          stream.on('end', () => {
            openFile = false
            reported = true
          })
          stream.on('close', () => {
            if (!settled && !stream.truncated && !(name in body.files)) {
              body.files[name] = { bytes: Buffer.concat(chunks), fileName: info.filename || undefined, mimeType: info.mimeType }
            }
            done()
          })
        }),
      )
    })
    parser.on('field', (name, value, info) => {
      reported = true
      if (info.valueTruncated) stop(fieldTooLong(name))
      else if (!(name in body.fields)) body.fields[name] = value
    })
    const tooMany = () => stop(malformed('The multipart body has too many parts', { reason: 'tooManyParts' }))
    parser.on('partsLimit', tooMany)
    parser.on('filesLimit', tooMany)
    parser.on('fieldsLimit', tooMany)
    parser.on('error', (err) => stop(malformed(`Malformed multipart/form-data body: ${err.message}`, { reason: 'bodyNotMultipart' })))
    parser.on('close', () => {
      void Promise.all(pending).then(() => {
        if (settled) return
        settled = true
        req.off('data', measure)
        resolve(body)
      })
    })
    let received = 0
    // runs after busboy has parsed the chunk (pipe's own listener comes first)
    function measure(chunk: Buffer) {
      received += chunk.length
      if (received > limits.maxBodyBytes) return stop(new BodyTooLargeError(limits.maxBodyBytes))
      quietBytes = openFile || reported ? 0 : quietBytes + chunk.length
      reported = false
      if (quietBytes > REQUEST_LIMITS.multipartFieldBytes + PART_FRAMING_BYTES) stop(fieldTooLong())
    }
    req.pipe(parser)
    req.on('data', measure)
  })
}
