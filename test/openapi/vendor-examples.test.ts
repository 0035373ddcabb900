import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import type { VendorExample } from '../../scripts/vendor-examples.js'
import { PETSTORE } from '../apiproxies/automation-proxy-support.js'
import { makeCertificate, makePkcs12 } from '../keys/support.js'
import { missingIn, NO_READ, READ_BACK, readable, readBackReport, type ReadAt } from './vendor-read-back.js'

// Issue 32 §0: the newest vendor pages' request examples (api-reference/ of apinizer/docs, extracted into
// vendor-examples.json by scripts/vendor-examples.ts) are sent as ADMIN to one service on a fresh database with the
// sample bootstrap and the objects the pages name, seeded over the public doors first (seedFixture). Every example not
// accepted is listed with its reason: KEPT and KEPT_REACHED for a body-validation refusal (400 naming a field), REFUSED
// for a rule on a value or another refusal; a new refusal fails, and so does a listed one that is accepted now. Every
// accepted write is read back with its family's read page (vendor-read-back.ts: where, under which names, and the
// fields a read legitimately does not hold, each with its reason): the read holds what it wrote.

const examples = JSON.parse(fs.readFileSync(new URL('./vendor-examples.json', import.meta.url), 'utf8')) as VendorExample[]

/** Validation refusals kept, by `page#index`: the reason ("open": not fixed yet, issue 32 §0; the list only shrinks). */
const KEPT: Record<string, string> = {
  'api-reference/api-proxies/settings/update-cache-settings.mdx#1': 'not a request body: the page shows one variableList entry ({ name, type, dataType }) of cacheSettings; the full body (#0) is accepted',
  'api-reference/api-proxies/settings/update-json-error-template.mdx#1': 'not a request body: the page shows the content of jsonValue (the template itself); the full body (#0) is accepted',
  'api-reference/knowledge-bases/create-knowledge-base.mdx#0': "embeddingProviderId: kept, the spec wins: §1 rule 2 makes a knowledge base's connection references stored ids (embeddingProviderId, vectorDbId), while the page names them (embeddingProviderRef, vectorDbRef)",
}

/** Path parameters the fixture holds an object for (sampleBootstrap, and the objects seeded below). */
const FIXTURE: Record<string, string> = {
  projectName: 'payments',
  apiProxyName: 'orders-api',
  apiProxyGroupName: 'retail',
  ipGroupName: 'office-ips',
  username: 'shop-frontend',
  environmentName: 'dev',
  keystoreName: 'edge-ks',
  keyName: 'edge-key',
  jwkName: 'edge-jwk',
  code: 'acme',
  rlclName: 'fixture-rlcl',
  providerName: 'deepseek-primary',
  connectorType: 'ELASTICSEARCH_INDEX',
  methodName: '/api/users',
  specAccessType: 'PUBLIC',
}

/** Path parameters of one page (`page`) or one example (`page#index`): the object its example is about. */
const PAGE_PARAMS: Record<string, Record<string, string>> = {
  'api-reference/api-proxies/settings/update-grpc-settings.mdx': { apiProxyName: 'grpc-api' },
  'api-reference/api-proxies/settings/update-websocket-settings.mdx': { apiProxyName: 'ws-api' },
  'api-reference/api-proxies/endpoints/update-endpoint-wsa.mdx': { apiProxyName: 'soap-api' },
  // the metadata page renames: each renaming example its own undeployed proxy
  'api-reference/api-proxies/settings/update-metadata.mdx#0': { apiProxyName: 'meta-api' },
  'api-reference/api-proxies/settings/update-metadata.mdx#1': { apiProxyName: 'meta-api-2' },
  'api-reference/api-proxies/traffic-log-settings/update-method-override.mdx': { apiProxyName: 'MyAPI' },
  'api-reference/api-proxies/traffic-log-settings/update.mdx': { apiProxyName: 'MyAPI' },
  'api-reference/ip-groups/crud/update-ip-group.mdx': { ipGroupName: 'AllowedIPs' },
  'api-reference/export-import/export-objects.mdx#0': { type: 'LLM_PROVIDER' },
  'api-reference/export-import/export-objects.mdx#1': { type: 'CERTIFICATE' },
  'api-reference/policies/crud/discover-a2a-policy-skills.mdx': { apiProxyName: 'a2a-api', policyName: 'fixture-policy' },
  'api-reference/policies/crud/discover-mcp-policy-tools.mdx': { apiProxyName: 'mcp-api', policyName: 'fixture-policy' },
  // the routed-proxy creates make proxies of their own; the routing pages edit the fixture's A2A and MCP proxies and
  // the AI proxy the AI create page made
  ...Object.fromEntries([['a2a', 3], ['ai', 2], ['mcp', 3]].flatMap(([kind, n]) => Array.from({ length: n as number }, (_, i) =>
    [`api-reference/api-proxies/crud/create-${kind}-api-proxy.mdx#${i}`, { apiProxyName: `${kind}-page-${i}` }]))),
  'api-reference/api-proxies/settings/update-a2a-routing.mdx': { apiProxyName: 'a2a-api' },
  'api-reference/api-proxies/settings/update-mcp-routing.mdx': { apiProxyName: 'mcp-api' },
  'api-reference/api-proxies/settings/update-ai-routing.mdx': { apiProxyName: 'ai-page-0' },
  // a grant or revoke of one access once: each example its own credential (the seed grants what the revokes take)
  'api-reference/credentials/access/grant-access.mdx#1': { username: 'api-user-1' },
  'api-reference/credentials/access/grant-access.mdx#2': { username: 'api-user-2' },
  'api-reference/credentials/access/revoke-access.mdx#1': { username: 'premium-user' },
  // a condition is added once: the second example adds to a second RLCL
  'api-reference/rlcl/condition/add-condition.mdx#1': { rlclName: 'fixture-rlcl-2' },
  'api-reference/vector-dbs/test-vector-db-connection.mdx#0': { vectorDbName: 'pgvector-primary' },
  'api-reference/vector-dbs/test-vector-db-connection.mdx#1': { vectorDbName: 'qdrant-cloud' },
}

/** Key material made here: the pages' examples carry placeholders ("base64-encoded-key-content") where a key goes. */
const RSA = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
const RSA_PEM_B64 = Buffer.from(RSA.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()).toString('base64')
const CERT = makeCertificate({ cn: 'api.example.com', keys: RSA })
const RSA_JWK = JSON.stringify({ kty: 'RSA', n: (RSA.publicKey.export({ format: 'jwk' }) as { n: string }).n, e: 'AQAB' })
const KEYSTORE_PASSWORD = 'keystore-password'
const P12 = (alias: string, password: string) => makePkcs12(alias, password, RSA, [CERT.pem])

/**
 * Placeholder values the fixture replaces with real material of the same shape (nothing else of the body changes):
 * a key's base64 `content`, a keystore's base64 `file` (a PKCS#12 file under the page's alias and password; our
 * keystores read JKS and PKCS#12, and no JKS writer exists in node), the ids the mTLS page invents.
 */
const SUBSTITUTE: Record<string, (body: any, ids: Record<string, string>) => unknown> = {
  'api-reference/keys-secrets/crud/create-key.mdx#0': (b) => ({ ...b, cryptoKeyInfoEnvironmentList: b.cryptoKeyInfoEnvironmentList.map((e: any) => ({ ...e, content: RSA_PEM_B64 })) }),
  'api-reference/keys-secrets/crud/update-key.mdx#0': (b) => ({ ...b, cryptoKeyInfoEnvironmentList: b.cryptoKeyInfoEnvironmentList.map((e: any) => ({ ...e, content: RSA_PEM_B64 })) }),
  'api-reference/keys-secrets/crud/create-keystore.mdx#0': (b) => ({ ...b, keyStoreEnvironmentList: b.keyStoreEnvironmentList.map((e: any) => ({ ...e, file: P12(e.alias, e.password), keyStoreType: 'PKCS12' })) }),
  'api-reference/keys-secrets/crud/update-keystore.mdx#0': (b) => ({ ...b, keyStoreEnvironmentList: b.keyStoreEnvironmentList.map((e: any) => ({ ...e, file: P12(e.alias, e.password), keyStoreType: 'PKCS12' })) }),
  // our mTLS settings name the keystore and the trust store (a keystore or certificate) in keyStoreId / trustStoreId
  'api-reference/api-proxies/settings/update-mtls-settings.mdx#0': (b) => ({ ...b, keyStoreId: 'my-keystore', trustStoreId: 'my-certificate' }),
  // a pasted JWK: the page's "n": "..." stands for a modulus
  'api-reference/keys-secrets/crud/create-jwk.mdx#2': (b) => ({ ...b, jwkStr: RSA_JWK }),
  'api-reference/keys-secrets/crud/parse-jwk-from-clipboard.mdx#0': (b) => ({ ...b, jwkStr: RSA_JWK }),
  // the pages' URLs, answered on loopback
  'api-reference/api-proxies/crud/update-api-proxy.mdx#0': (b) => ({ ...b, specUrl: local(b.specUrl) }),
  'api-reference/api-proxies/crud/update-api-proxy-from-url.mdx#0': (b) => ({ ...b, specUrl: local(b.specUrl) }),
  // the page's backend address is a placeholder (http://backend-host:port, no port number): a real one of that host
  'api-reference/api-proxies/crud/create-api-proxy-from-url.mdx#1': (b) => ({ ...b, routingInfo: { ...b.routingInfo, routingAddressList: b.routingInfo.routingAddressList.map((a: any) => ({ ...a, address: String(a.address).replace(':port', ':8080') })) } }),
  // the AI create page's second example takes the first one's relative path: a path of its own
  'api-reference/api-proxies/crud/create-ai-api-proxy.mdx#1': (b) => ({ ...b, relativePath: '/ai/chat-2' }),
  // the agents and MCP servers the routing and discovery pages name, answered on loopback
  'api-reference/api-proxies/settings/update-a2a-routing.mdx#1': (b) => ({ ...b, backendServers: b.backendServers.map((x: any) => ({ ...x, endpoint: local(x.endpoint) })) }),
  'api-reference/api-proxies/settings/update-mcp-routing.mdx#1': (b) => ({ ...b, backendServers: b.backendServers.map((x: any) => ({ ...x, endpoint: local(x.endpoint) })) }),
  'api-reference/policies/crud/discover-a2a-policy-skills.mdx#1': (b) => ({ ...b, endpoint: local(b.endpoint) }),
  'api-reference/policies/crud/discover-mcp-policy-tools.mdx#1': (b) => ({ ...b, endpoint: local(b.endpoint) }),
  'api-reference/api-proxies/crud/update-api-proxy-from-url.mdx#1': (b) => ({ ...b, specUrl: local(b.specUrl) }),
  // the from-file page created petstore-api (and its route) already: this page's create gets a name and route of its own
  'api-reference/api-proxies/crud/create-api-proxy-from-url.mdx#0': (b) => ({ ...b, apiProxyName: 'petstore-from-url', specUrl: local(b.specUrl), clientRoute: { ...b.clientRoute, relativePathList: ['/petstore-from-url'] } }),
  'api-reference/keys-secrets/crud/create-jwk.mdx#1': (b) => ({ ...b, url: local(b.url) }),
  'api-reference/keys-secrets/crud/parse-jwk-from-url.mdx#0': (b) => ({ ...b, url: local(b.url) }),
  // the method the override names by id: the fixture's /pets of MyAPI
  'api-reference/api-proxies/traffic-log-settings/update.mdx#0': (b, ids) => ({ ...b, methodOverrideList: b.methodOverrideList.map((m: any) => ({ ...m, apiMethodId: ids.pets })) }),
}

/** A WSDL 1.1 document (the SOAP service the WSDL pages re-parse). */
const SOAP_WSDL = `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" name="Users">
  <wsdl:portType name="UsersPort">
    <wsdl:operation name="getUser"><wsdl:input message="tns:GetUserRequest"/></wsdl:operation>
  </wsdl:portType>
</wsdl:definitions>`

/**
 * The pages' URLs (a spec on petstore.swagger.io, a JWK set on example.com) served on loopback: the sweep has no
 * network, so the fixture answers their paths (the service may fetch loopback: SPEC_FETCH_ALLOW_PRIVATE).
 */
const WEB: Record<string, string> = {
  '/v2/swagger.json': JSON.stringify(PETSTORE),
  '/service.wsdl': SOAP_WSDL,
  '/.well-known/jwks.json': JSON.stringify({ keys: [{ ...RSA.publicKey.export({ format: 'jwk' }), kid: 'key-id-1', use: 'sig', alg: 'RS256' }] }),
}
let web: http.Server
const local = (raw: string) => {
  const u = new URL(raw)
  return `http://127.0.0.1:${(web.address() as AddressInfo).port}${u.pathname}`
}


/** The files of the multipart pages (the page shows the JSON part only): a WSDL page's file is a WSDL document. */
const FILES: Record<string, (body: Record<string, unknown>) => Blob> = {
  specFile: (body) => body.apiProxyCreationType === 'WSDL' ? new Blob([SOAP_WSDL], { type: 'text/xml' }) : new Blob([JSON.stringify(PETSTORE)], { type: 'application/json' }),
  apiProxyExportFile: () => new Blob([proxyExport!]),
}
let proxyExport: ArrayBuffer | null = null

/**
 * The examples that are not accepted, by `page#index`, with their reason: each is checked like KEPT (a new one fails
 * the test, and so does a listed one that starts passing: the list only shrinks).
 */
const REFUSED: Record<string, string> = {
  'api-reference/ai-budgets/update-budget.mdx#0': 'budgetSource: the spec wins (§2.9: budgetSource only for target type CREDENTIAL_ALLOWED_API_PROXY), and the page sends it with CREDENTIAL_ORGANIZATION and ids of its own installation',
  'api-reference/api-proxies/settings/update-cors-settings.mdx#0': "corsSettings.allowOriginList: kept: '*' with allowCredentials \"true\" is what browsers refuse (the CORS rule of our settings); the page's other fields are accepted",
  'api-reference/keys-secrets/crud/create-jwk.mdx#0': 'the page\'s first example gives sourceType URL without url: refused with the page\'s own message ("URL is required for URL source type!")',
}

/**
 * Validation refusals the seeded fixture reaches (before it, these examples stopped at a missing object), kept apart
 * from KEPT so the helpers editing KEPT do not meet these lines: the same rule (the list only shrinks).
 */
const KEPT_REACHED: Record<string, string> = {
  'api-reference/knowledge-bases/update-knowledge-base.mdx#0': "embeddingProviderId: kept, the spec wins: §1 rule 2 makes a knowledge base's connection references stored ids (embeddingProviderId, vectorDbId), while the page names them (embeddingProviderRef, vectorDbRef)",
}
const keptReason = (key: string): string | undefined => KEPT[key] ?? KEPT_REACHED[key]

type Outcome = 'accepted' | 'validation' | 'rule' | 'other'
interface Answer { example: VendorExample; url: string; status: number; outcome: Outcome; message: string }

const keyOf = (e: VendorExample) => `${e.page}#${e.index}`
const bodyOf = (e: VendorExample) => (e.body && typeof e.body === 'object' && !Array.isArray(e.body) ? e.body : {}) as Record<string, unknown>

/** The example's path with fixture names (a create by POST keeps the name its body gives, so it does not conflict). */
function urlOf(e: VendorExample, body: Record<string, unknown>): string {
  const params = [...e.path.matchAll(/\{(\w+)\}/g)].map(([, p]) => p!)
  return e.path.replace(/\{(\w+)\}/g, (_, p: string) => {
    const pinned = PAGE_PARAMS[keyOf(e)]?.[p] ?? PAGE_PARAMS[e.page]?.[p]
    if (pinned) return encodeURIComponent(pinned)
    // the body names the object by the parameter's own field (an organization's code)
    if (typeof body[p] === 'string') return encodeURIComponent(body[p] as string)
    // the object the path ends with is the one the body describes: a create keeps the body's name
    const last = p === params[params.length - 1] && e.path.endsWith(`{${p}}`)
    if (last && e.method === 'POST' && typeof body.name === 'string') return encodeURIComponent(body.name)
    return FIXTURE[p] ?? (typeof body.name === 'string' && last ? encodeURIComponent(body.name) : `example-${p}`)
  })
}

/** Deletes last (so they do not remove what the other examples name): the DELETE method and the POST …/delete pages. */
const isDelete = (e: VendorExample) => e.method === 'DELETE' || /\/delete$/.test(e.path)

function classify(status: number, body: any): { outcome: Outcome; message: string } {
  const message = String(body?.resultMessage ?? body?.message ?? body?.errorKey ?? '').slice(0, 160)
  if (status >= 200 && status < 300) return { outcome: 'accepted', message: '' }
  const field = body?.params?.field ?? /^([\w.[\]]+): /.exec(message)?.[1]
  if ((status === 400 || status === 422) && field) {
    // the body's shape (an unknown field, a type, an enum, a required field) versus a rule on its values (an object it
    // names that the fixture does not hold, a state such as renaming a deployed proxy)
    const shape = /unknown field|Invalid input|must be one of|is required|expected|must be an? |must not|not supported|Too (big|small)/i.test(message)
    return { outcome: shape ? 'validation' : 'rule', message }
  }
  return { outcome: 'other', message }
}


/** The JWK pages write a source to take the key from (a certificate, a key, a URL…): the read is the JWK get-jwk shows. */
const JWK_WRITES = /keys-secrets\/crud\/(create-jwk|generate-jwk|parse-jwk-from-[a-z]+)\.mdx$/
const JWK_READ_FIELDS = ['name', 'description', 'projectId', 'sourceType', 'sourceId', 'sourceUrl', 'type', 'kid']
const readBack: { key: string; url: string; missing: string[]; read?: unknown }[] = []

let svc: TestService
let worker: FakeWorker
const answers: Answer[] = []

const P = '/apiops/projects/payments'
let token = ''

async function send(method: string, url: string, body: unknown): Promise<{ status: number; body: any }> {
  const form = body instanceof FormData
  const res = await fetch(svc.url + url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(form || body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: form ? body : body === undefined ? undefined : JSON.stringify(body),
  })
  const buf = await res.arrayBuffer()
  const text = Buffer.from(buf).toString('utf8')
  try {
    return { status: res.status, body: JSON.parse(text) }
  } catch {
    return { status: res.status, body: (res.headers.get('content-type') ?? '').includes('json') ? { message: text } : buf }
  }
}

/** A seed write over a public door: anything but 2xx stops the sweep (a fixture that does not hold is no sweep). */
async function seed(method: string, url: string, body?: unknown) {
  const res = await send(method, url, body)
  if (res.status >= 300 || res.body?.status === 'FAILURE') throw new Error(`seed ${method} ${url}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`)
  return res.body
}
async function gql(query: string, variables: Record<string, unknown>) {
  const res = await svc.graphql(query, variables, token)
  if (res.body.errors?.length) throw new Error(`seed ${query}: ${JSON.stringify(res.body.errors)}`)
  return res.body.data
}
const form = (fields: Record<string, string>, files: Record<string, Blob> = {}) => {
  const f = new FormData()
  for (const [k, v] of Object.entries(fields)) f.append(k, v)
  for (const [k, v] of Object.entries(files)) f.append(k, v, k === 'specFile' ? 'openapi.json' : k === 'apiProxyExportFile' ? 'apiProxyExportFile.zip' : 'file.pem')
  return f
}
const ids: Record<string, string> = {}

/** The objects the pages name, seeded over the public doors (REST; GraphQL where REST has no door: roles, proxy kinds). */
async function seedFixture() {
  for (const name of ['API_USER', 'DEVELOPER']) await gql('mutation ($n: String!) { createCredentialRole(projectName: "payments", input: { name: $n }) { name } }', { n: name })
  for (const username of ['api-user-1', 'api-user-2', 'premium-user']) await seed('POST', `${P}/credentials`, { username, email: `${username}@example.com`, fullName: username, password: 'SecurePassword123!', roleNameList: ['API_USER'] })
  await seed('POST', `${P}/credential-organizations`, { code: 'root-org', nameDefault: 'Root Organization' })
  // the API proxies the pages name: MyAPI (its endpoints), PaymentAPI in MyAPIGroup, one of each kind a settings page needs
  await seed('POST', `${P}/apiProxies/url/`, { apiProxyName: 'MyAPI', apiProxyCreationType: 'REVERSE_PROXY', clientRoute: { relativePathList: ['/myapi'] } })
  for (const [name, httpMethod] of [['/api/users', 'GET'], ['/users', 'GET'], ['/orders', 'POST'], ['/pets', 'GET']]) {
    await seed('POST', `${P}/apiProxies/MyAPI/endpoints/`, { name, httpMethod, backendResourceUrl: name, backendHttpMethod: httpMethod })
  }
  ids.pets = (await seed('POST', `${P}/apiProxies/MyAPI/endpoints/details/`, { name: '/pets', httpMethod: 'GET' })).id
  await seed('POST', `${P}/apiProxies/url/`, { apiProxyName: 'reverse-proxy', apiProxyCreationType: 'REVERSE_PROXY', clientRoute: { relativePathList: ['/reverse'] } })
  // the SOAP service the WSDL update pages re-parse
  await seed('POST', `${P}/apiProxies/url/`, { apiProxyName: 'soap-service', apiProxyCreationType: 'WSDL', specUrl: local('https://example.com/service.wsdl'), clientRoute: { relativePathList: ['/soap-service'] } })
  const proxy = 'mutation ($n: String!, $k: String, $g: [String!]) { createApiProxy(projectName: "payments", input: { name: $n, kind: $k, groups: $g }) { name } }'
  await gql(proxy, { n: 'PaymentAPI', k: 'REST', g: ['MyAPIGroup'] })
  for (const [n, k] of [['grpc-api', 'GRPC'], ['ws-api', 'WEBSOCKET'], ['soap-api', 'SOAP'], ['meta-api', 'REST'], ['meta-api-2', 'REST']]) await gql(proxy, { n, k, g: [] })
  // the SOAP operation the WS-Addressing page names (REST adds endpoints to REST proxies only)
  await gql('mutation { createGatewayEndpoint(projectName: "payments", apiProxyName: "soap-api", input: { method: "POST", path: "/getUser", operationId: "getUser", kind: "SOAP" }) { __typename } }', {})
  await seed('POST', `${P}/connections/${encodeURIComponent('Production Elasticsearch')}/`, {
    type: 'elasticsearch', name: 'Production Elasticsearch', deployToWorker: false, enabled: true, elasticHostList: [{ scheme: 'http', host: 'localhost', port: 9200 }], authenticate: false, encryptCommunication: false,
  })
  // the RLCL the condition, credential and endpoint pages add to (the create page's first example, renamed)
  const rlcl = examples.find((e) => e.page === 'api-reference/rlcl/crud/create-rlcl.mdx' && e.index === 0)!
  for (const name of [FIXTURE.rlclName!, 'fixture-rlcl-2']) await seed('POST', `${P}/rlcl`, { ...bodyOf(rlcl), name })
  // the accesses the second revoke example takes away
  await seed('PUT', `${P}/credentials/premium-user/access`, { credentialAccessList: [{ name: 'MyAPI', type: 'API_PROXY' }, { name: 'PaymentAPI', type: 'API_PROXY' }, { name: 'MyAPIGroup', type: 'API_PROXY_GROUP' }] })
  // LLM providers (the export page's, the knowledge base's embedder), vector DBs, a knowledge base, a provider definition
  for (const name of ['openai-prod', 'anthropic-prod', 'openai-embeddings']) {
    await seed('POST', `${P}/llm-providers/${name}/`, { _class: 'llm', name, providerType: name.startsWith('anthropic') ? 'ANTHROPIC' : 'OPENAI' })
  }
  await seed('POST', `${P}/vector-dbs/pgvector-primary/`, { _class: 'vector-db', name: 'pgvector-primary', dbType: 'PGVECTOR', transport: { family: 'jdbc', jdbcUrl: 'jdbc:postgresql://db.internal:5432/vectors', username: 'apinizer', password: 's3cr3t-db-pass' } })
  await seed('POST', `${P}/vector-dbs/qdrant-cloud/`, { _class: 'vector-db', name: 'qdrant-cloud', dbType: 'QDRANT', transport: { family: 'http', endpoint: 'https://xyz.eu-central.aws.cloud.qdrant.io:6333', authScheme: 'API_KEY_HEADER', apiKey: 'qdrant-api-key-value' } })
  const qdrant = await seed('POST', `${P}/vector-dbs/qdrant-main/`, { _class: 'vector-db', name: 'qdrant-main', dbType: 'QDRANT', transport: { family: 'http', endpoint: 'https://qdrant.internal:6333' } })
  const embedder = (await seed('GET', `${P}/llm-providers/openai-embeddings/`)).resultList?.[0] ?? (await seed('GET', `${P}/llm-providers/openai-embeddings/`))
  await seed('POST', `${P}/knowledge-bases/product-docs/`, { name: 'product-docs', embeddingProviderId: embedder.id, embeddingModel: 'text-embedding-3-small', vectorDbId: (qdrant.resultList?.[0] ?? qdrant).id })
  await seed('POST', `${P}/llm-provider-definitions/internal-llm-gateway/`, { name: 'internal-llm-gateway', providerType: 'OTHER' })
  // keys, keystores, certificates and JWKs the JWK pages read (in production, as the pages have them)
  await seed('POST', `${P}/certificates/`, form({ certificateName: 'my-certificate', alias: 'my-cert-alias', certificateDescription: 'certificate', environmentList: 'production' }, { pemEncodedFile: new Blob([CERT.pem]) }))
  await seed('POST', `${P}/keys/`, { name: 'my-key', keyType: 'PRIVATE_KEY', cryptoKeyInfoEnvironmentList: [{ environmentName: 'production', content: RSA_PEM_B64, alias: 'my-key-alias' }] })
  await seed('POST', `${P}/keys/`, { name: FIXTURE.keyName, keyType: 'PRIVATE_KEY', cryptoKeyInfoEnvironmentList: [{ environmentName: 'production', content: RSA_PEM_B64 }] })
  for (const name of ['my-keystore', 'apinizer']) {
    const ks = await seed('POST', `${P}/keystores/`, { name, keyStoreEnvironmentList: [{ environmentName: 'production', file: P12('my-alias', KEYSTORE_PASSWORD), password: KEYSTORE_PASSWORD, keyStoreType: 'PKCS12' }] })
    ids[name] = ks.resultList?.[0]?.id ?? ks.id
  }
  // (the page's EC example: an RSA key is generated in a second, an EC one at once)
  const generate = examples.find((e) => e.page === 'api-reference/keys-secrets/crud/generate-jwk.mdx' && e.index === 1)!
  await seed('POST', `${P}/jwks/generate`, { ...bodyOf(generate), name: FIXTURE.jwkName })
  // traffic log settings saved once, so the method-override page has settings to override
  await seed('PUT', `${P}/apiProxies/MyAPI/trafficLogSettings/dev`, { connectorSettingsMap: { 'Production Elasticsearch': { enabled: true } } })
  // the export the import-and-override page sends back: the proxy it overrides, exported
  proxyExport = (await send('GET', `${P}/apiProxies/${FIXTURE.apiProxyName}/export/`, undefined)).body as ArrayBuffer
}

/**
 * Creates of a name that an earlier example or the seed created (several JWK pages create my-jwk; the promotion page
 * saves the petstore-api the from-file page created): these pages' later creates get a numbered suffix.
 */
const RENAMED = /keys-secrets\/crud\/(create|generate|parse)-|promotion\/save-api-proxy-for-promotion/
const taken = new Set(['my-key', 'my-keystore'])
const nameOf = (body: Record<string, unknown>) => (typeof body.name === 'string' ? body.name : typeof body.apiProxyName === 'string' ? body.apiProxyName : null)

beforeAll(async () => {
  worker = await FakeWorker.start()
  // the pages deploy to environments named production and staging: the fixture has them (their worker the same fake one)
  const bootstrap = sampleBootstrap({ dev: [worker.url] })
  for (const name of ['production', 'staging', 'development']) {
    bootstrap.environments.push({ name, workerUrls: [worker.url] })
    bootstrap.projects[0]!.environments!.push(name)
  }
  // the A2A and MCP proxies the discovery pages name (their create doors take a routing: h-ai's pages)
  bootstrap.projects[0]!.apiProxies!.push({ name: 'a2a-api', groups: [], kind: 'A2A' }, { name: 'mcp-api', groups: [], kind: 'MCP' })
  web = http.createServer((req, res) => {
    let text = ''
    req.on('data', (c) => (text += c))
    req.on('end', () => {
      // an MCP server answers tools/list (JSON-RPC); an agent its card below .well-known
      const rpc = req.method === 'POST' && /\/mcp$/.test(req.url ?? '') ? (JSON.parse(text) as { id: number; method: string }) : null
      const doc = rpc?.method === 'tools/list'
        ? JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: { tools: [{ name: 'search', description: 'Full-text search', inputSchema: { type: 'object' } }] } })
        : /\/a2a\/\.well-known\/agent-card\.json$/.test(req.url ?? '') ? JSON.stringify({ name: 'partner', skills: [{ id: 'translate', name: 'Translate', tags: ['lang'] }] })
          : WEB[req.url ?? '']
      res.writeHead(doc ? 200 : 404, { 'content-type': 'application/json' }).end(doc ?? '{}')
    })
  })
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve))
  svc = await startTestService({ bootstrap, env: { SPEC_FETCH_ALLOW_PRIVATE: 'true' } })
  token = await svc.tokenFor('root', 's3cret-root')
  await seedFixture()
  ids.keystore = ids['my-keystore']!
  ids.truststore = ids.apinizer!
  const ordered = [...examples].sort((a, b) => Number(isDelete(a)) - Number(isDelete(b)))
  for (const example of ordered) {
    let body = SUBSTITUTE[keyOf(example)]?.(example.body, ids) ?? example.body
    const fields = bodyOf({ ...example, body })
    if (RENAMED.test(example.page) && typeof fields.name === 'string') {
      let name = fields.name
      for (let n = 2; taken.has(name); n++) name = `${fields.name}-${n}`
      if (name !== fields.name) body = { ...fields, name }
    }
    const url = urlOf(example, bodyOf({ ...example, body }))
    const sent = example.multipart
      ? form({ [example.multipart.json]: JSON.stringify(body) }, example.multipart.file ? { [example.multipart.file]: FILES[example.multipart.file]!(bodyOf({ ...example, body })) } : {})
      : body
    const res = await send(example.method, url, sent)
    const answer = { example, url, status: res.status, ...classify(res.status, res.body) }
    const created = nameOf(bodyOf({ ...example, body }))
    if (answer.outcome === 'accepted' && created && example.method !== 'DELETE') taken.add(created)
    answers.push(answer)
    const read = READ_BACK[example.page]
    const jwkName = JWK_WRITES.test(example.page) ? (bodyOf({ ...example, body }).name as string) : null
    if (answer.outcome === 'accepted' && (read || jwkName)) {
      const readAt: ReadAt = read ? read.at(url.replace(/\/$/, ''), body) : `${P}/jwks/${encodeURIComponent(jwkName!)}/`
      const [method, at, readBody] = typeof readAt === 'string' ? ['GET', readAt, undefined] : readAt
      const res = await send(method, at, readBody)
      const object = read?.pick ? read.pick(res.body, body, url.replace(/\/$/, '')) : (res.body?.resultList?.[0] ?? res.body?.resultObject ?? res.body)
      const missing = res.status !== 200 || !object
        ? [`${method}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`]
        : read !== undefined
          ? missingIn(object, readable(example.page, read.as ? read.as(body) : body))
          : [...JWK_READ_FIELDS, String(object.type).toLowerCase()].filter((f) => !(f in object)).map((f) => `${f} (absent)`)
            .concat(object.name === jwkName && object.description === ((body as any).description ?? object.description) ? [] : [`name/description: ${object.name} ${object.description}`])
            .concat((body as any).kid === undefined || object.kid === (body as any).kid ? [] : [`kid: sent ${(body as any).kid}, read ${object.kid}`])
      readBack.push({ key: keyOf(example), url: at, missing, ...(process.env.VENDOR_READ_BACK_DUMP && missing.length ? { read: res.body } : {}) })
    }
  }
  if (process.env.VENDOR_EXAMPLES_REPORT) fs.writeFileSync(process.env.VENDOR_EXAMPLES_REPORT, report())
  if (process.env.VENDOR_READ_BACK_DUMP) fs.writeFileSync(process.env.VENDOR_READ_BACK_DUMP, JSON.stringify({ readBack, accepted: answers.filter((a) => a.outcome === 'accepted').map((a) => keyOf(a.example)) }, null, 1))
}, 300_000)
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
  await new Promise((resolve) => web?.close(resolve))
})

function report(): string {
  const folders = new Map<string, Record<Outcome, number>>()
  for (const a of answers) {
    const folder = path.dirname(a.example.page)
    const row = folders.get(folder) ?? { accepted: 0, validation: 0, rule: 0, other: 0 }
    folders.set(folder, row)
    row[a.outcome]++
  }
  const total = { accepted: 0, validation: 0, rule: 0, other: 0 }
  for (const a of answers) total[a.outcome]++
  const line = (a: Answer) => `| \`${a.example.page.replace('api-reference/', '')}\`#${a.example.index} | ${a.example.method} \`${a.url}\` | ${a.status} | ${a.message.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`
  return [
    '# The newest vendor pages\' request examples, sent to the service',
    '',
    'Every JSON request example of `api-reference/` (apinizer/docs), sent as ADMIN to one service on a fresh database',
    'with the sample bootstrap (test/support/fixtures.ts, plus environments production, staging and development) and the',
    'objects the pages name, seeded over the public doors before the sweep (test/openapi/vendor-examples.test.ts,',
    '`seedFixture`: API proxies MyAPI with its endpoints, PaymentAPI in MyAPIGroup, gRPC, WebSocket, SOAP, A2A and MCP',
    'proxies; roles API_USER and DEVELOPER; organization root-org; connection Production Elasticsearch; RLCLs, LLM',
    'providers, vector DBs, a knowledge base, a provider definition; a certificate, keys, keystores and a JWK). Path',
    'parameters are the fixture\'s objects (FIXTURE, PAGE_PARAMS), else the example\'s own name. Placeholders where key',
    'material goes ("base64-encoded-key-content") are replaced by real material of the same shape (SUBSTITUTE); the',
    'multipart pages send the example as their form\'s JSON part with a file of the fixture. Generated by',
    '`npx tsx scripts/vendor-examples.ts --docs <apinizer/docs git dir>`.',
    '',
    '- **accepted**: 2xx.',
    '- **validation**: 400 naming a field of the body: the defect class of issue 32 §0, unless kept on purpose (listed).',
    '- **rule**: 400 naming a field for a rule on its value, not its shape (a spec rule, a URL the sweep can not fetch).',
    '- **other**: refused for another reason (a missing object, a conflict, the page\'s own refusal).',
    '',
    'Every refusal is listed with its reason in the test (KEPT for validation, REFUSED for rule and other): a new one',
    'fails the test, and so does a listed one that is accepted now (the lists only shrink).',
    '',
    `Total: ${answers.length} examples: ${total.accepted} accepted, ${total.validation} refused by validation, ${total.rule} refused by a rule, ${total.other} other.`,
    '',
    '| Folder | Accepted | Validation | Rule | Other |',
    '|---|---|---|---|---|',
    ...[...folders].sort(([a], [b]) => a.localeCompare(b)).map(([f, r]) => `| ${f.replace('api-reference/', '') || '.'} | ${r.accepted} | ${r.validation} | ${r.rule} | ${r.other} |`),
    '',
    '## Refused by validation',
    '',
    'Each with its reason in test/openapi/vendor-examples.test.ts (KEPT); "open" means not fixed yet.',
    '',
    '| Page#example | Sent | Status | Answer | Reason kept |',
    '|---|---|---|---|---|',
    ...answers.filter((a) => a.outcome === 'validation').map((a) => `${line(a)} ${(keptReason(`${a.example.page}#${a.example.index}`) ?? '(none: a defect)').replace(/\|/g, '\\|')} |`),
    '',
    '## Refused by a rule on a value',
    '',
    '| Page#example | Sent | Status | Answer | Reason |',
    '|---|---|---|---|---|',
    ...answers.filter((a) => a.outcome === 'rule').map((a) => `${line(a)} ${(REFUSED[keyOf(a.example)] ?? '(none)').replace(/\|/g, '\\|')} |`),
    '',
    '## Refused for another reason',
    '',
    '| Page#example | Sent | Status | Answer | Reason |',
    '|---|---|---|---|---|',
    ...answers.filter((a) => a.outcome === 'other').map((a) => `${line(a)} ${(REFUSED[keyOf(a.example)] ?? '(none)').replace(/\|/g, '\\|')} |`),
    '',
    ...readBackReport(readBack, answers.filter((a) => a.outcome === 'accepted').map((a) => keyOf(a.example))),
  ].join('\n')
}

describe('the newest vendor pages\' request examples', () => {
  it('are all sent', () => {
    expect(answers).toHaveLength(examples.length)
  })

  it('are not refused by body validation, but for the reasoned exceptions', () => {
    const refused = answers.filter((a) => a.outcome === 'validation').map((a) => `${a.example.page}#${a.example.index}`)
    const unexpected = answers.filter((a) => a.outcome === 'validation' && !keptReason(`${a.example.page}#${a.example.index}`)).map((a) => `${a.example.page}#${a.example.index}: ${a.message}`)
    expect(unexpected).toEqual([])
    // an exception whose example is now accepted is taken off the list
    expect([...Object.keys(KEPT), ...Object.keys(KEPT_REACHED)].filter((k) => !refused.includes(k))).toEqual([])
  })

  it('are accepted, but for the reasoned refusals (a rule on a value, a missing object, no network)', () => {
    const refused = answers.filter((a) => a.outcome === 'rule' || a.outcome === 'other').map((a) => keyOf(a.example))
    const unexpected = answers.filter((a) => (a.outcome === 'rule' || a.outcome === 'other') && !REFUSED[keyOf(a.example)]).map((a) => `${keyOf(a.example)}: ${a.status} ${a.message}`)
    expect(unexpected).toEqual([])
    // a listed refusal whose example is now accepted (or refused by validation, then listed in KEPT) is taken off the list
    expect(Object.keys(REFUSED).filter((k) => !refused.includes(k))).toEqual([])
  })

  it('read back with the fields they wrote, every family with a read: keys, keystores, JWKs, credentials (access, token settings), organizations, IP groups, API proxies (create and update, import, routed AI/MCP/A2A proxies, promotion, deployment, endpoints, settings, routing, traffic log settings, policies), API proxy groups, global policies, policy groups, connections, environment variables, RLCLs, LLM providers, models and provider definitions, vector DBs, the AI presets and AI gateway settings', () => {
    expect(readBack.length).toBeGreaterThan(100)
    expect(readBack.filter((r) => r.missing.length)).toEqual([])
    // every accepted example is read back, or has no object to read (NO_READ, with its reason)
    const read = new Set(readBack.map((r) => r.key))
    const unread = answers.filter((a) => a.outcome === 'accepted' && !read.has(keyOf(a.example)) && !NO_READ[a.example.page]).map((a) => keyOf(a.example))
    expect(unread).toEqual([])
  })
})
