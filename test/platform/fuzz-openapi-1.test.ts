// Half of the OpenAPI fuzz (see fuzz-openapi-support.ts): every other operation, starting with the first.
import { fuzzOperations } from './fuzz-openapi-support.js'

fuzzOperations(0, 2)
