import type { Deps } from '../../platform/context.js'
import { DomainError } from '../../platform/errors/domain-error.js'
import { PLATFORM_PROJECT } from '../../platform/scope/project-scope.js'
import { keystoreMaterials } from '../keys/materials.js'
import { findObject } from '../keys/store.js'

/**
 * What a webhook connection's trust store and key store give its HTTPS requests (spec §2.17): the trust store's
 * certificates as the only authorities the server's certificate may chain to, and the key store's private key with
 * its chain as the client certificate (mutual TLS). Without a trust store the server certificate is not verified.
 */
export interface WebhookTls {
  /** PEM certificates of the trust store; undefined: no trust store, the server certificate is not verified */
  ca?: string[]
  /** PEM private key and certificate chain of the key store's first private-key entry */
  key?: string
  cert?: string
}

/** The stores a connection names, in its project (installation-wide connections: the platform project), for its environment. */
export interface WebhookStoreRefs {
  projectId: string | null
  environment: string
  trustStoreName: string | null
  keyStoreName: string | null
}

/** A store that cannot be used: its name and why (a connection test and a delivery report it as their failure). */
export class WebhookTlsError extends Error {}

// opening a PKCS#12 or JKS file costs milliseconds: kept per stored object, revision and environment (a delivery
// of every event would otherwise open it again); a changed store has a new revision
const opened = new Map<string, WebhookTls>()
const OPENED_MAX = 32

export async function webhookTls(deps: Pick<Deps, 'prisma' | 'keyring'>, refs: WebhookStoreRefs): Promise<WebhookTls> {
  if (!refs.trustStoreName && !refs.keyStoreName) return {}
  const projectId = refs.projectId ?? (await deps.prisma.project.findUnique({ where: { name: PLATFORM_PROJECT }, select: { id: true } }))?.id
  const store = async (name: string, role: 'trust store' | 'key store') => {
    const row = projectId ? await findObject(deps.prisma, projectId, 'KEY_STORE', name) : null
    if (!row) throw new WebhookTlsError(`${role} '${name}' is not a keystore of ${refs.projectId ? 'the connection\'s project' : `project '${PLATFORM_PROJECT}'`}`)
    const key = `${row.id}:${row.revision}:${refs.environment}:${role}`
    const known = opened.get(key)
    if (known) return known
    let materials
    try {
      materials = keystoreMaterials(deps, row, refs.environment)
    } catch (err) {
      if (err instanceof DomainError) throw new WebhookTlsError(`${role} '${name}': ${err.message}`)
      throw err
    }
    const entries = [...materials.values()]
    let tls: WebhookTls
    if (role === 'trust store') {
      tls = { ca: entries.flatMap((e) => e.chain.map((c) => c.toString())) }
    } else {
      const signer = entries.find((e) => e.privateKey)
      if (!signer) throw new WebhookTlsError(`key store '${name}' holds no private key for environment '${refs.environment}'`)
      tls = { key: signer.privateKey!.export({ type: 'pkcs8', format: 'pem' }).toString(), cert: signer.chain.map((c) => c.toString()).join('') }
    }
    if (opened.size >= OPENED_MAX) opened.delete(opened.keys().next().value!)
    opened.set(key, tls)
    return tls
  }
  return {
    ...(refs.trustStoreName ? await store(refs.trustStoreName, 'trust store') : {}),
    ...(refs.keyStoreName ? await store(refs.keyStoreName, 'key store') : {}),
  }
}

/** The TLS options of a request to `url` under a connection's stores (http: none). */
export function tlsOptions(url: URL, tls: WebhookTls, serverNameVerification: boolean) {
  if (url.protocol !== 'https:') return {}
  return {
    // without a trust store the server certificate is not verified (spec §2.17); with one, only its authorities count
    rejectUnauthorized: tls.ca !== undefined,
    ...(tls.ca ? { ca: tls.ca } : {}),
    ...(tls.key ? { key: tls.key, cert: tls.cert } : {}),
    ...(serverNameVerification ? {} : { checkServerIdentity: () => undefined }),
  }
}
