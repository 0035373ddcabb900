import type { ApiProxy, ApiProxyDeployment, ApiProxyGroup } from '../../generated/prisma/client.js'
import type { DeployEnvironment } from '../../platform/deploy/pusher.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'
import type { ProxySettings } from '../apiproxies/proxies/automation/inputs.js'
import { packageSecrets } from '../../platform/transfer/package/secrets.js'
import type { PortableObject } from '../../platform/transfer/registry.js'

export interface PromotionEnvironment extends DeployEnvironment {
  id: string
  accessUrl: string | null
}

/** The proxy's path at an environment's access URL, when the environment has one. */
const accessUrlOf = (env: PromotionEnvironment, relativePath: string | null) =>
  env.accessUrl && relativePath ? `${env.accessUrl.replace(/\/+$/, '')}${relativePath}` : null

/**
 * One proxy as List API Proxies for Promotion shows it: the vendor's fields, then `transfer`, the transfer engine's
 * object file of the proxy (its secrets re-sealed under this installation's key, CIPHERTEXT_VERBATIM, as an
 * unencrypted package carries them), which Save API Proxy for Promotion writes back.
 */
export function promotionEntryOf(keyring: SecretKeyring, proxy: ApiProxy, portable: PortableObject, environments: PromotionEnvironment[], deployments: ApiProxyDeployment[]) {
  const settings = (proxy.settings ?? {}) as Partial<ProxySettings>
  const routing = settings.routing ? { ...settings.routing, apiRoutingList: (settings.routing.routingAddressList ?? []).map((a) => ({ url: a.address })) } : null
  return {
    id: proxy.id,
    name: proxy.name,
    description: proxy.description,
    // the vendor's type: a REST proxy created as a reverse proxy is its REVERSE_PROXY (as the pages write and read it)
    type: proxy.kind === 'REST' && proxy.creationType === 'REVERSE_PROXY' ? 'REVERSE_PROXY' : proxy.kind,
    enumProxyCreationType: proxy.creationType,
    protocolTransformation: false,
    relativePath: proxy.relativePath,
    clientRoute: (settings.clientRoute ?? null) as Record<string, unknown> | null,
    routing: routing as Record<string, unknown> | null,
    categoryList: settings.categoryList ?? [],
    apiProxyDeployList: environments.map((env) => {
      const row = deployments.find((d) => d.environmentName === env.name)
      return {
        environmentSettingsId: env.id,
        environmentName: env.name,
        accessUrl: accessUrlOf(env, proxy.relativePath),
        deploy: !!row,
        redeployRequired: !!row && row.revision < proxy.revision,
      }
    }),
    transfer: {
      formatVersion: 1 as const,
      role: 'SELECTED' as const,
      type: portable.type,
      kind: portable.kind,
      name: portable.name,
      data: portable.data,
      secrets: packageSecrets(keyring, portable.secrets, 'CIPHERTEXT_VERBATIM'),
      dependencies: portable.dependencies,
    },
  }
}
export type PromotionEntry = ReturnType<typeof promotionEntryOf>

/** A group as Save Proxy Group for Promotion answers it (the vendor's ApiProxyGroupInfoDTO and its id). */
export const promotedGroupView = (g: ApiProxyGroup) => ({ id: g.id, name: g.name, description: g.description, clientRoute: (g.clientRoute ?? null) as Record<string, unknown> | null })
