import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importPackage, transferExport, unzip } from '../support/zip-fixtures.js'
import { CRUD_EMAIL } from './examples.js'
import { startConnectionEnv, type ConnectionEnv } from './support.js'

// Typed connections travel in transfer packages as CONNECTION objects: fields as data, secret fields per
// secretHandling; an import writes them sealed and deploys the ones that deploy to workers.
let env: ConnectionEnv

beforeAll(async () => {
  env = await startConnectionEnv()
})
afterAll(async () => {
  await env?.close()
})

const stored = (project: string) =>
  env.svc.deps.prisma.connection.findFirstOrThrow({ where: { project: { name: project }, nameKey: CRUD_EMAIL.name.toLowerCase() } })

describe('a connection through export and import', () => {
  it('arrives with its fields and its sealed password, and is deployed in the target project', async () => {
    expect((await env.json('manager', 'POST', `/apiops/projects/MyProject/connections/${CRUD_EMAIL.name}/`, CRUD_EMAIL)).status).toBe(200)
    const root = env.tokens.root!
    const { bytes } = await transferExport(env.svc, root, 'MyProject', { formatVersion: 1, type: 'CONNECTION', names: [CRUD_EMAIL.name] })
    const packaged = [...unzip(bytes).values()].map((b) => b.toString('utf8')).join('\n')
    expect(packaged).not.toContain(CRUD_EMAIL.password)
    expect(packaged).toContain('smtp.gmail.com')

    env.resetWorkers()
    const imported = await importPackage(env.svc, root, 'Other', 'CONNECTION', bytes)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    expect(imported.body.imported).toEqual([{ type: 'CONNECTION', kind: null, name: CRUD_EMAIL.name }])

    const read = await env.json('outsider', 'GET', `/apiops/projects/Other/connections/${CRUD_EMAIL.name}/`)
    expect(read.status).toBe(200)
    expect(JSON.stringify(read.body)).not.toContain(CRUD_EMAIL.password)
    const copy = await stored('Other')
    const source = await stored('MyProject')
    expect(copy.config).toEqual(source.config)
    const sealed = (copy.secrets as Record<string, string>).password!
    expect(sealed).toMatch(/^v1\./)
    expect(env.svc.deps.keyring.decrypt(sealed)).toBe(CRUD_EMAIL.password)
    const pushed = env.workers.staging.received.find((m: any) => m.kind === 'CONNECTION' && m.name === CRUD_EMAIL.name) as any
    expect(pushed?.config).toMatchObject({ type: 'email', host: 'smtp.gmail.com', password: CRUD_EMAIL.password })
  })

  it('REPLACE without secrets (secretHandling NONE) keeps the target password', async () => {
    const root = env.tokens.root!
    const { bytes } = await transferExport(env.svc, root, 'MyProject', { formatVersion: 1, type: 'CONNECTION', names: [CRUD_EMAIL.name], secretHandling: 'NONE' })
    const replaced = await importPackage(env.svc, root, 'Other', 'CONNECTION', bytes, { conflictPolicy: 'REPLACE' })
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200)
    const copy = await stored('Other')
    expect(copy.revision).toBe(2)
    expect(env.svc.deps.keyring.decrypt((copy.secrets as Record<string, string>).password!)).toBe(CRUD_EMAIL.password)
  })
})
