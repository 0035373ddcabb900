import { z } from 'zod'
import { describes } from '../../platform/http/response-schemas.js'
import type { EnvironmentVariableView } from './values.js'

// The answer schema of the environment variable pages (vendor folder 10), tied at compile time to the view the
// routes answer (variableView without the revision/updatedAt bookkeeping). Secret values read as null.

export const environmentVariableSchema = describes<Omit<EnvironmentVariableView, 'revision' | 'updatedAt'>>()(
  z
    .object({
      projectId: z.string(),
      projectName: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      global: z.boolean(),
      globalValue: z.string().nullable(),
      globalVisible: z.boolean(),
      globalValueSet: z.boolean(),
      environmentValueList: z
        .array(z.object({ environmentName: z.string(), value: z.string().nullable(), visible: z.boolean(), valueSet: z.boolean() }))
        .nullable(),
    })
    .meta({ id: 'EnvironmentVariable', description: 'An environment variable as the pages show it: secret values are null, *Set says one is stored' }),
)
