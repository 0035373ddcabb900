// Bundles the compiled service (dist/, from tsc) into one file, dist/bundle.js, so `npm start` loads one module
// instead of ~800: on Node 20 resolving, reading and linking each ES module costs more start-up CPU than
// running them. Each module's `import.meta.url`/`dirname` is rewritten to the place the module had in dist/,
// so paths resolved from a module's own location (../package.json, prisma/migrations) are unchanged. Local names
// are minified (≈ 10 % less start-up CPU: less to parse); keepNames keeps every class's and function's `name`,
// which TypeGraphQL turns into GraphQL type names.
import fs from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'

const repo = path.resolve(import.meta.dirname, '..')
const dist = path.join(repo, 'dist')

/** Packages that find their own files next to them at run time (wasm, data files): loaded from node_modules. */
const external = ['@electric-sql/pglite', '@electric-sql/pglite-socket', '@prisma/schema-engine-wasm', 'pg-native', 'tsx', 'esbuild', 'class-validator']

const keepModuleLocation = {
  name: 'keep-module-location',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist + path.sep)) return undefined
      const source = await fs.promises.readFile(args.path, 'utf8')
      if (!source.includes('import.meta')) return { contents: source, loader: 'js' }
      const relative = path.relative(dist, args.path).split(path.sep).join('/')
      const contents = source
        .replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`)
        .replaceAll('import.meta.dirname', `__bundleDirname(${JSON.stringify(path.posix.dirname(relative))})`)
      return { contents, loader: 'js' }
    })
  },
}

// graphql-js checks every `instanceOf` against a second copy of itself (another realm) unless NODE_ENV is
// 'production': a constructor-name comparison per check, thousands per GraphQL request (issue 31 §2). The bundle
// holds one copy of graphql-js, so that check can never fire here; only graphql-js's own switch is set, nothing
// else in the process sees NODE_ENV changed (express, Apollo keep their behaviour).
const graphqlOneRealm = {
  name: 'graphql-one-realm',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]graphql[\\/]jsutils[\\/]instanceOf\.m?js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8')
      const contents = source.replace(/process\.env\.NODE_ENV\s*===\s*'production'/, 'true')
      if (contents === source) throw new Error(`graphql-one-realm: no NODE_ENV switch in ${args.path}`)
      return { contents, loader: 'js' }
    })
  },
}

await build({
  entryPoints: [path.join(dist, 'main.js')],
  outfile: path.join(dist, 'bundle.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  plugins: [keepModuleLocation, graphqlOneRealm],
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: true,
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
  banner: {
    js: [
      "import { createRequire as __createRequire } from 'node:module';",
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      "import __path from 'node:path';",
      'const require = __createRequire(import.meta.url);',
      'const __filename = __fileURLToPath(import.meta.url);',
      'const __dirname = __path.dirname(__filename);',
      'const __bundleDirname = (relative) => __path.join(__dirname, relative);',
    ].join('\n'),
  },
})

// gwctl (docs/declarative.md): the CLI in one file, dist/gwctl.js, run by the package's bin (bin/gwctl.js). It
// talks to the service over HTTP only, so it carries none of the service's modules.
await build({
  entryPoints: [path.join(dist, 'cli', 'gwctl.js')],
  outfile: path.join(dist, 'gwctl.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
})
