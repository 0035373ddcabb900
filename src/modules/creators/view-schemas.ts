import { z } from 'zod'
import { db2ApiMethodInput, mockApiMethodInput, script2ApiMethodInput, type CreatorKind } from './inputs.js'

// The answer schemas of the creator reads: the vendor schemas' fields (id, name, description, projectId) and the
// methods as they were saved (the same schemas the bodies are validated with).

const creatorSchema = (methods: z.ZodType, id: string) =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      projectId: z.string(),
      endpointList: z.array(methods),
      revision: z.number().int(),
      createdAt: z.iso.datetime(),
      updatedAt: z.iso.datetime(),
    })
    .meta({ id })

export const CREATOR_SCHEMAS: Record<CreatorKind, z.ZodObject> = {
  DB2API: creatorSchema(db2ApiMethodInput, 'Db2ApiCreator'),
  MOCKAPI: creatorSchema(mockApiMethodInput, 'MockApiCreator'),
  SCRIPT2API: creatorSchema(script2ApiMethodInput, 'Script2ApiCreator'),
}

/** The vendor's NameByIdDTO. */
export const nameByIdSchema = z.object({ id: z.string(), name: z.string() }).meta({ id: 'CreatorNameById' })
