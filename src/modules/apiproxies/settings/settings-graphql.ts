import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { malformed } from '../../../platform/errors/domain-error.js'
import { proxyDetail } from '../proxies/proxy-service.js'
import { ApiProxyType } from '../proxies/graphql.js'
import { SETTING_PAGES, updateHideSpecFile, updateProxySetting } from './settings.js'

// The GraphQL door of the settings pages (rest-settings.ts): the page is named as in the path (cors, mtls,
// circuit-breaker…); its body is the same JSON, checked by the same service. The read is the proxy detail of
// GET …/apiProxies/{name}/ (every settings section, secrets as …Set flags).

const PAGES = [...Object.keys(SETTING_PAGES), 'hide-spec-file'].join(', ')

@Resolver(() => ApiProxyType)
export class ApiProxySettingsResolver {
  @Query(() => JSONResolver, { description: 'An API proxy with every settings section, as GET /apiops/…/apiProxies/{name}/ shows it (API_MANAGEMENT VIEW)' })
  async apiProxySettings(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string) {
    return proxyDetail(ctx.deps.prisma, requireViewer(ctx), projectName, apiProxyName)
  }

  @Mutation(() => Boolean, { description: `Updates one settings page of an API proxy with that page's body; page: ${PAGES} (hide-spec-file takes { hideSpecFile: Boolean }) (API_MANAGEMENT MANAGE)` })
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
}
