// LLM module (issue 4): URL resolution, chunking and embedding throughput. CPU plus one loopback
// OpenAI-compatible embeddings server; no database. Prints figures, asserts nothing.
import crypto from 'node:crypto'
import type { LlmProvider } from '../src/generated/prisma/client.js'
import { chunkText } from '../src/modules/llm/knowledge/chunking.js'
import { embedTexts } from '../src/modules/llm/knowledge/embeddings.js'
import { resolveProviderUrls } from '../src/modules/llm/providers/urls.js'
import { createKeyring } from '../src/platform/secrets/keyring.js'
import { FakeEmbeddings } from '../test/support/fake-embeddings.js'
import { medianOf, ms } from './measure.js'



export async function benchLlm(): Promise<void> {
  console.log('\n== LLM providers and knowledge bases ==')
  const azure = { providerType: 'AZURE_OPENAI', endpoint: 'https://acme.openai.azure.com/openai?tenant=${tenant}', apiVersion: '2024-10-21' }
  console.log(`resolve the 6 request-type URLs of a provider, x10,000: ${ms(await medianOf(10, () => { for (let i = 0; i < 10_000; i++) resolveProviderUrls(azure) }))}`)

  const text = Array.from({ length: 20_000 }, (_, i) => `Sentence ${i} describes refunds, chargebacks and settlement windows.`).join(' ')
  const mb = (Buffer.byteLength(text) / 1024 / 1024).toFixed(2)
  const chunks = chunkText(text, 1000, 100)
  console.log(`chunk a ${mb} MiB document (1000/100):            ${ms(await medianOf(10, () => chunkText(text, 1000, 100)))} -> ${chunks.length} chunks`)

  const server = await FakeEmbeddings.start()
  server.dimension = 1536
  try {
    const keyring = createKeyring(crypto.randomBytes(32))
    const provider = {
      name: 'bench', enabled: true, providerType: 'OTHER', wireProtocol: 'OPENAI', endpoint: `${server.url}/v1`, apiVersion: null,
      authScheme: 'BEARER', authHeaderName: 'Authorization', apiKeyCipher: keyring.encrypt('bench-key'), apiSecretCipher: null, organizationId: null,
      defaultEmbeddingPath: '/embeddings',
    } as unknown as LlmProvider
    const t = await medianOf(3, () => embedTexts(provider, keyring, 'bench-model', chunks))
    console.log(`embed those chunks over loopback (batches of 64, dim 1536): ${ms(t)} (${Math.round(chunks.length / (t / 1000))} chunks/s)`)
  } finally {
    await server.stop()
  }
}
