import { z } from 'zod'
import { malformed } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { objectName } from '../../../platform/validation/common.js'
import { policyTypeDef, POLICY_TYPES } from '../policies/catalogue/index.js'
import { policyDocument, type PolicyDocument } from '../policies/inputs.js'

// A global policy's body is a polymorphic policy snapshot (vendor api-reference/global-policies/create-global-policy):
// `_class` names the type by the vendor's model class (`ip-white`, `oidc-auth`, …). It is mapped to the type of our
// policy catalogue and the rest of the body is validated exactly as a proxy policy of that type (policyDocument).

/** The vendor's `_class` values that name a type of our catalogue (the rest of its catalog has no type here). */
export const VENDOR_CLASSES: Record<string, string> = {
  'allowed-hours': 'policy-time-restriction',
  'api-authentication': 'policy-api-authentication',
  'api-based-quota': 'policy-api-based-quota',
  'api-based-throttling': 'policy-api-based-throttling',
  'base64-auth': 'policy-auth-clear-text',
  'basic-auth': 'policy-auth-basic',
  'business-rule': 'policy-business-rule',
  'content-filter': 'policy-content-filter',
  'digest-auth': 'policy-auth-digest',
  'ip-black': 'policy-black-ip',
  'ip-white': 'policy-white-ip',
  'json-schema-validation': 'policy-json-schema-validation',
  'jwt-auth': 'policy-auth-jwt',
  'max-message-size': 'policy-max-message-size',
  'min-message-size': 'policy-min-message-size',
  'oauth-2-auth': 'policy-auth-oauth2',
  'oidc-auth': 'policy-oidc',
  'policy-mtls-authentication': 'policy-auth-mtls',
  'protocol-transformation-request': 'policy-request-protocol-transformation',
  'protocol-transformation-response': 'policy-response-protocol-transformation',
  redaction: 'policy-redaction',
  'rest-api-call': 'policy-api-call',
  'saml-validation': 'policy-saml-validation',
  script: 'policy-script',
  'xml-schema-validation': 'policy-xml-schema-validation',
}
const TYPE_CLASSES = Object.fromEntries(Object.entries(VENDOR_CLASSES).map(([cls, type]) => [type, cls]))

/** The `_class` a stored policy answers with: the vendor's name of its type, else the catalogue's (the same for most). */
export const classOf = (type: string) => TYPE_CLASSES[type] ?? type

const POLICY_GROUP = 'policy-group'
const ACCEPTED = [...Object.keys(VENDOR_CLASSES), ...POLICY_TYPES.filter((t) => t !== POLICY_GROUP && !TYPE_CLASSES[t])].sort()

/** The catalogue type a `_class` names (a vendor class, or a catalogue type itself); `field` names it in messages. */
export function typeOfClass(raw: unknown, field: string): string {
  if (typeof raw !== 'string' || !raw.trim()) throw malformed(`${field}: is required: the policy type, one of ${ACCEPTED.join(', ')}`, { field })
  const cls = raw.trim()
  if (cls === POLICY_GROUP) throw malformed(`${field}: policy-group is not a global policy; use the Policy Groups API`, { field })
  const type = VENDOR_CLASSES[cls] ?? (policyTypeDef(cls) ? cls : null)
  if (!type) throw malformed(`${field}: '${cls}' is not a policy type of this installation; one of ${ACCEPTED.join(', ')}`, { field, class: cls })
  return type
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/**
 * One policy snapshot (`_class` and the type's fields) validated as a proxy policy of its type; `at` prefixes the
 * fields in messages (`policyList[0].`). `id`, `projectId` and `global` are the server's and dropped (the pages).
 */
export function policySnapshot(raw: unknown, at = ''): PolicyDocument & { name?: unknown } {
  if (!isRecord(raw)) throw malformed(`${at ? at.slice(0, -1) : 'body'}: must be a JSON object (a policy snapshot)`, { field: at ? at.slice(0, -1) : 'body' })
  const { _class, id: _id, projectId: _projectId, global: _global, type: _type, ...fields } = raw
  const type = typeOfClass(_class, `${at}_class`)
  try {
    return parseInput(policyDocument, { ...fields, type })
  } catch (err) {
    if (!at || !(err instanceof Error) || !('params' in err)) throw err
    const field = (err as { params: { field?: string } }).params.field
    throw malformed(`${at}${err.message}`, field ? { field: `${at}${field}` } : {})
  }
}

/** The name of a write: the body's, required on create; on update absent means the path's, present must match it. */
export function snapshotName(raw: unknown, pathName: string | null, label: string): string {
  const given = isRecord(raw) ? raw.name : undefined
  if (pathName !== null && (given === undefined || given === null)) return pathName
  const parsed = objectName.safeParse(given)
  if (given === undefined || given === null || (typeof given === 'string' && !given.trim())) throw malformed('name: name value can not be empty!', { field: 'name' })
  if (!parsed.success) throw malformed(`name: ${parsed.error.issues[0]?.message ?? 'is invalid'}`, { field: 'name' })
  if (pathName !== null && parsed.data.toLowerCase() !== pathName.toLowerCase()) {
    throw malformed(`${label} name in path (${pathName}) does not match name in body (${parsed.data})!`, { field: 'name' })
  }
  return parsed.data
}

/** The path's name of a global policy or policy group. */
export function pathName(raw: string, field: string): string {
  const parsed = objectName.safeParse(raw)
  if (!parsed.success) throw malformed(`${field}: ${parsed.error.issues[0]?.message ?? 'is invalid'}`, { field })
  return parsed.data
}

/** For the OpenAPI document: the snapshot's common fields; the type's own fields are kept (looseObject). */
export const globalPolicyBody = z
  .looseObject({
    _class: z.string().describe(`the policy type: ${ACCEPTED.join(', ')}`),
    name: z.string().describe('required on create; on update optional, and equal to the path name when given'),
    description: z.string().nullish(),
    active: z.boolean().optional(),
    oneWay: z.boolean().optional(),
    trace: z.boolean().optional(),
    buildCustomMessage: z.boolean().optional(),
    customMessageTemplate: z.string().nullish(),
    customMessageContentType: z.string().nullish(),
    customMessageHttpStatusCode: z.number().int().nullish(),
    policyCondition: z.record(z.string(), z.unknown()).nullish(),
  })
  .meta({ id: 'GlobalPolicySnapshot', description: 'a polymorphic policy snapshot; fields beyond these are the type\'s own, validated as a proxy policy of that type' })
