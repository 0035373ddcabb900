// Prisma's schema engine compiled to wasm, driven over in-memory PGlite. Development only
// (scripts/migrate.ts creates migrations with it); start-up applies migrations with ./migrate.ts.
import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils'
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm'
import { PrismaPGlite } from 'pglite-prisma-adapter'
import { pgliteExtensions } from './pglite-extensions.js'

type Bg = typeof import('@prisma/schema-engine-wasm/schema_engine_bg')
let bgPromise: Promise<Bg> | undefined

// Node 20 cannot `import` a .wasm file, so the package's glue is wired to a hand-made instance.
function loadWasm(): Promise<Bg> {
  bgPromise ??= (async () => {
    const bgUrl = import.meta.resolve('@prisma/schema-engine-wasm/schema_engine_bg')
    const bg: Bg = await import(bgUrl)
    const bytes = fs.readFileSync(new URL('./schema_engine_bg.wasm', bgUrl))
    const { instance } = await (globalThis as any).WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bg })
    bg.__wbg_set_wasm(instance.exports)
    instance.exports.__wbindgen_start()
    return bg
  })()
  return bgPromise
}

const noFilter = { externalTables: [], externalEnums: [] }

export function readMigrations(dir: string): MigrationList {
  const baseDir = path.resolve(dir)
  const names = fs.existsSync(baseDir)
    ? fs.readdirSync(baseDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()
    : []
  const lock = path.join(baseDir, 'migration_lock.toml')
  return {
    baseDir,
    shadowDbInitScript: '',
    lockfile: { path: 'migration_lock.toml', content: fs.existsSync(lock) ? fs.readFileSync(lock, 'utf8') : null },
    migrationDirectories: names.map((name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok' as const, value: fs.readFileSync(path.join(baseDir, name, 'migration.sql'), 'utf8') },
      },
    })),
  }
}

/**
 * An in-memory PGlite plus a factory whose shadow databases are restored from a dump of the
 * pristine cluster (~0.6 s instead of a ~3–7 s initdb each) and closed on dispose (the stock
 * adapter leaks a new PGlite per shadow).
 */
async function memoryPglite() {
  const main = new PGlite('memory://', { extensions: pgliteExtensions })
  await main.waitReady // dumpDataDir() before ready never settles
  const pristine = await main.dumpDataDir('none')
  const shadows: PGlite[] = []
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: 'postgres',
    adapterName: 'pglite-prisma-adapter',
    connect: () => new PrismaPGlite(main).connect(),
    connectToShadowDb: async () => {
      const shadow = new PGlite({ dataDir: 'memory://', loadDataDir: pristine, extensions: pgliteExtensions })
      shadows.push(shadow)
      const adapter = await new PrismaPGlite(shadow).connect()
      const dispose = adapter.dispose.bind(adapter)
      adapter.dispose = async () => { await dispose(); if (!shadow.closed) await shadow.close() }
      return adapter
    },
  }
  // Without closing every PGlite the process stays alive after the work is done.
  const close = async () => { for (const db of [...shadows, main]) if (!db.closed) await db.close() }
  return { factory, close }
}

/** Every `.prisma` file of the schema folder (one file per module), in a stable order. */
export function readSchemaFiles(schemaDir: string): { path: string; content: string }[] {
  return fs.readdirSync(schemaDir).filter((f) => f.endsWith('.prisma')).sort()
    .map((f) => ({ path: path.join(schemaDir, f), content: fs.readFileSync(path.join(schemaDir, f), 'utf8') }))
}

export async function withEngine<T>(schemaDir: string, factory: SqlMigrationAwareDriverAdapterFactory, fn: (e: SchemaEngine) => Promise<T>): Promise<T> {
  const bg = await loadWasm()
  const datamodels = readSchemaFiles(schemaDir).map((f) => [f.path, f.content] as [string, string])
  const engine = await bg.SchemaEngine.new({ datamodels }, () => {}, bindMigrationAwareSqlAdapterFactory(factory))
  try {
    return await fn(engine)
  } finally {
    engine.free()
  }
}

/**
 * Writes `<migrationsDir>/<timestamp>_<name>/migration.sql` with the SQL that takes the committed
 * migrations to the schema folder; returns the folder, or null when there is nothing to migrate.
 */
export async function createMigration(opts: { schemaDir: string; migrationsDir: string; name: string }): Promise<string | null> {
  const { schemaDir, migrationsDir, name } = opts
  const db = await memoryPglite()
  try {
    return await withEngine(schemaDir, db.factory, async (e) => {
      // The `migrate dev` sequence: createMigration alone has no shadow database in this build;
      // devDiagnostic replays the history on one and caches it, and needs _prisma_migrations first.
      await e.applyMigrations({ migrationsList: readMigrations(migrationsDir), filters: noFilter })
      const diag = await e.devDiagnostic({ migrationsList: readMigrations(migrationsDir), filters: noFilter })
      if (diag.action.tag === 'reset') throw new Error(`Migration history needs a reset: ${diag.action.reason}`)
      const out = await e.createMigration({
        draft: false,
        migrationName: name,
        migrationsList: readMigrations(migrationsDir),
        schema: { files: readSchemaFiles(schemaDir) },
        filters: noFilter,
      })
      if (out.migrationScript == null) return null
      const dir = path.join(migrationsDir, out.generatedMigrationName)
      fs.mkdirSync(dir, { recursive: true })
      fs.writeFileSync(path.join(dir, `migration.${out.extension}`), out.migrationScript)
      fs.writeFileSync(
        path.join(migrationsDir, 'migration_lock.toml'),
        `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${out.connectorType}"\n`,
      )
      return dir
    })
  } finally {
    await db.close()
  }
}
