import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { sampleMmdb } from '../support/mmdb-writer.js'
import { makeCertificate } from '../keys/support.js'

// The REST operations that had no GraphQL twin (issue 30 §1): each GraphQL field calls the REST route's service,
// answers what the route answers, and refuses whom the route refuses, writing nothing then.

// root: system administrator; alice: IDENTITY MANAGE in payments; carol: IDENTITY VIEW in payments
const bed = useTestbed({ workers: ['dev', 'prod'], tokens: { root: 's3cret-root', alice: 'alice-pass-1', carol: 'carol-pass-1' } })
const prisma = () => bed.svc.deps.prisma
const pushes = () => bed.dev.received.length + bed.prod.received.length

async function gql(query: string, variables: Record<string, unknown> = {}, token = bed.root) {
  const { body } = await bed.svc.graphql(query, variables, token)
  return body as { data?: any; errors?: any[] }
}
async function rest(method: string, path: string, token = bed.root, body?: unknown) {
  const res = await bed.svc.http(path, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined })
  return { status: res.status, body: (await res.json()) as any }
}
const refusal = (answer: { data?: any; errors?: any[] }) => {
  expect(answer.data ?? null).toBeNull()
  return answer.errors![0].extensions
}

describe('geolocation', () => {
  it('setGeolocationEnabled switches and deploys it as PUT …/geolocation/enable|disable does; only a system administrator', async () => {
    const off = await gql('mutation { setGeolocationEnabled(enabled: false) { enabled deploymentResult { success environmentResults { environmentName success } } } }')
    expect(off.data.setGeolocationEnabled).toEqual({ enabled: false, deploymentResult: { success: true, environmentResults: [{ environmentName: 'dev', success: true }, { environmentName: 'prod', success: true }] } })
    expect(bed.dev.received.at(-1)).toMatchObject({ kind: 'GEOLOCATION_DATABASE', action: 'DEPLOY' })
    const stored = await prisma().geolocationSetting.findFirstOrThrow()
    expect(stored.enabled).toBe(false)
    bed.dev.received.length = 0
    bed.prod.received.length = 0
    expect(refusal(await gql('mutation { setGeolocationEnabled(enabled: true) { enabled } }', {}, bed.alice))).toMatchObject({ errorKey: 'permissionDenied' })
    expect(await prisma().geolocationSetting.findFirstOrThrow()).toEqual(stored)
    expect(pushes()).toBe(0)
  })

  it('uploadGeolocationDatabase stores and deploys an MMDB sent as a multipart upload; refuses a non-administrator and a file that is no MMDB', async () => {
    const upload = async (bytes: Buffer, token: string) => {
      const form = new FormData()
      form.append('operations', JSON.stringify({ query: 'mutation ($f: Upload!) { uploadGeolocationDatabase(file: $f, fileName: "city.mmdb") { stored { fileName databaseType sha256 uploadedBy } deploymentResult { success detailList { envName success } } } }', variables: { f: null } }))
      form.append('map', JSON.stringify({ 0: ['variables.f'] }))
      form.append('0', new Blob([new Uint8Array(bytes)]), 'upload.mmdb')
      return (await (await bed.svc.http('/graphql', { method: 'POST', body: form, headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' } })).json()) as any
    }
    const refused = await upload(sampleMmdb(), bed.alice)
    expect(refusal(refused)).toMatchObject({ errorKey: 'permissionDenied' })
    expect(refusal(await upload(Buffer.from('not a database'), bed.root)).errorKey).toBe('malformedRequest')
    expect(await prisma().geolocationDatabase.count()).toBe(0)
    expect(pushes()).toBe(0)
    const ok = await upload(sampleMmdb(), bed.root)
    expect(ok.errors).toBeUndefined()
    expect(ok.data.uploadGeolocationDatabase).toMatchObject({
      stored: { fileName: 'city.mmdb', databaseType: 'Test-City', uploadedBy: 'root' },
      deploymentResult: { success: true, detailList: [{ envName: 'dev', success: true }, { envName: 'prod', success: true }] },
    })
    expect((await prisma().geolocationDatabase.findFirstOrThrow()).sha256).toBe(ok.data.uploadGeolocationDatabase.stored.sha256)
  })
})

describe('API client migration', () => {
  it('inventory and the previews answer what REST answers; backfillApiClients creates what the preview announced', async () => {
    const inventory = await gql('query { apiClientMigrationInventory(projectName: "payments") { credentials migratedCredentials unmigrated { consumerKey username } migratedClients clientsWithoutSecret draftClients } }', {}, bed.alice)
    expect(inventory.data.apiClientMigrationInventory).toEqual((await rest('GET', '/api/api-clients/migration/inventory?projectId=payments', bed.alice)).body)
    const rows = 'apply scanned createdCount wouldCreateCount rows { consumerKey username clientId apiClientKey outcome }'
    const preview = await gql(`query { apiClientMigrationBackfillPreview(projectName: "payments") { ${rows} } }`, {}, bed.alice)
    const restPreview = (await rest('POST', '/api/api-clients/migration/backfill?projectId=payments', bed.alice)).body
    expect(preview.data.apiClientMigrationBackfillPreview).toEqual({ ...restPreview, rows: restPreview.rows.map((r: any) => ({ clientId: null, apiClientKey: null, ...r })) })
    expect(preview.data.apiClientMigrationBackfillPreview.wouldCreateCount).toBeGreaterThan(0)
    const before = await prisma().apiClient.count()
    expect(refusal(await gql(`mutation { backfillApiClients(projectName: "payments") { ${rows} } }`, {}, bed.carol))).toMatchObject({ errorKey: 'permissionDenied' })
    expect(refusal(await gql(`mutation { backfillApiClients { ${rows} } }`, {}, bed.alice))).toMatchObject({ errorKey: 'permissionDenied' })
    expect(await prisma().apiClient.count()).toBe(before)
    const applied = (await gql(`mutation { backfillApiClients(projectName: "payments") { ${rows} } }`, {}, bed.alice)).data.backfillApiClients
    expect(applied).toMatchObject({ apply: true, createdCount: preview.data.apiClientMigrationBackfillPreview.wouldCreateCount, wouldCreateCount: 0 })
    expect(await prisma().apiClient.count()).toBe(before + applied.createdCount)

    const carry = 'apply activate scanned counts activatedCount rows { clientId outcome activated }'
    const carryPreview = (await gql(`query { apiClientMigrationCarryOverPreview(projectName: "payments") { ${carry} } }`, {}, bed.alice)).data.apiClientMigrationCarryOverPreview
    expect(carryPreview).toMatchObject({ apply: false, scanned: applied.createdCount })
    expect(refusal(await gql(`mutation { carryOverApiClientSecrets(projectName: "payments") { ${carry} } }`, {}, bed.carol))).toMatchObject({ errorKey: 'permissionDenied' })
    const carried = (await gql(`mutation { carryOverApiClientSecrets(projectName: "payments", activate: true) { ${carry} } }`, {}, bed.alice)).data.carryOverApiClientSecrets
    expect(carried).toMatchObject({ apply: true, activate: true, scanned: applied.createdCount })
    expect(carried.rows.map((r: any) => r.clientId).sort()).toEqual(carryPreview.rows.map((r: any) => r.clientId).sort())
  })
})

describe('portal limits and covering assignments', () => {
  it('portalPlanLimitImpact, the backfill preview and limitAssignmentsCoveringApiProxy answer what REST answers', async () => {
    const impact = await gql('query { portalPlanLimitImpact(productName: "gold-product", planName: "gold-plan", projectName: "payments") { productId planId approvedSubscriptionCount familiesWithProfile affectedApplicationCount } }', {}, bed.alice)
    expect(impact.data.portalPlanLimitImpact).toEqual((await rest('GET', '/api/api-products/gold-product/plans/gold-plan/limit-impact?projectId=payments', bed.alice)).body)
    const rows = 'apply productId planId scanned createdCount wouldCreateCount skippedCount rowsTruncated rows { applicationName outcome }'
    const preview = await gql(`query { portalSubscriptionLimitBackfillPreview(productName: "gold-product", planName: "gold-plan", projectName: "payments") { ${rows} } }`, {}, bed.alice)
    expect(preview.data.portalSubscriptionLimitBackfillPreview).toEqual((await rest('POST', '/api/limit-bindings/portal-subscriptions/backfill?projectId=payments&productId=gold-product&planId=gold-plan', bed.alice)).body)
    expect(refusal(await gql(`mutation { backfillPortalSubscriptionLimits(productName: "gold-product", planName: "gold-plan") { ${rows} } }`, {}, bed.alice))).toMatchObject({ errorKey: 'permissionDenied' })
    const applied = await gql(`mutation { backfillPortalSubscriptionLimits(productName: "gold-product", planName: "gold-plan", projectName: "payments") { ${rows} } }`, {}, bed.alice)
    expect(applied.data.backfillPortalSubscriptionLimits).toMatchObject({ apply: true, productId: 'gold-product', planId: 'gold-plan' })

    const covering = await gql('query { limitAssignmentsCoveringApiProxy(projectName: "payments", apiProxyName: "orders-api") { bindingKey } }', {}, bed.root)
    expect(covering.data.limitAssignmentsCoveringApiProxy).toEqual((await rest('GET', '/api/limit-bindings/covering-api-proxy?projectId=payments&apiProxyName=orders-api')).body.map((a: any) => ({ bindingKey: a.bindingKey })))
    expect(refusal(await gql('query { limitAssignmentsCoveringApiProxy(projectName: "payments", apiProxyName: "no-such-proxy") { bindingKey } }'))).toMatchObject({ errorKey: 'resourceNotFound' })
  })
})

describe('keys', () => {
  const cert = makeCertificate({ cn: 'parity.example.test' })

  it('certificateExport downloads what GET …/certificates/{name}/export/ downloads; CERTIFICATE VIEW needed', async () => {
    const created = await gql('mutation ($i: CertificateInput!) { createCertificate(projectName: "payments", input: $i) { certificate { name } } }', { i: { certificateName: 'parity-cert', alias: 'parity', environmentList: ['dev'], pemEncodedFile: cert.pem } })
    expect(created.errors).toBeUndefined()
    for (const format of ['PEM', 'DER', 'ZIP']) {
      const file = (await gql('query ($f: String) { certificateExport(projectName: "payments", name: "parity-cert", format: $f) { fileName contentType sizeBytes contentBase64 } }', { f: format })).data.certificateExport
      const res = await bed.svc.http(`/apiops/projects/payments/certificates/parity-cert/export/?format=${format}`, { headers: { authorization: `Bearer ${bed.root}` } })
      const bytes = Buffer.from(await res.arrayBuffer())
      expect(file).toMatchObject({ contentType: res.headers.get('content-type'), sizeBytes: bytes.length })
      if (format !== 'ZIP') expect(Buffer.from(file.contentBase64, 'base64')).toEqual(bytes)
    }
    expect(Buffer.from((await gql('{ certificateExport(projectName: "payments", name: "parity-cert", format: "DER") { contentBase64 } }')).data.certificateExport.contentBase64, 'base64')).toEqual(cert.der)
    expect(refusal(await gql('{ certificateExport(projectName: "payments", name: "parity-cert") { fileName } }', {}, bed.carol))).toMatchObject({ errorKey: 'permissionDenied' })
    expect(refusal(await gql('{ certificateExport(projectName: "payments", name: "parity-cert", format: "P12") { fileName } }'))).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'format' } })
  })

  it('the createJwkFrom* mutations take the parse-from-* bodies, typed, and refuse what the doors refuse', async () => {
    const { body } = await bed.svc.graphql('{ __schema { mutationType { fields { name args { name type { ofType { name } } } } } } }', {}, bed.root)
    const inputs = Object.fromEntries(body.data!.__schema.mutationType.fields.filter((f: any) => f.name.startsWith('createJwkFrom')).map((f: any) => [f.name, f.args.find((a: any) => a.name === 'input').type.ofType.name]))
    expect(inputs).toEqual({ createJwkFromUrl: 'JwkFromUrlInput', createJwkFromClipboard: 'JwkFromClipboardInput', createJwkFromCertificate: 'JwkFromCertificateInput', createJwkFromKey: 'JwkFromKeyInput', createJwkFromKeystore: 'JwkFromKeystoreInput' })

    const jwk = { kty: 'oct', kid: 'k1', k: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMzQ' }
    const fromClipboard = 'mutation ($i: JwkFromClipboardInput!) { createJwkFromClipboard(projectName: "payments", input: $i) { jwk { name } deploymentResult { success } } }'
    expect(refusal(await gql(fromClipboard, { i: { name: 'pasted', jwkStr: JSON.stringify(jwk) } }, bed.carol))).toMatchObject({ errorKey: 'permissionDenied' })
    const viaRest = await rest('POST', '/apiops/projects/payments/jwks/parse-from-clipboard', bed.root, { name: 'pasted-rest' })
    const missing = await gql(fromClipboard, { i: { name: 'pasted' } })
    expect(missing.errors![0].message).toBe(viaRest.body.resultMessage)
    expect(await prisma().storedObject.count({ where: { type: 'JWK' } })).toBe(0)
    const ok = await gql(fromClipboard, { i: { name: 'pasted', jwkStr: JSON.stringify(jwk) } })
    expect(ok.data.createJwkFromClipboard).toEqual({ jwk: { name: 'pasted' }, deploymentResult: { success: true } })
    const fromCertificate = await gql('mutation ($i: JwkFromCertificateInput!) { createJwkFromCertificate(projectName: "payments", input: $i) { jwk { name } } }', { i: { name: 'from-cert', certificateName: 'parity-cert', environmentName: 'dev', useType: 'SIGNATURE', algorithm: 'RS256' } })
    expect(fromCertificate.errors).toBeUndefined()
    expect(fromCertificate.data.createJwkFromCertificate.jwk.name).toBe('from-cert')
  })
})
