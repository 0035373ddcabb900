import { Arg, Args, Ctx, Field, FieldResolver, GraphQLISODateTime, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql'
import type { Credential } from '../../generated/prisma/client.js'
import { byKey, requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { withoutNulls } from '../../platform/graphql/inputs.js'
import { applicationLoader, organizationLoader } from '../../platform/graphql/loaders.js'
import { DeploymentResultType, PageOf, SearchPagingArgs } from '../../platform/graphql/types.js'
import { changeCredentialPassword, createCredential, deleteCredential, getCredential, listCredentials, pageCredentials, resetCredentialSecret, resetCredentialToken, revokeCredential, updateCredential, type CredentialWrite } from './service.js'
import { grantCredentialAccess, listCredentialAccess, revokeCredentialAccess } from './access.js'
import { ACCESS_TARGET_TYPES, accessItemOf, type CredentialWithOwners } from './runtime.js'
import type { TokenSettings } from './token-settings.js'

@ObjectType('CredentialTokenSettings', { description: 'Token settings of a credential (spec §2.3)' })
@InputType('CredentialTokenSettingsInput')
export class CredentialTokenSettingsType {
  @Field(() => String, { nullable: true }) grantType: string | null
  @Field(() => Boolean, { nullable: true }) tokenNeverExpires: boolean | null
  @Field(() => Int, { nullable: true }) tokenExpiresInAmount: number | null
  @Field(() => String, { nullable: true }) tokenExpiresInUnit: string | null
  @Field(() => Boolean, { nullable: true }) refreshTokenAllowed: boolean | null
  @Field(() => Int, { nullable: true }) refreshTokenCount: number | null
  @Field(() => Int, { nullable: true }) refreshTokenExpiresInAmount: number | null
  @Field(() => String, { nullable: true }) refreshTokenExpiresInUnit: string | null
  @Field(() => Boolean, { nullable: true }) allowUrlParameters: boolean | null
  @Field(() => Boolean, { nullable: true }) managedFromThisPolicy: boolean | null
  @Field(() => String, { nullable: true }) jwtSignatureAlgorithm: string | null
  @Field(() => Boolean, { nullable: true }) deletePrevious: boolean | null
  @Field(() => String, { nullable: true }) enumPolicyAuthenticationType: string | null
}

@ObjectType('Credential', { description: 'A credential (consumer) of a project; secrets are never returned' })
export class CredentialType {
  @Field(() => String) username: string
  @Field(() => String, { description: 'permanent public key' }) consumerKey: string
  @Field(() => String, { nullable: true }) fullName: string | null
  @Field(() => String, { nullable: true }) email: string | null
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => Boolean) enabled: boolean
  @Field(() => Boolean) syncManaged: boolean
  @Field(() => GraphQLISODateTime, { nullable: true }) expireDate: Date | null
  @Field(() => Boolean, { nullable: true }) trafficLogDisabled: boolean | null
  @Field(() => Int, { description: 'deployment revision' }) revision: number
  @Field(() => CredentialTokenSettingsType, { nullable: true }) tokenSettings: TokenSettings | null
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'when the credential was revoked; a revoked credential stays disabled' }) revokedAt: Date | null
  @Field(() => [String], { description: 'allowed client addresses (IP or CIDR); empty = no restriction' }) ipList: string[]
  organizationId: string | null
  applicationId: string | null
  passwordCipher: string | null
}

@ObjectType('CredentialAccess', { description: 'An API proxy or API proxy group a credential may call (a live entitlement of the credential)' })
@InputType('CredentialAccessInput')
export class CredentialAccessType {
  @Field(() => String, { description: 'API proxy or API proxy group name' }) name: string
  @Field(() => String, { description: 'API_PROXY or API_PROXY_GROUP' }) type: 'API_PROXY' | 'API_PROXY_GROUP'
  @Field(() => String, { nullable: true, description: 'when the access ends (ISO 8601; the entitlement\'s validUntil); null: never' }) expireTime?: string | null
}

@ObjectType('CredentialPage')
export class CredentialPage extends PageOf(CredentialType, 'CredentialPage') {}

@ObjectType('CredentialSecretResult', { description: 'A credential given a new secret: the secret is in this answer only' })
export class CredentialSecretResult {
  @Field(() => CredentialType) credential: Credential
  @Field(() => String, { description: 'the new password, shown this once: it is never read back' }) secret: string
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
}

@ObjectType('CredentialWriteResult')
export class CredentialWriteResult {
  @Field(() => CredentialType) credential: Credential
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType

  static from(write: CredentialWrite) {
    return Object.assign(new CredentialWriteResult(), { credential: write.credential, deploymentResult: DeploymentResultType.from(write.deploymentResult) })
  }
}

@InputType('CredentialInput')
export class CredentialInputType {
  @Field(() => String) username: string
  @Field(() => String, { nullable: true, description: 'write-only; encrypted at rest' }) password?: string
  @Field(() => String, { nullable: true }) fullName?: string
  @Field(() => String, { nullable: true }) email?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => Boolean, { nullable: true }) enabled?: boolean
  @Field(() => String, { nullable: true }) organizationCode?: string
  @Field(() => GraphQLISODateTime, { nullable: true }) expireDate?: Date
  @Field(() => Boolean, { nullable: true }) syncManaged?: boolean
  @Field(() => [String], { nullable: true, description: 'role names of the project catalogue (credentialRoles)' }) roleNameList?: string[]
  @Field(() => [String], { nullable: true, description: 'allowed client addresses, IP or CIDR' }) ipList?: string[]
  @Field(() => CredentialTokenSettingsType, { nullable: true }) tokenSettings?: CredentialTokenSettingsType
}

@InputType('CredentialUpdateInput', { description: 'Absent or null fields keep their value; organizationCode "" detaches' })
export class CredentialUpdateInputType {
  @Field(() => String, { nullable: true }) username?: string
  @Field(() => String, { nullable: true, description: 'write-only; a new value rotates it' }) password?: string
  @Field(() => String, { nullable: true }) fullName?: string
  @Field(() => String, { nullable: true }) email?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => Boolean, { nullable: true }) enabled?: boolean
  @Field(() => String, { nullable: true }) organizationCode?: string
  @Field(() => GraphQLISODateTime, { nullable: true }) expireDate?: Date
  @Field(() => Boolean, { nullable: true }) syncManaged?: boolean
  @Field(() => [String], { nullable: true, description: 'role names of the project catalogue (credentialRoles)' }) roleNameList?: string[]
  @Field(() => [String], { nullable: true, description: 'allowed client addresses, IP or CIDR' }) ipList?: string[]
  @Field(() => CredentialTokenSettingsType, { nullable: true }) tokenSettings?: CredentialTokenSettingsType
}

@Resolver(() => CredentialType)
export class CredentialResolver {
  @Query(() => CredentialType)
  async credential(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('username', () => String) username: string) {
    return getCredential(ctx.deps, requireViewer(ctx), projectName, username)
  }

  @Query(() => CredentialPage, { description: 'One page of the credentials of a project (IDENTITY VIEW), searched on user name and full name; sort username (default), fullName, createdAt' })
  async credentialsPage(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => SearchPagingArgs) paging: SearchPagingArgs) {
    return pageCredentials(ctx.deps, requireViewer(ctx), projectName, paging)
  }

  @Query(() => [CredentialType])
  async credentials(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return listCredentials(ctx.deps, requireViewer(ctx), projectName)
  }

  @Query(() => CredentialTokenSettingsType, { nullable: true, description: 'null until the settings are first set or reset' })
  async credentialTokenSettings(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('username', () => String) username: string) {
    return (await getCredential(ctx.deps, requireViewer(ctx), projectName, username)).tokenSettings
  }

  @FieldResolver(() => Boolean, { description: 'whether a password is stored (never the password)' })
  passwordSet(@Root() credential: Credential) {
    return credential.passwordCipher !== null
  }

  @FieldResolver(() => String, { nullable: true })
  async organizationCode(@Root() credential: Credential, @Ctx() ctx: GqlContext) {
    return credential.organizationId ? ((await organizationLoader(ctx).load(credential.organizationId))?.code ?? null) : null
  }

  @FieldResolver(() => String, { nullable: true, description: 'the application that owns the credential' })
  async applicationName(@Root() credential: Credential, @Ctx() ctx: GqlContext) {
    return credential.applicationId ? ((await applicationLoader(ctx).load(credential.applicationId))?.name ?? null) : null
  }

  @FieldResolver(() => [String], { description: 'role names, sorted' })
  async roleNameList(@Root() credential: Credential & Partial<Pick<CredentialWithOwners, 'roleGrants'>>, @Ctx() ctx: GqlContext) {
    if (credential.roleGrants) return credential.roleGrants.map((g) => g.role.name)
    const loader = ctx.loaders.get<string, string[]>('credentialRoleNames', async (ids) => {
      const rows = await ctx.deps.prisma.credentialRoleGrant.findMany({ where: { credentialId: { in: [...ids] } }, select: { credentialId: true, role: { select: { name: true } } } })
      return byKey(ids, rows, (r) => r.credentialId).map((group) => group.map((r) => r.role.name).sort())
    })
    return loader.load(credential.id)
  }

  @FieldResolver(() => [CredentialAccessType], { description: 'the API proxies and groups the credential may call' })
  async accessList(@Root() credential: Credential & Partial<Pick<CredentialWithOwners, 'entitlements'>>, @Ctx() ctx: GqlContext) {
    if (credential.entitlements) return credential.entitlements.map(accessItemOf)
    const loader = ctx.loaders.get<string, CredentialAccessType[]>('credentialAccess', async (ids) => {
      const rows = await ctx.deps.prisma.entitlement.findMany({
        where: { credentialId: { in: [...ids] }, status: 'ACTIVE', targetType: { in: [...ACCESS_TARGET_TYPES] } },
        select: { credentialId: true, targetType: true, targetRef: true, validUntil: true },
        orderBy: [{ targetType: 'asc' }, { targetRef: 'asc' }],
      })
      return byKey(ids, rows, (r) => r.credentialId).map((group) => group.map(accessItemOf) as CredentialAccessType[])
    })
    return loader.load(credential.id)
  }

  @Query(() => [CredentialAccessType], { description: 'IDENTITY VIEW' })
  async credentialAccess(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('username', () => String) username: string) {
    return listCredentialAccess(ctx.deps, requireViewer(ctx), projectName, username)
  }

  @Mutation(() => CredentialWriteResult, { description: 'Replaces the password (write-only) and deploys the credential (IDENTITY MANAGE; the push needs DEPLOY_UNDEPLOY)' })
  async changeCredentialPassword(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('username', () => String) username: string,
    @Arg('password', () => String) password: string,
  ) {
    return CredentialWriteResult.from(await changeCredentialPassword(ctx.deps, requireViewer(ctx), projectName, username, { password }))
  }

  @Mutation(() => CredentialWriteResult, { description: 'Grants access to API proxies or groups (all or none) and deploys the credential' })
  async grantCredentialAccess(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('username', () => String) username: string,
    @Arg('access', () => [CredentialAccessType]) access: CredentialAccessType[],
  ) {
    return CredentialWriteResult.from(await grantCredentialAccess(ctx.deps, requireViewer(ctx), projectName, username, { credentialAccessList: access }))
  }

  @Mutation(() => CredentialWriteResult, { description: 'Revokes access to API proxies or groups (all or none; the entitlements end) and deploys the credential' })
  async revokeCredentialAccess(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('username', () => String) username: string,
    @Arg('access', () => [CredentialAccessType]) access: CredentialAccessType[],
  ) {
    return CredentialWriteResult.from(await revokeCredentialAccess(ctx.deps, requireViewer(ctx), projectName, username, { credentialAccessList: access }))
  }

  @Mutation(() => CredentialWriteResult, { description: 'Resets the token settings (spec §2.3) and deploys the credential' })
  async resetCredentialToken(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('username', () => String) username: string) {
    return CredentialWriteResult.from(await resetCredentialToken(ctx.deps, requireViewer(ctx), projectName, username))
  }

  @Mutation(() => CredentialSecretResult, { description: 'Issues a new random password and deploys the credential (IDENTITY MANAGE); the answer carries it this once' })
  async resetCredentialSecret(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('username', () => String) username: string) {
    const { secret, ...write } = await resetCredentialSecret(ctx.deps, requireViewer(ctx), projectName, username)
    return Object.assign(new CredentialSecretResult(), { ...CredentialWriteResult.from(write), secret })
  }

  @Mutation(() => CredentialWriteResult)
  async createCredential(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => CredentialInputType) input: CredentialInputType) {
    return CredentialWriteResult.from(await createCredential(ctx.deps, requireViewer(ctx), projectName, withoutNulls(input)))
  }

  @Mutation(() => CredentialWriteResult)
  async updateCredential(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('username', () => String) username: string,
    @Arg('input', () => CredentialUpdateInputType) input: CredentialUpdateInputType,
  ) {
    const { organizationCode, ...rest } = withoutNulls(input)
    return CredentialWriteResult.from(
      await updateCredential(ctx.deps, requireViewer(ctx), projectName, username, { ...rest, ...(organizationCode === undefined ? {} : { organizationCode: organizationCode || null }) }),
    )
  }

  @Mutation(() => CredentialWriteResult, { description: 'Revokes the credential: disabled for good and undeployed (IDENTITY MANAGE)' })
  async revokeCredential(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('username', () => String) username: string) {
    return CredentialWriteResult.from(await revokeCredential(ctx.deps, requireViewer(ctx), projectName, username))
  }

  @Mutation(() => DeploymentResultType, { description: 'Deletes the credential and undeploys it' })
  async deleteCredential(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('username', () => String) username: string) {
    return DeploymentResultType.from(await deleteCredential(ctx.deps, requireViewer(ctx), projectName, username))
  }
}
