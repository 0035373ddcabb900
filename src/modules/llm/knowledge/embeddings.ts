import type { LlmProvider } from '../../../generated/prisma/client.js'
import { DomainError } from '../../../platform/errors/domain-error.js'
import type { SecretKeyring } from '../../../platform/secrets/keyring.js'
import { authHeaders } from '../providers/auth-headers.js'
import { open } from '../common.js'
import { resolveProviderUrl } from '../providers/urls.js'

/** Texts per /embeddings request, and how long one request may take. */
export const EMBEDDING_BATCH = 64
export const EMBEDDING_TIMEOUT_MS = 60_000

const embeddingFailed = (provider: string, detail: string) =>
  new DomainError('validation', 'embeddingFailed', `Embedding through LLM provider '${provider}' failed: ${detail}`, { provider })

/**
 * The provider's stored (sealed) secrets, opened, and the headers its auth scheme makes of them (BASIC:
 * apiKey:apiSecret; null for a scheme that cannot be sent as headers), with what an upstream might echo of them.
 */
export function providerCredentials(p: Pick<LlmProvider, 'authScheme' | 'authHeaderName' | 'apiKeyCipher' | 'apiSecretCipher'>, keyring: SecretKeyring) {
  const secrets = [open(keyring, p.apiKeyCipher), open(keyring, p.apiSecretCipher)]
  const headers = authHeaders(p.authScheme, p.authHeaderName, secrets[0], secrets[1])
  // what an upstream might echo: the header values, their credential part, and the secrets themselves
  const echoes = [...Object.values(headers ?? {}).flatMap((v) => [v, v.replace(/^(Bearer|Basic) /, '')]), ...secrets]
  return { headers, echoes: echoes.filter((e): e is string => e !== null && e.length >= 8) }
}

function providerAuth(p: LlmProvider, keyring: SecretKeyring) {
  const { headers, echoes } = providerCredentials(p, keyring)
  if (!headers) throw embeddingFailed(p.name, `auth scheme ${p.authScheme} is not supported for embedding at ingest`)
  return { headers, echoes }
}

/**
 * An upstream error text is shown to the caller: credentials it might echo are blanked out, before it is
 * shortened (a cut must not leave the start of a credential behind).
 */
export function scrub(text: string, echoes: string[], max = 200): string {
  let out = text
  for (const secret of echoes) out = out.split(secret).join('***')
  return out.length > max ? `${out.slice(0, max)}…` : out
}

/**
 * Embeds texts with the provider's OpenAI-compatible `/embeddings` (its resolved EMBEDDING URL, spec §2.7):
 * POST { model, input: [...] } → { data: [{ index, embedding }] }, in batches. Every vector must have the
 * same dimension. Any failure is reported with the provider's answer and nothing is stored by the caller.
 */
export async function embedTexts(provider: LlmProvider, keyring: SecretKeyring, model: string, texts: string[]): Promise<number[][]> {
  if (provider.wireProtocol !== 'OPENAI') throw embeddingFailed(provider.name, `wire protocol ${provider.wireProtocol} is not supported for embedding at ingest (OPENAI only)`)
  if (!provider.enabled) throw embeddingFailed(provider.name, 'the provider is disabled')
  const resolved = resolveProviderUrl(provider, 'EMBEDDING')
  if (!resolved.url) throw embeddingFailed(provider.name, 'the provider has no embeddings path')
  if (resolved.url.includes('${')) throw embeddingFailed(provider.name, `the embeddings URL ${resolved.url} holds variable references that only the gateway resolves`)
  const auth = providerAuth(provider, keyring)
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', ...resolved.headers, ...auth.headers }
  if (provider.organizationId) headers['openai-organization'] = provider.organizationId

  const vectors: number[][] = []
  for (let i = 0; i < texts.length; i += EMBEDDING_BATCH) {
    const batch = texts.slice(i, i + EMBEDDING_BATCH)
    let res: Response
    try {
      res = await fetch(resolved.url, { method: 'POST', headers, body: JSON.stringify({ model, input: batch }), signal: AbortSignal.timeout(EMBEDDING_TIMEOUT_MS) })
    } catch (err) {
      const e = err as Error
      throw embeddingFailed(provider.name, e.name === 'TimeoutError' ? `no answer within ${EMBEDDING_TIMEOUT_MS} ms` : `unreachable (${(e.cause as Error | undefined)?.message ?? e.message})`)
    }
    const text = await res.text()
    if (!res.ok) throw embeddingFailed(provider.name, `HTTP ${res.status} from ${resolved.url}${text ? `: ${scrub(text, auth.echoes)}` : ''}`)
    let data: { index?: number; embedding?: unknown }[]
    try {
      data = (JSON.parse(text) as { data: typeof data }).data
      if (!Array.isArray(data)) throw new Error('no data array')
    } catch {
      throw embeddingFailed(provider.name, 'the answer is not an embeddings response ({ data: [{ index, embedding }] })')
    }
    if (data.length !== batch.length) throw embeddingFailed(provider.name, `asked for ${batch.length} embeddings, got ${data.length}`)
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
    for (const d of ordered) {
      if (!Array.isArray(d.embedding) || d.embedding.length === 0 || !d.embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw embeddingFailed(provider.name, 'an embedding is not a non-empty array of numbers')
      }
      vectors.push(d.embedding as number[])
    }
  }
  const dimension = vectors[0]?.length
  if (vectors.some((v) => v.length !== dimension)) throw embeddingFailed(provider.name, 'embeddings of different dimensions came back')
  return vectors
}
