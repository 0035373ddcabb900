import { z } from 'zod'
import { describes } from '../../platform/http/response-schemas.js'
import type { ConnectionTestResult } from './testers/index.js'
import type { ConnectionView } from './views.js'

// The answer schemas of the connection pages (vendor folder 06), tied at compile time to the views.

/** A connection of any type: the common fields beside the type's own (secrets null with a <field>Set flag). */
export const connectionSchema = describes<ConnectionView>()(
  z
    .object({ type: z.string(), name: z.string(), description: z.string().nullable(), deployToWorker: z.boolean(), enabled: z.boolean() })
    .catchall(z.unknown())
    .meta({ id: 'Connection', description: "A connection: type, name, description, deployToWorker, enabled and the type's fields (secrets null, <field>Set flags)" }),
)

export const connectionTestSchema = describes<ConnectionTestResult>()(z.object({ success: z.boolean(), message: z.string(), durationMs: z.number() }))
