import type { NextFunction, Request, Response } from 'express'
import { GraphQLError } from 'graphql'
import { processRequest, type FileUpload } from 'graphql-upload-minimal'
import { DomainError, malformed } from '../errors/domain-error.js'
import { BodyTooLargeError, refuseDeclaredOversize, REQUEST_LIMITS } from '../http/input-guards.js'
import type { MultipartFile } from '../http/routes.js'
import { graphqlRefusal } from './limits.js'

/**
 * A GraphQL multipart request (graphql-multipart-request-spec): at most this many files, each at most this
 * large (the largest bound a resolver reads, a transfer package), the `operations` and `map` fields at most
 * 1 MiB, and the whole body at most all files plus 1 MiB (decided from Content-Length when it is declared).
 */
export const GRAPHQL_UPLOAD_LIMITS = {
  maxFiles: 5,
  maxFileBytes: 64 * 1024 * 1024,
  maxFieldBytes: REQUEST_LIMITS.multipartOverheadBytes,
} as const

/**
 * The upload door of /graphql: parses the operations of a multipart request into req.body, its files left
 * streaming for the resolvers. A refusal answers in the GraphQL error format (413 for a size, else 400) and
 * the connection then closes gracefully (linger.ts).
 */
export function graphqlMultipart() {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('multipart/form-data')) return next()
    try {
      refuseDeclaredOversize(req, GRAPHQL_UPLOAD_LIMITS.maxFiles * GRAPHQL_UPLOAD_LIMITS.maxFileBytes + REQUEST_LIMITS.multipartOverheadBytes)
      req.body = await processRequest(req, res, {
        maxFiles: GRAPHQL_UPLOAD_LIMITS.maxFiles,
        // one byte over, so that readUpload sees a file over its own bound rather than a cut one
        maxFileSize: GRAPHQL_UPLOAD_LIMITS.maxFileBytes + 1,
        maxFieldSize: GRAPHQL_UPLOAD_LIMITS.maxFieldBytes,
      })
    } catch (err) {
      if (err instanceof DomainError) return graphqlRefusal(res, err instanceof BodyTooLargeError ? 413 : 400, err)
      const status = (err as { status?: number }).status
      if (status !== 413 && status !== 400) return next(err)
      const reason = status === 413 ? 'bodyTooLarge' : 'bodyNotMultipart'
      return graphqlRefusal(res, status, malformed((err as Error).message, { reason }))
    }
    next()
  }
}

/** A file over its bound: 413 in the GraphQL error format, like the REST door's multipart part of the same name. */
const fileTooLarge = (field: string, limitBytes: number) => {
  const { message, params } = new BodyTooLargeError(limitBytes, field)
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', errorKey: 'malformedRequest', params, http: { status: 413 } } })
}

/**
 * Reads a GraphQL multipart upload into memory, bounded like the REST door's multipart part of the same
 * name; null when the argument was not sent.
 */
export async function readUpload(upload: Promise<FileUpload> | null | undefined, field: string, maxBytes: number): Promise<MultipartFile | null> {
  if (!upload) return null
  const file = await upload
  const chunks: Buffer[] = []
  let size = 0
  let stream: ReturnType<FileUpload['createReadStream']> & { truncated?: boolean }
  try {
    stream = file.createReadStream()
  } catch (err) {
    // the parser refused the file already (over GRAPHQL_UPLOAD_LIMITS.maxFileBytes)
    if ((err as { status?: number }).status === 413) throw fileTooLarge(field, maxBytes)
    throw err
  }
  for await (const chunk of stream) {
    size += (chunk as Buffer).length
    if (size > maxBytes) throw fileTooLarge(field, maxBytes)
    chunks.push(chunk as Buffer)
  }
  if (stream.truncated) throw fileTooLarge(field, maxBytes)
  return { bytes: Buffer.concat(chunks), fileName: file.filename || undefined, mimeType: file.mimetype || 'application/octet-stream' }
}
