// Writes the GraphQL SDL to schema/schema.graphql (checked in; test/schema.test.ts fails when it drifts).
import fs from 'node:fs'
import path from 'node:path'
import { printSchemaSdl } from '../src/schema.js'

const target = path.resolve(import.meta.dirname, '../schema/schema.graphql')
fs.writeFileSync(target, await printSchemaSdl())
console.log(`wrote ${path.relative(process.cwd(), target)}`)
