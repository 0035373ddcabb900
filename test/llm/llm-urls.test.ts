import { describe, expect, it } from 'vitest'
import { authHeaders } from '../../src/modules/llm/providers/auth-headers.js'
import { AUTH_SCHEMES, BUILT_IN_DEFINITIONS, PROVIDER_TYPE_NAMES, PROVIDER_TYPES, WIRE_PROTOCOLS } from '../../src/modules/llm/providers/catalog.js'
import { chunkText } from '../../src/modules/llm/knowledge/chunking.js'
import { resolveProviderUrl, resolveProviderUrls } from '../../src/modules/llm/providers/urls.js'

const openai = (endpoint: string, extra: Record<string, string | null> = {}) => ({ providerType: 'OPENAI', endpoint, apiVersion: null, ...extra })

describe('the provider catalog', () => {
  it('has 17 vendor-named types plus OTHER, five wire protocols and one cloud-signature auth scheme', () => {
    expect(PROVIDER_TYPE_NAMES).toHaveLength(18)
    expect(PROVIDER_TYPE_NAMES.filter((t) => t !== 'OTHER')).toHaveLength(17)
    expect(PROVIDER_TYPE_NAMES).toContain('OTHER')
    expect(WIRE_PROTOCOLS).toHaveLength(5)
    expect(AUTH_SCHEMES).toEqual(['BEARER', 'API_KEY_HEADER', 'BASIC', 'OAUTH2', 'NONE', 'CUSTOM', 'AWS_SIGV4'])
    for (const entry of Object.values(PROVIDER_TYPES)) expect(WIRE_PROTOCOLS).toContain(entry.wireProtocol)
  })

  it('drives one built-in definition per provider type', () => {
    expect(BUILT_IN_DEFINITIONS.map((d) => d.providerType)).toEqual(PROVIDER_TYPE_NAMES)
    const azure = BUILT_IN_DEFINITIONS.find((d) => d.name === 'azure-openai')!
    expect(azure).toMatchObject({ id: 'azure-openai', builtIn: true, wireProtocol: 'OPENAI', defaultAuthScheme: 'API_KEY_HEADER', defaultApiVersion: '2024-10-21' })
  })
})

describe('resolveProviderUrl (spec §2.7)', () => {
  it('appends the request type path to the base endpoint', () => {
    const p = openai('https://api.openai.com/v1')
    expect(resolveProviderUrls(p).map((r) => [r.requestType, r.url])).toEqual([
      ['CHAT_COMPLETION', 'https://api.openai.com/v1/chat/completions'],
      ['EMBEDDING', 'https://api.openai.com/v1/embeddings'],
      ['AUDIO_TRANSCRIPTION', 'https://api.openai.com/v1/audio/transcriptions'],
      ['AUDIO_SPEECH', 'https://api.openai.com/v1/audio/speech'],
      ['IMAGE_GENERATION', 'https://api.openai.com/v1/images/generations'],
      ['RESPONSES', 'https://api.openai.com/v1/responses'],
    ])
  })

  it('joins slashes once whether the endpoint ends with one or the path lacks one', () => {
    expect(resolveProviderUrl(openai('https://x.test/v1/'), 'EMBEDDING').url).toBe('https://x.test/v1/embeddings')
    expect(resolveProviderUrl(openai('https://x.test/v1//', { defaultEmbeddingPath: 'embed' }), 'EMBEDDING').url).toBe('https://x.test/v1/embed')
  })

  it('uses the provider path when set and falls back to the type default when it is empty or blank', () => {
    expect(resolveProviderUrl(openai('https://x.test', { defaultChatCompletionPath: '/v2/chat' }), 'CHAT_COMPLETION').url).toBe('https://x.test/v2/chat')
    expect(resolveProviderUrl(openai('https://x.test', { defaultChatCompletionPath: '' }), 'CHAT_COMPLETION').url).toBe('https://x.test/chat/completions')
    expect(resolveProviderUrl(openai('https://x.test', { defaultChatCompletionPath: '   ' }), 'CHAT_COMPLETION').url).toBe('https://x.test/chat/completions')
  })

  it('falls back to the type endpoint when the endpoint is blank', () => {
    expect(resolveProviderUrl(openai(''), 'CHAT_COMPLETION').url).toBe('https://api.openai.com/v1/chat/completions')
  })

  it('moves a query string inside the endpoint to the end of the resolved address', () => {
    expect(resolveProviderUrl(openai('https://x.test/v1?key=abc&region=eu'), 'EMBEDDING').url).toBe('https://x.test/v1/embeddings?key=abc&region=eu')
  })

  it("keeps the path's own query first, then the endpoint's", () => {
    const p = openai('https://x.test/v1?key=abc', { defaultChatCompletionPath: '/chat?stream=true' })
    expect(resolveProviderUrl(p, 'CHAT_COMPLETION').url).toBe('https://x.test/v1/chat?stream=true&key=abc')
  })

  it('keeps a path inside the endpoint as is (documented as a broken URL)', () => {
    expect(resolveProviderUrl(openai('https://x.test/v1/chat/completions'), 'CHAT_COMPLETION').url).toBe('https://x.test/v1/chat/completions/chat/completions')
  })

  it('adds api-version as a query parameter for AZURE_OPENAI', () => {
    const p = { providerType: 'AZURE_OPENAI', endpoint: 'https://acme.openai.azure.com/openai', apiVersion: '2024-10-21' }
    expect(resolveProviderUrl(p, 'CHAT_COMPLETION')).toEqual({
      requestType: 'CHAT_COMPLETION', url: 'https://acme.openai.azure.com/openai/deployments/${model}/chat/completions?api-version=2024-10-21', headers: {},
    })
  })

  it('places api-version after a query moved from the endpoint', () => {
    const p = { providerType: 'AZURE_OPENAI', endpoint: 'https://acme.openai.azure.com/openai?foo=1', apiVersion: '2024-10-21', defaultEmbeddingPath: '/deployments/emb/embeddings' }
    expect(resolveProviderUrl(p, 'EMBEDDING').url).toBe('https://acme.openai.azure.com/openai/deployments/emb/embeddings?foo=1&api-version=2024-10-21')
  })

  it('skips api-version when the endpoint or the path already carries one (any case)', () => {
    const inEndpoint = { providerType: 'AZURE_OPENAI', endpoint: 'https://a.test/openai?api-version=2023-05-15', apiVersion: '2024-10-21' }
    expect(resolveProviderUrl(inEndpoint, 'RESPONSES').url).toBe('https://a.test/openai/responses?api-version=2023-05-15')
    const inPath = { providerType: 'AZURE_OPENAI', endpoint: 'https://a.test/openai', apiVersion: '2024-10-21', defaultResponsesPath: '/responses?API-Version=preview' }
    expect(resolveProviderUrl(inPath, 'RESPONSES').url).toBe('https://a.test/openai/responses?API-Version=preview')
  })

  it('adds no api-version for AZURE_OPENAI without an apiVersion', () => {
    expect(resolveProviderUrl({ providerType: 'AZURE_OPENAI', endpoint: 'https://a.test/openai', apiVersion: ' ' }, 'RESPONSES').url).toBe('https://a.test/openai/responses')
  })

  it('encodes the api-version value but keeps variable references', () => {
    expect(resolveProviderUrl({ providerType: 'AZURE_OPENAI', endpoint: 'https://a.test', apiVersion: '2024 preview&x' }, 'RESPONSES').url).toBe('https://a.test/responses?api-version=2024%20preview%26x')
    expect(resolveProviderUrl({ providerType: 'AZURE_OPENAI', endpoint: 'https://a.test', apiVersion: '${apiVersion}' }, 'RESPONSES').url).toBe('https://a.test/responses?api-version=${apiVersion}')
  })

  it('sends apiVersion as the anthropic-version header for ANTHROPIC, not in the URL', () => {
    const p = { providerType: 'ANTHROPIC', endpoint: 'https://api.anthropic.com/v1', apiVersion: '2023-06-01' }
    expect(resolveProviderUrl(p, 'CHAT_COMPLETION')).toEqual({ requestType: 'CHAT_COMPLETION', url: 'https://api.anthropic.com/v1/messages', headers: { 'anthropic-version': '2023-06-01' } })
  })

  it('gives apiVersion no effect for the two cloud-native types', () => {
    const bedrock = { providerType: 'AWS_BEDROCK', endpoint: 'https://bedrock-runtime.eu-west-1.amazonaws.com', apiVersion: '2024-01-01' }
    expect(resolveProviderUrl(bedrock, 'CHAT_COMPLETION')).toEqual({ requestType: 'CHAT_COMPLETION', url: 'https://bedrock-runtime.eu-west-1.amazonaws.com/model/${model}/converse', headers: {} })
    const vertex = { providerType: 'GOOGLE_VERTEX_AI', endpoint: 'https://europe-west4-aiplatform.googleapis.com/v1', apiVersion: 'v1beta1' }
    const r = resolveProviderUrl(vertex, 'CHAT_COMPLETION')
    expect(r.headers).toEqual({})
    expect(r.url).not.toContain('v1beta1')
  })

  it('gives apiVersion no effect for ordinary types either', () => {
    expect(resolveProviderUrl(openai('https://x.test', { apiVersion: '9' }), 'CHAT_COMPLETION')).toEqual({ requestType: 'CHAT_COMPLETION', url: 'https://x.test/chat/completions', headers: {} })
  })

  it('keeps variable references in endpoint and paths for request time', () => {
    const p = openai('https://${host}/v1?tenant=${tenant}', { defaultChatCompletionPath: '/models/${model}/chat' })
    expect(resolveProviderUrl(p, 'CHAT_COMPLETION').url).toBe('https://${host}/v1/models/${model}/chat?tenant=${tenant}')
  })

  it('has no URL for a request type neither the provider nor its type serves', () => {
    const p = { providerType: 'ANTHROPIC', endpoint: 'https://api.anthropic.com/v1', apiVersion: null }
    expect(resolveProviderUrl(p, 'EMBEDDING')).toEqual({ requestType: 'EMBEDDING', url: null, headers: {} })
    expect(resolveProviderUrl({ ...p, defaultEmbeddingPath: '/embed' }, 'EMBEDDING').url).toBe('https://api.anthropic.com/v1/embed')
  })

  it('treats an unknown type as OTHER', () => {
    expect(resolveProviderUrl({ providerType: 'NOPE', endpoint: '', apiVersion: null }, 'EMBEDDING').url).toBe('http://localhost:8000/v1/embeddings')
  })
})

describe('chunkText', () => {
  it('returns one chunk for a short text and drops blank input', () => {
    expect(chunkText('  hello world  ', 100, 10)).toEqual(['hello world'])
    expect(chunkText('   \n  ', 100, 10)).toEqual([])
  })

  it('cuts long texts at word boundaries with overlap, never longer than the size', () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ')
    const chunks = chunkText(words, 200, 40)
    expect(chunks.length).toBeGreaterThan(10)
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(200)
      expect(c).toMatch(/^word\d+( word\d+)*$/)
    }
    // consecutive chunks overlap: the next one starts with a word of the previous one's tail
    for (let i = 1; i < chunks.length; i++) expect(chunks[i - 1].split(' ').slice(-8)).toContain(chunks[i].split(' ')[0])
    expect(chunks.at(-1)!.endsWith('word399')).toBe(true)
  })

  it('prefers paragraph breaks', () => {
    const text = `${'a'.repeat(70)}\n\n${'b'.repeat(70)}`
    expect(chunkText(text, 100, 0)).toEqual(['a'.repeat(70), 'b'.repeat(70)])
  })

  it('always moves forward on text without separators', () => {
    const chunks = chunkText('x'.repeat(1000), 100, 50)
    expect(chunks.every((c) => c.length <= 100)).toBe(true)
    expect(chunks.length).toBe(19)
  })
})

describe('authHeaders (the one reading of the auth schemes for calls made here)', () => {
  it('sends a bearer token in the named header, Authorization by default (OAUTH2 alike)', () => {
    expect(authHeaders('BEARER', null, 'k1')).toEqual({ Authorization: 'Bearer k1' })
    expect(authHeaders('BEARER', ' X-Token ', 'k1')).toEqual({ 'X-Token': 'Bearer k1' })
    expect(authHeaders('OAUTH2', '', 'tok')).toEqual({ Authorization: 'Bearer tok' })
  })

  it('sends the key itself in the named header for API_KEY_HEADER and CUSTOM, api-key by default', () => {
    expect(authHeaders('API_KEY_HEADER', 'x-api-key', 'k2')).toEqual({ 'x-api-key': 'k2' })
    expect(authHeaders('CUSTOM', null, 'k2')).toEqual({ 'api-key': 'k2' })
  })

  it('encodes BASIC from the key alone, or key:secret when a secret is given', () => {
    expect(authHeaders('BASIC', null, 'user:pw')).toEqual({ authorization: `Basic ${Buffer.from('user:pw').toString('base64')}` })
    expect(authHeaders('BASIC', null, 'user', 'pw')).toEqual({ authorization: `Basic ${Buffer.from('user:pw').toString('base64')}` })
    expect(authHeaders('BASIC', null, 'user', null)).toEqual({ authorization: `Basic ${Buffer.from('user:').toString('base64')}` })
  })

  it('sends nothing for NONE or a blank key, and refuses the cloud signature (only the gateway signs)', () => {
    expect(authHeaders('NONE', 'x', 'k')).toEqual({})
    expect(authHeaders('BEARER', null, '  ')).toEqual({})
    expect(authHeaders('API_KEY_HEADER', 'x', null)).toEqual({})
    expect(authHeaders('AWS_SIGV4', null, 'k')).toBeNull()
  })
})
