import { z } from 'zod'
import { describes, type AsJson } from '../../platform/http/response-schemas.js'
import type { PresetView } from './service.js'

// The answer schema of the AI preset pages (both doors), tied at compile time to the view: the common fields,
// the family's own fields beside them, then the read-only ones.

export const aiPresetSchema = describes<AsJson<PresetView>>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      enabled: z.boolean(),
      builtIn: z.boolean(),
      overridden: z.boolean(),
      projectId: z.string().nullable(),
      inherited: z.boolean(),
      revision: z.number().int(),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .catchall(z.unknown())
    .meta({ id: 'AiPreset', description: "An AI preset: common fields, the family's own fields, the read-only ones (builtIn, overridden, inherited, revision)" }),
)
