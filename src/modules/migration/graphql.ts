import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { zodGraphqlType } from '../../platform/graphql/zod-types.js'
import { backfillApiClients } from './backfill.js'
import { carryOverSecrets } from './carry-over.js'
import { migrationInventory } from './inventory.js'
import { migrationBackfillSchema, migrationCarryOverSchema, migrationInventorySchema } from './view-schemas.js'

// The GraphQL door of the credential → API client migration (rest.ts): the same services and the same answers, typed
// from the REST answer schemas. A dry run is a query (it writes nothing); applying is a mutation.

const Inventory = zodGraphqlType(migrationInventorySchema, 'object', 'ApiClientMigrationInventory', 'How far the migration from credentials to API clients has come')
const Backfill = zodGraphqlType(migrationBackfillSchema, 'object', 'ApiClientMigrationBackfill', 'A DRAFT API client for every credential that has none: what was (or would be) created')
const CarryOver = zodGraphqlType(migrationCarryOverSchema, 'object', 'ApiClientMigrationCarryOver', "Credentials' passwords carried over to the API clients migrated from them: per client, the outcome")

const PROJECT = { nullable: true, description: 'a project name (IDENTITY MANAGE there); absent: the whole installation (system administrator only)' }
const query = (projectName: string | null, extra: Record<string, string> = {}) => ({ ...(projectName ? { projectId: projectName } : {}), ...extra })

@Resolver()
export class ApiClientMigrationResolver {
  @Query(() => Inventory, { description: 'Where the migration from credentials to API clients stands (GET /api/api-clients/migration/inventory)' })
  async apiClientMigrationInventory(@Ctx() ctx: GqlContext, @Arg('projectName', () => String, PROJECT) projectName: string | null) {
    return migrationInventory(ctx.deps, requireViewer(ctx), query(projectName))
  }

  @Query(() => Backfill, { description: 'What backfillApiClients would create; writes nothing (POST /api/api-clients/migration/backfill without apply)' })
  async apiClientMigrationBackfillPreview(@Ctx() ctx: GqlContext, @Arg('projectName', () => String, PROJECT) projectName: string | null) {
    return backfillApiClients(ctx.deps, requireViewer(ctx), query(projectName))
  }

  @Mutation(() => Backfill, { description: 'Creates a DRAFT API client, without secret, for every credential that has none (POST /api/api-clients/migration/backfill?apply=true)' })
  async backfillApiClients(@Ctx() ctx: GqlContext, @Arg('projectName', () => String, PROJECT) projectName: string | null) {
    return backfillApiClients(ctx.deps, requireViewer(ctx), query(projectName, { apply: 'true' }))
  }

  @Query(() => CarryOver, { description: 'What carryOverApiClientSecrets would do per migrated client; writes nothing (POST /api/api-clients/migration/secrets/carry-over without apply)' })
  async apiClientMigrationCarryOverPreview(@Ctx() ctx: GqlContext, @Arg('projectName', () => String, PROJECT) projectName: string | null) {
    return carryOverSecrets(ctx.deps, requireViewer(ctx), query(projectName))
  }

  @Mutation(() => CarryOver, { description: "Carries credentials' passwords over to the API clients migrated from them (POST /api/api-clients/migration/secrets/carry-over?apply=true)" })
  async carryOverApiClientSecrets(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String, PROJECT) projectName: string | null,
    @Arg('activate', () => Boolean, { nullable: true, description: 'move DRAFT clients that received material to ACTIVE' }) activate: boolean | null,
  ) {
    return carryOverSecrets(ctx.deps, requireViewer(ctx), query(projectName, { apply: 'true', ...(activate ? { activate: 'true' } : {}) }))
  }
}
