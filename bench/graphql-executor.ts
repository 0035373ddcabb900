// The GraphQL executor alone (issue 31 §2): the console's consumers page (ConsoleConsumers, 20 rows) on the real
// schema, the `consumers` resolver answering a canned page (no database, no HTTP, no Apollo), executed by graphql-js's
// `execute` and by the compiled executor (src/platform/graphql/compiled-executor.ts), alternated in blocks. Prints
// CPU µs per execution and bytes allocated per execution (heap growth with the collector held off by a large young
// generation is not available here, so: process.memoryUsage deltas over a block with a forced collection before it).
// Run: `node --expose-gc --import tsx bench/graphql-executor.ts`
import 'reflect-metadata'
import { execute, parse } from 'graphql'
import { buildGraphqlSchema } from '../src/schema.js'
import { CompiledQueries } from '../src/platform/graphql/compiled-executor.js'
import { Loaders } from '../src/platform/graphql/context.js'

const QUERY = `query ConsoleConsumers($projectName: String!, $page: Int!, $size: Int!, $search: String) {
  consumers(projectName: $projectName, page: $page, size: $size, search: $search) {
    items { username fullName email enabled organizationCode consumerKey }
    page size totalElements totalPages
  }
}`
const BLOCK = Number(process.env.BENCH_BLOCK ?? 2000)
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 6)

const schema = await buildGraphqlSchema()
const rows = Array.from({ length: 20 }, (_, i) => ({
  id: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`, username: `consumer-${String(i).padStart(6, '0')}`, fullName: `Consumer ${i}`,
  email: i % 2 ? `c${i}@example.com` : null, enabled: i % 10 !== 1, consumerKey: `csm_${i.toString(16).padStart(32, '0')}`,
  organizationId: i % 3 ? null : 'org', organization: i % 3 ? null : { code: 'ORG-1' },
}))
const page = { items: rows, page: 0, size: 20, totalElements: 20_000, totalPages: 1000, sort: ['username,asc'] }
schema.getQueryType()!.getFields().consumers!.resolve = async () => page

const document = parse(QUERY)
const variables = { projectName: 'bench', page: 0, size: 20 }
const context = () => ({ loaders: new Loaders(), actor: null, correlationId: 'bench' })
const compiled = new CompiledQueries(schema)
const operation = document.definitions[0] as any

const runs = {
  'graphql-js execute': () => execute({ schema, document, variableValues: variables, contextValue: context() }),
  'compiled (graphql-jit)': () => compiled.execute({ document, operationName: 'ConsoleConsumers', operation, context: context(), request: { variables } } as any),
}
const a = JSON.stringify(await runs['graphql-js execute']())
const b = JSON.stringify(await runs['compiled (graphql-jit)']())
if (a !== b) throw new Error(`the two executors answer differently:\n${a}\n${b}`)

const gc = (globalThis as { gc?: () => void }).gc
const results: Record<string, { us: number[]; kb: number[] }> = {}
for (let blk = 0; blk < BLOCKS; blk++) {
  for (const [name, run] of Object.entries(runs)) {
    gc?.()
    const heap0 = process.memoryUsage().heapUsed
    const cpu0 = process.cpuUsage()
    let allocated = 0
    let last = heap0
    for (let i = 0; i < BLOCK; i++) {
      await run()
      if (i % 5 === 4) {
        const now = process.memoryUsage().heapUsed
        if (now > last) allocated += now - last
        last = now
      }
    }
    const cpu = process.cpuUsage(cpu0)
    const r = (results[name] ??= { us: [], kb: [] })
    r.us.push((cpu.user + cpu.system) / BLOCK)
    r.kb.push(allocated / BLOCK / 1024)
  }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!
for (const [name, r] of Object.entries(results)) {
  console.log(`${name.padEnd(24)} CPU ${median(r.us).toFixed(1)} µs/execution (blocks: ${r.us.map((x) => x.toFixed(0)).join(', ')}); heap growth ≈ ${median(r.kb).toFixed(0)} KB/execution (a lower bound)`)
}
console.log(`compiled operations: ${compiled.compiled}, graphql-js fallbacks: ${compiled.fallbacks}`)
