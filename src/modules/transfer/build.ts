import { createRequire } from 'node:module'
import { actorName } from '../../platform/auth/actor.js'
import { encryptPackage } from '../../platform/transfer/package/encryption.js'
import { buildManifest, encodeJson, type ObjectFile, type SecretHandling } from '../../platform/transfer/package/format.js'
import { MANIFEST_FILE, safeFileStem } from '../../platform/transfer/package/names.js'
import { packageSecrets, secretCriticalFeatures } from '../../platform/transfer/package/secrets.js'
import { writePackageZip } from '../../platform/transfer/package/zip.js'
import type { AdapterContext } from '../../platform/transfer/registry.js'
import { DEFAULT_SECRET_HANDLING, exportDigest, hasSecrets, type SelectedObject, type Selection } from './selection.js'

const version = (createRequire(import.meta.url)('../../../package.json') as { version: string }).version

function objectFile(ctx: AdapterContext, o: SelectedObject, handling: SecretHandling): ObjectFile {
  const secrets = packageSecrets(ctx.deps.keyring, o.secrets, handling)
  return { formatVersion: 1, role: o.role, type: o.type, kind: o.kind, name: o.name, data: o.data, secrets, dependencies: o.dependencies }
}

export interface BuiltPackage {
  bytes: Buffer
  fileName: string
  exportDigest: string
  encrypted: boolean
  secretHandling: SecretHandling
}

/**
 * Writes the package in memory: object files, the manifest with a SHA-256 per file, then, with a
 * passphrase, the whole ZIP sealed (names included). An encrypted package carries secrets decrypted
 * (the encryption protects them) unless NONE was asked for.
 */
export async function buildPackage(
  ctx: AdapterContext,
  sel: Selection,
  options: { secretHandling?: SecretHandling; passphrase: string | null; exportedAt?: Date },
): Promise<BuiltPackage> {
  const exportedAt = options.exportedAt ?? new Date()
  const handling: SecretHandling = options.passphrase
    ? (options.secretHandling === 'NONE' ? 'NONE' : 'DECRYPTED_FOR_EXPORT')
    : (options.secretHandling ?? DEFAULT_SECRET_HANDLING)
  const all = [...sel.objects, ...sel.dependencies]
  const files = all.map((o) => ({ name: o.file, bytes: encodeJson(objectFile(ctx, o, handling)) }))
  const digest = exportDigest(sel)
  const manifest = buildManifest(
    {
      criticalFeatures: secretCriticalFeatures(handling, all.some(hasSecrets)),
      formatVersion: 1,
      generator: `gateway-management-api ${version}`,
      type: sel.adapter.type,
      kind: sel.kind,
      withDependencies: sel.withDependencies,
      secretHandling: handling,
      exportedAt: exportedAt.toISOString(),
      exportedBy: actorName(ctx.actor),
      sourceProject: ctx.access.project.name,
      exportDigest: digest,
      objects: all.map((o) => ({ type: o.type, kind: o.kind, name: o.name, role: o.role, file: o.file })),
      notWritten: sel.notWritten,
    },
    files,
  )
  const plain = writePackageZip([{ name: MANIFEST_FILE, bytes: encodeJson(manifest) }, ...files])
  const bytes = options.passphrase ? await encryptPackage(plain, options.passphrase) : plain
  const single = sel.objects.length === 1 ? sel.objects[0] : null
  const fileName = single
    ? (sel.adapter.packageFileName?.(single, exportedAt) ?? `${safeFileStem(single.name)}.zip`)
    : `${sel.adapter.type}-export.zip`
  return { bytes, fileName, exportDigest: digest, encrypted: !!options.passphrase, secretHandling: handling }
}

