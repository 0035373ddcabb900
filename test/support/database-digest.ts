import type { TestService } from './app.js'

/**
 * A digest of every table's rows (token last-use times aside: authenticating is not a write of the call), to show
 * that a run of refused calls wrote nothing.
 */
export async function databaseDigest(svc: TestService): Promise<Record<string, string>> {
  const tables = await svc.deps.prisma.$queryRawUnsafe<{ name: string }[]>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations' ORDER BY 1`,
  )
  const digest: Record<string, string> = {}
  for (const { name } of tables) {
    const row = `(to_jsonb(t) - 'lastUsedAt')::text`
    const [{ count, md5 }] = await svc.deps.prisma.$queryRawUnsafe<{ count: bigint; md5: string | null }[]>(
      `SELECT count(*) AS count, md5(string_agg(${row}, '|' ORDER BY ${row})) AS md5 FROM "${name}" t`,
    )
    digest[name] = `${count}:${md5 ?? ''}`
  }
  return digest
}
