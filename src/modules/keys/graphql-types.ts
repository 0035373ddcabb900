import { JSONResolver } from 'graphql-scalars'
import { Field, InputType, Int, ObjectType } from 'type-graphql'
import { DeploymentResultType } from '../../platform/graphql/types.js'

// The GraphQL shapes of certificates, keys, keystores and JWKs: the REST views, field for field. Secrets are
// input-only: no output type has a field that could carry a private key, a keystore file or a password.

@ObjectType('CertificateEnvironment', { description: "A certificate's entry in one environment, as parsed" })
export class CertificateEnvironmentType {
  @Field(() => String, { nullable: true }) environmentId: string | null
  @Field(() => String) environmentName: string
  @Field(() => String, { nullable: true }) alias: string | null
  @Field(() => String, { nullable: true }) startDate: string | null
  @Field(() => String, { nullable: true }) endDate: string | null
  @Field(() => String, { nullable: true, description: 'base64 DER; single reads only' }) base64EncodedContent?: string
  @Field(() => String, { nullable: true }) sha1Thumbprint: string | null
  @Field(() => String, { nullable: true }) sha256Fingerprint: string | null
  @Field(() => String, { nullable: true }) subjectDn: string | null
  @Field(() => String, { nullable: true }) issuerDn: string | null
  @Field(() => String, { nullable: true }) serialNumber: string | null
  @Field(() => String, { nullable: true }) keyAlgorithm: string | null
  @Field(() => Int, { nullable: true }) keySize: number | null
  @Field(() => String, { nullable: true }) curve: string | null
  @Field(() => [String]) subjectAltNames: string[]
  @Field(() => Boolean) expired: boolean
  @Field(() => Boolean) notYetValid: boolean
  @Field(() => Int, { description: 'certificates after the leaf in the uploaded file' }) chainLength: number
}

@ObjectType('Certificate')
export class CertificateType {
  @Field(() => String) name: string
  @Field(() => String) description: string
  @Field(() => [CertificateEnvironmentType]) certificateEnvironmentList: CertificateEnvironmentType[]
}

@ObjectType('CertificateWrite')
export class CertificateWriteType {
  @Field(() => CertificateType) certificate: CertificateType
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
  @Field(() => [String], { description: 'expired or not yet valid: accepted, said here' }) warnings: string[]
  @Field(() => [String], { description: 'JWKs re-derived (updateReferencedJwks)' }) updatedJwks: string[]
  @Field(() => [String], { nullable: true, description: 'the file imports only: what the upload held that was not imported, and why' }) unresolvedReferences?: string[]
}

@InputType('CertificateInput')
export class CertificateInputType {
  @Field(() => String, { nullable: true, description: 'create only; the name argument names it on update' }) certificateName?: string
  @Field(() => String) alias: string
  @Field(() => String, { nullable: true }) certificateDescription?: string
  @Field(() => [String]) environmentList: string[]
  @Field(() => String, { description: 'PEM text: the leaf first, then its chain' }) pemEncodedFile: string
}

@ObjectType('CryptoKeyEnvironment')
export class CryptoKeyEnvironmentType {
  @Field(() => String, { nullable: true }) environmentId: string | null
  @Field(() => String) environmentName: string
  @Field(() => String, { nullable: true }) alias: string | null
  @Field(() => String, { nullable: true, description: 'origin marker of an entry merged by an import; null here' }) source: string | null
  @Field(() => String, { nullable: true, description: 'SPKI PEM' }) publicKey: string | null
  @Field(() => String, { nullable: true }) keyAlgorithm: string | null
  @Field(() => Int, { nullable: true }) keySize: number | null
  @Field(() => String, { nullable: true }) curve: string | null
  @Field(() => String, { nullable: true }) publicKeyFingerprint: string | null
  @Field(() => Boolean) privateKeyPresent: boolean
  @Field(() => Boolean) secretKeyPresent: boolean
}

@ObjectType('CryptoKey')
export class CryptoKeyType {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String) description: string
  @Field(() => String) projectId: string
  @Field(() => String, { description: 'SECRET_KEY, PRIVATE_KEY or PUBLIC_KEY' }) keyType: string
  @Field(() => String, { nullable: true, description: 'AES, DES, DESede or RSA for a SECRET_KEY' }) algorithm: string | null
  @Field(() => [CryptoKeyEnvironmentType]) cryptoKeyInfoEnvironmentList: CryptoKeyEnvironmentType[]
}

@ObjectType('CryptoKeyWrite')
export class CryptoKeyWriteType {
  @Field(() => CryptoKeyType) key: CryptoKeyType
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
  @Field(() => [String]) updatedJwks: string[]
  @Field(() => [String], { nullable: true, description: 'the file imports only: what the upload held that was not imported, and why' }) unresolvedReferences?: string[]
}

@InputType('CryptoKeyEnvironmentInput')
export class CryptoKeyEnvironmentInputType {
  @Field(() => String) environmentName: string
  @Field(() => String, { nullable: true, description: 'base64 of the key (SECRET_KEY: the bytes; PRIVATE_KEY, PUBLIC_KEY: the PEM); write-only, absent on update keeps the stored one' }) content?: string
  @Field(() => String, { nullable: true }) alias?: string
  @Field(() => String, { nullable: true, description: 'older shape: PEM public key' }) publicKey?: string
  @Field(() => String, { nullable: true, description: 'older shape: PEM private key; write-only, blank on update keeps the stored one' }) privateKey?: string
  @Field(() => String, { nullable: true, description: 'of an encrypted PKCS#8 private key' }) password?: string
}

@InputType('CryptoKeyInput')
export class CryptoKeyInputType {
  @Field(() => String, { nullable: true }) name?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => String, { nullable: true, description: 'SECRET_KEY, PRIVATE_KEY or PUBLIC_KEY; the older RSA or EC (checked against the keys)' }) keyType?: string
  @Field(() => String, { nullable: true, description: 'AES, DES, DESede or RSA: required for SECRET_KEY' }) algorithm?: string
  @Field(() => [CryptoKeyEnvironmentInputType], { nullable: true, description: 'required on create; absent on update keeps the stored environments' }) cryptoKeyInfoEnvironmentList?: CryptoKeyEnvironmentInputType[]
}

@ObjectType('CertificateFacts')
export class CertificateFactsType {
  @Field(() => String) subjectDn: string
  @Field(() => String) issuerDn: string
  @Field(() => String) serialNumber: string
  @Field(() => String) startDate: string
  @Field(() => String) endDate: string
  @Field(() => String) sha256Fingerprint: string
  @Field(() => String) keyAlgorithm: string
  @Field(() => Int, { nullable: true }) keySize: number | null
}

@ObjectType('KeyStoreEntry')
export class KeyStoreEntryType {
  @Field(() => String) alias: string
  @Field(() => String, { description: 'PRIVATE_KEY or TRUSTED_CERTIFICATE' }) entryType: string
  @Field(() => Boolean) privateKeyPresent: boolean
  @Field(() => [CertificateFactsType]) certificateChain: CertificateFactsType[]
}

@ObjectType('KeyStoreEnvironment')
export class KeyStoreEnvironmentType {
  @Field(() => String, { nullable: true }) environmentId: string | null
  @Field(() => String) environmentName: string
  @Field(() => String, { nullable: true }) type: string | null
  @Field(() => String, { nullable: true, description: 'the same as type' }) keyStoreType: string | null
  @Field(() => String, { nullable: true, description: 'the default alias' }) alias: string | null
  @Field(() => Int, { nullable: true }) fileSize: number | null
  @Field(() => [KeyStoreEntryType]) entries: KeyStoreEntryType[]
}

@ObjectType('KeyStore')
export class KeyStoreType {
  @Field(() => String) name: string
  @Field(() => String) description: string
  @Field(() => String) projectId: string
  @Field(() => [KeyStoreEnvironmentType]) keyStoreEnvironmentList: KeyStoreEnvironmentType[]
}

@ObjectType('KeyStoreWrite')
export class KeyStoreWriteType {
  @Field(() => KeyStoreType) keyStore: KeyStoreType
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
  @Field(() => [String]) updatedJwks: string[]
  @Field(() => [String], { nullable: true, description: 'the file imports only: what the upload held that was not imported, and why' }) unresolvedReferences?: string[]
}

@InputType('KeyStoreEnvironmentInput')
export class KeyStoreEnvironmentInputType {
  @Field(() => String) environmentName: string
  @Field(() => String, { nullable: true, description: 'JKS or PKCS12; detected when left out' }) type?: string
  @Field(() => String, { nullable: true, description: 'the newest pages\' name of type' }) keyStoreType?: string
  @Field(() => String, { nullable: true, description: 'the default alias: an entry of the file' }) alias?: string
  @Field(() => String, { nullable: true, description: 'base64 of the file; write-only; blank on update keeps the stored one' }) file?: string
  @Field(() => String, { nullable: true, description: 'write-only' }) password?: string
  @Field(() => String, { nullable: true, description: 'JKS key password when it differs; write-only' }) keyPassword?: string
}

@InputType('KeyStoreInput')
export class KeyStoreInputType {
  @Field(() => String, { nullable: true }) name?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => [KeyStoreEnvironmentInputType]) keyStoreEnvironmentList: KeyStoreEnvironmentInputType[]
}

@ObjectType('Jwk')
export class JwkType {
  @Field(() => String) name: string
  @Field(() => String) description: string
  @Field(() => String) projectId: string
  @Field(() => String, { nullable: true }) sourceType: string | null
  @Field(() => String, { nullable: true }) sourceId: string | null
  @Field(() => String, { nullable: true }) sourceUrl: string | null
  @Field(() => String, { nullable: true }) type: string | null
  @Field(() => String, { nullable: true }) kid: string | null
  @Field(() => String, { nullable: true }) use: string | null
  @Field(() => String, { nullable: true }) alg: string | null
  @Field(() => String, { nullable: true }) notBeforeTime: string | null
  @Field(() => String, { nullable: true }) expirationTime: string | null
  @Field(() => Boolean) privateKeyPresent: boolean
  @Field(() => JSONResolver, { nullable: true, description: 'the public JWK (null for OCT keys, whose key is secret)' }) jwk?: Record<string, unknown>
}

@ObjectType('JwkWrite')
export class JwkWriteType {
  @Field(() => JwkType) jwk: JwkType
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
}

@InputType('JwkSourceInput', { description: 'POST /jwks/ and the parse-from-* doors' })
export class JwkSourceInputType {
  @Field(() => String, { nullable: true }) name?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => String, { nullable: true, description: 'URL, COPY_PASTE, CERTIFICATE, PUBLIC_KEY, PRIVATE_KEY, KEYSTORE' }) sourceType?: string
  @Field(() => String, { nullable: true }) url?: string
  @Field(() => Int, { nullable: true }) urlOptionConnectTimeout?: number
  @Field(() => Int, { nullable: true }) urlOptionReadTimeout?: number
  @Field(() => Int, { nullable: true }) urlOptionSizeLimit?: number
  @Field(() => String, { nullable: true, description: 'write-only: may hold private members' }) jwkStr?: string
  @Field(() => String, { nullable: true }) kid?: string
  @Field(() => String, { nullable: true }) certificateName?: string
  @Field(() => String, { nullable: true }) keyName?: string
  @Field(() => String, { nullable: true }) keyStoreName?: string
  @Field(() => String, { nullable: true }) environmentName?: string
  @Field(() => String, { nullable: true }) aliasName?: string
  @Field(() => String, { nullable: true }) useType?: string
  @Field(() => String, { nullable: true }) algorithm?: string
  @Field(() => String, { nullable: true }) keyIdType?: string
  @Field(() => String, { nullable: true }) notBeforeTime?: string
  @Field(() => String, { nullable: true }) expirationTime?: string
}

@InputType('JwkGenerateParams')
export class JwkGenerateParamsType {
  @Field(() => Int, { nullable: true }) keySize?: number
  @Field(() => String, { nullable: true }) curveType?: string
  @Field(() => String, { nullable: true }) keyUseType?: string
  @Field(() => String, { nullable: true }) algorithm?: string
  @Field(() => String, { nullable: true }) keyIdType?: string
  @Field(() => String, { nullable: true }) notBeforeTime?: string
  @Field(() => String, { nullable: true }) expirationTime?: string
}

@InputType('JwkGenerateInput')
export class JwkGenerateInputType {
  @Field(() => String, { nullable: true }) name?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => String, { nullable: true, description: 'RSA, EC, OCT or OKP' }) type?: string
  @Field(() => String, { nullable: true }) kid?: string
  @Field(() => JwkGenerateParamsType, { nullable: true }) rsa?: JwkGenerateParamsType
  @Field(() => JwkGenerateParamsType, { nullable: true }) ec?: JwkGenerateParamsType
  @Field(() => JwkGenerateParamsType, { nullable: true }) oct?: JwkGenerateParamsType
  @Field(() => JwkGenerateParamsType, { nullable: true }) okp?: JwkGenerateParamsType
}

@InputType('JwkUpdateInput')
export class JwkUpdateInputType {
  @Field(() => String, { nullable: true }) name?: string
  @Field(() => String, { nullable: true }) description?: string
}
