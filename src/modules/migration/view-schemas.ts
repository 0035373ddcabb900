import { z } from 'zod'
import { describes } from '../../platform/http/response-schemas.js'
import type { backfillApiClients } from './backfill.js'
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
