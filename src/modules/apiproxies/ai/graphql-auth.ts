import { ArgsType, Field, InputType, ObjectType } from 'type-graphql'
import { BACKEND_AUTH_SCHEMES, PAGE_AUTH_SCHEMES } from './backend-auth-schema.js'

// The GraphQL types of a backend server's credentials (ai-routing.ts backendAuth and the pages' flat fields): secrets
// are write-only (token, password, clientSecret), reads show presence flags.

const list = (values: readonly string[]) => values.join(', ')

@ObjectType('BackendMtlsSettings', { description: "A backend server's client certificate: a keystore of the project (scheme MTLS)" })
export class BackendMtlsSettingsType {
  @Field(() => String) keyStoreName: string
  @Field(() => String, { nullable: true, description: 'a keystore or certificate of the project' }) trustStoreName: string | null
  @Field(() => [String]) supportedProtocolList: string[]
  @Field(() => String, { nullable: true }) hostnameVerifierType: string | null
  @Field(() => Boolean) disableSslValidation: boolean
}

@ObjectType('BackendAuth', { description: 'How the gateway authenticates to a backend server; secrets are write-only' })
export class BackendAuthType {
  @Field(() => String, { description: list(BACKEND_AUTH_SCHEMES) }) scheme: string
  @Field(() => String, { nullable: true }) headerName: string | null
  @Field(() => String, { nullable: true }) username: string | null
  @Field(() => Boolean) tokenSet: boolean
  @Field(() => Boolean) passwordSet: boolean
  @Field(() => String, { nullable: true, description: 'OAUTH2_CLIENT_CREDENTIALS: the token URL' }) tokenEndpoint?: string | null
  @Field(() => String, { nullable: true, description: 'OAUTH2_CLIENT_CREDENTIALS' }) clientId?: string | null
  @Field(() => String, { nullable: true, description: 'OAUTH2_CLIENT_CREDENTIALS: space-separated scopes' }) scope?: string | null
  @Field(() => Boolean, { nullable: true, description: 'OAUTH2_CLIENT_CREDENTIALS: a client secret is stored (never returned)' }) clientSecretSet?: boolean | null
  @Field(() => BackendMtlsSettingsType, { nullable: true, description: 'MTLS' }) mTLSSettings?: BackendMtlsSettingsType | null
}

@InputType('BackendMtlsSettingsInput', { description: "The newest pages' mTLSSettings (the proxy mTLS settings page's fields)" })
export class BackendMtlsSettingsInput {
  @Field(() => Boolean, { nullable: true }) enabled?: boolean
  @Field(() => String, { nullable: true, description: 'a keystore of the project (or keyStoreName); required' }) keyStoreId?: string
  @Field(() => String, { nullable: true }) keyStoreName?: string
  @Field(() => String, { nullable: true, description: 'a keystore or certificate of the project (or trustStoreName)' }) trustStoreId?: string
  @Field(() => String, { nullable: true }) trustStoreName?: string
  @Field(() => [String], { nullable: true }) supportedProtocolList?: string[]
  @Field(() => String, { nullable: true }) hostnameVerifierType?: string
  @Field(() => Boolean, { nullable: true }) disableSslValidation?: boolean
}

/** The OAuth2 client-credentials and mTLS fields, the same on the nested auth and the pages' flat server fields. */
export function withSchemeFields(target: object, schemeField: string) {
  const fields: [string, () => unknown, string][] = [
    ['tokenEndpoint', () => String, `required for ${schemeField} OAUTH2_CLIENT_CREDENTIALS: the token URL`],
    ['clientId', () => String, `required for ${schemeField} OAUTH2_CLIENT_CREDENTIALS`],
    ['clientSecret', () => String, `secret (${schemeField} OAUTH2_CLIENT_CREDENTIALS); blank keeps the stored one of the same client`],
    ['scope', () => String, 'space-separated scopes asked for the token'],
    ['mTLSSettings', () => BackendMtlsSettingsInput, `required for ${schemeField} MTLS`],
  ]
  for (const [name, type, description] of fields) Field(type as never, { nullable: true, description })(target, name)
}

@InputType('BackendAuthInput')
export class BackendAuthInput {
  @Field(() => String, { nullable: true, description: `${list(BACKEND_AUTH_SCHEMES)}; default NONE` }) scheme?: string
  @Field(() => String, { nullable: true, description: 'required for API_KEY_HEADER' }) headerName?: string
  @Field(() => String, { nullable: true, description: 'secret (BEARER, API_KEY_HEADER); blank keeps the stored one' }) token?: string
  @Field(() => String, { nullable: true, description: 'required for BASIC' }) username?: string
  @Field(() => String, { nullable: true, description: 'secret (BASIC); blank keeps the stored one' }) password?: string
}
withSchemeFields(BackendAuthInput.prototype, 'scheme')

/** What the tool and skill discovery previews take: a document, or a live server probed with these credentials. */
@ArgsType()
export class ProbeArgs {
  @Field(() => String) projectName: string
  @Field(() => String) apiProxyName: string
  @Field(() => String) policyName: string
  @Field(() => String, { nullable: true, description: 'the definition document (JSON or YAML text); omitted: probe a live server' }) document?: string | null
  @Field(() => String, { nullable: true, description: "probe this address (not with document); default the proxy's first enabled backend server" }) endpoint?: string | null
  @Field(() => String, { nullable: true, description: `${list(PAGE_AUTH_SCHEMES)}; default the scheme of the backend server at that address` }) authScheme?: string | null
  @Field(() => String, { nullable: true, description: 'omitted: the stored token of the backend server at that address' }) bearerToken?: string | null
  @Field(() => String, { nullable: true, description: 'OAUTH2_CLIENT_CREDENTIALS' }) tokenEndpoint?: string | null
  @Field(() => String, { nullable: true, description: 'OAUTH2_CLIENT_CREDENTIALS' }) clientId?: string | null
  @Field(() => String, { nullable: true, description: 'omitted: the stored secret of the backend server at that address' }) clientSecret?: string | null
  @Field(() => String, { nullable: true }) scope?: string | null
  @Field(() => BackendMtlsSettingsInput, { nullable: true, description: 'MTLS: omitted, those of the backend server at that address' }) mTLSSettings?: BackendMtlsSettingsInput | null
}
