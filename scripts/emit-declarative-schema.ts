// Writes src/cli/state-schema.json: the JSON Schema of the declarative state document that gwctl validates files
// with offline (the same document GET /apiops/declarative/schema.json serves; a test compares them).
import fs from 'node:fs'
import path from 'node:path'
import { ensureTransferAdapters } from '../src/modules/transfer/adapters/index.js'
import { stateJsonSchema } from '../src/modules/declarative/document.js'

await ensureTransferAdapters()
const target = path.resolve(import.meta.dirname, '../src/cli/state-schema.json')
fs.writeFileSync(target, JSON.stringify(stateJsonSchema(), null, 2) + '\n')
console.log(`wrote ${path.relative(process.cwd(), target)}`)
