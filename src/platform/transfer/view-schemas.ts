import { z } from 'zod'

// An advisory as every transfer answer carries it (registry.ts Advisory): shared by the transfer engine's doors and
// the modules that import through it.
export const transferAdvisorySchema = z
  .object({ level: z.enum(['INFO', 'WARNING']), key: z.string(), params: z.record(z.string(), z.unknown()) })
  .meta({ id: 'TransferAdvisory', description: 'An advisory of a transfer: level, key and its parameters' })
