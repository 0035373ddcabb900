import { Arg, Args, Ctx, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { DeploymentResultType, PageOf, SearchPagingArgs } from '../../platform/graphql/types.js'
import { createCertificate, deleteCertificate, getCertificate, listCertificates, pageCertificates, truststoreCertificates, updateCertificate } from './certificates.js'
import { createKey, deleteKey, getKey, listKeys, pageKeys, updateKey } from './crypto-keys.js'
import {
  CertificateInputType, CertificateType, CertificateWriteType, CryptoKeyInputType, CryptoKeyType, CryptoKeyWriteType, JwkGenerateInputType,
  JwkSourceInputType, JwkType, JwkUpdateInputType, JwkWriteType, KeyStoreInputType, KeyStoreType, KeyStoreWriteType,
} from './graphql-types.js'
import { refreshOptions } from './jwk-refresh.js'
import { createJwk, deleteJwk, generateJwkObject, getJwk, listJwks, updateJwk } from './jwks.js'
import { createKeystore, deleteKeystore, getKeystore, listKeystores, updateKeystore } from './keystores.js'

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
  async deleteCertificate(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return DeploymentResultType.from(await deleteCertificate(ctx.deps, requireViewer(ctx), projectName, name))
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
  async deleteCryptoKey(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return DeploymentResultType.from(await deleteKey(ctx.deps, requireViewer(ctx), projectName, name))
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
  async deleteKeyStore(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return DeploymentResultType.from(await deleteKeystore(ctx.deps, requireViewer(ctx), projectName, name))
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
