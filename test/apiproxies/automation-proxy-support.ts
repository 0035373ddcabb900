import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestService } from '../support/app.js'
import { apiManagersBootstrap } from './ai-proxies-support.js'

// Shared by the automation suites (API proxies, policies, groups): the installation, spec documents served by a
// loopback HTTP server, and the legacy calls.

/** apiManagersBootstrap plus gina (API_MANAGEMENT MANAGE, DEPLOY_UNDEPLOY and EXPORT_IMPORT) and workers for dev and prod. */
export function automationBootstrap(workers: { dev: string[]; prod: string[] }) {
  const doc = apiManagersBootstrap({ dev: workers.dev }, [])
  doc.environments[1]!.workerUrls = workers.prod
  doc.users.push({ username: 'gina', password: 'gina-pass-1' })
  doc.projects[0]!.members!.push({
    username: 'gina',
    permissions: [{ category: 'API_MANAGEMENT', level: 'MANAGE' }, { category: 'API_MANAGEMENT', level: 'DEPLOY_UNDEPLOY' }, { category: 'API_MANAGEMENT', level: 'EXPORT_IMPORT' }],
  })
  return doc
}

export const PETSTORE = {
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.0.0' },
  paths: {
    '/pets': {
      get: { operationId: 'listPets', summary: 'List all pets' },
      post: { operationId: 'createPet', summary: 'Create a pet' },
    },
    '/pets/{petId}': {
      get: { operationId: 'showPetById', summary: 'Info for a specific pet', parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }] },
    },
  },
}

export const PETSTORE_V2_YAML = `swagger: "2.0"
info:
  title: Petstore
  version: "2.0"
paths:
  /pets:
    get:
      operationId: listPets
      summary: List all pets
  /pets/{petId}:
    delete:
      operationId: deletePet
`

/** A loopback server for specUrl: fixed documents by path, a redirect, a 404 and a document too large. */
export class SpecServer {
  readonly requests: { url: string; authorization?: string }[] = []
  documents = new Map<string, string>([
    ['/petstore.json', JSON.stringify(PETSTORE)],
    ['/petstore-v2.yaml', PETSTORE_V2_YAML],
    ['/not-openapi.json', JSON.stringify({ hello: 'world' })],
    ['/broken.json', '{"openapi": '],
  ])
  private server = http.createServer((req, res) => {
    this.requests.push({ url: req.url ?? '', authorization: req.headers.authorization })
    if (req.url === '/redirect') {
      res.writeHead(302, { location: '/petstore.json' }).end()
      return
    }
    if (req.url === '/huge.json') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"openapi":"3.0.0","x":"' + 'a'.repeat(3 * 1024 * 1024) + '"}')
      return
    }
    const doc = this.documents.get(req.url ?? '')
    if (!doc) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(doc)
  })

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  static async start(): Promise<SpecServer> {
    const s = new SpecServer()
    await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve))
    return s
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}

/** One legacy call under /apiops/projects/{project}/…; a FormData body is sent as multipart. */
export async function legacy(svc: TestService, method: string, path: string, token: string | null, body?: unknown) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
  let payload: RequestInit["body"]
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = typeof body === 'string' ? body : JSON.stringify(body)
  }
  const res = await svc.http(`/apiops/projects/${path}`, { method, headers, body: payload })
  const text = await res.text()
  let parsed: any
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = text
  }
  return { status: res.status, body: parsed, headers: res.headers, raw: text }
}

/** The multipart form of a file write: metadata (JSON text) and an optional specFile. */
export function specForm(metadata: unknown, specFile?: { text: string; name: string }) {
  const form = new FormData()
  form.append('metadata', typeof metadata === 'string' ? metadata : JSON.stringify(metadata))
  if (specFile) form.append('specFile', new Blob([specFile.text], { type: 'application/octet-stream' }), specFile.name)
  return form
}

/** The pages' running example: API proxy MyAPI from PETSTORE on /api/users, deployed to dev (throws when refused). */
export async function createDeployedMyApi(svc: TestService, token: string) {
  const form = new FormData()
  form.append('metadata', JSON.stringify({ apiProxyName: 'MyAPI', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/api/users'] }, deploy: true, deployTargetEnvironmentNameList: ['dev'] }))
  form.append('specFile', new Blob([JSON.stringify(PETSTORE)]), 'openapi.json')
  const created = await legacy(svc, 'POST', 'payments/apiProxies/file/', token, form)
  if (created.status !== 200) throw new Error(JSON.stringify(created.body))
}
