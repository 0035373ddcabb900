// npm run db:migration -- <name>
// Creates prisma/migrations/<timestamp>_<name>/migration.sql from the difference between the
// committed migrations and the schema folder prisma/schema/ (one .prisma file per module). Runs on in-memory PGlite: no database needed.
import path from 'node:path'
import { createMigration } from '../src/platform/db/schema-engine.js'

const name = process.argv[2]
if (!name || !/^[A-Za-z0-9_]+$/.test(name)) {
  console.error('usage: npm run db:migration -- <name>   (letters, digits and _ only)')
  process.exit(2)
}
const root = path.resolve(import.meta.dirname, '..')
const dir = await createMigration({
  schemaDir: path.join(root, 'prisma/schema'),
  migrationsDir: path.join(root, 'prisma/migrations'),
  name,
})
console.log(dir ? `created ${path.relative(process.cwd(), dir)}` : 'no changes: the migrations already match prisma/schema/')
// The wasm schema engine leaves a 10 s timer behind; nothing else is pending once PGlite is closed.
process.exit(0)
