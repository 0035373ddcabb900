import { z } from 'zod'

/** Names that appear in paths: no leading/trailing space, no slash or control characters. */
export const objectName = z
  .string()
  .trim()
  .min(1, 'must not be blank')
  .max(200, 'must be at most 200 characters')
  .regex(/^[^/\\?#%\u0000-\u001f]+$/, 'must not contain / \\ ? # % or control characters')

export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
