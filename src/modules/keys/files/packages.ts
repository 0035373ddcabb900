import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps } from '../../../platform/context.js'
import type { BuiltPackage } from '../../transfer/build.js'
import { exportObjects } from '../../transfer/export.js'
import { keyNotFound, keystoreNotFound } from '../materials.js'
import { findObject, requiredName, TYPE } from '../store.js'
import { fileAccess } from './access.js'

// The package downloads of a key or a keystore (api-reference/keys-secrets/crud/export-key, export-keystore): the
// transfer engine's export of that one object (type CERTIFICATE with its kind), so that the package is the one every
// export writes and the transfer import reads (no second serializer): `encrypt=true` with the passphrase header
// encrypts it whole; `secretHandling` says how its secrets travel, as in every export.

const KINDS = {
  CRYPTO_KEY_INFO: { field: 'keyName', notFound: keyNotFound },
  KEY_STORE: { field: 'keystoreName', notFound: keystoreNotFound },
} as const

export async function exportTrustPackage(
  deps: Deps, actor: Actor, projectName: string, kind: keyof typeof KINDS, rawName: string, query: Record<string, unknown>, passphrase: string | null,
): Promise<BuiltPackage> {
  const access = await fileAccess(deps, actor, projectName, false)
  const name = requiredName(rawName, KINDS[kind].field)
  if (!(await findObject(deps.prisma, access.project.id, kind, name))) throw KINDS[kind].notFound(name)
  const { encrypt, secretHandling } = query
  return exportObjects(deps, actor, { projectName, type: TYPE, query: { encrypt, secretHandling }, body: { names: [name], kind }, passphrase })
}
