import { z } from 'zod'
import { describes } from '../../platform/http/response-schemas.js'
import type { backfillApiClients } from './backfill.js'
import type { carryOverSecrets, CarryOutcome } from './carry-over.js'
import type { migrationInventory } from './inventory.js'

// The answer schemas of the credential → API client migration routes, tied at compile time to what they return.

export const migrationInventorySchema = describes<Awaited<ReturnType<typeof migrationInventory>>>()(
  z.object({
    credentials: z.number().int(),
    migratedCredentials: z.number().int(),
    unmigrated: z.array(z.object({ consumerKey: z.string(), username: z.string() })),
    migratedClients: z.number().int(),
    clientsWithoutSecret: z.number().int(),
    draftClients: z.number().int(),
  }),
)

export const migrationBackfillSchema = describes<Awaited<ReturnType<typeof backfillApiClients>>>()(
  z.object({
    apply: z.boolean(),
    scanned: z.number().int(),
    createdCount: z.number().int(),
    wouldCreateCount: z.number().int(),
    rows: z.array(
      z.object({
        consumerKey: z.string(),
        username: z.string(),
        clientId: z.string().optional(),
        apiClientKey: z.string().optional(),
        outcome: z.enum(['ALREADY_MIGRATED', 'WOULD_CREATE', 'CREATED']),
      }),
    ),
  }),
)

const carryOutcomes = [
  'WOULD_CARRY', 'CARRIED', 'CARRIED_RAW', 'CARRIED_REFERENCE', 'ALREADY_HAS_MATERIAL', 'SOURCE_MISSING',
  'SKIPPED_EXTERNAL_IDENTITY_SOURCE', 'SKIPPED_BLANK_SECRET', 'SKIPPED_REVOKED', 'FAILED_DECRYPT', 'FAILED_ISSUE',
] as const satisfies readonly CarryOutcome[]

export const migrationCarryOverSchema = describes<Awaited<ReturnType<typeof carryOverSecrets>>>()(
  z.object({
    apply: z.boolean(),
    activate: z.boolean(),
    recoverySupported: z.boolean(),
    scanned: z.number().int(),
    counts: z.partialRecord(z.enum(carryOutcomes), z.number().int()).describe('rows per outcome; outcomes no row had are absent'),
    activatedCount: z.number().int(),
    rows: z.array(
      z.object({
        apiClientKey: z.string(),
        clientId: z.string(),
        projectId: z.string().describe('the project name'),
        migratedFromCredentialId: z.string().describe('the consumerKey of the credential the client was migrated from'),
        operationalState: z.string(),
        outcome: z.enum(carryOutcomes),
        detail: z.string(),
        secretVersionId: z.string().optional(),
        recoveryState: z.enum(['AVAILABLE', 'UNAVAILABLE']).optional(),
        activated: z.boolean(),
      }),
    ),
  }),
)
