import { z } from 'zod'
import { LOG_FLAGS } from './inputs.js'

/** An environment's traffic log settings as the reads show them (connector keys: connection names or connector types). */
const connectorMap = z.record(z.string(), z.record(z.string(), z.unknown())).describe('per connector: connection name (or connector type) → its settings')
export const trafficLogSettingsSchema = z
  .object({
    environmentName: z.string(),
    ...Object.fromEntries(LOG_FLAGS.map((f) => [f, z.boolean()])),
    connectorSettingsMap: connectorMap,
    methodOverrideList: z.array(z.object({ apiMethodId: z.string(), apiMethodName: z.string(), connectorSettingsMap: connectorMap })).optional().describe('absent when empty'),
  } as Record<string, z.ZodType>)
  .catchall(z.unknown())
  .meta({ id: 'ApiProxyTrafficLogSettings', description: "An environment's traffic log settings of an API proxy" })
