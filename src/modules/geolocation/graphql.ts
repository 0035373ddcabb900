import { JSONResolver } from 'graphql-scalars'
import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal'
import { Arg, Ctx, Field, GraphQLISODateTime, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { DeploymentResultType } from '../../platform/graphql/types.js'
import { readUpload } from '../../platform/graphql/upload.js'
import { MAX_MMDB_BYTES } from './rest.js'
import { currentGeolocationDatabase, lookupGeolocation, setGeolocationEnabled, uploadGeolocationDatabase } from './service.js'

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

@ObjectType('GeolocationEnvironmentDeployment')
export class GeolocationEnvironmentDeploymentType {
  @Field(() => String) envName: string
  @Field(() => Boolean) success: boolean
  @Field(() => String) detail: string
  @Field(() => Int, { description: 'milliseconds' }) responseTime: number
}

@ObjectType('GeolocationDeploymentResult', { description: "The push of the geolocation database, in the upload page's own form" })
export class GeolocationDeploymentResultType {
  @Field(() => Boolean) success: boolean
  @Field(() => Int, { description: 'milliseconds' }) responseTime: number
  @Field(() => [GeolocationEnvironmentDeploymentType]) detailList: GeolocationEnvironmentDeploymentType[]
}

@ObjectType('GeolocationUpload')
export class GeolocationUploadType {
  @Field(() => GeolocationDatabaseType, { description: 'the database now stored' }) stored: GeolocationDatabaseType
  @Field(() => GeolocationDeploymentResultType) deploymentResult: GeolocationDeploymentResultType
}

@ObjectType('GeolocationSwitch')
export class GeolocationSwitchType {
  @Field(() => Boolean) enabled: boolean
  @Field(() => DeploymentResultType, { description: 'the push of the geolocation configuration carrying the switch' }) deploymentResult: DeploymentResultType
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

  @Mutation(() => GeolocationUploadType, { description: "Uploads the installation's geolocation IP database (MMDB, multipart part `file`), replacing the stored one, and deploys it to every environment. System administrators only (PUT /apiops/settings/geolocation/mmdb)" })
  async uploadGeolocationDatabase(
    @Ctx() ctx: GqlContext,
    @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>,
    @Arg('fileName', () => String, { nullable: true, description: 'display name; falls back to the uploaded file name, then geolocation.mmdb' }) fileName: string | null,
  ) {
    const actor = requireViewer(ctx)
    const upload = await readUpload(file, 'file', MAX_MMDB_BYTES)
    return uploadGeolocationDatabase(ctx.deps, actor, { file: upload ?? undefined, fileName: fileName ?? undefined })
  }

  @Mutation(() => GeolocationSwitchType, { description: 'Enables (true) or disables (false) geolocation and deploys the switch to every environment. System administrators only (PUT /apiops/settings/geolocation/enable|disable)' })
  async setGeolocationEnabled(@Ctx() ctx: GqlContext, @Arg('enabled', () => Boolean) enabled: boolean) {
    const { deploymentResult, ...rest } = await setGeolocationEnabled(ctx.deps, requireViewer(ctx), enabled)
    return { ...rest, deploymentResult: DeploymentResultType.from(deploymentResult) }
  }
}
