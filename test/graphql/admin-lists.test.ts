import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { graphqlStatements } from '../support/statements.js'
import { seedConsumers } from '../limits/limit-bulk-helpers.js'

// Issue 30 §1, what an admin UI meets: server-side paging and search on the lists that grow (credentials,
// environment variables, keys, certificates, connections; search on projects, API proxies, API clients), a
// password change for any signed-in user, a credential secret shown once, consumer create and disable. Rows are
// seeded straight into the database where a list needs many; the statements of a page are the same for 10 rows
// as for 100.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root', carol: 'carol-pass-1', bob: 'bob-pass-1' } })
const db = () => bed.svc.deps.prisma

async function gql(query: string, variables: Record<string, unknown> = {}, token = bed.root) {
  const { body } = await bed.svc.graphql(query, variables, token)
  if (body.errors) throw new Error(JSON.stringify(body.errors))
  return body.data
}
async function refused(query: string, variables: Record<string, unknown>, token = bed.root) {
  const { body } = await bed.svc.graphql(query, variables, token)
  expect(body.data ?? null).toBeNull()
  return body.errors![0]
}

async function freshProject(prefix: string) {
  const name = `${prefix}-${crypto.randomBytes(3).toString('hex')}`
  await gql('mutation ($p: String!) { createProject(input: { name: $p }) { name } }', { p: name })
  return db().project.findUniqueOrThrow({ where: { name } })
}

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`)

/** A project with `n` rows of each searchable list: variables, connections, certificates, keys, credentials. */
async function seedLists(n: number) {
  const project = await freshProject(`lists${n}`)
  const projectId = project.id
  await db().environmentVariable.createMany({ data: names('var', n).map((name) => ({ projectId, name, nameKey: name, global: true, globalValue: 'v' })) })
  await db().connection.createMany({ data: names('conn', n).map((name, i) => ({ projectId, name, nameKey: name, type: i % 2 ? 'syslog' : 'graylog', config: {} })) })
  await db().storedObject.createMany({ data: names('cert', n).map((name) => ({ projectId, type: 'CERTIFICATE', kind: 'CERTIFICATE', name, content: {} })) })
  await db().storedObject.createMany({ data: names('key', n).map((name) => ({ projectId, type: 'CERTIFICATE', kind: 'CRYPTO_KEY_INFO', name, content: {} })) })
  await seedConsumers(db() as never, project.name, `cred${n}`, n)
  return project.name
}

const PAGES = `query ($p: String!, $size: Int, $search: String) {
  credentialsPage(projectName: $p, size: $size, search: $search) { items { username organizationCode } totalElements totalPages page size }
  environmentVariablesPage(projectName: $p, size: $size, search: $search) { items { name globalValue } totalElements }
  certificatesPage(projectName: $p, size: $size, search: $search) { items { name } totalElements }
  cryptoKeysPage(projectName: $p, size: $size, search: $search) { items { name } totalElements }
  connectionsPage(projectName: $p, size: $size, search: $search) { items { name type } totalElements }
}`

describe('paged, searched lists of credentials, variables, certificates, keys and connections', () => {
  it('page and search in the database, in the same statements for 10 rows as for 100', async () => {
    const [ten, hundred] = [await seedLists(10), await seedLists(100)]
    const small = await graphqlStatements(bed.svc, PAGES, { p: ten, size: 10 }, bed.root)
    const large = await graphqlStatements(bed.svc, PAGES, { p: hundred, size: 100 }, bed.root)
    expect(large.statements.length).toBe(small.statements.length)
    expect(large.statements.filter((s) => /IN \(NULL\)/i.test(s))).toEqual([])
    expect(large.data.credentialsPage.items).toHaveLength(100)
    expect(large.data.environmentVariablesPage.items).toHaveLength(100)
    expect(large.data.connectionsPage.items).toHaveLength(100)

    // a page of 20 by name
    const page = await gql(`query ($p: String!) {
      environmentVariablesPage(projectName: $p, page: 1, size: 20) { items { name } page size totalElements totalPages sort }
      connectionsPage(projectName: $p, page: 2, size: 20) { items { name type } totalElements totalPages }
      certificatesPage(projectName: $p, page: 4, size: 20, sort: ["name,desc"]) { items { name } totalElements }
    }`, { p: hundred })
    expect(page.environmentVariablesPage).toEqual({ items: names('var', 40).slice(20).map((name) => ({ name })), page: 1, size: 20, totalElements: 100, totalPages: 5, sort: ['name,asc'] })
    expect(page.connectionsPage.totalElements).toBe(100)
    expect(page.connectionsPage.items.map((c: any) => [c.name, c.type])).toEqual(names('conn', 60).slice(40).map((name, i) => [name, i % 2 ? 'syslog' : 'graylog']))
    expect(page.certificatesPage.items.map((c: any) => c.name)).toEqual(names('cert', 20).reverse())

    // a search: case-insensitive contains, LIKE wildcards matched as themselves
    const found = await gql(PAGES, { p: hundred, size: 50, search: '09' }, bed.root)
    expect(found.credentialsPage.items.map((c: any) => c.username)).toEqual(['cred100-0009', 'cred100-0090', 'cred100-0091', 'cred100-0092', 'cred100-0093', 'cred100-0094', 'cred100-0095', 'cred100-0096', 'cred100-0097', 'cred100-0098', 'cred100-0099'])
    expect(found.environmentVariablesPage.items.map((v: any) => v.name)).toEqual(['var-009', 'var-090', 'var-091', 'var-092', 'var-093', 'var-094', 'var-095', 'var-096', 'var-097', 'var-098', 'var-099'])
    expect(found.cryptoKeysPage.totalElements).toBe(11)
    expect(found.certificatesPage.totalElements).toBe(11)
    expect(found.connectionsPage.items.map((c: any) => c.name)).toEqual(['conn-009', ...names('conn', 100).slice(90)])
    const syslog = await gql('query ($p: String!) { connectionsPage(projectName: $p, type: "syslog", search: "conn-00") { items { name } totalElements } }', { p: hundred })
    expect(syslog.connectionsPage).toEqual({ items: ['conn-001', 'conn-003', 'conn-005', 'conn-007', 'conn-009'].map((name) => ({ name })), totalElements: 5 })
    const upper = await gql(PAGES, { p: hundred, size: 5, search: 'VAR-01' })
    expect(upper.environmentVariablesPage.totalElements).toBe(10)
    const wildcard = await gql(PAGES, { p: hundred, size: 5, search: 'var_0%' })
    expect(wildcard.environmentVariablesPage.totalElements).toBe(0)
    // the same rows as the unpaged list answers
    const all = await gql('query ($p: String!) { environmentVariables(projectName: $p) { name } connections(projectName: $p) { name } }', { p: hundred })
    const whole = await gql(PAGES, { p: hundred, size: 200 })
    expect(whole.environmentVariablesPage.items.map((v: any) => v.name)).toEqual(all.environmentVariables.map((v: any) => v.name))
    expect(whole.connectionsPage.items.map((c: any) => c.name)).toEqual(all.connections.map((c: any) => c.name))
  })

  it('refuse a search over 200 characters, a bad page or sort, an unknown project and a caller without view', async () => {
    for (const field of ['credentialsPage', 'environmentVariablesPage', 'certificatesPage', 'cryptoKeysPage', 'connectionsPage']) {
      const long = await refused(`query { ${field}(projectName: "payments", search: "${'x'.repeat(201)}") { totalElements } }`, {})
      expect([field, long.extensions.errorKey, long.extensions.params.field]).toEqual([field, 'malformedRequest', 'search'])
      const sort = await refused(`query { ${field}(projectName: "payments", sort: ["bogus,asc"]) { totalElements } }`, {})
      expect([field, sort.extensions.errorKey, sort.extensions.params.field]).toEqual([field, 'unsupportedSortField', 'sort'])
      const page = await refused(`query { ${field}(projectName: "payments", page: -1) { totalElements } }`, {})
      expect([field, page.extensions.errorKey, page.extensions.params.field]).toEqual([field, 'malformedRequest', 'page'])
      const unknown = await refused(`query { ${field}(projectName: "no-such-project") { totalElements } }`, {})
      expect([field, unknown.extensions.errorKey]).toEqual([field, 'resourceNotFound'])
    }
    // carol may view identity only
    expect((await gql('{ credentialsPage(projectName: "payments") { totalElements } }', {}, bed.carol)).credentialsPage.totalElements).toBe(2)
    for (const field of ['environmentVariablesPage', 'certificatesPage', 'connectionsPage']) {
      const denied = await refused(`query { ${field}(projectName: "payments") { totalElements } }`, {}, bed.carol)
      expect([field, denied.extensions.errorKey]).toEqual([field, 'permissionDenied'])
    }
    const badType = await refused('query { connectionsPage(projectName: "payments", type: "carrier-pigeon") { totalElements } }', {})
    expect([badType.extensions.errorKey, badType.extensions.params.field]).toEqual(['malformedRequest', 'type'])
  })

  it('search projects, API proxies and API clients', async () => {
    const projects = await gql('{ projects(search: "PAY") { items { name } totalElements } }')
    expect(projects.projects).toEqual({ items: [{ name: 'payments' }], totalElements: 1 })
    // carol sees only the projects she is a member of, searched or not
    expect((await gql('{ projects(search: "o") { items { name } } }', {}, bed.carol)).projects.items).toEqual([])
    await gql('mutation { createApiProxy(projectName: "payments", input: { name: "search-me" }) { name } }')
    const proxies = await gql('{ apiProxies(projectName: "payments", search: "SEARCH") { items { name } totalElements } none: apiProxies(projectName: "payments", search: "zzz") { totalElements } }')
    expect(proxies).toEqual({ apiProxies: { items: [{ name: 'search-me' }], totalElements: 1 }, none: { totalElements: 0 } })
    const clients = await gql('{ byName: apiClients(projectName: "payments", search: "WEB") { items { name } } byId: apiClients(projectName: "payments", search: "web-id") { items { clientId } } }')
    expect(clients).toEqual({ byName: { items: [{ name: 'checkout-web' }] }, byId: { items: [{ clientId: 'checkout-web-id' }] } })
    const long = await refused(`{ projects(search: "${'y'.repeat(201)}") { totalElements } }`, {})
    expect([long.extensions.errorKey, long.extensions.params.field]).toEqual(['malformedRequest', 'search'])
  })
})

describe('changeMyPassword', () => {
  const CHANGE = 'mutation ($c: String!, $n: String!) { changeMyPassword(currentPassword: $c, newPassword: $n) { username } }'

  it('lets any signed-in user change its own password, giving the current one', async () => {
    const token = await bed.svc.tokenFor('bob', 'bob-pass-1')
    const wrong = await refused(CHANGE, { c: 'not-it', n: 'bob-pass-2' }, token)
    expect([wrong.extensions.errorKey, wrong.extensions.params]).toEqual(['malformedRequest', { reason: 'wrongCurrentPassword', field: 'currentPassword' }])
    const same = await refused(CHANGE, { c: 'bob-pass-1', n: 'bob-pass-1' }, token)
    expect([same.extensions.errorKey, same.extensions.params.field]).toEqual(['malformedRequest', 'newPassword'])
    const empty = await refused(CHANGE, { c: 'bob-pass-1', n: '' }, token)
    expect([empty.extensions.errorKey, empty.extensions.params.field]).toEqual(['malformedRequest', 'newPassword'])
    // nothing changed: the old password still signs in
    await bed.svc.tokenFor('bob', 'bob-pass-1')
    expect(await gql(CHANGE, { c: 'bob-pass-1', n: 'bob-pass-2' }, token)).toEqual({ changeMyPassword: { username: 'bob' } })
    await bed.svc.tokenFor('bob', 'bob-pass-2')
    await expect(bed.svc.tokenFor('bob', 'bob-pass-1')).rejects.toThrow()
  })

  it('needs a signed-in user', async () => {
    const anonymous = await refused(CHANGE, { c: 'x', n: 'y' }, '')
    expect(anonymous.extensions.code).toBe('UNAUTHENTICATED')
  })
})

describe('resetCredentialSecret', () => {
  const RESET = 'mutation ($u: String!) { resetCredentialSecret(projectName: "payments", username: $u) { secret credential { username } deploymentResult { success } } }'

  it('issues a new password, deploys it, and answers it this once', async () => {
    const before = await db().credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })
    const r = (await gql(RESET, { u: 'shop-frontend' })).resetCredentialSecret
    expect(r.secret).toMatch(/^[\w-]{32}$/)
    expect(r.credential.username).toBe('shop-frontend')
    expect(r.deploymentResult.success).toBe(true)
    const after = await db().credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })
    expect(after.revision).toBe(before.revision + 1)
    expect(bed.svc.deps.keyring.decrypt(after.passwordCipher!)).toBe(r.secret)
    expect(JSON.stringify(bed.dev.received.at(-1))).toContain('shop-frontend')
    // never read back: no field of the credential carries it
    expect(JSON.stringify(await gql('{ credential(projectName: "payments", username: "shop-frontend") { username consumerKey fullName } }'))).not.toContain(r.secret)
    expect((await gql(RESET, { u: 'shop-frontend' })).resetCredentialSecret.secret).not.toBe(r.secret)
  })

  it('is refused to a viewer and for an unknown credential, changing nothing', async () => {
    const before = await db().credential.findUniqueOrThrow({ where: { username: 'ldap-synced' } })
    const denied = await refused(RESET, { u: 'ldap-synced' }, bed.carol)
    expect(denied.extensions.errorKey).toBe('permissionDenied')
    const unknown = await refused(RESET, { u: 'nobody-here' }, bed.root)
    expect([unknown.extensions.errorKey, unknown.extensions.params.credential]).toEqual(['resourceNotFound', 'nobody-here'])
    expect(await db().credential.findUniqueOrThrow({ where: { username: 'ldap-synced' } })).toEqual(before)
  })
})

describe('createConsumer, disableConsumer, enableConsumer', () => {
  const CREATE = 'mutation ($i: ConsumerInput!) { createConsumer(projectName: "payments", input: $i) { consumer { consumerKey username fullName enabled organizationCode } deploymentResult { success } } }'

  it('creates a consumer, disables and enables it, each deployed', async () => {
    const created = (await gql(CREATE, { i: { username: 'console-consumer', fullName: 'Console Consumer', organizationCode: 'acme' } })).createConsumer
    expect(created.consumer).toEqual({ consumerKey: expect.stringMatching(/^csm/), username: 'console-consumer', fullName: 'Console Consumer', enabled: true, organizationCode: 'acme' })
    expect(created.deploymentResult.success).toBe(true)
    const key = created.consumer.consumerKey
    const disabled = await gql('mutation ($k: String!) { disableConsumer(projectName: "payments", consumerKey: $k) { consumer { enabled } deploymentResult { success } } }', { k: key })
    expect(disabled.disableConsumer).toEqual({ consumer: { enabled: false }, deploymentResult: { success: true } })
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'DEPLOY', kind: 'CREDENTIAL', name: 'console-consumer', config: { enabled: false } })
    expect((await db().credential.findUniqueOrThrow({ where: { consumerKey: key } })).enabled).toBe(false)
    const enabled = await gql('mutation ($k: String!) { enableConsumer(projectName: "payments", consumerKey: $k) { consumer { enabled } } }', { k: key })
    expect(enabled.enableConsumer.consumer.enabled).toBe(true)
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'DEPLOY', kind: 'CREDENTIAL', name: 'console-consumer', config: { enabled: true } })
  })

  it('refuses a taken user name, an unknown organization or consumer and a viewer, writing nothing', async () => {
    const count = await db().credential.count()
    const taken = await refused(CREATE, { i: { username: 'shop-frontend' } })
    expect(taken.extensions.params.field).toBe('username')
    const org = await refused(CREATE, { i: { username: 'orphan', organizationCode: 'nope' } })
    expect(org.extensions.errorKey).toBe('resourceNotFound')
    const denied = await refused(CREATE, { i: { username: 'by-carol' } }, bed.carol)
    expect(denied.extensions.errorKey).toBe('permissionDenied')
    expect(await db().credential.count()).toBe(count)
    const unknown = await refused('mutation { disableConsumer(projectName: "payments", consumerKey: "csm_nope") { consumer { enabled } } }', {})
    expect([unknown.extensions.errorKey, unknown.extensions.params.consumer]).toEqual(['resourceNotFound', 'csm_nope'])
    const shop = await db().credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })
    const viewer = await refused('mutation ($k: String!) { disableConsumer(projectName: "payments", consumerKey: $k) { consumer { enabled } } }', { k: shop.consumerKey }, bed.carol)
    expect(viewer.extensions.errorKey).toBe('permissionDenied')
    expect((await db().credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })).enabled).toBe(true)
  })
})
