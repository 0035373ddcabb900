import { Arg, Ctx, Field, GraphQLISODateTime, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { getInstallationLicense, LICENSE_MODULES, resetInstallationLicense, setInstallationLicense } from './service.js'

@ObjectType('InstallationLicense', { description: 'Which product modules the installation may use' })
export class InstallationLicenseType {
  @Field(() => [String], { description: LICENSE_MODULES.join(', ') }) modules: string[]
  @Field(() => Boolean, { description: 'true when no licence was set: every module is licensed' }) allModulesLicensed: boolean
  @Field(() => String, { description: 'DEFAULT, BOOTSTRAP or API' }) source: string
  @Field(() => GraphQLISODateTime, { nullable: true }) updatedAt: Date | null
  @Field(() => String, { nullable: true }) updatedBy: string | null
}

@Resolver()
export class InstallationLicenseResolver {
  @Query(() => InstallationLicenseType, { description: 'The installation licence (system administrators only)' })
  async installationLicense(@Ctx() ctx: GqlContext) {
    return getInstallationLicense(ctx.deps.prisma, requireViewer(ctx))
  }

  @Mutation(() => InstallationLicenseType, { description: 'Replaces the licensed modules (system administrators only); bulk runs needing a revoked module end LICENSE_REVOKED' })
  async setInstallationLicense(@Ctx() ctx: GqlContext, @Arg('modules', () => [String]) modules: string[]) {
    return setInstallationLicense(ctx.deps.prisma, requireViewer(ctx), { modules })
  }

  @Mutation(() => InstallationLicenseType, { description: 'Removes the stored licence: every module licensed again (system administrators only)' })
  async resetInstallationLicense(@Ctx() ctx: GqlContext) {
    return resetInstallationLicense(ctx.deps.prisma, requireViewer(ctx))
  }
}
