// Writes the served OpenAPI document to .openapi/openapi.json (input of `npm run openapi:lint` and `npm run openapi:types`).
import fs from 'node:fs'
import path from 'node:path'
import { buildOpenApi } from '../src/platform/http/openapi.js'
import { routeTables } from '../src/routes.js'

const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8')) as { version: string }
const target = path.resolve(process.argv[2] ?? path.resolve(import.meta.dirname, '../.openapi/openapi.json'))
fs.mkdirSync(path.dirname(target), { recursive: true })
fs.writeFileSync(target, JSON.stringify(buildOpenApi(routeTables, pkg.version), null, 2) + '\n')
console.log(`wrote ${path.relative(process.cwd(), target)}`)
