// Half of the OpenAPI fuzz (see fuzz-openapi-support.ts): every other operation, starting with the second.
import { fuzzOperations } from './fuzz-openapi-support.js'

fuzzOperations(1, 2)
