// Issue 28 §2: `success: true` beside `status: SUCCESS` on every legacy answer, one rule of the legacy envelope
// (withLegacySuccess, applied by the router): the certificate, key, keystore, JWK and truststore reads and the
// endpoint list the issue names, and every other legacy read of the route tables. A failure keeps its body
// (status FAILURE, resultMessage) without `success`, as the vendor pages show no `success` on a failure.
import crypto from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { routeTables } from '../../src/routes.js'
import { withLegacySuccess } from '../../src/platform/envelopes/legacy.js'
import { form, makeCertificate } from '../keys/support.js'
import { useTestbed } from '../support/testbed.js'

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root', carol: 'carol-pass-1' } })
const P = '/apiops/projects/payments'

async function call(method: string, path: string, body?: unknown, token = bed.root) {
  const isForm = body instanceof FormData
  const res = await bed.svc.http(path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  })
  const json = (res.headers.get('content-type') ?? '').includes('application/json')
  return { status: res.status, body: json ? ((await res.json()) as any) : await res.text() }
}

let endpointId = ''
const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
const b64pem = (k: crypto.KeyObject, type: 'spki' | 'pkcs8') => Buffer.from(k.export({ type, format: 'pem' }).toString()).toString('base64')

beforeAll(async () => {
  const created = [
    await call('POST', `${P}/certificates/`, form({ certificateName: 'site-cert', alias: 'site', environmentList: 'dev' }, { content: makeCertificate({ cn: 'site.example.com' }).pem })),
    await call('POST', `${P}/keys/`, { name: 'site-key', keyType: 'RSA', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', publicKey: b64pem(rsa.publicKey, 'spki'), privateKey: b64pem(rsa.privateKey, 'pkcs8') }] }),
    await call('POST', `${P}/jwks/generate`, { name: 'site-jwk', type: 'OCT', oct: { keySize: 128 } }),
    await call('POST', `${P}/apiProxies/orders-api/endpoints/`, { name: '/orders', httpMethod: 'GET', backendResourceUrl: '/orders', backendHttpMethod: 'GET' }),
  ]
  expect(created.map((c) => c.status), JSON.stringify(created.map((c) => c.body))).toEqual([200, 200, 200, 200])
  endpointId = (await bed.svc.deps.prisma.gatewayEndpoint.findFirstOrThrow({ where: { path: '/orders', apiProxy: { name: 'orders-api' } } })).id
})

/** Path values naming the objects made above or in the sample installation. */
const VALUES: Record<string, string> = {
  projectName: 'payments', apiProxyName: 'orders-api', certificateName: 'site-cert', keyName: 'site-key', keystoreName: 'edge-ks',
  jwkName: 'site-jwk', environmentName: 'dev', username: 'shop-frontend', apiProxyGroupName: 'retail', ipGroupName: 'office-ips',
}
const urlOf = (path: string) => path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(name === 'endpointId' ? endpointId : VALUES[name] ?? `probe-${name}`))

describe('success: true beside status SUCCESS on every legacy answer (issue 28 §2)', () => {
  it('the reads the issue names: certificates, keys, keystores, JWKs, truststore (list and get) and the endpoint list', async () => {
    const reads = [
      `${P}/certificates/`, `${P}/certificates/site-cert/`, '/apiops/projects/admin/certificates/truststore/dev/',
      `${P}/keys/`, `${P}/keys/site-key/`, `${P}/keystores/`, `${P}/keystores/edge-ks/`,
      `${P}/jwks/`, `${P}/jwks/site-jwk/`, `${P}/apiProxies/orders-api/endpoints/`,
    ]
    for (const path of reads) {
      const res = await call('GET', path)
      expect({ path, status: res.status, status_: res.body.status, success: res.body.success }).toEqual({ path, status: 200, status_: 'SUCCESS', success: true })
      expect(Array.isArray(res.body.resultList), path).toBe(true)
    }
  })

  it('every legacy read of the route tables that answers status SUCCESS carries success: true', async () => {
    const reads = routeTables.filter((r) => r.style === 'legacy' && r.method === 'get')
    const checked: string[] = []
    const missing: string[] = []
    for (const route of reads) {
      const res = await call('GET', urlOf(route.path))
      if (res.status !== 200 || typeof res.body !== 'object' || res.body?.status !== 'SUCCESS') continue
      checked.push(route.path)
      if (res.body.success !== true) missing.push(`${route.path}: ${JSON.stringify(res.body).slice(0, 200)}`)
    }
    expect(missing).toEqual([])
    // the sweep reached the families above and most of the rest
    expect(checked.length).toBeGreaterThan(40)
  })

  it('a write answers it too, without the route saying so', async () => {
    const res = await call('PUT', `${P}/keys/site-key/`, { name: 'site-key', description: 'renamed nothing', keyType: 'RSA', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', publicKey: b64pem(rsa.publicKey, 'spki') }] })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true })
  })

  it('a failure keeps status FAILURE and resultMessage, without success', async () => {
    const failures = [
      await call('GET', `${P}/certificates/no-such-cert/`),
      await call('GET', `${P}/keys/no-such-key/`),
      await call('GET', `${P}/keystores/no-such-store/`),
      await call('GET', `${P}/jwks/no-such-jwk/`),
      await call('GET', `${P}/apiProxies/no-such-proxy/endpoints/`),
      // carol (IDENTITY VIEW only) may not read certificates; a project she is not in is unknown to her
      await call('GET', `${P}/certificates/`, undefined, bed.carol),
      await call('GET', '/apiops/projects/other/keys/', undefined, bed.carol),
    ]
    for (const res of failures) {
      expect(res.status).toBe(400)
      expect(Object.keys(res.body).sort()).toEqual(['resultMessage', 'status'])
      expect(res.body.status).toBe('FAILURE')
    }
  })

  it('is one rule: status SUCCESS gains success: true first, an outcome of its own is kept, anything else is untouched', () => {
    expect(JSON.stringify(withLegacySuccess({ status: 'SUCCESS', resultList: [], resultCount: 0 }))).toBe('{"status":"SUCCESS","success":true,"resultList":[],"resultCount":0}')
    expect(withLegacySuccess({ status: 'SUCCESS', success: false, message: 'refused' })).toEqual({ status: 'SUCCESS', success: false, message: 'refused' })
    expect(withLegacySuccess({ status: 'FAILURE', resultMessage: 'x' })).toEqual({ status: 'FAILURE', resultMessage: 'x' })
    expect(withLegacySuccess({ name: 'bare' })).toEqual({ name: 'bare' })
    expect(withLegacySuccess([{ status: 'SUCCESS' }])).toEqual([{ status: 'SUCCESS' }])
  })

  it('the OpenAPI document says the same: the legacy envelopes require success, each operation pins it', async () => {
    const doc = (await (await bed.svc.http('/apiops/openapi.json')).json()) as any
    for (const name of ['LegacySuccess', 'LegacyList']) expect(doc.components.schemas[name].required).toContain('success')
    const list = doc.paths['/apiops/projects/{projectName}/certificates/'].get.responses['200'].content['application/json'].schema
    expect(list.allOf[1].properties.success).toEqual({ const: true })
  })
})
