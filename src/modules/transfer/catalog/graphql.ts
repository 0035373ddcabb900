import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal'
import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { readUpload } from '../../../platform/graphql/upload.js'
import { importObjects, listTransferObjects, listTransferTypes } from './service.js'
import { PACKAGE_LIMITS } from '../../../platform/transfer/package/zip.js'

@ObjectType('ExportImportObject', { description: 'An object of an export-import type: the name the export expects' })
class ExportImportObjectType {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true, description: 'only for the multi-kind types' }) kind?: string
}

@ObjectType('ExportImportResult')
class ExportImportResultType {
  @Field(() => [String], { description: 'what could not be carried over; empty when everything was' }) unresolvedReferences: string[]
}

/** The twins of the legacy export-import listing and import (service.ts). */
@Resolver()
export class ExportImportResolver {
  @Query(() => [String], { description: 'The object types this installation can export and import (GET …/export-import/types/)' })
  async exportImportTypes(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return listTransferTypes(ctx.deps, requireViewer(ctx), projectName)
  }

  @Query(() => [ExportImportObjectType], { description: 'The objects of one type in the project (GET …/export-import/{type}/objects/)' })
  async exportImportObjects(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('type', () => String) type: string,
    @Arg('filter', () => String, { nullable: true }) filter: string | null,
  ) {
    return listTransferObjects(ctx.deps, requireViewer(ctx), projectName, type, filter === null ? {} : { filter })
  }

  @Mutation(() => ExportImportResultType, { description: 'Imports a package of one type, all or nothing (POST …/export-import/{type}/import/); not deployed' })
  async importObjects(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('type', () => String) type: string,
    @Arg('exportFile', () => GraphQLUpload) exportFile: Promise<FileUpload>,
    @Arg('override', () => Boolean, { nullable: true }) override: boolean | null,
    @Arg('environmentMapping', () => JSONResolver, { nullable: true }) environmentMapping: unknown,
    @Arg('certEnvironmentMergeMethod', () => String, { nullable: true }) certEnvironmentMergeMethod: string | null,
    @Arg('certEnvironmentUncoveredAction', () => String, { nullable: true }) certEnvironmentUncoveredAction: string | null,
    @Arg('passphrase', () => String, { nullable: true, description: 'for an encrypted package (UTF-8, not Base64)' }) passphrase: string | null,
  ) {
    const actor = requireViewer(ctx)
    const upload = await readUpload(exportFile, 'exportFile', PACKAGE_LIMITS.maxPackageBytes)
    const fields: Record<string, string> = {}
    if (override !== null) fields.override = String(override)
    if (environmentMapping !== null && environmentMapping !== undefined) fields.environmentMapping = JSON.stringify(environmentMapping)
    if (certEnvironmentMergeMethod) fields.certEnvironmentMergeMethod = certEnvironmentMergeMethod
    if (certEnvironmentUncoveredAction) fields.certEnvironmentUncoveredAction = certEnvironmentUncoveredAction
    return importObjects(ctx.deps, actor, projectName, type, { bytes: upload?.bytes ?? null, fileName: upload?.fileName, passphrase: passphrase || null, fields })
  }
}
