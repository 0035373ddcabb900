import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Field, GraphQLISODateTime, Int, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { currentGeolocationDatabase, lookupGeolocation } from './service.js'

@ObjectType('GeolocationDatabase', { description: 'Metadata of the stored geolocation IP database (MMDB); the bytes are not exposed' })
export class GeolocationDatabaseType {
  @Field(() => String) fileName: string
  @Field(() => String, { description: 'database_type of the MMDB metadata, e.g. GeoLite2-City' }) databaseType: string
  @Field(() => Int, { description: '4 or 6' }) ipVersion: number
  @Field(() => Int) nodeCount: number
  @Field(() => GraphQLISODateTime, { description: 'build_epoch of the MMDB metadata' }) buildEpoch: Date
  @Field(() => Int) sizeBytes: number
  @Field(() => String, { description: 'hex SHA-256 of the file' }) sha256: string
  @Field(() => Int, { description: 'increases with every accepted upload; the revision pushed to the environments' }) revision: number
  @Field(() => GraphQLISODateTime) uploadedAt: Date
  @Field(() => String) uploadedBy: string
}

@ObjectType('GeolocationLookup', { description: 'What the stored geolocation database says about one IP address' })
export class GeolocationLookupType {
  @Field(() => String) ip: string
  @Field(() => Boolean, { description: 'false when no network of the database contains the address' }) found: boolean
  @Field(() => Int, { description: 'prefix length of the matching network (or of the deepest node reached)' }) prefixLength: number
  @Field(() => String, { nullable: true, description: 'country.iso_code (else registered_country.iso_code), when the record has one' }) countryIsoCode: string | null
  @Field(() => String, { nullable: true, description: 'country.names.en, when the record has one' }) countryName: string | null
  @Field(() => String, { nullable: true, description: 'city.names.en, when the record has one' }) cityName: string | null
  @Field(() => JSONResolver, { nullable: true, description: 'the whole record as stored in the database' }) record: unknown
}

@Resolver()
export class GeolocationResolver {
  @Query(() => GeolocationDatabaseType, { nullable: true, description: 'The stored geolocation database, null when none was uploaded. System administrators only' })
  async geolocationDatabase(@Ctx() ctx: GqlContext) {
    return currentGeolocationDatabase(ctx.deps.prisma, requireViewer(ctx))
  }

  @Query(() => GeolocationLookupType, { description: 'Looks an IP address up in the stored geolocation database. System administrators only' })
  async geolocationLookup(@Ctx() ctx: GqlContext, @Arg('ip', () => String) ip: string) {
    return lookupGeolocation(ctx.deps.prisma, requireViewer(ctx), ip)
  }
}
