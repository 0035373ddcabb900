import http from 'node:http'

/** What a Node http client saw of one streamed upload. */
export interface StreamedAnswer {
  status: number
  headers: http.IncomingHttpHeaders
  /** the answer's body, parsed as JSON when it is */
  body: any
  /** body bytes written before the client stopped (all of them, or until the connection was cut) */
  sentBytes: number
  /** an error the client met (EPIPE, ECONNRESET…), and whether the answer had been read by then */
  clientError?: string
  answeredBeforeError?: boolean
}

export interface StreamedUpload {
  method: string
  headers: Record<string, string>
  /** the body in order: Buffers, or a number for that many filler bytes ('a'), produced lazily */
  parts: (Buffer | number)[]
  /** sends Content-Length (the real total) instead of chunked transfer encoding */
  declareLength?: boolean
  /** a Content-Length to declare whatever is actually sent */
  contentLength?: number
}

const CHUNK = Buffer.alloc(64 * 1024, 'a')

/**
 * Streams a body in 64 KiB chunks with Node's http client (honouring back-pressure) and reads the answer as
 * soon as it comes. Resolves once the answer was read and the request is over (all sent, or the connection closed).
 */
export function streamUpload(baseUrl: string, path: string, upload: StreamedUpload): Promise<StreamedAnswer> {
  const total = upload.parts.reduce<number>((n, p) => n + (typeof p === 'number' ? p : p.length), 0)
  const headers: Record<string, string | number> = { ...upload.headers }
  if (upload.contentLength !== undefined) headers['content-length'] = upload.contentLength
  else if (upload.declareLength) headers['content-length'] = total
  const url = new URL(path, baseUrl)
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: upload.method, headers, agent: false })
    let answer: Omit<StreamedAnswer, 'sentBytes'> | undefined
    let sentBytes = 0
    let clientError: string | undefined
    let answeredBeforeError: boolean | undefined
    let requestOver = false
    const settle = () => {
      if (answer && requestOver) resolve({ ...answer, sentBytes, clientError, answeredBeforeError })
    }
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {
          // kept as text
        }
        answer = { status: res.statusCode ?? 0, headers: res.headers, body }
        settle()
      })
    })
    req.on('error', (err: NodeJS.ErrnoException) => {
      clientError ??= err.code ?? err.message
      answeredBeforeError ??= answer !== undefined
      requestOver = true
      if (!answer) reject(new Error(`no answer read: ${clientError} after ${sentBytes} bytes`))
      else settle()
    })
    req.on('close', () => {
      requestOver = true
      settle()
    })
    let part = 0
    let fillerLeft = -1
    const pump = () => {
      while (part < upload.parts.length && !req.destroyed) {
        const current = upload.parts[part]!
        let chunk: Buffer
        if (typeof current === 'number') {
          if (fillerLeft < 0) fillerLeft = current
          chunk = CHUNK.subarray(0, Math.min(CHUNK.length, fillerLeft))
          fillerLeft -= chunk.length
          if (fillerLeft === 0) {
            part += 1
            fillerLeft = -1
          }
        } else {
          chunk = current
          part += 1
        }
        sentBytes += chunk.length
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      if (!req.destroyed) req.end()
    }
    pump()
  })
}

/** A multipart/form-data body as parts for streamUpload: a file part's content is a byte count of filler. */
export function multipartParts(parts: { name: string; fileName?: string; content: Buffer | string | number }[], boundary = 'limits-boundary-7f3a'): (Buffer | number)[] {
  const out: (Buffer | number)[] = []
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.fileName ? `; filename="${p.fileName}"` : ''}`
    const type = p.fileName ? 'Content-Type: application/octet-stream\r\n' : ''
    out.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`))
    out.push(typeof p.content === 'number' ? p.content : Buffer.from(p.content))
    out.push(Buffer.from('\r\n'))
  }
  out.push(Buffer.from(`--${boundary}--\r\n`))
  return out
}

export const multipartType = (boundary = 'limits-boundary-7f3a') => `multipart/form-data; boundary=${boundary}`
