import { Arg, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { DeploymentResultType } from '../../platform/graphql/types.js'
import { plainInput, zodGraphqlType } from '../../platform/graphql/zod-types.js'
import { exportCertificate } from './certificates.js'
import { JwkWriteType } from './graphql-types.js'
import { jwkDoorBodySchemas } from './jwk-bodies.js'
import { createJwk } from './jwks.js'

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
