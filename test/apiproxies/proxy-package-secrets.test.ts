import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { jsonOfFile, unzip } from '../support/zip-fixtures.js'
import { automationBootstrap, legacy } from './automation-proxy-support.js'

// Every secret of an API proxy package, settings and policies alike, follows one rule (docs/apiproxies.md, "Export
// and import"; README "Secrets in export packages"): out of `data`, in the object file's `secrets` per the export's
// secretHandling; on import restored when it opens here, otherwise not, and the answer's advisories say so.

let svc: TestService
let elsewhere: TestService // another installation: another master key
let gina: string // payments: MANAGE, DEPLOY_UNDEPLOY, EXPORT_IMPORT; other: MANAGE, EXPORT_IMPORT
let ginaElsewhere: string

const SECRET_KEY = 'sk_secret_value_1234'
const NTLM = 'ntlm-clear-pass-1'
const PROXY_PASS = 'proxy-clear-pass-2'
const WS = 'ws-clear-pass-3'
const CLEAR = [SECRET_KEY, NTLM, PROXY_PASS, WS]
const KEYS = ['policies/ws-user/password', 'settings/apiKeys.secretKey', 'settings/ntlm.password', 'settings/proxyServer.proxyPassword']
const OTHER_MASTER_KEY = Buffer.alloc(32, 9).toString('base64')

function bootstrap() {
  const doc = automationBootstrap({ dev: [], prod: [] })
  doc.projects[1]!.members = [{ username: 'gina', permissions: [{ category: 'API_MANAGEMENT', level: 'MANAGE' }, { category: 'API_MANAGEMENT', level: 'EXPORT_IMPORT' }] }]
  return doc
}

const exportAs = async (query = '', on = svc, token = gina) => {
  const res = await on.http(`/apiops/projects/payments/apiProxies/SecretAPI/export/${query}`, { headers: { authorization: `Bearer ${token}` } })
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) }
}
const objectOf = (bytes: Buffer) => jsonOfFile(unzip(bytes), 'SecretAPI.json')
const manifestOf = (bytes: Buffer) => jsonOfFile(unzip(bytes), 'service-transfer-manifest.json')
const textOf = (bytes: Buffer) => [...unzip(bytes).values()].map((b) => b.toString('utf8')).join('\n')

async function importInto(bytes: Buffer, on = svc, token = gina) {
  const form = new FormData()
  form.append('apiProxyExportFile', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), 'apiProxyExportFile.zip')
  return legacy(on, 'POST', 'other/apiProxies/import/', token, form)
}

/** The secrets the imported proxy holds, opened with the keyring of the installation that stores them. */
async function storedSecrets(on: TestService, name: string) {
  const proxy = await on.deps.prisma.apiProxy.findFirstOrThrow({ where: { name, project: { name: 'other' } }, include: { policies: true } })
  const s = proxy.settings as any
  const open = (v: unknown) => (typeof v === 'string' ? on.deps.keyring.decrypt(v) : v ?? null)
  const ws = proxy.policies.find((p) => p.name === 'ws-user')!.config as any
  return { secretKey: open(s.apiKeys?.secretKey), ntlm: open(s.ntlm?.password), proxyPassword: open(s.proxyServer?.proxyPassword), ws: open(ws.password), raw: JSON.stringify({ s, ws }) }
}
const detailOf = async (on: TestService, name: string, token: string) => (await legacy(on, 'GET', `other/apiProxies/${name}/`, token)).body

beforeAll(async () => {
  svc = await startTestService({ bootstrap: bootstrap() })
  elsewhere = await startTestService({ bootstrap: bootstrap(), env: { GATEWAY_SECRET_KEY: OTHER_MASTER_KEY } })
  ;[gina, ginaElsewhere] = await Promise.all([svc.tokenFor('gina', 'gina-pass-1'), elsewhere.tokenFor('gina', 'gina-pass-1')])
  const call = (method: string, path: string, body: unknown) => legacy(svc, method, `payments/apiProxies/${path}`, gina, body)
  const steps = [
    await call('POST', 'url/', { apiProxyName: 'SecretAPI', apiProxyCreationType: 'REVERSE_PROXY', clientRoute: { relativePathList: ['/secret-api'] } }),
    await call('PATCH', 'SecretAPI/settings/keys/', { publicKey: 'ak_public_1234', secretKey: SECRET_KEY }),
    await call('PATCH', 'SecretAPI/settings/ntlm/', { enabled: true, domain: 'CORP', username: 'svc', password: NTLM }),
    await call('PATCH', 'SecretAPI/settings/proxy-server/', { proxyEnabled: true, proxyHost: 'proxy.example.com', proxyPort: 3128, proxyAuthorizationNeeded: true, proxyUsername: 'p', proxyPassword: PROXY_PASS }),
    await call('POST', 'SecretAPI/policies/ws-user/', { operationMetadata: { targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: false }, policy: { type: 'policy-ws-security-username', username: 'soap-user', passwordType: 'PasswordText', password: WS } }),
  ]
  for (const step of steps) if (step.status !== 200) throw new Error(JSON.stringify(step.body))
})
afterAll(async () => {
  await Promise.all([svc?.close(), elsewhere?.close()])
})

describe('export: every secret of the proxy per secretHandling', () => {
  it('CIPHERTEXT_VERBATIM (default): settings and policy secrets re-sealed in `secrets`, none in `data`, none in clear', async () => {
    const { status, bytes } = await exportAs()
    expect(status).toBe(200)
    const object = objectOf(bytes)
    expect(Object.keys(object.secrets).sort()).toEqual(KEYS)
    for (const key of KEYS) expect(object.secrets[key]).toEqual({ handling: 'CIPHERTEXT_VERBATIM', value: expect.stringMatching(/^v1\./) })
    expect(manifestOf(bytes)).toMatchObject({ secretHandling: 'CIPHERTEXT_VERBATIM', criticalFeatures: ['secrets.ciphertextVerbatim'] })
    expect(object.data.settings.ntlm).not.toHaveProperty('password')
    expect(object.data.settings.apiKeys).toEqual({ publicKey: 'ak_public_1234' })
    expect(object.data.settings.proxyServer).not.toHaveProperty('proxyPassword')
    expect(object.data.policies[0].policy).not.toHaveProperty('password')
    const text = textOf(bytes)
    for (const clear of CLEAR) expect(text).not.toContain(clear)
    expect(JSON.stringify(object.data)).not.toMatch(/v1\.[0-9a-f]{8}\./)
  })

  it('DECRYPTED_FOR_EXPORT: the clear values in `secrets` only', async () => {
    const { bytes } = await exportAs('?secretHandling=DECRYPTED_FOR_EXPORT')
    const object = objectOf(bytes)
    expect(object.secrets).toEqual({
      'settings/apiKeys.secretKey': { handling: 'DECRYPTED_FOR_EXPORT', value: SECRET_KEY },
      'settings/ntlm.password': { handling: 'DECRYPTED_FOR_EXPORT', value: NTLM },
      'settings/proxyServer.proxyPassword': { handling: 'DECRYPTED_FOR_EXPORT', value: PROXY_PASS },
      'policies/ws-user/password': { handling: 'DECRYPTED_FOR_EXPORT', value: WS },
    })
    expect(manifestOf(bytes)).toMatchObject({ secretHandling: 'DECRYPTED_FOR_EXPORT', criticalFeatures: [] })
    for (const clear of CLEAR) expect(JSON.stringify(object.data)).not.toContain(clear)
  })

  it('NONE: secrets named, no value', async () => {
    const { bytes } = await exportAs('?secretHandling=NONE')
    const object = objectOf(bytes)
    expect(object.secrets).toEqual(Object.fromEntries(KEYS.map((k) => [k, { handling: 'NONE' }])))
    expect(manifestOf(bytes).secretHandling).toBe('NONE')
    expect(textOf(bytes)).not.toMatch(/v1\.[0-9a-f]{8}\./)
    for (const clear of CLEAR) expect(textOf(bytes)).not.toContain(clear)
  })

  it('refuses an unknown secretHandling with a 400 naming it', async () => {
    for (const bad of ['PLAIN', 'none', '']) {
      const res = await svc.http(`/apiops/projects/payments/apiProxies/SecretAPI/export/?secretHandling=${bad}`, { headers: { authorization: `Bearer ${gina}` } })
      expect(res.status).toBe(400)
      const body = (await res.json()) as { status: string; resultMessage: string }
      expect(body).toMatchObject({ status: 'FAILURE' })
      expect(body.resultMessage).toMatch(/^secretHandling: /)
    }
  })
})

describe('import: a secret that opens is restored, one that does not is not, and the answer says so', () => {
  it('CIPHERTEXT_VERBATIM into this installation: every secret restored, sealed again', async () => {
    const res = await importInto((await exportAs()).bytes)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true, apiProxyName: 'SecretAPI', advisories: [] })
    const stored = await storedSecrets(svc, 'SecretAPI')
    expect(stored).toMatchObject({ secretKey: SECRET_KEY, ntlm: NTLM, proxyPassword: PROXY_PASS, ws: WS })
    for (const clear of CLEAR) expect(stored.raw).not.toContain(clear)
    const detail = await detailOf(svc, 'SecretAPI', gina)
    expect(detail).toMatchObject({ apiKeys: { publicKey: 'ak_public_1234', secretKeySet: true }, ntlmSettings: { passwordSet: true }, proxyServerSettings: { proxyPasswordSet: true } })
    for (const clear of CLEAR) expect(JSON.stringify(detail)).not.toContain(clear)
  })

  it('DECRYPTED_FOR_EXPORT: restored and sealed', async () => {
    const res = await importInto((await exportAs('?secretHandling=DECRYPTED_FOR_EXPORT')).bytes)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true, apiProxyName: 'SecretAPI-1', advisories: [] })
    const stored = await storedSecrets(svc, 'SecretAPI-1')
    expect(stored).toMatchObject({ secretKey: SECRET_KEY, ntlm: NTLM, proxyPassword: PROXY_PASS, ws: WS })
    for (const clear of CLEAR) expect(stored.raw).not.toContain(clear)
  })

  it('NONE: created without them; advisory transfer.secretNotCarried naming them', async () => {
    const res = await importInto((await exportAs('?secretHandling=NONE')).bytes)
    expect(res.body).toEqual({
      status: 'SUCCESS', success: true, apiProxyName: 'SecretAPI-2',
      advisories: [{ level: 'WARNING', key: 'transfer.secretNotCarried', params: { object: 'API_PROXY/SecretAPI', fields: KEYS } }],
    })
    expect(await storedSecrets(svc, 'SecretAPI-2')).toMatchObject({ secretKey: null, ntlm: null, proxyPassword: null, ws: null })
    expect(await detailOf(svc, 'SecretAPI-2', gina)).toMatchObject({ apiKeys: { secretKeySet: false }, ntlmSettings: { passwordSet: false }, proxyServerSettings: { proxyPasswordSet: false } })
  })

  it('another installation\'s ciphertext is not restored; advisory transfer.secretUnavailable naming every secret', async () => {
    const res = await importInto((await exportAs()).bytes, elsewhere, ginaElsewhere)
    expect(res.body).toEqual({
      status: 'SUCCESS', success: true, apiProxyName: 'SecretAPI',
      advisories: [{ level: 'WARNING', key: 'transfer.secretUnavailable', params: { object: 'API_PROXY/SecretAPI', fields: KEYS } }],
    })
    const stored = await storedSecrets(elsewhere, 'SecretAPI')
    expect(stored).toMatchObject({ secretKey: null, ntlm: null, proxyPassword: null, ws: null })
    expect(await detailOf(elsewhere, 'SecretAPI', ginaElsewhere)).toMatchObject({ apiKeys: { publicKey: 'ak_public_1234', secretKeySet: false }, ntlmSettings: { passwordSet: false }, proxyServerSettings: { proxyPasswordSet: false } })
  })

  it('an override keeps the target\'s secrets the package does not restore; a DECRYPTED_FOR_EXPORT package restores them there', async () => {
    const form = (bytes: Buffer) => {
      const f = new FormData()
      f.append('apiProxyExportFile', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), 'apiProxyExportFile.zip')
      return f
    }
    const replaced = await legacy(elsewhere, 'PUT', 'other/apiProxies/SecretAPI/import/', ginaElsewhere, form((await exportAs('?secretHandling=DECRYPTED_FOR_EXPORT')).bytes))
    expect(replaced.body).toEqual({ status: 'SUCCESS', success: true, advisories: [] })
    expect(await storedSecrets(elsewhere, 'SecretAPI')).toMatchObject({ secretKey: SECRET_KEY, ntlm: NTLM, proxyPassword: PROXY_PASS, ws: WS })
    const kept = await legacy(elsewhere, 'PUT', 'other/apiProxies/SecretAPI/import/', ginaElsewhere, form((await exportAs()).bytes))
    expect(kept.body).toEqual({ status: 'SUCCESS', success: true, advisories: [expect.objectContaining({ key: 'transfer.secretUnavailable', params: { object: 'API_PROXY/SecretAPI', fields: KEYS } })] })
    expect(await storedSecrets(elsewhere, 'SecretAPI')).toMatchObject({ secretKey: SECRET_KEY, ntlm: NTLM, proxyPassword: PROXY_PASS, ws: WS })
  })
})
