import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { malformed } from '../../../platform/errors/domain-error.js'
import { plainInput, zodGraphqlType } from '../../../platform/graphql/zod-types.js'
import { proxyDetail } from '../proxies/automation/service.js'
import { ApiProxyType } from '../proxies/graphql.js'
import { BEHAVIOUR_PAGES, SPEC_ACCESS_PAGE } from './behaviour.js'
import { innerObject } from './page-body.js'
import { SETTING_PAGES, updateHideSpecFile, updateProxySetting } from './service.js'

// The GraphQL door of the settings pages (rest.ts). Each page is its own mutation with its own input type,
// generated from the zod schema the REST page validates with (updateApiProxyCorsSettings(input:
// ApiProxyCorsSettingsInput!) …); the values go through that schema again in the same service, so both doors refuse
// the same bodies with the same messages. The read is the proxy detail of GET …/apiProxies/{name}/ (every settings
// section, secrets as …Set flags). updateApiProxySettings(page, JSON) is the old untyped form, kept for its clients.
// The mutations answer true; a push asked for with deploy: true shows in the proxy's deploymentList.

const TYPED_PAGES = { ...SETTING_PAGES, ...BEHAVIOUR_PAGES }
const PAGES = [...Object.keys(TYPED_PAGES), 'hide-spec-file'].join(', ')
const pascal = (page: string) => page.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase())

/** The mutation and input type names of a settings page: cors → updateApiProxyCorsSettings, ApiProxyCorsSettingsInput. */
export const settingsMutationName = (page: string) => `updateApiProxy${pascal(page)}Settings`
export const settingsInputName = (page: string) => `ApiProxy${pascal(page)}SettingsInput`

const SpecAccessInputType = zodGraphqlType(innerObject(SPEC_ACCESS_PAGE.schema), 'input', settingsInputName('spec-access-type'), 'The optional body of PATCH …/settings/spec-access-type/{specAccessType}/: the deployment to make after saving')

@Resolver(() => ApiProxyType)
export class ApiProxySettingsResolver {
  @Query(() => JSONResolver, { description: 'An API proxy with every settings section, as GET /apiops/…/apiProxies/{name}/ shows it (API_MANAGEMENT VIEW)' })
  async apiProxySettings(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string) {
    return proxyDetail(ctx.deps.prisma, requireViewer(ctx), projectName, apiProxyName)
  }

  @Mutation(() => Boolean, {
    description: `Updates one settings page of an API proxy with that page's body; page: ${PAGES} (hide-spec-file takes { hideSpecFile: Boolean }) (API_MANAGEMENT MANAGE)`,
    deprecationReason: 'Use the typed mutation of the page, e.g. updateApiProxyCorsSettings(input: ApiProxyCorsSettingsInput!)',
  })
  async updateApiProxySettings(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('page', () => String) page: string, @Arg('settings', () => JSONResolver) settings: unknown,
  ) {
    if (page === 'hide-spec-file') {
      const flag = (settings as { hideSpecFile?: unknown } | null)?.hideSpecFile
      if (typeof flag !== 'boolean') throw malformed('settings.hideSpecFile: must be true or false', { field: 'settings.hideSpecFile' })
      await updateHideSpecFile(ctx.deps, requireViewer(ctx), projectName, apiProxyName, String(flag))
      return true
    }
    await updateProxySetting(ctx.deps, requireViewer(ctx), projectName, apiProxyName, page, settings)
    return true
  }

  @Mutation(() => Boolean, { description: 'Hides (true) or shows (false) the API specification file of the proxy (API_MANAGEMENT MANAGE)' })
  async updateApiProxyHideSpecFileSettings(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('hideSpecFile', () => Boolean) hideSpecFile: boolean,
  ) {
    await updateHideSpecFile(ctx.deps, requireViewer(ctx), projectName, apiProxyName, String(hideSpecFile))
    return true
  }

  @Mutation(() => Boolean, { description: 'Sets who may fetch the API spec of the proxy: specAccessType PUBLIC, AUTHENTICATED, HIDDEN or BACKEND_PROXY (PATCH …/settings/spec-access-type/{specAccessType}/) (API_MANAGEMENT MANAGE)' })
  async updateApiProxySpecAccessTypeSettings(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('specAccessType', () => String) specAccessType: string,
    @Arg('checkApiProxyPermission', () => Boolean, { nullable: true }) checkApiProxyPermission: boolean | null,
    @Arg('input', () => SpecAccessInputType, { nullable: true }) input: unknown,
  ) {
    const params = { specAccessType, checkApiProxyPermission: checkApiProxyPermission == null ? undefined : String(checkApiProxyPermission) }
    await updateProxySetting(ctx.deps, requireViewer(ctx), projectName, apiProxyName, 'spec-access-type', plainInput(input) ?? {}, params)
    return true
  }
}

/** One resolver class with a typed mutation per settings page, built from SETTING_PAGES (the REST route table's source). */
function typedSettingsResolver(): Function {
  class ApiProxyTypedSettingsResolver {}
  const proto = ApiProxyTypedSettingsResolver.prototype as unknown as Record<string, unknown>
  for (const [page, { schema }] of Object.entries(TYPED_PAGES)) {
    const method = settingsMutationName(page)
    const inputType = zodGraphqlType(innerObject(schema), 'input', settingsInputName(page), `The body of PATCH …/apiProxies/{name}/settings/${page}/`)
    proto[method] = async function (ctx: GqlContext, projectName: string, apiProxyName: string, input: unknown) {
      await updateProxySetting(ctx.deps, requireViewer(ctx), projectName, apiProxyName, page, plainInput(input))
      return true
    }
    const descriptor = Object.getOwnPropertyDescriptor(proto, method)!
    Mutation(() => Boolean, { description: `Updates the ${page} settings page of an API proxy (the same body and rules as PATCH …/settings/${page}/; deploy: true pushes it) (API_MANAGEMENT MANAGE)` })(proto, method, descriptor)
    Ctx()(proto, method, 0)
    Arg('projectName', () => String)(proto, method, 1)
    Arg('apiProxyName', () => String)(proto, method, 2)
    Arg('input', () => inputType)(proto, method, 3)
  }
  Resolver(() => ApiProxyType)(ApiProxyTypedSettingsResolver)
  return ApiProxyTypedSettingsResolver
}

export const ApiProxyTypedSettingsResolver = typedSettingsResolver()
