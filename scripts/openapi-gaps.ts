// Rewrites test/openapi/known-gaps.json from the route tables: the operations whose 2xx answers have no schema yet
// and the request bodies without one. test/openapi/openapi-document.test.ts fails when a gap appears that the file
// does not list, or the file lists one that is gone, so the list only shrinks on purpose.
import fs from 'node:fs'
import path from 'node:path'
import { buildOpenApi, openApiGaps } from '../src/platform/http/openapi.js'
import { routeTables } from '../src/routes.js'

const target = path.resolve(import.meta.dirname, '../test/openapi/known-gaps.json')
const { untypedResponses, bareBodies } = openApiGaps(buildOpenApi(routeTables, '0'))
fs.writeFileSync(target, JSON.stringify({ untypedResponses, bareBodies }, null, 2) + '\n')
console.log(`wrote ${path.relative(process.cwd(), target)}: ${untypedResponses.length} untyped answers, ${bareBodies.length} bare bodies`)
