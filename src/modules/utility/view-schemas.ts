import { z } from 'zod'

// The resultList entries of the /apiops/utility lookups, named after the vendor document's DTOs.

export const nameByIdSchema = z.object({ id: z.string(), name: z.string() }).meta({ id: 'NameById' })
export const apiProxyNameSchema = z.object({ name: z.string(), description: z.string().nullable() }).meta({ id: 'ApiProxyName' })
export const connectionNameSchema = z.object({ id: z.string(), name: z.string(), description: z.string().nullable() }).meta({ id: 'ConnectionName' })
export const projectNameSchema = z.object({ name: z.string(), description: z.string().nullable() }).meta({ id: 'UtilityProject' })
export const fullConnectionSchema = z
  .looseObject({ type: z.string(), name: z.string(), description: z.string().nullable(), deployToWorker: z.boolean(), enabled: z.boolean(), projectName: z.string() })
  .meta({ id: 'UtilityConnection', description: 'the connection as its project\'s read shows it (secrets null with <field>Set), plus projectName' })
export const environmentSchema = z
  .object({
    id: z.string(), name: z.string(), description: z.string().nullable(), type: z.string(), status: z.enum(['PUBLISHED', 'UNPUBLISHED', 'REPUBLISH_REQUIRED']),
    accessUrl: z.string().nullable(), deployed: z.boolean(), redeployRequired: z.boolean(),
  })
  .meta({ id: 'UtilityEnvironment' })
