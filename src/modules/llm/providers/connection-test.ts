import type { LlmProvider } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps } from '../../../platform/context.js'
import { malformed } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import type { SecretKeyring } from '../../../platform/secrets/keyring.js'
import { aiAccess, effectiveName, pathName, requireClass, requireObjectBody } from '../common.js'
import { providerCredentials, scrub } from '../knowledge/embeddings.js'
import { findProvider, providerData, providerInput, providerNotFound } from './service.js'
import { resolveProviderUrl } from './urls.js'

// POST …/llm-providers/{providerName}/test-connection/ (apinizer/docs test-llm-provider-connection): probes the
// provider from this service, no worker involved; a failed probe is a result, never an error of the call.

/** The answer the page shows: envName is always apimanager (the probe runs here, not on a worker). */
export interface ProviderConnectionTest { success: boolean; envName: 'apimanager'; detail: string }

export const PROVIDER_TEST_TIMEOUT_MS = 10_000
export const PROVIDER_TEST_SUCCESS = 'LLM provider connection test successful'

/** Where a stored credential is sent: a body that changes one of these must bring the credential again. */
const TARGET_FIELDS = ['endpoint', 'authScheme', 'authHeaderName', 'providerType', 'deploymentType'] as const
const SECRET_FIELDS = [['apiKey', 'apiKeyCipher'], ['apiSecret', 'apiSecretCipher'], ['serviceAccountJson', 'serviceAccountJsonCipher']] as const

export async function testProviderConnection(deps: Deps, actor: Actor, projectName: string, rawPathName: string, raw: unknown): Promise<ProviderConnectionTest> {
  const access = await aiAccess(deps, actor, projectName, 'MANAGE')
  const name = pathName(rawPathName)
  const stored = await findProvider(deps.prisma, access.project.id, name)
  if (!stored) throw providerNotFound(name, access.project.name)
  return probe(await candidateOf(deps, access.project.id, stored, raw), deps.keyring)
}

const emptyBody = (raw: unknown) => raw === undefined || raw === null || (typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw).length === 0)

/**
 * The provider as stored (no body, or {}), or the body's values over it, never saved. A blank secret is the stored
 * one only while the connection target is unchanged: else the stored credential would go to a host the caller chose.
 */
async function candidateOf(deps: Deps, projectId: string, stored: LlmProvider, raw: unknown): Promise<LlmProvider> {
  if (emptyBody(raw)) return stored
  const body = requireObjectBody(raw)
  requireClass(body, 'llm')
  effectiveName(body.name, stored.name, false)
  const input = parseInput(providerInput, body)
  const candidate = { ...stored, ...(await providerData(deps.prisma, deps.keyring, projectId, input, stored)) } as LlmProvider
  const moved = TARGET_FIELDS.some((f) => (candidate[f] ?? null) !== (stored[f] ?? null))
  if (moved && SECRET_FIELDS.some(([field, cipher]) => stored[cipher] !== null && !input[field]?.trim())) {
    throw malformed('Connection target changed — re-enter the credential before testing', { reason: 'credentialRequired' })
  }
  return candidate
}

/** GET {endpoint}/models with the provider's credentials (and version header): any answer below 400 is a success. */
async function probe(p: LlmProvider, keyring: SecretKeyring): Promise<ProviderConnectionTest> {
  const result = (success: boolean, detail: string): ProviderConnectionTest => ({ success, envName: 'apimanager', detail })
  if (!p.endpoint?.trim()) return result(false, 'the provider has no endpoint')
  if (p.endpoint.includes('${')) return result(false, `the endpoint ${p.endpoint} holds variable references that only the gateway resolves`)
  let url: URL
  try {
    url = new URL(p.endpoint.trim())
  } catch {
    return result(false, `the endpoint ${p.endpoint} is not a URL`)
  }
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/models`
  const { headers, echoes } = providerCredentials(p, keyring)
  if (!headers) return result(false, `auth scheme ${p.authScheme} cannot be tested from here`)
  try {
    const res = await fetch(url, {
      method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(PROVIDER_TEST_TIMEOUT_MS),
      headers: { accept: 'application/json', ...resolveProviderUrl(p, 'CHAT_COMPLETION').headers, ...headers, ...(p.organizationId ? { 'openai-organization': p.organizationId } : {}) },
    })
    const text = await res.text().catch(() => '')
    if (res.status < 400) return result(true, PROVIDER_TEST_SUCCESS)
    return result(false, `HTTP ${res.status} from ${url.origin}${url.pathname}${text ? `: ${scrub(text, echoes)}` : ''}`)
  } catch (err) {
    const e = err as Error
    return result(false, e.name === 'TimeoutError' ? `no answer within ${PROVIDER_TEST_TIMEOUT_MS} ms` : `unreachable: ${scrub((e.cause as Error | undefined)?.message ?? e.message, echoes)}`)
  }
}
