import type { FileUpload } from 'graphql-upload-minimal'
import { malformed } from '../errors/domain-error.js'
import type { MultipartFile } from '../http/routes.js'

/**
 * Reads a GraphQL multipart upload (graphql-upload-minimal) into memory, bounded like the REST door's
 * multipart part of the same name; null when the argument was not sent.
 */
export async function readUpload(upload: Promise<FileUpload> | null | undefined, field: string, maxBytes: number): Promise<MultipartFile | null> {
  if (!upload) return null
  const file = await upload
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of file.createReadStream()) {
    size += (chunk as Buffer).length
    if (size > maxBytes) throw malformed(`${field} is larger than ${maxBytes} bytes`, { reason: 'fileTooLarge', field })
    chunks.push(chunk as Buffer)
  }
  return { bytes: Buffer.concat(chunks), fileName: file.filename || undefined, mimeType: file.mimetype || 'application/octet-stream' }
}
