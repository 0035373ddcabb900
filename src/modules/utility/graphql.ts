import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { registerUtilityKinds } from './kinds.js'
import { lookupKinds } from './registry.js'
import { lookupById, lookupNames } from './service.js'

@ObjectType('NameById', { description: 'An object\'s id (as our answers show it) and name' })
export class NameByIdType {
  @Field(() => String) id: string
  @Field(() => String) name: string
}

registerUtilityKinds()
const KINDS = () => lookupKinds().map((k) => k.segment).join(', ')

/** The twins of /apiops/utility: the kind is the REST path segment (connectionsFull for …/connections/{id}/full). */
@Resolver()
export class UtilityLookupResolver {
  @Query(() => [NameByIdType], { description: `Names of objects by id (POST /apiops/utility/{kind}/batch-names); kind: ${KINDS()}. Ids unknown or not visible to the caller are left out` })
  async utilityNames(@Ctx() ctx: GqlContext, @Arg('kind', () => String) kind: string, @Arg('ids', () => [String]) ids: string[]) {
    return lookupNames(ctx.deps.prisma, requireViewer(ctx), kind, ids)
  }

  @Query(() => JSONResolver, { nullable: true, description: `One object by id as GET /apiops/utility/{kind}/{id} shows it; null when unknown or not visible to the caller` })
  async utilityObject(@Ctx() ctx: GqlContext, @Arg('kind', () => String) kind: string, @Arg('id', () => String) id: string) {
    return (await lookupById(ctx.deps.prisma, requireViewer(ctx), kind, id))[0] ?? null
  }
}
