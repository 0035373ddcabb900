import { DomainError } from '../../../platform/errors/domain-error.js'
import type { Tx } from '../../../platform/context.js'
import { findObject } from '../../keys/store.js'
import { sentFlat, type BackendServerValues } from './ai-routing.js'

// The material of a backend server's OAUTH2_CLIENT_CREDENTIALS and MTLS schemes beyond its schema (ai-routing.ts):
// the keystore and trust store an mTLS server names must be objects of the project (the proxy mTLS settings page's
// rule and errorKeys), checked before the routing is saved.

/** Where a server's mTLS settings were sent: the page's flat field or our nested auth. */
const mtlsField = (server: BackendServerValues, i: number) => `backendServers[${i}].${sentFlat(server.auth) ? '' : 'auth.'}mTLSSettings`

/** Refuses an MTLS server whose keystore (or trust store: a keystore or a certificate) is not an object of the project. */
export async function checkBackendMaterial(db: Tx, projectId: string, servers: BackendServerValues[]): Promise<void> {
  for (const [i, server] of servers.entries()) {
    const mtls = server.auth.scheme === 'MTLS' ? server.auth.mTLSSettings : null
    if (!mtls) continue
    const at = mtlsField(server, i)
    if (mtls.keyStoreName && !(await findObject(db, projectId, 'KEY_STORE', mtls.keyStoreName))) {
      throw new DomainError('validation', 'keystoreNotFound', `${at}.keyStoreName: Keystore (name: ${mtls.keyStoreName}) is not found!`, { field: `${at}.keyStoreName`, keyStoreName: mtls.keyStoreName })
    }
    const trust = mtls.trustStoreName
    if (trust && !(await findObject(db, projectId, 'KEY_STORE', trust)) && !(await findObject(db, projectId, 'CERTIFICATE', trust))) {
      throw new DomainError('validation', 'truststoreNotFound', `${at}.trustStoreName: no keystore or certificate named '${trust}' in the project`, { field: `${at}.trustStoreName`, trustStoreName: trust })
    }
  }
}
