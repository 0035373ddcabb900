import path from 'node:path'
import { defineConfig } from 'prisma/config'

// The CLI checks for its native schema engine before every command and downloads it when missing;
// pointing it at a stub keeps `prisma generate` offline. Migrations use the wasm engine instead.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(import.meta.dirname, 'scripts/no-schema-engine.sh')

export default defineConfig({
  schema: 'prisma/schema',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/unused' },
})
