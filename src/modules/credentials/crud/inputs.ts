import { z } from 'zod'
import { objectName } from '../../../platform/validation/common.js'
import { ipList } from '../ip-list.js'
import { roleNameList } from '../roles/service.js'
import { freeText } from '../service.js'
import { roleNamesOf, type CredentialWithOwners } from '../runtime.js'

// The credential body and view of the /apiops credential endpoints (vendor pages 07-credentials/crud).
// The body is a subset of the service's credential input under the same names; these schemas add what the
// pages require of it (email, fullName and, on create, password), so a missing field is a 400 naming it.

const required = (what: string) => ({ error: (issue: { input: unknown }) => (issue.input === undefined || issue.input === null ? 'is required' : `must be ${what}`) })

const vendorFields = {
  username: z.string(required('a string')).pipe(objectName),
  email: z.email({ error: (issue) => (issue.input === undefined || issue.input === null ? 'is required' : 'must be a valid email address') }).max(320),
  fullName: z.string(required('a string')).trim().min(1, 'must not be empty').pipe(freeText(200)),
  description: freeText(1000).nullish(),
  roleNameList: roleNameList.nullish(),
  enabled: z.boolean().nullish(),
  ipList: ipList.nullish(),
  expireDate: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2024-12-31T23:59:59.000Z' }).nullish(),
}

const password = z.string(required('a string')).min(1, 'must not be empty').max(1024, 'must be at most 1024 characters')

/** POST body: the page's required fields; absent optional ones take the page's defaults. */
export const vendorCredentialCreate = z.object({ ...vendorFields, password }).transform((b) => ({
  ...b,
  roleNameList: b.roleNameList ?? [],
  ipList: b.ipList ?? [],
  enabled: b.enabled ?? true,
}))

/**
 * PUT body: `username` picks the record and cannot change. The password is write-only, so a client that read
 * the credential (password null) can send it back: absent or null keeps the stored one. Other optional fields
 * left out keep their value; null clears them.
 */
export const vendorCredentialUpdate = z.object({ ...vendorFields, password: password.nullish() }).transform(({ enabled, ...b }) => ({
  ...b,
  ...(enabled === null || enabled === undefined ? {} : { enabled }),
  ...(b.password ? {} : { password: undefined }),
}))

/** One credential as the list page shows it: never a password (always null) and never the consumerKey (spec §2.4). */
export function vendorCredentialView(c: CredentialWithOwners) {
  return {
    email: c.email,
    fullName: c.fullName,
    description: c.description,
    username: c.username,
    password: null,
    roleNameList: roleNamesOf(c),
    enabled: c.enabled,
    ipList: c.ipList,
    expireDate: c.expireDate?.toISOString() ?? null,
    // what PUT …/credentials/{username}/token wrote (the GraphQL Credential's tokenSettings): null until set
    tokenSettings: (c.tokenSettings ?? null) as Record<string, unknown> | null,
  }
}
