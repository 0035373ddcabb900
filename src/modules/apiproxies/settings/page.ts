import type { z } from 'zod'
import type { ApiProxy } from '../../../generated/prisma/client.js'
import type { ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { malformed } from '../../../platform/errors/domain-error.js'
import type { ProxySettings } from '../proxies/automation/inputs.js'

// What a settings page is (settings.ts runs them): the schema of its body and how its fields change the proxy's
// settings. The helpers are the pages' shared vocabulary.

export type Settings = Partial<ProxySettings> & Record<string, unknown>
export type Json = Record<string, unknown>

export interface PageContext {
  deps: Deps
  db: Tx
  access: ProjectAccess
  proxy: ApiProxy
  settings: Settings
  /** the path and query values of a page that takes some (spec-access-type) */
  params: Record<string, string | undefined>
}
/** What a page changes: sections of settings, and columns of the proxy. */
export interface Change {
  settings: Json
  proxy?: { name?: string; description?: string | null; relativePath?: string }
}
/** The proxy kinds a page applies to: the classic ones (REST, SOAP, gRPC, WebSocket; the default), every kind, or one. */
export type PageKinds = 'CLASSIC' | 'ALL' | 'GRPC' | 'WEBSOCKET'
export interface Page<S extends z.ZodType> {
  schema: S
  kinds?: PageKinds
  apply(ctx: PageContext, input: z.output<S>): Promise<Change> | Change
}
export const page = <S extends z.ZodType>(p: Page<S>) => p as unknown as Page<z.ZodType>

export const problem = (field: string, message: string) => malformed(`${field}: ${message}`, { field })
export const defined = <T extends Json>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>
export const section = (settings: Settings, key: string): Json => ((settings[key] ?? {}) as Json)
