import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal'
import { readUpload } from '../../platform/graphql/upload.js'
import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Extensions, Field, InputType, Int, Mutation, ObjectType, Query, registerEnumType, Resolver } from 'type-graphql'
import { sha256Hex } from '../../platform/hashing/canonical.js'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { withoutNulls } from '../../platform/graphql/inputs.js'
import { exportWebhookConnection, previewTransferExport, runTransferExport } from './export.js'
import type { BuiltPackage } from './build.js'
import { preflightTransferImport } from './analysis.js'
import { runTransferImport } from './import.js'
import { PACKAGE_LIMITS } from '../../platform/transfer/package/zip.js'
import { ensureTransferAdapters } from './adapters/index.js'
import { supportedTypes, adapterFor } from '../../platform/transfer/registry.js'

enum TransferSecretHandling { DECRYPTED_FOR_EXPORT = 'DECRYPTED_FOR_EXPORT', CIPHERTEXT_VERBATIM = 'CIPHERTEXT_VERBATIM', NONE = 'NONE' }
enum TransferConflictPolicy { NEW = 'NEW', REPLACE = 'REPLACE' }
enum CertEnvironmentMergeMethod { MATCH_BY_NAME = 'MATCH_BY_NAME', OVERWRITE_ALL = 'OVERWRITE_ALL' }
enum CertEnvironmentUncoveredAction { FILL_FROM_PACKAGE = 'FILL_FROM_PACKAGE', REMOVE_FROM_TARGET = 'REMOVE_FROM_TARGET' }
registerEnumType(TransferSecretHandling, { name: 'TransferSecretHandling', description: 'How secrets travel in an unencrypted package' })
registerEnumType(TransferConflictPolicy, { name: 'TransferConflictPolicy', description: 'NEW creates (a name that exists is a collision); REPLACE overwrites by name' })
registerEnumType(CertEnvironmentMergeMethod, { name: 'CertEnvironmentMergeMethod' })
registerEnumType(CertEnvironmentUncoveredAction, { name: 'CertEnvironmentUncoveredAction' })

@ObjectType('TransferObjectTypeInfo', { description: 'One exportable type of the registry' })
class TransferObjectTypeInfo {
  @Field(() => String) type: string
  @Field(() => String, { description: 'asset category whose EXPORT_IMPORT the type needs (PROJECT_MANAGEMENT EXPORT_IMPORT also does)' }) category: string
  @Field(() => [String], { nullable: true, description: 'kinds of a multi-kind type; null for a single-kind type' }) kinds: string[] | null
  @Field(() => [String], { description: 'fields that travel per secretHandling' }) secretFields: string[]
  @Field(() => String, { description: 'PROJECT, or INSTALLATION (installation-wide objects; system administrators)' }) scope: string
  @Field(() => String, { description: 'the module that owns the objects (stored-objects: the opaque fallback)' }) source: string
}

@ObjectType('TransferObject')
class TransferObjectType {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true, description: 'null for single-kind types' }) kind: string | null
  @Field(() => String) type: string
}

@ObjectType('TransferAdvisory')
export class TransferAdvisoryType {
  @Field(() => String, { description: 'INFO or WARNING' }) level: string
  @Field(() => String) key: string
  @Field(() => JSONResolver) params: unknown
}

@ObjectType('TransferExportDependency')
class TransferExportDependencyType {
  @Field(() => String) type: string
  @Field(() => String, { nullable: true }) kind: string | null
  @Field(() => String) name: string
  @Field(() => Boolean, { description: 'whether the object carries secrets' }) secret: boolean
}

@ObjectType('TransferExportPreview')
class TransferExportPreviewType {
  @Field(() => Int) formatVersion: number
  @Field(() => String) type: string
  @Field(() => Boolean) withDependencies: boolean
  @Field(() => [TransferObjectType]) objects: TransferObjectType[]
  @Field(() => [TransferExportDependencyType]) dependencies: TransferExportDependencyType[]
  @Field(() => TransferSecretHandling) secretHandling: TransferSecretHandling
  @Field(() => [TransferAdvisoryType]) advisories: TransferAdvisoryType[]
  @Field(() => String) exportDigest: string
}

@ObjectType('TransferPackage', { description: 'A package returned inline (base64): GraphQL has no binary responses. Decode contentBase64 and save it as fileName' })
class TransferPackageType {
  @Field(() => String) fileName: string
  @Field(() => String) contentType: string
  @Field(() => Int) sizeBytes: number
  @Field(() => String, { description: 'SHA-256 (hex) of the package bytes' }) sha256: string
  @Field(() => String) exportDigest: string
  @Field(() => Boolean) encrypted: boolean
  @Field(() => TransferSecretHandling) secretHandling: TransferSecretHandling
  @Field(() => String) contentBase64: string
}

@ObjectType('TransferImportDependency')
class TransferImportDependencyType extends TransferExportDependencyType {
  @Field(() => Boolean, { description: 'an object of this type, kind and name exists in the target project' }) resolvedByName: boolean
  @Field(() => [String], { description: 'names of the type (and kind) in the target, when not resolved by name' }) candidateNames: string[]
}

@ObjectType('TransferBlocker')
class TransferBlockerType {
  @Field(() => String, { description: 'the errorKey an import run would answer with' }) code: string
  @Field(() => String, { nullable: true }) entryFileName: string | null
  @Field(() => String) detail: string
}

@ObjectType('TransferImportPreflight')
class TransferImportPreflightType {
  @Field(() => Int) formatVersion: number
  @Field(() => String) type: string
  @Field(() => String, { nullable: true }) detectedType: string | null
  @Field(() => [TransferObjectType]) objects: TransferObjectType[]
  @Field(() => [TransferImportDependencyType]) dependencies: TransferImportDependencyType[]
  @Field(() => [String]) replaceTargets: string[]
  @Field(() => [String]) packageEnvironments: string[]
  @Field(() => [String]) installationEnvironments: string[]
  @Field(() => [TransferBlockerType]) blockers: TransferBlockerType[]
  @Field(() => [TransferAdvisoryType]) advisories: TransferAdvisoryType[]
  @Field(() => String) preflightDigest: string
}

@ObjectType('TransferImportResult')
class TransferImportResultType {
  @Field(() => Int) formatVersion: number
  @Field(() => String) type: string
  @Field(() => TransferConflictPolicy) conflictPolicy: TransferConflictPolicy
  @Field(() => [TransferObjectType]) imported: TransferObjectType[]
  @Field(() => [TransferAdvisoryType], { description: 'empty: the transfer is complete' }) advisories: TransferAdvisoryType[]
  @Field(() => [String]) unresolvedReferences: string[]
}

@InputType('TransferExportInput')
class TransferExportInputType {
  @Field(() => Int, { nullable: true, description: '1 (default)' }) formatVersion?: number | null
  @Field(() => String) type: string
  @Field(() => [String]) names: string[]
  @Field(() => String, { nullable: true }) kind?: string | null
  @Field(() => Boolean, { nullable: true }) withDependencies?: boolean | null
  @Field(() => TransferSecretHandling, { nullable: true, description: 'default CIPHERTEXT_VERBATIM' }) secretHandling?: TransferSecretHandling | null
}

@InputType('TransferExportRunInput')
class TransferExportRunInputType extends TransferExportInputType {
  @Field(() => String) expectedExportDigest: string
  @Field(() => Boolean, { nullable: true, description: 'encrypt the whole package with passphrase' }) encrypt?: boolean | null
  @Field(() => String, { nullable: true, description: 'the passphrase itself (UTF-8, not Base64); required with encrypt' }) passphrase?: string | null
}

@InputType('TransferImportOptionsInput')
class TransferImportOptionsInputType {
  @Field(() => Int, { nullable: true }) formatVersion?: number | null
  @Field(() => String, { nullable: true, description: 'defaults to the type argument' }) type?: string | null
  @Field(() => String) preflightDigest: string
  @Field(() => TransferConflictPolicy, { nullable: true }) conflictPolicy?: TransferConflictPolicy | null
  @Field(() => JSONResolver, { nullable: true, description: 'source environment name → target environment name' }) environmentMapping?: Record<string, string> | null
  @Field(() => CertEnvironmentMergeMethod, { nullable: true }) certEnvironmentMergeMethod?: CertEnvironmentMergeMethod | null
  @Field(() => CertEnvironmentUncoveredAction, { nullable: true }) certEnvironmentUncoveredAction?: CertEnvironmentUncoveredAction | null
  @Field(() => Boolean, { nullable: true }) acknowledgeChecksumMismatch?: boolean | null
}

const inline = (pkg: BuiltPackage): TransferPackageType => ({
  fileName: pkg.fileName,
  contentType: 'application/zip',
  sizeBytes: pkg.bytes.length,
  sha256: sha256Hex(pkg.bytes),
  exportDigest: pkg.exportDigest,
  encrypted: pkg.encrypted,
  secretHandling: pkg.secretHandling as TransferSecretHandling,
  contentBase64: pkg.bytes.toString('base64'),
})

/** The uploaded package's bytes, bounded like the REST multipart part. */
const readPackage = async (upload: Promise<FileUpload> | null | undefined) => (await readUpload(upload, 'exportFile', PACKAGE_LIMITS.maxPackageBytes))?.bytes ?? null

@Resolver()
export class TransferResolver {
  @Query(() => [TransferObjectTypeInfo], { description: 'The exportable object types, with their kinds and secret fields' })
  async transferObjectTypes(@Ctx() ctx: GqlContext): Promise<TransferObjectTypeInfo[]> {
    requireViewer(ctx)
    await ensureTransferAdapters()
    return supportedTypes().map(adapterFor).map((a) => ({
      type: a.type, category: a.category, kinds: a.kinds ? [...a.kinds] : null, secretFields: [...a.secretFields], scope: a.scope.toUpperCase(), source: a.source,
    }))
  }

  @Mutation(() => TransferExportPreviewType, { description: 'What an export run would package, and its exportDigest. Writes nothing' })
  @Extensions({ audit: false })
  async transferExportPreview(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('input', () => TransferExportInputType) input: TransferExportInputType,
  ) {
    return previewTransferExport(ctx.deps, requireViewer(ctx), projectName, withoutNulls({ ...input }))
  }

  @Mutation(() => TransferPackageType, { description: 'The previewed selection as a package (inline base64) when it still has expectedExportDigest' })
  async transferExportRun(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('input', () => TransferExportRunInputType) input: TransferExportRunInputType,
  ) {
    const { encrypt, passphrase, ...body } = withoutNulls({ ...input })
    return inline(await runTransferExport(ctx.deps, requireViewer(ctx), projectName, body, { encrypt: !!encrypt, passphrase: passphrase || null }))
  }

  @Mutation(() => TransferImportPreflightType, { description: 'Analyses an uploaded package against the project. Writes nothing' })
  @Extensions({ audit: false })
  async transferImportPreflight(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('type', () => String) type: string,
    @Arg('exportFile', () => GraphQLUpload) exportFile: Promise<FileUpload>,
    @Arg('passphrase', () => String, { nullable: true, description: 'for an encrypted package (UTF-8, not Base64)' }) passphrase: string | null,
  ) {
    const actor = requireViewer(ctx)
    return preflightTransferImport(ctx.deps, actor, projectName, { bytes: await readPackage(exportFile), passphrase: passphrase || null }, type)
  }

  @Mutation(() => TransferImportResultType, { description: 'Imports an uploaded package in one transaction; idempotencyKey as the Idempotency-Key header of REST' })
  async transferImportRun(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('exportFile', () => GraphQLUpload) exportFile: Promise<FileUpload>,
    @Arg('options', () => TransferImportOptionsInputType) options: TransferImportOptionsInputType,
    @Arg('idempotencyKey', () => String) idempotencyKey: string,
    @Arg('passphrase', () => String, { nullable: true }) passphrase: string | null,
  ) {
    const actor = requireViewer(ctx)
    return runTransferImport(ctx.deps, actor, projectName, {
      source: { bytes: await readPackage(exportFile), passphrase: passphrase || null },
      options: withoutNulls({ ...options }),
      idempotencyKey,
    })
  }

  @Mutation(() => TransferPackageType, {
    description: 'Exports one webhook connection (system administrators) as <date>-<name>-export.zip, inline base64: connection JSON, manifest, and its trust/key stores from projectName (default: the platform project)',
  })
  async exportWebhookConnection(
    @Ctx() ctx: GqlContext,
    @Arg('name', () => String) name: string,
    @Arg('projectName', () => String, { nullable: true }) projectName: string | null,
    @Arg('withDependencies', () => Boolean, { nullable: true, description: 'default true' }) withDependencies: boolean | null,
    @Arg('passphrase', () => String, { nullable: true, description: 'encrypts the whole package (UTF-8, not Base64)' }) passphrase: string | null,
    @Arg('secretHandling', () => TransferSecretHandling, { nullable: true }) secretHandling: TransferSecretHandling | null,
  ) {
    return inline(await exportWebhookConnection(ctx.deps, requireViewer(ctx), { name, projectName, withDependencies, passphrase, secretHandling }))
  }
}
