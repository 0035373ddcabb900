import { createRequire } from 'node:module'
import { defineConfig } from 'vitest/config'
import LongestFirstSequencer from './test/support/sequencer.js'

const require = createRequire(import.meta.url)

export default defineConfig({
  // Node loads graphql's CommonJS build for type-graphql and Apollo; without this alias Vite would give the
  // project's own files the ESM build, and schema objects would come from two realms.
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // PGlite is one in-process database per worker: two workers keep memory within the 2-core machine. A PostgreSQL
    // worker's database is the server's, and it waits on it: three of them keep that suite, the longer one in CI by
    // 131 s (`.ci/run` runs the two side by side), from leaving a core idle once the PGlite suite is done.
    maxWorkers: process.env.TEST_DATABASE_URL ? 3 : 2,
    // One module graph per worker: the app (≈ 800 modules) is imported once per worker, not once per file. Every
    // file starts its own service on its own database and closes it, so no state is shared through the modules.
    isolate: false,
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
