import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal'
import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { DeploymentResultType } from '../../platform/graphql/types.js'
import { readUpload } from '../../platform/graphql/upload.js'
import { plainInput, zodGraphqlType } from '../../platform/graphql/zod-types.js'
import { CertificateFileType } from '../keys/graphql.js'
import { CertificateWriteType, CryptoKeyWriteType, JwkWriteType, KeyStoreWriteType } from '../keys/graphql-types.js'
import { MAX_KEYSTORE_BYTES } from '../keys/keystores.js'
import type { DownloadFile } from './archive.js'
import { exportTruststoreFile, importCertificateFile, importTruststoreFile } from './certificates.js'
import { certificateFileFields, jwkFileFields, keyFileFields, keystoreFileFields, truststoreFileFields } from './inputs.js'
import { exportJwkFile, importJwkFile } from './jwks.js'
import { exportKeyFile, importKeyFile } from './keys.js'
import { exportKeystoreFile, importKeystoreFile } from './keystores.js'
import { importTrustPackage } from './packages.js'
import { legacyImportFields } from '../transfer/catalog/service.js'
import type { MultipartFile } from '../../platform/http/routes.js'

// The GraphQL twins of the file doors (files/rest.ts): the same services. Uploads are `Upload` arguments (the
// GraphQL multipart request), the form's other fields an input generated from the same schema (inputs.ts);
// downloads answer the file inline, base64, with its name (GraphQL has no binary answers).

const MAX_UPLOAD_BYTES = 8 * MAX_KEYSTORE_BYTES
const CertificateFileImportInput = zodGraphqlType(certificateFileFields, 'input', 'CertificateFileImportInput', 'The fields of POST …/certificates/import-file/')
const TruststoreFileImportInput = zodGraphqlType(truststoreFileFields, 'input', 'TruststoreFileImportInput', 'The fields of POST …/certificates/truststore/{environmentName}/import-file/')
const KeyFileImportInput = zodGraphqlType(keyFileFields, 'input', 'CryptoKeyFileImportInput', 'The fields of POST …/keys/import-file/')
const KeystoreFileImportInput = zodGraphqlType(keystoreFileFields, 'input', 'KeyStoreFileImportInput', 'The fields of POST …/keystores/import-file/')
const JwkFileImportInput = zodGraphqlType(jwkFileFields, 'input', 'JwkFileImportInput', 'The fields of POST …/jwks/import-file/')

@ObjectType('TruststoreImport', { description: 'The certificates a trust store bundle registered, and the entries that failed (with why)' })
export class TruststoreImportType {
  @Field(() => [String]) imported: string[]
  @Field(() => [String]) unresolvedReferences: string[]
}

const inline = (file: DownloadFile) => ({ fileName: file.fileName, contentType: file.contentType, sizeBytes: file.bytes.length, contentBase64: file.bytes.toString('base64') })
const fieldsOf = (input: unknown) => (plainInput(input) ?? {}) as Record<string, unknown>
const deployment = <T extends { outcome: Parameters<typeof DeploymentResultType.from>[0] }>(w: T) => ({ ...w, deploymentResult: DeploymentResultType.from(w.outcome), updatedJwks: [] as string[] })

/** The form fields of POST …/keys/import/ and …/keystores/import/ beside the file (the transfer import's). */
const PackageImportInput = zodGraphqlType(legacyImportFields.omit({ override: true }), 'input', 'TrustPackageImportInput', 'The form fields of POST …/keys/import/ and …/keystores/import/')

async function importPackage(ctx: GqlContext, projectName: string, kind: 'CRYPTO_KEY_INFO' | 'KEY_STORE', upload: MultipartFile | null, override: boolean | null, input: unknown, passphrase: string | null) {
  const fields = Object.fromEntries(Object.entries(fieldsOf(input)).filter(([, v]) => v != null).map(([k, v]) => [k, String(v)]))
  const result = await importTrustPackage(ctx.deps, requireViewer(ctx), projectName, kind, {
    bytes: upload?.bytes ?? null, fileName: upload?.fileName, fields, override: override === null ? undefined : String(override), passphrase: passphrase || null,
  })
  return result.unresolvedReferences
}

@Resolver()
export class KeyFilesResolver {
  @Mutation(() => CertificateWriteType, { description: 'Imports a certificate file (PEM, DER, or the export ZIP); the environments not named keep theirs (CERTIFICATE MANAGE and EXPORT_IMPORT; POST …/certificates/import-file/)' })
  async importCertificateFile(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string,
    @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>, @Arg('input', () => CertificateFileImportInput) input: unknown,
  ) {
    const actor = requireViewer(ctx)
    return deployment(await importCertificateFile(ctx.deps, actor, projectName, fieldsOf(input), await readUpload(file, 'certificateFile', MAX_UPLOAD_BYTES)))
  }

  @Mutation(() => TruststoreImportType, { description: "Registers a bundle of certificates for an environment (the admin project's trust store; POST …/certificates/truststore/{environmentName}/import-file/)" })
  async importTruststoreFile(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('environmentName', () => String) environmentName: string,
    @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>, @Arg('input', () => TruststoreFileImportInput, { nullable: true }) input: unknown,
  ) {
    const actor = requireViewer(ctx)
    return importTruststoreFile(ctx.deps, actor, projectName, environmentName, fieldsOf(input), await readUpload(file, 'truststoreFile', MAX_UPLOAD_BYTES))
  }

  @Query(() => CertificateFileType, { description: "Downloads an environment's trust store: a ZIP of PEM files named after their aliases (CERTIFICATE VIEW; GET …/certificates/truststore/{environmentName}/export-file/)" })
  async truststoreExportFile(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('environmentName', () => String) environmentName: string) {
    return inline(await exportTruststoreFile(ctx.deps, requireViewer(ctx), projectName, environmentName))
  }

  @Mutation(() => CryptoKeyWriteType, { description: 'Imports a key file (PEM, base64, a SECRET_KEY\'s bytes, or the export ZIP); with override the existing key (CERTIFICATE MANAGE and EXPORT_IMPORT; POST …/keys/import-file/)' })
  async importCryptoKeyFile(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string,
    @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>, @Arg('input', () => KeyFileImportInput) input: unknown,
  ) {
    const actor = requireViewer(ctx)
    return deployment(await importKeyFile(ctx.deps, actor, projectName, fieldsOf(input), await readUpload(file, 'keyFile', MAX_UPLOAD_BYTES)))
  }

  @Query(() => CertificateFileType, { description: "Downloads a key's material, decrypted: one environment's PEM, or a ZIP of all (EXPORT_IMPORT on CERTIFICATE or PROJECT_MANAGEMENT; GET …/keys/{keyName}/export-file/)" })
  async cryptoKeyExportFile(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('environmentName', () => String, { nullable: true }) environmentName: string | null,
  ) {
    return inline(await exportKeyFile(ctx.deps, requireViewer(ctx), projectName, name, environmentName ?? undefined))
  }

  @Mutation(() => KeyStoreWriteType, { description: 'Imports a keystore file (.jks, .p12, .pfx, or the export ZIP); with override the existing keystore (CERTIFICATE MANAGE and EXPORT_IMPORT; POST …/keystores/import-file/)' })
  async importKeyStoreFile(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string,
    @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>, @Arg('input', () => KeystoreFileImportInput) input: unknown,
  ) {
    const actor = requireViewer(ctx)
    const w = await importKeystoreFile(ctx.deps, actor, projectName, fieldsOf(input), await readUpload(file, 'keystoreFile', MAX_UPLOAD_BYTES))
    return { ...deployment(w), keyStore: w.keystore }
  }

  @Query(() => CertificateFileType, { description: 'Downloads a keystore file as uploaded: one environment\'s, or a ZIP of all (EXPORT_IMPORT on CERTIFICATE or PROJECT_MANAGEMENT; GET …/keystores/{keystoreName}/export-file/)' })
  async keyStoreExportFile(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('environmentName', () => String, { nullable: true }) environmentName: string | null,
  ) {
    return inline(await exportKeystoreFile(ctx.deps, requireViewer(ctx), projectName, name, environmentName ?? undefined))
  }

  @Mutation(() => JwkWriteType, { description: 'Creates a JWK from an uploaded JWK or JWK Set document, kid picking the key (CERTIFICATE MANAGE and EXPORT_IMPORT; POST …/jwks/import-file/)' })
  async importJwkFile(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string,
    @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>, @Arg('input', () => JwkFileImportInput) input: unknown,
  ) {
    const actor = requireViewer(ctx)
    return deployment(await importJwkFile(ctx.deps, actor, projectName, fieldsOf(input), await readUpload(file, 'jwkFile', MAX_UPLOAD_BYTES)))
  }

  @Query(() => CertificateFileType, { description: 'Downloads a JWK as a JWK Set document, private members included unless publicOnly (EXPORT_IMPORT on CERTIFICATE or PROJECT_MANAGEMENT; GET …/jwks/{jwkName}/export-file/)' })
  async jwkExportFile(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('publicOnly', () => Boolean, { nullable: true }) publicOnly: boolean | null,
  ) {
    return inline(await exportJwkFile(ctx.deps, requireViewer(ctx), projectName, name, publicOnly ?? false))
  }

  @Mutation(() => [String], { description: 'Imports a key package (the ZIP GET …/keys/{keyName}/export/ writes): override replaces the same-named key, else a taken name gets -imported; answers what could not be carried over (POST …/keys/import/) (CERTIFICATE MANAGE and EXPORT_IMPORT)' })
  async importCryptoKeyPackage(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('keyExportFile', () => GraphQLUpload) file: Promise<FileUpload>,
    @Arg('override', () => Boolean, { nullable: true }) override: boolean | null, @Arg('input', () => PackageImportInput, { nullable: true }) input: unknown,
    @Arg('passphrase', () => String, { nullable: true, description: 'for an encrypted package (UTF-8, not Base64)' }) passphrase: string | null,
  ) {
    return importPackage(ctx, projectName, 'CRYPTO_KEY_INFO', await readUpload(file, 'keyExportFile', MAX_UPLOAD_BYTES), override, input, passphrase)
  }

  @Mutation(() => [String], { description: 'Imports a keystore package (the ZIP GET …/keystores/{keystoreName}/export/ writes), as importCryptoKeyPackage (POST …/keystores/import/) (CERTIFICATE MANAGE and EXPORT_IMPORT)' })
  async importKeyStorePackage(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('keystoreExportFile', () => GraphQLUpload) file: Promise<FileUpload>,
    @Arg('override', () => Boolean, { nullable: true }) override: boolean | null, @Arg('input', () => PackageImportInput, { nullable: true }) input: unknown,
    @Arg('passphrase', () => String, { nullable: true, description: 'for an encrypted package (UTF-8, not Base64)' }) passphrase: string | null,
  ) {
    return importPackage(ctx, projectName, 'KEY_STORE', await readUpload(file, 'keystoreExportFile', MAX_UPLOAD_BYTES), override, input, passphrase)
  }
}
