import crypto from 'node:crypto'
import { z } from 'zod'

/**
 * Field builders shared by the connection type schemas (one schema per vendor page of 06-connections).
 * Every message is the text after `field: ` in the 400 answer, so it reads on its own.
 */

/**
 * Stands in for a secret that the body left out (or null) but the stored connection holds: a PUT is
 * applied over the stored connection and reads never return secrets, so a GET → PUT round trip keeps them.
 */
export const KEPT_SECRET = `kept-secret:${crypto.randomUUID()}`

export const int = () => z.number({ error: 'must be a number' }).int('must be an integer')
export const nonNegative = () => int().min(0, 'must be at least 0')
export const positive = () => int().min(1, 'must be at least 1')
export const port = () => int().min(1, 'must be a port between 1 and 65535').max(65535, 'must be a port between 1 and 65535')
export const bool = (fallback: boolean) => z.boolean({ error: 'must be true or false' }).nullish().transform((v) => v ?? fallback)
export const optionalBool = () => z.boolean({ error: 'must be true or false' }).nullish().transform((v) => v ?? null)
export const withDefault = <T>(schema: z.ZodType<T>, fallback: T) => schema.nullish().transform((v) => (v ?? fallback) as T)
export const optional = <T>(schema: z.ZodType<T>) => schema.nullish().transform((v) => (v ?? null) as T | null)

const NUL_FREE = /^[^\u0000]*$/
export const text = (max = 1000) => z.string({ error: 'must be a string' }).max(max, `must be at most ${max} characters`).regex(NUL_FREE, 'must not contain NUL characters')
export const required = (max = 1000) => text(max).trim().min(1, 'is required')
export const optionalText = (max = 1000) => optional(text(max))

/** A host name or an IP address (IPv6 with or without brackets); no scheme, port or path. */
export const host = () =>
  required(253).regex(/^(\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*|[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?)$/, 'must be a host name or an IP address, without scheme, port or path')

export { enumOf } from '../../../platform/validation/common.js'

/** A secret field: write-only, sealed at rest. Blank is refused; null or absent keeps the stored value. */
export const secret = (max = 10_000) => optional(z.string({ error: 'must be a string' }).min(1, 'must not be blank').max(max, `must be at most ${max} characters`).regex(NUL_FREE, 'must not contain NUL characters'))

/** A secret holding a file's bytes as base64 (certificate and keystore files of elasticsearch, graylog). */
export const base64Secret = (maxBytes = 1_048_576) =>
  optional(
    z
      .string({ error: 'must be a base64 string' })
      .min(1, 'must not be blank')
      .max(Math.ceil((maxBytes * 4) / 3) + 4, `must encode at most ${maxBytes} bytes`)
      .refine((v) => v === KEPT_SECRET || /^[A-Za-z0-9+/_\-\r\n]+={0,2}$/.test(v), 'must be base64 (or base64url)'),
  )

export const url = (schemes: readonly string[], what: string) =>
  required(2000).refine((v) => {
    if (!URL.canParse(v)) return false
    const u = new URL(v)
    return schemes.includes(u.protocol.replace(/:$/, '')) && !!u.hostname
  }, `must be ${what}`)

/** Adds an issue naming `field` (a required-when rule of a page's notes). */
export function need(ctx: z.RefinementCtx, field: string, message: string): void {
  ctx.addIssue({ code: 'custom', path: field.split('.'), message })
}

/** Whether a (possibly kept) secret or a value is present. */
export const present = (v: unknown) => v !== null && v !== undefined && v !== ''
