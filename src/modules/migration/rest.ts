import { z } from 'zod'
import { defineRoutes, requireActor } from '../../platform/http/routes.js'
import { plainBody } from '../../platform/http/response-schemas.js'
import { migrationBackfillSchema, migrationCarryOverSchema, migrationInventorySchema } from './view-schemas.js'
import { backfillApiClients } from './backfill.js'
import { carryOverSecrets } from './carry-over.js'
import { migrationInventory } from './inventory.js'

const query = z.object({
  projectId: z.string().optional().describe('project name; blank: the whole installation (system administrator only)'),
  apply: z.enum(['true', 'false']).optional().describe('default false: a dry run that writes nothing'),
})

const refusals = {
  400: 'malformed query value',
  401: 'missing, invalid, expired or revoked token',
  403: 'permissionDenied: IDENTITY MANAGE in the project, or a system administrator for the whole installation',
  404: 'resourceNotFound: unknown or out-of-scope project',
}

export const migrationRoutes = defineRoutes([
  {
    method: 'post',
    path: '/api/api-clients/migration/secrets/carry-over',
    style: 'common',
    auth: 'token',
    tag: 'api-clients',
    summary: 'Carry credentials\' passwords over to the API clients migrated from them (dry run unless apply=true)',
    query: query.extend({ activate: z.enum(['true', 'false']).optional().describe('with apply: move DRAFT clients that received material to ACTIVE') }),
    response: plainBody(migrationCarryOverSchema),
    responses: { 200: 'apply, activate, recoverySupported, scanned, counts, activatedCount, rows', ...refusals },
    async handle(ctx, input) {
      const body = await carryOverSecrets(ctx.deps, requireActor(ctx), input.query)
      return { body, audit: body.apply ? undefined : false }
    },
  },
  {
    method: 'get',
    path: '/api/api-clients/migration/inventory',
    style: 'common',
    auth: 'token',
    tag: 'api-clients',
    summary: 'How far the migration from credentials to API clients has come',
    query: query.pick({ projectId: true }),
    response: plainBody(migrationInventorySchema),
    responses: { 200: 'credentials, migratedCredentials, unmigrated[], migratedClients, clientsWithoutSecret, draftClients', ...refusals },
    async handle(ctx, input) {
      return { body: await migrationInventory(ctx.deps, requireActor(ctx), input.query) }
    },
  },
  {
    method: 'post',
    path: '/api/api-clients/migration/backfill',
    style: 'common',
    auth: 'token',
    tag: 'api-clients',
    summary: 'Create a DRAFT API client for every credential that has none (dry run unless apply=true)',
    query,
    response: plainBody(migrationBackfillSchema),
    responses: { 200: 'apply, scanned, createdCount, wouldCreateCount, rows', ...refusals },
    async handle(ctx, input) {
      const body = await backfillApiClients(ctx.deps, requireActor(ctx), input.query)
      return { body, audit: body.apply ? undefined : false }
    },
  },
])
