import { z } from 'zod'
import { objectName } from '../../../platform/validation/common.js'

// What every settings page body may carry beside its section (the newest vendor pages, api-reference/api-proxies/
// settings/*): `deploy` and `deployTargetEnvironmentNameList`, and for some pages the section wrapped in an object
// (`{ "cacheSettings": {…}, "deploy": false }`) where the older pages sent its fields at the top level. Both forms
// stay accepted, so one schema per page describes both for the OpenAPI document, the validation and GraphQL.

export const DEPLOY_FIELDS = {
  deploy: z.boolean({ error: 'must be true or false' }).nullish().describe('true: after saving, push the proxy to deployTargetEnvironmentNameList (or where it is deployed now when that is empty)'),
  deployTargetEnvironmentNameList: z.array(objectName).max(100, 'at most 100 entries').nullish().describe('environments of the project to push to when deploy is true'),
}

/** The deployment a page body asks for, split from the section's fields. */
export interface DeployRequest {
  deploy: boolean
  environmentNames: string[]
}

type Json = Record<string, unknown>

/** The body's section fields and its deployment request (DEPLOY_FIELDS removed). */
export function splitDeploy(parsed: unknown): { fields: Json; request: DeployRequest } {
  const { deploy, deployTargetEnvironmentNameList, ...fields } = (parsed ?? {}) as Json & { deploy?: boolean | null; deployTargetEnvironmentNameList?: string[] | null }
  return { fields, request: { deploy: deploy === true, environmentNames: deployTargetEnvironmentNameList ?? [] } }
}

/** The object schema under a schema's refinements and transforms. */
export function innerObject(schema: z.ZodType): z.ZodObject {
  let s = schema as unknown as { _zod: { def: { type: string; in?: unknown; innerType?: unknown } } }
  while (s._zod.def.type !== 'object') s = (s._zod.def.in ?? s._zod.def.innerType) as typeof s
  return s as unknown as z.ZodObject
}

/** Every field optional and without its default, so the transform sees which fields the client sent. */
function withoutDefaults(object: z.ZodObject): z.ZodObject {
  const shape = Object.fromEntries(
    Object.entries(object.shape).map(([k, f]) => {
      const def = (f as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def
      return [k, (def.type === 'default' ? def.innerType! : (f as z.ZodType)).optional()]
    }),
  )
  return z.strictObject(shape)
}

/**
 * The body of a page whose section `full` (an object schema, possibly with required fields, defaults and rules) comes
 * either at the top level (older pages) or inside `key` (newest pages), plus DEPLOY_FIELDS. Both forms at once are
 * refused; the chosen one is checked by `full` (its messages name the field, under `key` when wrapped).
 */
export function wrappedBody<S extends z.ZodType>(key: string, full: S): z.ZodType<z.output<S>> {
  const fields = withoutDefaults(innerObject(full))
  const body = z
    .strictObject({ ...fields.shape, [key]: fields.nullish().describe(`the section's fields (newest pages); or send them at the top level`), ...DEPLOY_FIELDS })
    .transform((body, ctx) => {
      const { [key]: wrapped, deploy, deployTargetEnvironmentNameList, ...flat } = body as Json
      const flatGiven = Object.entries(flat).some(([, v]) => v !== undefined)
      if (wrapped != null && flatGiven) {
        ctx.addIssue({ code: 'custom', path: [key], message: `send the fields either inside ${key} or at the top level, not both` })
        return z.NEVER
      }
      const result = full.safeParse(wrapped ?? flat)
      if (!result.success) {
        for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: wrapped != null ? [key, ...issue.path] : issue.path } as never)
        return z.NEVER
      }
      return { ...(result.data as Json), deploy, deployTargetEnvironmentNameList }
    })
  // the output is the section's (splitDeploy takes the deploy fields off before a page sees it)
  return body as unknown as z.ZodType<z.output<S>>
}
