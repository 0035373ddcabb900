import { JSONResolver } from 'graphql-scalars'
import { Arg, Args, Ctx, Field, FieldResolver, GraphQLISODateTime, Int, ObjectType, Query, Resolver, Root } from 'type-graphql'
import type { StoredObject } from '../../generated/prisma/client.js'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { PageOf, PagingArgs } from '../../platform/graphql/types.js'
import { getStoredObject, OPAQUE_OBJECT_TYPES, pageStoredObjects } from './service.js'

@ObjectType('StoredObject', { description: 'An object of an exportable type kept as opaque JSON; its natural key is (type, kind, name)' })
export class StoredObjectType {
  @Field(() => String, { description: OPAQUE_OBJECT_TYPES.join(', ') }) type: string
  @Field(() => String) name: string
  @Field(() => JSONResolver) content: unknown
  @Field(() => Int) revision: number
  @Field(() => GraphQLISODateTime) createdAt: Date
  @Field(() => GraphQLISODateTime) updatedAt: Date
}

@ObjectType('StoredObjectPage')
export class StoredObjectPage extends PageOf(StoredObjectType, 'StoredObjectPage') {}

/** Read-only: stored objects are written by bootstrap, import and transfer. */
@Resolver(() => StoredObjectType)
export class StoredObjectResolver {
  @Query(() => StoredObjectPage, { description: 'Stored objects of a project; without a type, those of every type the caller may view' })
  async storedObjects(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('type', () => String, { nullable: true }) type: string | null,
    @Args(() => PagingArgs) paging: PagingArgs,
  ) {
    return pageStoredObjects(ctx.deps.prisma, requireViewer(ctx), projectName, { ...paging, type })
  }

  @Query(() => StoredObjectType, { description: 'kind only for the multi-kind types (CERTIFICATE, API_CREATOR, IDENTITY_SERVICE)' })
  async storedObject(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('type', () => String) type: string,
    @Arg('kind', () => String, { nullable: true }) kind: string | null,
    @Arg('name', () => String) name: string,
  ) {
    return getStoredObject(ctx.deps.prisma, requireViewer(ctx), projectName, { type, kind: kind ?? undefined, name })
  }

  @FieldResolver(() => String, { nullable: true, description: 'null for single-kind types' })
  kind(@Root() object: StoredObject) {
    return object.kind || null
  }
}
