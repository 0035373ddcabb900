import type { IncomingHttpHeaders } from 'node:http'
import { createRequire } from 'node:module'
import type { Readable, Writable } from 'node:stream'
import type { Request } from 'express'
import { DomainError, malformed } from '../errors/domain-error.js'
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

/** Reads a whole multipart/form-data body with busboy: text fields, and file parts into memory up to a size. */
export function readMultipart(req: Request, maxFileBytes: number): Promise<MultipartBody> {
  if (!req.is('multipart/form-data')) {
    return Promise.reject(malformed('Content-Type must be multipart/form-data', { reason: 'unsupportedMediaType' }))
  }
  return new Promise((resolve, reject) => {
    let parser: Busboy
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: maxFileBytes, fieldSize: 64 * 1024, parts: 20, files: 5, fields: 15 } })
    } catch (err) {
      reject(malformed(`Malformed multipart/form-data request: ${(err as Error).message}`, { reason: 'bodyNotMultipart' }))
      return
    }
    const body: MultipartBody = { fields: {}, files: {} }
    let failure: DomainError | null = null
    const fail = (err: DomainError) => {
      failure ??= err
    }
    const pending: Promise<void>[] = []
    parser.on('file', (name, stream, info) => {
      pending.push(
        new Promise<void>((done) => {
          const chunks: Buffer[] = []
          stream.on('data', (c: Buffer) => chunks.push(c))
          stream.on('error', () => done())
          stream.on('close', () => {
            if (stream.truncated) fail(malformed(`Part '${name}' is larger than ${maxFileBytes} bytes`, { reason: 'fileTooLarge', maxBytes: maxFileBytes }))
            else if (!(name in body.files)) body.files[name] = { bytes: Buffer.concat(chunks), fileName: info.filename || undefined, mimeType: info.mimeType }
            done()
          })
        }),
      )
    })
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(malformed(`Part '${name}' is too long`, { reason: 'fieldTooLong' }))
      else if (!(name in body.fields)) body.fields[name] = value
    })
    const tooMany = () => fail(malformed('The multipart body has too many parts', { reason: 'tooManyParts' }))
    parser.on('partsLimit', tooMany)
    parser.on('filesLimit', tooMany)
    parser.on('fieldsLimit', tooMany)
    parser.on('error', (err) => {
      req.unpipe(parser)
      req.resume()
      reject(malformed(`Malformed multipart/form-data body: ${err.message}`, { reason: 'bodyNotMultipart' }))
    })
    parser.on('close', () => {
      void Promise.all(pending).then(() => (failure ? reject(failure) : resolve(body)))
    })
    req.pipe(parser)
  })
}

