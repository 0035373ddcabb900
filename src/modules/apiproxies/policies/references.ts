import type { Actor } from '../../../platform/auth/actor.js'
import type { ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps } from '../../../platform/context.js'
import { DomainError, malformed } from '../../../platform/errors/domain-error.js'
import { PLATFORM_PROJECT } from '../../../platform/scope/project-scope.js'
import { findConnection } from '../../connections/service.js'
import { getEnvironmentVariable } from '../../envvars/service.js'
import { findObject, type TrustKind } from '../../keys/store.js'
import { getIpGroup } from '../../objects/ip-groups/service.js'
import { policyTypeDef, type PolicyReference, type ReferenceKind } from './catalogue/index.js'

// The by-name references of a policy (certificates, keystores, crypto keys, JWKs, connections, IP groups,
// environment variables) must name objects of the policy's project. Each is looked up through the owning module's
// service: keys and connections by project and name; IP groups and environment variables through their read
// services as the writer (those modules export no other lookup), so naming one needs VIEW on it. A `global`
// reference (the SAML keystore) that is not in the project is looked up in the admin (platform) project.

const TRUST_KINDS: Partial<Record<ReferenceKind, TrustKind>> = { certificate: 'CERTIFICATE', keystore: 'KEY_STORE', cryptoKey: 'CRYPTO_KEY_INFO', jwk: 'JWK' }
const LABELS: Record<ReferenceKind, string> = {
  certificate: 'certificate', keystore: 'keystore', cryptoKey: 'crypto key', jwk: 'JWK', connection: 'connection', ipGroup: 'IP group', environmentVariable: 'environment variable',
}

/** null when the reference resolves, else why it does not. */
async function problemWith(deps: Deps, actor: Actor, access: ProjectAccess, ref: PolicyReference): Promise<string | null> {
  const missing = `${LABELS[ref.kind]} '${ref.name}' not found in project '${access.project.name}'${ref.global ? ' nor globally' : ''}`
  const trustKind = TRUST_KINDS[ref.kind]
  if (trustKind) {
    if (await findObject(deps.prisma, access.project.id, trustKind, ref.name)) return null
    if (!ref.global) return missing
    // globally: the objects of the admin (platform) project
    const platform = await deps.prisma.project.findUnique({ where: { name: PLATFORM_PROJECT }, select: { id: true } })
    return platform && (await findObject(deps.prisma, platform.id, trustKind, ref.name)) ? null : missing
  }
  if (ref.kind === 'connection') {
    const found = await findConnection(deps.prisma, access.project.id, ref.name)
    if (!found) return missing
    return !ref.types || ref.types.includes(found.type) ? null : `connection '${found.row.name}' is a ${found.type} connection; it must be one of ${ref.types.join(', ')}`
  }
  const read = ref.kind === 'ipGroup' ? getIpGroup : getEnvironmentVariable
  try {
    await read(deps.prisma, actor, access.project.name, ref.name)
    return null
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'notFound') return missing
    throw err
  }
}

/** Refuses (400, naming the field and the name) the first reference of `policy` that does not resolve. */
export async function checkPolicyReferences(deps: Deps, actor: Actor, access: ProjectAccess, policy: { type: string }): Promise<void> {
  const refs = policyTypeDef(policy.type)?.references(policy) ?? []
  for (const ref of refs) {
    const problem = await problemWith(deps, actor, access, ref)
    if (problem) throw malformed(`policy.${ref.field}: ${problem}`, { field: `policy.${ref.field}`, reason: 'referenceNotFound', referenceKind: ref.kind, name: ref.name })
  }
}
