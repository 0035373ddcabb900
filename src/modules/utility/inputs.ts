import { z } from 'zod'

/** POST …/batch-names: a JSON array of ids (the vendor's `List`), bounded. */
export const MAX_BATCH_IDS = 1000
export const batchIds = z
  .array(z.string({ error: 'must be a string id' }).trim().min(1, 'must not be blank').max(200, 'must be at most 200 characters'), { error: 'must be a JSON array of ids' })
  .max(MAX_BATCH_IDS, `must hold at most ${MAX_BATCH_IDS} ids`)
  .meta({ id: 'UtilityIdList', description: 'ids as our answers show them (e.g. ApiProxy.id in GraphQL)' })
