import createClient from 'openapi-fetch'
import type { components, paths } from '../../test/generated/openapi.js'
import { CliError } from './files.js'

/** The typed OpenAPI client gwctl talks through (types generated from the served document: npm run openapi:types). */
export type Plan = components['schemas']['DeclarativePlan']
export type ApplyResult = components['schemas']['DeclarativeApplyResult']
export type Drift = components['schemas']['DeclarativeDrift']
export type Validation = components['schemas']['DeclarativeValidation']

export interface Connection { url: string; token: string | undefined }

/** A refusal of the server: its Common Contract body, so callers can print its errors with paths. */
export class ApiError extends CliError {
  constructor(readonly status: number, readonly body: { errorKey?: string; message?: string; params?: Record<string, unknown> }) {
    super(body.message ?? `HTTP ${status}`)
  }
}

export function apiClient(conn: Connection) {
  const client = createClient<paths>({
    baseUrl: conn.url.replace(/\/+$/, ''),
    headers: conn.token ? { authorization: `Bearer ${conn.token}` } : {},
  })
  const unwrap = async <T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> => {
    let result: { data?: T; error?: unknown; response: Response }
    try {
      result = await call
    } catch (err) {
      throw new CliError(`cannot reach ${conn.url}: ${(err as Error).cause ? String((err as { cause: unknown }).cause) : (err as Error).message}`)
    }
    if (result.response.ok && result.data !== undefined) return result.data
    throw new ApiError(result.response.status, (result.error ?? {}) as ApiError['body'])
  }
  return {
    dump: (projectName: string, query: { secrets?: 'none' | 'refs'; namespace?: string }) =>
      unwrap(client.GET('/apiops/projects/{projectName}/declarative-state', { params: { path: { projectName }, query } })),
    plan: (projectName: string, document: Record<string, unknown>, mode: 'apply' | 'sync') =>
      unwrap(client.POST('/apiops/projects/{projectName}/declarative-plans', { params: { path: { projectName } }, body: { document, mode } })),
    validate: (projectName: string, document: Record<string, unknown>, mode: 'apply' | 'sync') =>
      unwrap(client.POST('/apiops/projects/{projectName}/declarative-validations', { params: { path: { projectName } }, body: { document, mode } })),
    apply: (projectName: string, planId: string, headers: { changeReference?: string; idempotencyKey?: string }) =>
      unwrap(client.POST('/apiops/projects/{projectName}/declarative-plans/{planId}/apply', {
        params: { path: { projectName, planId } },
        headers: { ...(headers.changeReference ? { 'X-Change-Reference': headers.changeReference } : {}), ...(headers.idempotencyKey ? { 'Idempotency-Key': headers.idempotencyKey } : {}) },
      })),
    drift: (projectName: string, namespace?: string) =>
      unwrap(client.GET('/apiops/projects/{projectName}/declarative-drift', { params: { path: { projectName }, query: namespace ? { namespace } : {} } })),
    /** projects are created over GraphQL (the REST surface has no project write) */
    async createProject(name: string, environments: string[]) {
      const res = await fetch(`${conn.url.replace(/\/+$/, '')}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(conn.token ? { authorization: `Bearer ${conn.token}` } : {}) },
        body: JSON.stringify({ query: 'mutation ($input: ProjectInput!) { createProject(input: $input) { name } }', variables: { input: { name, environments } } }),
      })
      const body = (await res.json()) as { errors?: { message: string; extensions?: { errorKey?: string; params?: Record<string, unknown> } }[] }
      if (body.errors?.length) {
        const e = body.errors[0]!
        throw new ApiError(res.status === 200 ? 400 : res.status, { errorKey: e.extensions?.errorKey, message: `cannot create project '${name}': ${e.message}`, params: e.extensions?.params })
      }
    },
  }
}
