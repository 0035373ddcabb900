import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import type { BuiltPackage } from '../transfer/build.js'
import { exportObjects } from '../transfer/export.js'
import { importObjects } from '../transfer/catalog/service.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { keyNotFound, keystoreNotFound } from '../keys/materials.js'
import { findObject, requiredName, TYPE } from '../keys/store.js'
import { fileAccess, requireFileImport } from './access.js'

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

const LABELS = { CRYPTO_KEY_INFO: 'key', KEY_STORE: 'keystore' } as const
const FILE_FIELDS = { CRYPTO_KEY_INFO: 'keyExportFile', KEY_STORE: 'keystoreExportFile' } as const

export interface TrustPackageUpload { bytes: Buffer | null; fileName: string | undefined; passphrase: string | null; fields: Record<string, string>; override: string | undefined }

/**
 * The package uploads of a key or a keystore (api-reference/keys-secrets/crud/import-key, import-keystore): the
 * transfer engine's import of a package the export above wrote (encrypted or not, detected), holding objects of that
 * kind only. override=true replaces a same-named object (certEnvironmentMergeMethod, certEnvironmentUncoveredAction);
 * otherwise a name already taken is imported as `<name>-imported` (then -imported-2, …), as the pages say, and
 * environmentMapping maps the package's environments. Not deployed (as every import).
 */
export async function importTrustPackage(deps: Deps, actor: Actor, projectName: string, kind: keyof typeof KINDS, upload: TrustPackageUpload) {
  const field = FILE_FIELDS[kind]
  const access = await fileAccess(deps, actor, projectName, true)
  if (!upload.bytes?.length) throw malformed(`${field} value can not be empty!`, { field })
  requireFileImport(access)
  const fields = { ...upload.fields, ...(upload.override !== undefined ? { override: upload.override } : {}) }
  return importObjects(deps, actor, projectName, TYPE, { bytes: upload.bytes, fileName: upload.fileName, passphrase: upload.passphrase, fields }, {
    fileField: field,
    async prepare(analysis, conflictPolicy) {
      const other = [...analysis.objects, ...analysis.packagedDependencies].find((p) => p.packaged.kind !== kind)
      if (other) throw malformed(`${field}: the package holds ${other.packaged.kind ?? other.packaged.type} '${other.packaged.name}', not only ${LABELS[kind]}s; import it through export-import/${TYPE}/import/`, { field })
      if (conflictPolicy !== 'NEW') return
      const taken = new Set(analysis.objects.map((p) => p.packaged.name.toLowerCase()))
      for (const p of analysis.objects.filter((o) => o.exists)) {
        let name = `${p.packaged.name}-imported`
        for (let n = 2; taken.has(name.toLowerCase()) || (await findObject(deps.prisma, access.project.id, kind, name)); n++) name = `${p.packaged.name}-imported-${n}`
        taken.add(name.toLowerCase())
        p.portable = { ...p.portable, name }
        p.packaged = { ...p.packaged, name }
        p.exists = false
      }
    },
  })
}
