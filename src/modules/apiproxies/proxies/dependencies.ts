import type { ObjectRef } from '../../../platform/transfer/registry.js'
import { policyTypeDef, type ReferenceKind } from '../policies/catalogue/index.js'

// What a proxy in its portable form refers to by name, as transfer dependencies: the keys, certificates, connections
// and IP groups its policies name (the catalogue's references, the same the policy writer checks) and the mTLS
// keystore and trust store of its settings. Environment variables have no transfer type and are not declared.

const REFERENCE_TYPES: Record<Exclude<ReferenceKind, 'environmentVariable'>, Pick<ObjectRef, 'type' | 'kind'>> = {
  certificate: { type: 'CERTIFICATE', kind: 'CERTIFICATE' },
  keystore: { type: 'CERTIFICATE', kind: 'KEY_STORE' },
  cryptoKey: { type: 'CERTIFICATE', kind: 'CRYPTO_KEY_INFO' },
  jwk: { type: 'CERTIFICATE', kind: 'JWK' },
  connection: { type: 'CONNECTION', kind: null },
  ipGroup: { type: 'IP_GROUP', kind: null },
}

interface PortableProxyData {
  settings: unknown
  policies: { policy: { type: string } }[]
}

/** The proxy's dependencies, each once, sorted by type, kind and name. */
export function proxyDependencies(data: PortableProxyData): ObjectRef[] {
  const refs = new Map<string, ObjectRef>()
  const add = (ref: ObjectRef) => refs.set(`${ref.type}/${ref.kind ?? ''}/${ref.name}`, ref)
  for (const { policy } of data.policies) {
    // a policy stored before the catalogue and not written since may not fit its type: it declares nothing
    const def = policyTypeDef(policy.type)
    const valid = def?.schema.safeParse(policy)
    if (!def || !valid?.success) continue
    for (const ref of def.references(valid.data)) {
      if (ref.kind !== 'environmentVariable') add({ ...REFERENCE_TYPES[ref.kind], name: ref.name })
    }
  }
  const mtls = (data.settings as { mtls?: unknown } | null)?.mtls as { keyStoreName?: unknown; trustStoreName?: unknown } | undefined
  if (typeof mtls?.keyStoreName === 'string' && mtls.keyStoreName) add({ type: 'CERTIFICATE', kind: 'KEY_STORE', name: mtls.keyStoreName })
  // a trust store is a keystore or a certificate: the name alone finds it (either kind)
  if (typeof mtls?.trustStoreName === 'string' && mtls.trustStoreName) add({ type: 'CERTIFICATE', kind: null, name: mtls.trustStoreName })
  return [...refs.values()].sort((a, b) => `${a.type}/${a.kind ?? ''}/${a.name}`.localeCompare(`${b.type}/${b.kind ?? ''}/${b.name}`))
}
