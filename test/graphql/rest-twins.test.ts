import { buildSchema, type GraphQLObjectType } from 'graphql'
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { routeTables } from '../../src/routes.js'
import { NO_TWIN, REST_TWINS } from './rest-twins.js'

// Every REST route of the route tables has a GraphQL twin (issue 30 §1), read from the checked-in schema: a root
// field of Query or Mutation, or a walk Type.field. A new route without one fails here until it gets a twin or a
// reasoned entry in NO_TWIN.

const schema = buildSchema(fs.readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'))
const routes = routeTables.map((r) => `${r.method.toUpperCase()} ${r.path}`)

function exists(twin: string): boolean {
  const [type, field] = twin.includes('.') ? twin.split('.') : [undefined, twin]
  if (type) return Boolean((schema.getType(type) as GraphQLObjectType | undefined)?.getFields?.()[field!])
  return Boolean(schema.getQueryType()!.getFields()[field!] ?? schema.getMutationType()!.getFields()[field!])
}

describe('REST ↔ GraphQL parity', () => {
  it('gives every REST route a GraphQL twin or a reasoned exception', () => {
    expect(routes.filter((r) => !(r in REST_TWINS) && !(r in NO_TWIN))).toEqual([])
  })

  it('names only twins the schema has', () => {
    expect(Object.entries(REST_TWINS).filter(([, twin]) => !exists(twin))).toEqual([])
  })

  it('lists no route the tables do not have, and no route both ways', () => {
    expect([...Object.keys(REST_TWINS), ...Object.keys(NO_TWIN)].filter((r) => !routes.includes(r))).toEqual([])
    expect(Object.keys(NO_TWIN).filter((r) => r in REST_TWINS)).toEqual([])
    for (const reason of Object.values(NO_TWIN)) expect(reason.length).toBeGreaterThan(20)
  })
})
