import { ipEntry } from '../../../objects/ip-groups/service.js'
import { definePolicy, list, ref, refName, variable } from './common.js'

// IP filtering family: blocked and allowed IP lists. Entries are checked as the IP group module checks its own
// (IPv4/IPv6 address or CIDR). Beyond the pages, `ipGroupNameList` names IP groups of the project whose addresses
// count as listed too; ipList and ipGroupNameList together must name at least one entry.

const ipFields = {
  targetVariableForIP: variable.nullish(),
  ipList: list(ipEntry, 10_000).nullish(),
  ipGroupNameList: list(refName, 100).nullish(),
}
const atLeastOne = (p: { ipList?: string[] | null; ipGroupNameList?: string[] | null }, ctx: import('zod').RefinementCtx) => {
  if (!p.ipList?.length && !p.ipGroupNameList?.length) ctx.addIssue({ code: 'custom', path: ['ipList'], message: 'must contain at least one IP address or CIDR range (or name an IP group in ipGroupNameList)' })
}
const groups = (p: { ipGroupNameList?: string[] | null }) => (p.ipGroupNameList ?? []).flatMap((name, i) => ref('ipGroup', `ipGroupNameList[${i}]`, name))

export const blackIp = definePolicy({
  type: 'policy-black-ip',
  family: 'ip-filtering',
  title: 'Blocked IP List',
  description: 'Rejects requests from the listed IP addresses and CIDR ranges (and IP groups)',
  fields: ipFields,
  refine: atLeastOne,
  references: groups,
})

export const whiteIp = definePolicy({
  type: 'policy-white-ip',
  family: 'ip-filtering',
  title: 'Allowed IP List',
  description: 'Accepts only requests from the listed IP addresses and CIDR ranges (and IP groups)',
  fields: ipFields,
  refine: atLeastOne,
  references: groups,
})

export const IP_FILTERING = [blackIp, whiteIp]
