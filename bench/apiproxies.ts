// parse-tools / parse-skills (issue 4, AI proxies): preview parsing of large definition documents. CPU only.
import { dump } from 'js-yaml'
import { parseSkillDocument, parseToolDocument, readDocument } from '../src/modules/apiproxies/spec/discovery.js'
import { medianOf, ms } from './measure.js'



/** An OpenAPI document with `n` paths of two operations each (parameters and a JSON body). */
function openApi(n: number) {
  const paths: Record<string, unknown> = {}
  for (let i = 0; i < n; i++) {
    paths[`/things${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: `getThing${i}`, summary: `Read thing ${i}`, parameters: [{ name: 'expand', in: 'query', schema: { type: 'boolean' } }] },
      put: { summary: `Replace thing ${i}`, requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } } } } },
    }
  }
  return { openapi: '3.0.3', info: { title: 'bench', version: '1' }, paths }
}

export async function benchApiProxies(): Promise<void> {
  console.log('\n== API proxies: parse-tools / parse-skills preview (CPU) ==')
  const doc = openApi(500)
  const yamlText = dump(doc)
  const jsonText = JSON.stringify(doc)
  console.log(`OpenAPI, 1,000 operations, JSON body:               ${ms(await medianOf(20, () => parseToolDocument(readDocument(doc))))}`)
  console.log(`same as JSON text (${(jsonText.length / 1024).toFixed(0)} KiB):                     ${ms(await medianOf(10, () => parseToolDocument(readDocument({ document: jsonText }))))}`)
  console.log(`same as YAML text (${(yamlText.length / 1024).toFixed(0)} KiB):                     ${ms(await medianOf(10, () => parseToolDocument(readDocument({ document: yamlText }))))}`)
  const tools = { tools: Array.from({ length: 1000 }, (_, i) => ({ name: `tool_${i}`, description: 'x', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } })) }
  console.log(`MCP tools list, 1,000 tools:                        ${ms(await medianOf(20, () => parseToolDocument(readDocument(tools))))}`)
  const card = { name: 'agent', skills: Array.from({ length: 1000 }, (_, i) => ({ id: `skill-${i}`, name: `Skill ${i}`, tags: ['a', 'b'] })) }
  console.log(`agent card, 1,000 skills:                           ${ms(await medianOf(20, () => parseSkillDocument(readDocument(card))))}`)
}
