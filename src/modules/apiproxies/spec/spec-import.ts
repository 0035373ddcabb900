import type { ApiProxy } from '../../../generated/prisma/client.js'
import type { Tx } from '../../../platform/context.js'
import { DomainError, malformed } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { parseToolDocument, readDocument } from './discovery.js'
import { endpointCreateInput, OPERATION_ID_PATTERN, pathKeyOf } from '../endpoints/inputs.js'
import { normalize, rowData } from '../endpoints/rules.js'
import { insertEndpointRows } from '../endpoints/bulk.js'

// An OpenAPI 3 or Swagger 2 document becomes the proxy's endpoints (spec §2.18). The document is read by the
// parse-tools parser (discovery.ts): one operation per method + path, with its operationId and summary.

export type SpecEndpoint = ReturnType<typeof normalize>

/**
 * The endpoints of the document `text` (JSON or YAML) for `proxy`. `field` names where the document came from
 * (specFile or specUrl) in every refusal.
 */
export function endpointsFromSpec(text: string, field: 'specFile' | 'specUrl' | 'importedContentOfBackendApi', proxy: Pick<ApiProxy, 'kind' | 'name'> & Partial<ApiProxy>): SpecEndpoint[] {
  const rename = (err: unknown): never => {
    if (err instanceof DomainError && typeof err.params.field === 'string' && err.params.field.startsWith('document')) {
      const at = err.params.field.replace(/^document/, field)
      throw malformed(`${at}${err.message.slice(err.message.indexOf(':'))}`, { ...err.params, field: at })
    }
    throw err
  }
  let doc: unknown
  try {
    doc = readDocument({ document: text })
  } catch (err) {
    rename(err)
  }
  const d = doc as Record<string, unknown> | null
  if (!d || typeof d !== 'object' || Array.isArray(d) || !(typeof d.openapi === 'string' || typeof d.swagger === 'string')) {
    throw malformed(`${field}: is not an OpenAPI or Swagger document (no 'openapi' or 'swagger' version field)`, { field })
  }
  let operations: ReturnType<typeof parseToolDocument> = []
  try {
    operations = parseToolDocument(doc)
  } catch (err) {
    rename(err)
  }
  const seen = new Map<string, string>()
  const ids = new Set<string>()
  return operations.map((op) => {
    const at = `${field}: paths['${op.path}'].${op.method!.toLowerCase()}`
    let values
    try {
      const input = parseInput(endpointCreateInput.omit({ version: true }), {
        method: op.method,
        path: op.path,
        operationId: OPERATION_ID_PATTERN.test(op.name) ? op.name : undefined,
        // the document is untrusted: NUL characters (which text columns refuse) are dropped from descriptions
        description: op.description ? op.description.replace(/\u0000/g, '').slice(0, 1000) : undefined,
      })
      values = normalize(input, proxy as ApiProxy)
    } catch (err) {
      if (err instanceof DomainError) throw malformed(`${at}: ${err.message}`, { field })
      throw err
    }
    const key = `${values.method} ${pathKeyOf(values.path)}`
    const clash = seen.get(key)
    if (clash) throw malformed(`${at}: matches the same requests as operation '${clash}'`, { field })
    // generated ids (method_path) may meet a declared one: the later operation gets a numbered id
    const base = values.operationId.slice(0, 120)
    for (let n = 2; ids.has(values.operationId); n++) values = { ...values, operationId: `${base}_${n}` }
    ids.add(values.operationId)
    seen.set(key, values.operationId)
    return values
  })
}

/**
 * Makes the proxy's unversioned endpoints those of the document: endpoints matching an operation (method + path)
 * are updated in place, so policies attached to them stay; the others are removed; new operations are added.
 */
export async function replaceSpecEndpoints(tx: Tx, apiProxyId: string, endpoints: SpecEndpoint[]): Promise<void> {
  const current = await tx.gatewayEndpoint.findMany({ where: { apiProxyId, version: '' }, select: { id: true, method: true, pathKey: true } })
  const wanted = new Map(endpoints.map((e) => [`${e.method} ${pathKeyOf(e.path)}`, e]))
  const kept = current.filter((c) => wanted.has(`${c.method} ${c.pathKey}`))
  const removed = current.filter((c) => !wanted.has(`${c.method} ${c.pathKey}`)).map((c) => c.id)
  if (removed.length) await tx.gatewayEndpoint.deleteMany({ where: { id: { in: removed } } })
  // operation ids move between endpoints on a reparse: clear the kept ones first so the unique index never sees two
  if (kept.length) await tx.$executeRaw`UPDATE "GatewayEndpoint" SET "operationId" = '__reparse_' || "id" WHERE "id" = ANY(${kept.map((k) => k.id)})`
  for (const k of kept) await tx.gatewayEndpoint.update({ where: { id: k.id }, data: rowData(wanted.get(`${k.method} ${k.pathKey}`)!) })
  const keptKeys = new Set(kept.map((k) => `${k.method} ${k.pathKey}`))
  const added = endpoints.filter((e) => !keptKeys.has(`${e.method} ${pathKeyOf(e.path)}`))
  if (added.length) await insertEndpointRows(tx, added.map((e) => ({ apiProxyId, version: '', ...rowData(e) })))
}

/** The local name of an XML tag (`wsdl:operation` → `operation`). */
const WSDL_OPERATION = /<(?:[A-Za-z_][\w.-]*:)?operation\b[^>]*?\bname\s*=\s*(["'])([^"']+)\1/g
const WSDL_PORT_TYPE = /<(?:([A-Za-z_][\w.-]*):)?portType\b[\s\S]*?<\/(?:[A-Za-z_][\w.-]*:)?portType\s*>/g

/**
 * The endpoints of a WSDL 1.1 document (apiProxyCreationType WSDL): one POST endpoint per operation of its port
 * types, path `/{operationName}`, operationId the operation name (SOAP requests are POSTs; which operation a
 * request calls is the gateway's concern). A document without `definitions` or without any operation is refused.
 */
export function endpointsFromWsdl(text: string, field: 'specFile' | 'specUrl', proxy: Pick<ApiProxy, 'kind' | 'name'> & Partial<ApiProxy>): SpecEndpoint[] {
  if (!/<(?:[A-Za-z_][\w.-]*:)?definitions\b/.test(text)) throw malformed(`${field}: is not a WSDL document (no 'definitions' element)`, { field })
  const names: string[] = []
  for (const portType of text.match(WSDL_PORT_TYPE) ?? []) {
    for (const m of portType.matchAll(WSDL_OPERATION)) if (!names.includes(m[2]!)) names.push(m[2]!)
  }
  if (!names.length) throw malformed(`${field}: the WSDL document declares no operation (portType/operation)`, { field })
  return names.map((name) => {
    try {
      const input = parseInput(endpointCreateInput.omit({ version: true }), {
        method: 'POST', path: `/${name}`, operationId: OPERATION_ID_PATTERN.test(name) ? name : undefined,
      })
      return normalize(input, proxy as ApiProxy)
    } catch (err) {
      if (err instanceof DomainError) throw malformed(`${field}: operation '${name}': ${err.message}`, { field })
      throw err
    }
  })
}
