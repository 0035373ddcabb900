import { Arg, Ctx, Field, GraphQLISODateTime, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { addIpGroupIps, createIpGroup, deleteIpGroup, getIpGroup, listIpGroups, removeIpGroupIps, replaceIpGroupIps, updateIpGroup } from './service.js'

@ObjectType('IpGroup', { description: 'A project\'s IP group: the IP_GROUP stored object, its IPs and CIDR ranges' })
export class IpGroupType {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => [String]) ipList: string[]
  @Field(() => Int) revision: number
  @Field(() => GraphQLISODateTime) updatedAt: Date
}

const PERMISSION = 'PROJECT_MANAGEMENT (or IP_GROUP)'

@Resolver(() => IpGroupType)
export class IpGroupResolver {
  @Query(() => [IpGroupType], { description: `${PERMISSION} VIEW` })
  async ipGroups(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return listIpGroups(ctx.deps.prisma, requireViewer(ctx), projectName)
  }

  @Query(() => IpGroupType, { description: `${PERMISSION} VIEW` })
  async ipGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getIpGroup(ctx.deps.prisma, requireViewer(ctx), projectName, name)
  }

  @Mutation(() => IpGroupType, { description: `Creates an empty group; ${PERMISSION} MANAGE` })
  async createIpGroup(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('name', () => String) name: string,
    @Arg('description', () => String, { nullable: true }) description: string | null,
  ) {
    return createIpGroup(ctx.deps.prisma, requireViewer(ctx), projectName, { name, description })
  }

  @Mutation(() => IpGroupType, { description: `Sets the description (the name cannot change); ${PERMISSION} MANAGE` })
  async updateIpGroup(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('name', () => String) name: string,
    @Arg('description', () => String, { nullable: true }) description: string | null,
  ) {
    return updateIpGroup(ctx.deps.prisma, requireViewer(ctx), projectName, name, { name, description })
  }

  @Mutation(() => Boolean, { description: `${PERMISSION} MANAGE` })
  async deleteIpGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    await deleteIpGroup(ctx.deps.prisma, requireViewer(ctx), projectName, name)
    return true
  }

  @Mutation(() => IpGroupType, { description: `Adds IPs or CIDR ranges (duplicates ignored); ${PERMISSION} MANAGE` })
  async addIpGroupIps(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('ipList', () => [String]) ipList: string[]) {
    return addIpGroupIps(ctx.deps.prisma, requireViewer(ctx), projectName, name, { ipList })
  }

  @Mutation(() => IpGroupType, { description: `Replaces every IP (an empty list empties the group); ${PERMISSION} MANAGE` })
  async replaceIpGroupIps(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('ipList', () => [String]) ipList: string[]) {
    return replaceIpGroupIps(ctx.deps.prisma, requireViewer(ctx), projectName, name, { ipList })
  }

  @Mutation(() => IpGroupType, { description: `Removes the listed IPs (ones not in the group ignored); ${PERMISSION} MANAGE` })
  async removeIpGroupIps(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('ipList', () => [String]) ipList: string[]) {
    return removeIpGroupIps(ctx.deps.prisma, requireViewer(ctx), projectName, name, { ipList })
  }
}
