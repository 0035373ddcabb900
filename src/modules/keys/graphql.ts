import { Arg, Args, Ctx, Mutation, ObjectType, Query, Resolver, Field, Int } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { DeploymentResultType, PageOf, SearchPagingArgs } from '../../platform/graphql/types.js'
import { createCertificate, deleteCertificate, getCertificate, listCertificates, pageCertificates, truststoreCertificates, updateCertificate, exportCertificate } from './certificates.js'
import { createKey, deleteKey, getKey, listKeys, pageKeys, updateKey } from './crypto-keys.js'
import { CertificateInputType, CertificateType, CertificateWriteType, CryptoKeyInputType, CryptoKeyType, CryptoKeyWriteType, JwkGenerateInputType, JwkSourceInputType, JwkType, JwkUpdateInputType, JwkWriteType, KeyStoreInputType, KeyStoreType, KeyStoreWriteType } from './graphql-types.js'
import { refreshOptions } from './jwk-refresh.js'
import { createJwk, deleteJwk, generateJwkObject, getJwk, listJwks, updateJwk } from './jwks.js'
import { createKeystore, deleteKeystore, getKeystore, listKeystores, updateKeystore } from './keystores.js'
import { plainInput, zodGraphqlType } from '../../platform/graphql/zod-types.js'
import { jwkDoorBodySchemas } from './jwk-bodies.js'

// The GraphQL door of certificates, keys, keystores and JWKs: thin resolvers over the services the REST
// routes use, with the same rules, errors and permissions (asset category CERTIFICATE).

const refresh = (updateReferencedJwks: boolean | null, updateScope: string | null) =>
  refreshOptions({ updateReferencedJwks: updateReferencedJwks ?? undefined, updateScope: updateScope ?? undefined })

const certificateInput = (input: CertificateInputType) => ({ ...input, pemEncodedFile: Buffer.from(input.pemEncodedFile ?? '') })

@ObjectType('CertificatePage')
export class CertificatePage extends PageOf(CertificateType, 'CertificatePage') {}

@ObjectType('CryptoKeyPage')
export class CryptoKeyPage extends PageOf(CryptoKeyType, 'CryptoKeyPage') {}

@Resolver()
export class TrustMaterialResolver {
  @Query(() => CertificatePage, { description: 'One page of certificates, searched on the name (CERTIFICATE VIEW)' })
  certificatesPage(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => SearchPagingArgs) paging: SearchPagingArgs) {
    return pageCertificates(ctx.deps, requireViewer(ctx), projectName, paging)
  }

  @Query(() => CryptoKeyPage, { description: 'One page of cryptoKeys, searched on the name (CERTIFICATE VIEW)' })
  cryptoKeysPage(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => SearchPagingArgs) paging: SearchPagingArgs) {
    return pageKeys(ctx.deps, requireViewer(ctx), projectName, paging)
  }

  @Query(() => [CertificateType], { description: "The project's certificates without their content (CERTIFICATE VIEW)" })
  certificates(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return listCertificates(ctx.deps, requireViewer(ctx), projectName)
  }

  @Query(() => CertificateType, { description: 'One certificate with its content (CERTIFICATE VIEW)' })
  certificate(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getCertificate(ctx.deps, requireViewer(ctx), projectName, name)
  }

  @Query(() => [CertificateType], { description: "An environment's trust store: the admin project's certificates deployed to it" })
  truststoreCertificates(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('environmentName', () => String) environmentName: string) {
    return truststoreCertificates(ctx.deps, requireViewer(ctx), projectName, environmentName)
  }

  @Mutation(() => CertificateWriteType, { description: 'Creates a certificate from PEM text and deploys it (CERTIFICATE MANAGE; DEPLOY_UNDEPLOY to push)' })
  async createCertificate(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => CertificateInputType) input: CertificateInputType) {
    const w = await createCertificate(ctx.deps, requireViewer(ctx), projectName, certificateInput(input))
    return { ...w, deploymentResult: DeploymentResultType.from(w.outcome) }
  }

  @Mutation(() => CertificateWriteType, { description: 'Replaces a certificate; dropped environments are undeployed' })
  async updateCertificate(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('input', () => CertificateInputType) input: CertificateInputType,
    @Arg('updateReferencedJwks', () => Boolean, { nullable: true }) updateReferencedJwks: boolean | null,
    @Arg('updateScope', () => String, { nullable: true }) updateScope: string | null,
  ) {
    const w = await updateCertificate(ctx.deps, requireViewer(ctx), projectName, name, certificateInput(input), refresh(updateReferencedJwks, updateScope))
    return { ...w, deploymentResult: DeploymentResultType.from(w.outcome) }
  }

  @Mutation(() => DeploymentResultType, { description: 'Deletes a certificate and undeploys it' })
  async deleteCertificate(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('jwkDeleteAction', () => String, { nullable: true, description: 'NULLIFY (default): the JWKs taken from it are kept, detached; DELETE: deleted and undeployed with it' }) jwkDeleteAction: string | null,
  ) {
    return DeploymentResultType.from(await deleteCertificate(ctx.deps, requireViewer(ctx), projectName, name, jwkDeleteAction))
  }

  @Query(() => [CryptoKeyType], { description: 'Keys: public parts and metadata only (CERTIFICATE VIEW)' })
  cryptoKeys(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return listKeys(ctx.deps, requireViewer(ctx), projectName)
  }

  @Query(() => CryptoKeyType)
  cryptoKey(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getKey(ctx.deps, requireViewer(ctx), projectName, name)
  }

  @Mutation(() => CryptoKeyWriteType, { description: 'Creates a key; the private key is sealed and never answered' })
  async createCryptoKey(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => CryptoKeyInputType) input: CryptoKeyInputType) {
    const w = await createKey(ctx.deps, requireViewer(ctx), projectName, input)
    return { ...w, deploymentResult: DeploymentResultType.from(w.outcome) }
  }

  @Mutation(() => CryptoKeyWriteType)
  async updateCryptoKey(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('input', () => CryptoKeyInputType) input: CryptoKeyInputType,
    @Arg('updateReferencedJwks', () => Boolean, { nullable: true }) updateReferencedJwks: boolean | null,
    @Arg('updateScope', () => String, { nullable: true }) updateScope: string | null,
  ) {
    const w = await updateKey(ctx.deps, requireViewer(ctx), projectName, name, input, refresh(updateReferencedJwks, updateScope))
    return { ...w, deploymentResult: DeploymentResultType.from(w.outcome) }
  }

  @Mutation(() => DeploymentResultType)
  async deleteCryptoKey(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('jwkDeleteAction', () => String, { nullable: true, description: 'NULLIFY (default): the JWKs taken from it are kept, detached; DELETE: deleted and undeployed with it' }) jwkDeleteAction: string | null,
  ) {
    return DeploymentResultType.from(await deleteKey(ctx.deps, requireViewer(ctx), projectName, name, jwkDeleteAction))
  }

  @Query(() => [KeyStoreType], { description: 'Keystores: type and entries; file and passwords are write-only (CERTIFICATE VIEW)' })
  keyStores(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return listKeystores(ctx.deps, requireViewer(ctx), projectName)
  }

  @Query(() => KeyStoreType)
  keyStore(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getKeystore(ctx.deps, requireViewer(ctx), projectName, name)
  }

  @Mutation(() => KeyStoreWriteType)
  async createKeyStore(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => KeyStoreInputType) input: KeyStoreInputType) {
    const w = await createKeystore(ctx.deps, requireViewer(ctx), projectName, input)
    return { ...w, keyStore: w.keystore, deploymentResult: DeploymentResultType.from(w.outcome) }
  }

  @Mutation(() => KeyStoreWriteType)
  async updateKeyStore(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('input', () => KeyStoreInputType) input: KeyStoreInputType,
    @Arg('updateReferencedJwks', () => Boolean, { nullable: true }) updateReferencedJwks: boolean | null,
    @Arg('updateScope', () => String, { nullable: true }) updateScope: string | null,
  ) {
    const w = await updateKeystore(ctx.deps, requireViewer(ctx), projectName, name, input, refresh(updateReferencedJwks, updateScope))
    return { ...w, keyStore: w.keystore, deploymentResult: DeploymentResultType.from(w.outcome) }
  }

  @Mutation(() => DeploymentResultType)
  async deleteKeyStore(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('jwkDeleteAction', () => String, { nullable: true, description: 'NULLIFY (default): the JWKs taken from it are kept, detached; DELETE: deleted and undeployed with it' }) jwkDeleteAction: string | null,
  ) {
    return DeploymentResultType.from(await deleteKeystore(ctx.deps, requireViewer(ctx), projectName, name, jwkDeleteAction))
  }

  @Query(() => [JwkType], { description: 'JWKs without key material (CERTIFICATE VIEW)' })
  jwks(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return listJwks(ctx.deps, requireViewer(ctx), projectName)
  }

  @Query(() => JwkType, { description: 'One JWK with its public JWK; private members are never answered' })
  jwk(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getJwk(ctx.deps, requireViewer(ctx), projectName, name)
  }

  @Mutation(() => JwkWriteType, { description: 'Creates a JWK from a source (sourceType: URL, COPY_PASTE, CERTIFICATE, PUBLIC_KEY, PRIVATE_KEY, KEYSTORE)' })
  async createJwk(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => JwkSourceInputType) input: JwkSourceInputType) {
    const w = await createJwk(ctx.deps, requireViewer(ctx), projectName, input)
    return { ...w, deploymentResult: DeploymentResultType.from(w.outcome) }
  }

  @Mutation(() => JwkWriteType, { description: 'Generates a JWK (RSA, EC incl. secp256k1, OCT, OKP)' })
  async generateJwk(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => JwkGenerateInputType) input: JwkGenerateInputType) {
    const w = await generateJwkObject(ctx.deps, requireViewer(ctx), projectName, input)
    return { ...w, deploymentResult: DeploymentResultType.from(w.outcome) }
  }

  @Mutation(() => JwkWriteType, { description: 'Renames or describes a JWK; one taken from a source is detached from it' })
  async updateJwk(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('input', () => JwkUpdateInputType) input: JwkUpdateInputType) {
    const w = await updateJwk(ctx.deps, requireViewer(ctx), projectName, name, input)
    return { ...w, deploymentResult: DeploymentResultType.from(w.outcome) }
  }

  @Mutation(() => DeploymentResultType)
  async deleteJwk(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return DeploymentResultType.from(await deleteJwk(ctx.deps, requireViewer(ctx), projectName, name))
  }
}

// The GraphQL twins of the keys pages that had none (rest.ts): the certificate download and the five parse-from-*
// doors of the JWKs. The same services; each door's input type is generated from the zod schema of its REST body.

@ObjectType('CertificateFile', { description: 'A download of the keys pages (certificate, trust store, key, keystore, JWK) returned inline (base64): GraphQL has no binary responses. Decode contentBase64 and save it as fileName' })
export class CertificateFileType {
  @Field(() => String) fileName: string
  @Field(() => String, { description: 'application/octet-stream (a ZIP, a keystore), application/x-pem-file, application/pkix-cert (DER) or application/json (a JWK Set)' }) contentType: string
  @Field(() => Int) sizeBytes: number
  @Field(() => String) contentBase64: string
}

/** The doors: mutation name, the source createJwk is given, the input type's name, the REST path. */
const DOORS = [
  { mutation: 'createJwkFromUrl', source: 'URL', input: 'JwkFromUrlInput', segment: 'parse-from-url', what: 'fetched from a URL (a JWK or a JWK Set with kid)' },
  { mutation: 'createJwkFromClipboard', source: 'COPY_PASTE', input: 'JwkFromClipboardInput', segment: 'parse-from-clipboard', what: 'from pasted JSON (jwkStr: a JWK, or a JWK Set with kid)' },
  { mutation: 'createJwkFromCertificate', source: 'CERTIFICATE', input: 'JwkFromCertificateInput', segment: 'parse-from-certificate', what: 'from the public key of a certificate of the project (x5c carried)' },
  { mutation: 'createJwkFromKey', source: 'KEY', input: 'JwkFromKeyInput', segment: 'parse-from-key', what: 'from a key of the project (its private key when the environment has one)' },
  { mutation: 'createJwkFromKeystore', source: 'KEYSTORE', input: 'JwkFromKeystoreInput', segment: 'parse-from-keystore', what: 'from a keystore entry (aliasName) of the project' },
] as const

@Resolver()
export class KeysDoorsResolver {
  @Query(() => CertificateFileType, { description: 'Downloads a certificate: a ZIP of {name}-{environment}.cer (DER) files, or with format PEM or DER one environment\'s certificate (CERTIFICATE VIEW; GET …/certificates/{name}/export/)' })
  async certificateExport(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string,
    @Arg('format', () => String, { nullable: true, description: 'ZIP (default), PEM or DER' }) format: string | null,
    @Arg('environmentName', () => String, { nullable: true, description: 'required with PEM or DER when the certificate has several environments' }) environmentName: string | null,
  ) {
    const file = await exportCertificate(ctx.deps, requireViewer(ctx), projectName, name, format ?? undefined, environmentName ?? undefined)
    return { fileName: file.fileName, contentType: file.contentType, sizeBytes: file.bytes.length, contentBase64: file.bytes.toString('base64') }
  }
}

function addJwkDoors(resolver: Function) {
  const proto = resolver.prototype as Record<string, unknown>
  for (const door of DOORS) {
    const input = zodGraphqlType(jwkDoorBodySchemas[door.source], 'input', door.input, `The body of POST …/jwks/${door.segment}`)
    proto[door.mutation] = async function (ctx: GqlContext, projectName: string, body: unknown) {
      const w = await createJwk(ctx.deps, requireViewer(ctx), projectName, plainInput(body), door.source)
      return { ...w, deploymentResult: DeploymentResultType.from(w.outcome) }
    }
    Mutation(() => JwkWriteType, { description: `Creates a JWK ${door.what}, then deploys it (CERTIFICATE MANAGE; pushed with DEPLOY_UNDEPLOY; POST …/jwks/${door.segment})` })(proto, door.mutation, Object.getOwnPropertyDescriptor(proto, door.mutation)!)
    Ctx()(proto, door.mutation, 0)
    Arg('projectName', () => String)(proto, door.mutation, 1)
    Arg('input', () => input)(proto, door.mutation, 2)
  }
}
addJwkDoors(KeysDoorsResolver)
