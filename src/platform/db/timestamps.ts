/** A `timestamp(3)` column's value as Prisma writes it: UTC, without a zone (for set-based raw writes). */
export const utcTimestamp = (d: Date | string | null | undefined): string | null => (d == null ? null : new Date(d).toISOString().replace('Z', ''))
