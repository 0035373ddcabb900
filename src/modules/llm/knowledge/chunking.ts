/** Chunking bounds of a knowledge base (characters). */
export const CHUNK_SIZE = { min: 100, max: 8000, default: 1000 } as const
export const DEFAULT_CHUNK_OVERLAP = 100

/**
 * Splits a document into chunks of at most `size` characters, consecutive chunks sharing about `overlap`
 * characters. A cut prefers a paragraph break, then a line break, then a space in the second half of the
 * window, so chunks rarely split words, and an overlap begins at a word boundary. Blank chunks are dropped; every step moves forward.
 */
export function chunkText(text: string, size: number, overlap: number): string[] {
  const source = text.replace(/\r\n?/g, '\n')
  const chunks: string[] = []
  let start = 0
  while (start < source.length) {
    let end = Math.min(start + size, source.length)
    if (end < source.length) {
      const window = source.slice(start + Math.floor(size / 2), end)
      for (const sep of ['\n\n', '\n', ' ']) {
        const at = window.lastIndexOf(sep)
        if (at >= 0) {
          end = start + Math.floor(size / 2) + at + sep.length
          break
        }
      }
    }
    const chunk = source.slice(start, end).trim()
    if (chunk) chunks.push(chunk)
    if (end >= source.length) break
    // the overlap starts at a word boundary, so the next chunk does not begin mid-word
    let next = end - overlap
    if (overlap > 0) {
      const boundary = source.slice(next, end).search(/\s/)
      if (boundary >= 0) next += boundary + 1
    }
    start = Math.max(next, start + 1)
  }
  return chunks
}
