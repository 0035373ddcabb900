import { createClient } from 'graphql-ws'
import WebSocket from 'ws'
import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { jsonOf } from '../support/http.js'

// The GraphQL door reads the caller's token and the project a query names in one statement (as the REST door does
// for a GET), leaves plain fields to graphql-js's default resolver, and records mutations through their own
// resolvers rather than a per-field plugin hook (issue 31 §2). What a caller sees must not change: the same rows
// as REST, the same refusals for a project out of reach whichever way the query names it, `no-store`.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root', carol: 'carol-pass-1', alice: 'alice-pass-1' } })

const PAGE = `query ($p: String!) { consumers(projectName: $p, page: 0, size: 20) {
  totalElements totalPages page size sort items { username fullName consumerKey enabled description email expireDate organizationCode trafficLogDisabled } } }`

async function post(query: string, variables: Record<string, unknown>, token?: string) {
  const res = await bed.svc.http('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  })
  return { res, body: (await jsonOf(res)) as { data?: any; errors?: any[] } }
}

describe('the GraphQL door', () => {
  it('answers a page with the rows and fields of the REST page, by variable and by literal, no-store', async () => {
    const rest = await jsonOf(await bed.svc.http('/apiops/projects/payments/consumers?page=0&size=20', { headers: { authorization: `Bearer ${bed.carol}` } }))
    const byVariable = await post(PAGE, { p: 'payments' }, bed.carol)
    expect(byVariable.res.status).toBe(200)
    expect(byVariable.res.headers.get('cache-control')).toBe('no-store')
    expect(byVariable.body.errors).toBeUndefined()
    const page = byVariable.body.data.consumers
    expect(page.totalElements).toBe(rest.totalElements)
    expect(page.items.map((c: any) => c.username)).toEqual(rest.items.map((c: any) => c.username))
    const shop = page.items.find((c: any) => c.username === 'shop-frontend')
    expect(shop).toMatchObject({ fullName: 'Shop Frontend', email: 'shop@example.test', enabled: true, organizationCode: 'acme', description: null, expireDate: null })
    expect(shop.consumerKey).toMatch(/\S/)
    const byLiteral = await post(PAGE.replace('($p: String!) ', '').replace('$p', '"payments"'), {}, bed.carol)
    expect(byLiteral.body).toEqual(byVariable.body)
  })

  it('refuses a project out of reach wherever the query names it', async () => {
    // a refusal nulls the whole answer (the page is non-null); it names the project refused, first or second
    const two = `query ($x: String!, $y: String!) {
      a: consumers(projectName: $x, page: 0, size: 1) { totalElements }
      b: consumers(projectName: $y, page: 0, size: 1) { totalElements } }`
    for (const [x, y, path] of [['other', 'payments', 'a'], ['payments', 'other', 'b']]) {
      const { res, body } = await post(two, { x, y }, bed.carol)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(body.data).toBeNull()
      expect(body.errors).toHaveLength(1)
      expect(body.errors![0]).toMatchObject({ path: [path], extensions: { code: 'NOT_FOUND', errorKey: 'resourceNotFound', params: { project: 'other' } } })
    }
    const both = await post(two, { x: 'payments', y: 'payments' }, bed.carol)
    expect(both.body).toEqual({ data: { a: { totalElements: expect.any(Number) }, b: { totalElements: expect.any(Number) } } })
    // the platform project, a name no project can have, and a variable that is not a string are left to the operation
    const platform = await post(PAGE, { p: 'admin' }, bed.carol)
    expect(platform.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', params: { reason: 'platformScopeNotSupported' } })
    const impossible = await post(PAGE, { p: 'no such/name' }, bed.carol)
    expect(impossible.body.data ?? null).toBeNull()
    expect(impossible.body.errors![0].extensions).toMatchObject({ code: 'NOT_FOUND', params: { project: 'no such/name' } })
    const notString = await post(PAGE, { p: 7 }, bed.carol)
    expect(notString.body.errors![0].extensions.code).toBe('BAD_USER_INPUT')
    // a member without the permission is refused as before; the project named first is no one else's
    const manage = await post(`mutation ($p: String!) { createConsumer(projectName: $p, input: { username: "door-refused" }) { consumer { username } } }`, { p: 'payments' }, bed.carol)
    expect(manage.body.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', errorKey: 'permissionDenied' })
    expect(await bed.svc.deps.prisma.credential.count({ where: { username: 'door-refused' } })).toBe(0)
  })

  it('refuses a bad token before the operation, with 401 and no-store; no token is an anonymous caller', async () => {
    const bad = await post(PAGE, { p: 'payments' }, 'not-a-token')
    expect(bad.res.status).toBe(401)
    expect(bad.res.headers.get('cache-control')).toBe('no-store')
    expect(bad.body.errors![0].extensions).toMatchObject({ code: 'UNAUTHENTICATED', errorKey: 'unauthorized' })
    const anonymous = await post(PAGE, { p: 'payments' })
    expect(anonymous.body.errors![0].extensions).toMatchObject({ code: 'UNAUTHENTICATED' })
  })

  it('answers in the type the accept header asks for, refuses one GraphQL cannot answer in, and reads a GET query string', async () => {
    const asking = async (accept?: string) => bed.svc.http('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bed.carol}`, ...(accept === undefined ? {} : { accept }) },
      body: JSON.stringify({ query: '{ __typename }' }),
    })
    // no accept header, any type, plain JSON: application/json (handed to Apollo as no accept header)
    for (const accept of [undefined, '*/*', 'application/json']) {
      const res = await asking(accept)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(await jsonOf(res)).toEqual({ data: { __typename: 'Query' } })
    }
    const graphqlResponse = await asking('application/graphql-response+json, application/json;q=0.9')
    expect(graphqlResponse.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8')
    const html = await asking('text/html')
    expect(html.status).toBe(406)
    expect((await jsonOf(html)).errors[0].extensions.code).toBe('BAD_REQUEST')
    // an incremental-delivery operation is refused for `*/*` as for no accept header
    for (const accept of [undefined, '*/*']) {
      const res = await bed.svc.http('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bed.carol}`, ...(accept === undefined ? {} : { accept }) },
        body: JSON.stringify({ query: '{ ... @defer { __typename } }' }),
      })
      expect([400, 406]).toContain(res.status)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    }
    const get = await bed.svc.http(`/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: { authorization: `Bearer ${bed.carol}`, 'apollo-require-preflight': 'true' } })
    expect(get.status).toBe(200)
    expect(await jsonOf(get)).toEqual({ data: { __typename: 'Query' } })
  })

  it('reads a body sent in chunks without a length, and refuses one over the limit 413 in the GraphQL error format', async () => {
    const chunked = (parts: string[]) => bed.svc.http('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bed.carol}` },
      body: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(new TextEncoder().encode(part))
          controller.close()
        },
      }),
      duplex: 'half',
    } as RequestInit)
    const text = JSON.stringify({ query: PAGE, variables: { p: 'payments' } })
    const split = await chunked([text.slice(0, 40), text.slice(40, 90), text.slice(90)])
    expect(split.status).toBe(200)
    expect((await jsonOf(split)).data.consumers.items.length).toBeGreaterThan(0)
    const padding = 'x'.repeat(64 * 1024)
    const big = await chunked(['{"query":"{ __typename }","variables":{"x":"', ...Array.from({ length: 170 }, () => padding), '"}}'])
    expect(big.status).toBe(413)
    expect((await jsonOf(big)).errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorKey: 'malformedRequest', params: { reason: 'bodyTooLarge' } })
    // the connection still answers afterwards
    expect((await post('{ __typename }', {}, bed.carol)).body).toEqual({ data: { __typename: 'Query' } })
  })

  it('records a mutation once, with its object, and nothing for a refused one', async () => {
    const username = `door-${Date.now()}`
    const created = await post(`mutation ($p: String!, $u: String!) { createConsumer(projectName: $p, input: { username: $u }) { consumer { username } } }`,
      { p: 'payments', u: username }, bed.alice)
    expect(created.body.errors).toBeUndefined()
    const events = await bed.svc.deps.prisma.auditEvent.findMany({ where: { operation: 'createConsumer', objectName: username } })
    expect(events).toMatchObject([{ surface: 'GRAPHQL', actor: 'alice', projectName: 'payments', objectType: 'Consumer', outcome: 'SUCCEEDED' }])
    const before = await bed.svc.deps.prisma.auditEvent.count({ where: { operation: 'createConsumer' } })
    await post(`mutation ($p: String!) { createConsumer(projectName: $p, input: { username: "door-refused-2" }) { consumer { username } } }`, { p: 'payments' }, bed.carol)
    expect(await bed.svc.deps.prisma.auditEvent.count({ where: { operation: 'createConsumer' } })).toBe(before)
  })

  it('records a mutation sent over graphql-ws too: the audit lives in the mutation resolvers, not in Apollo', async () => {
    const username = `door-ws-${Date.now()}`
    const client = createClient({ url: bed.svc.url.replace(/^http/, 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${bed.alice}` }, retryAttempts: 0, lazy: true })
    try {
      const result = await new Promise<any>((resolve, reject) => {
        let value: unknown
        client.subscribe({ query: `mutation ($p: String!, $u: String!) { createConsumer(projectName: $p, input: { username: $u }) { consumer { username } } }`, variables: { p: 'payments', u: username } }, {
          next: (v) => (value = v), error: reject, complete: () => resolve(value),
        })
      })
      expect(result.errors).toBeUndefined()
      expect(result.data.createConsumer.consumer.username).toBe(username)
    } finally {
      await client.dispose()
    }
    // the event commits with the write; its settling (outcome and object) is not awaited by the socket's answer
    await expect.poll(() => bed.svc.deps.prisma.auditEvent.findMany({ where: { operation: 'createConsumer', objectName: username } }))
      .toMatchObject([{ surface: 'GRAPHQL', actor: 'alice', projectName: 'payments', outcome: 'SUCCEEDED' }])
  })
})
