// The console's only door to the service: GraphQL over HTTP (queries, mutations) and graphql-ws (subscriptions),
// both on /graphql. The session token (the `login` mutation's console session) lives in sessionStorage only: never
// in a URL, a cookie or localStorage; graphql-ws presents it in connection_init.
import { createClient, type Client } from 'graphql-ws'
import type { TypedDocumentString } from './gql/graphql'

const KEY = 'gateway-console-session'

export const session = {
  get token(): string | null {
    return sessionStorage.getItem(KEY)
  },
  set(token: string) {
    sessionStorage.setItem(KEY, token)
  },
  clear() {
    sessionStorage.removeItem(KEY)
    ws?.dispose()
    ws = null
  },
}

/** A GraphQL error as the server sent it: its message, errorKey and the field it names. */
export class GqlError extends Error {
  constructor(message: string, readonly errorKey?: string, readonly field?: string, readonly code?: string) {
    super(message)
  }
}

interface WireError { message: string; extensions?: { code?: string; errorKey?: string; params?: Record<string, unknown> } }

function toError(errors: WireError[]): GqlError {
  const e = errors[0]
  const params = e.extensions?.params ?? {}
  const field = typeof params.field === 'string' ? params.field : undefined
  return new GqlError(e.message, e.extensions?.errorKey, field, e.extensions?.code)
}

let onUnauthenticated: () => void = () => {}
export const whenSignedOut = (fn: () => void) => {
  onUnauthenticated = fn
}

export async function request<R, V>(doc: TypedDocumentString<R, V>, variables: V): Promise<R> {
  const token = session.token
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: doc.toString(), variables }),
  })
  let body: { data?: R; errors?: WireError[] }
  try {
    body = await res.json()
  } catch {
    throw new GqlError(`The service answered ${res.status} ${res.statusText}`)
  }
  if (body.errors?.length) {
    const err = toError(body.errors)
    if (err.code === 'UNAUTHENTICATED' && token) onUnauthenticated()
    throw err
  }
  return body.data as R
}

let ws: Client | null = null

function socket(): Client {
  ws ??= createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    connectionParams: () => ({ authorization: `Bearer ${session.token ?? ''}` }),
    lazy: true,
    retryAttempts: 5,
  })
  return ws
}

/** Subscribes; returns the unsubscribe function. */
export function subscribe<R, V>(doc: TypedDocumentString<R, V>, variables: V, next: (data: R) => void, error?: (e: GqlError) => void): () => void {
  return socket().subscribe<R>(
    { query: doc.toString(), variables: variables as Record<string, unknown> },
    {
      next: (r) => {
        if (r.errors?.length) error?.(toError(r.errors as WireError[]))
        else if (r.data) next(r.data)
      },
      error: (e) => error?.(new GqlError(e instanceof Error ? e.message : 'The live connection closed')),
      complete: () => {},
    },
  )
}
