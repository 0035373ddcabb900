import { z } from 'zod'
import { legacyDeploymentResult, legacyList, legacySuccess } from '../../platform/envelopes/legacy.js'
import { defineRoutes, requireActor, type RouteDef, type RouteInput } from '../../platform/http/routes.js'
import { PRESET_FAMILIES } from './families.js'
import type { PresetFamilyDef } from './family-fields.js'
import { bodySchema, deletePreset, getPreset, listPresets, savePreset, type PresetDoor } from './service.js'
import { deploymentResult, legacyBody, legacyListBody } from '../../platform/http/response-schemas.js'
import { aiPresetSchema } from './view-schemas.js'

const adminQuery = z.object({
  projectId: z.string().optional().describe('project name whose presets to manage; blank or absent: the admin scope'),
})

const firstString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined

const unauthorized = { 401: 'missing, invalid, expired or revoked token' }

/**
 * The five routes of one family behind one door. Admin catalog: /apiops/settings/{family}/ with query
 * projectId (system administrators). Project mirror: /apiops/projects/{projectName}/{family}/ (AI_DEVELOPMENT).
 */
function familyRoutes(def: PresetFamilyDef, door: 'admin' | 'project'): RouteDef[] {
  const base = door === 'admin' ? `/apiops/settings/${def.path}/` : `/apiops/projects/:projectName/${def.path}/`
  const one = `${base}:presetName/`
  const where = (input: RouteInput): PresetDoor =>
    door === 'admin' ? { door, projectName: firstString(input.query.projectId) } : { door, projectName: input.params.projectName }
  const who = door === 'admin' ? 'caller not a system administrator, unknown project' : 'unknown project, missing AI_DEVELOPMENT permission'
  const common = { style: 'legacy' as const, auth: 'token' as const, tag: 'ai-presets', ...(door === 'admin' ? { query: adminQuery } : {}) }
  const writeResponses = (extra: string) => ({
    200: 'status SUCCESS, resultList with the saved preset, resultCount 1, deploymentResult (success, message, environmentResults[])',
    400: `${extra}; path name differs from body name; a field fails its rule (message names it); ${who}`,
    ...unauthorized,
  })
  const save = (mode: 'upsert' | 'update') => async (ctx: Parameters<RouteDef['handle']>[0], input: RouteInput) => {
    const { preset, deploymentResult } = await savePreset(ctx.deps, requireActor(ctx), def.family, where(input), input.params.presetName, input.body, mode)
    return { body: legacySuccess({ resultList: [preset], resultCount: 1, deploymentResult: legacyDeploymentResult(deploymentResult) }) }
  }
  return [
    {
      ...common, method: 'get', path: base,
      summary: `List the ${def.label}s${door === 'project' ? ' of a project (its own plus the built-in and admin-shared ones, marked inherited)' : ''}`,
      response: legacyListBody(aiPresetSchema),
      responses: { 200: 'status SUCCESS, resultList, resultCount (0 when empty)', 400: who, ...unauthorized },
      async handle(ctx, input) {
        const { items } = await listPresets(ctx.deps.prisma, requireActor(ctx), def.family, where(input))
        return { body: legacyList(items) }
      },
    },
    {
      ...common, method: 'get', path: one,
      summary: `Read one ${def.label}`,
      response: legacyListBody(aiPresetSchema),
      responses: { 200: 'status SUCCESS, resultList with the preset, resultCount 1', 400: `${def.label} not found; ${who}`, ...unauthorized },
      async handle(ctx, input) {
        const preset = await getPreset(ctx.deps.prisma, requireActor(ctx), def.family, where(input), input.params.presetName)
        return { body: legacyList([preset]) }
      },
    },
    {
      ...common, method: 'post', path: one, body: { kind: 'json', schema: bodySchema(def) },
      response: legacyListBody(aiPresetSchema, { deploymentResult }),
      summary: door === 'admin'
        ? `Create a ${def.label}, or update the one of that name (a built-in too, which becomes overridden), then deploy it`
        : `Create a project ${def.label}, then deploy it; a built-in or admin-shared name counts as absent (the project's own preset then shadows it in this project)`,
      responses: writeResponses(door === 'admin' ? 'invalid body' : 'the project already owns a preset of that name'),
      handle: save('upsert'),
    },
    {
      ...common, method: 'put', path: one, body: { kind: 'json', schema: bodySchema(def) },
      response: legacyListBody(aiPresetSchema, { deploymentResult }),
      summary: `Update an existing ${def.label}${door === 'admin' ? ' (a built-in too, which becomes overridden)' : ' owned by the project'}, then deploy it`,
      responses: writeResponses(`${def.label} not found${door === 'project' ? ' (built-in and admin-shared ones count as absent)' : ''}`),
      handle: save('update'),
    },
    {
      ...common, method: 'delete', path: one,
      summary: `Delete a ${def.label} and undeploy it${door === 'admin' ? ' (a deleted built-in does not come back with later rule-pack refreshes)' : ''}`,
      response: legacyBody({ deploymentResult }),
      responses: { 200: 'status SUCCESS, deploymentResult', 400: `${def.label} not found; ${who}`, ...unauthorized },
      async handle(ctx, input) {
        const { deploymentResult } = await deletePreset(ctx.deps, requireActor(ctx), def.family, where(input), input.params.presetName)
        return { body: legacySuccess({ deploymentResult: legacyDeploymentResult(deploymentResult) }) }
      },
    },
  ]
}

export const presetRoutes = defineRoutes(PRESET_FAMILIES.flatMap((def) => [...familyRoutes(def, 'admin'), ...familyRoutes(def, 'project')]))
