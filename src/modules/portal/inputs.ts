import { z } from 'zod'
import { malformed } from '../../platform/errors/domain-error.js'

// The bodies and queries of the portal operations of the vendor's openapi.yaml (tags PortalAppProvision,
// PortalAppCredential, PortalReport; no page shows them). The vendor's paths name no project: here the project is the
// `projectName` query parameter (every object of this service lives in a project, spec §1).

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')
const code = z.string().trim().min(1, 'must not be blank').max(100, 'must be at most 100 characters').regex(/^[A-Za-z0-9._-]+$/, 'may contain letters, digits, . _ and - only')

export const projectQuery = z.object({ projectName: z.string().max(200).describe('the project of the portal\'s applications (required)') })
export const optionalProjectQuery = z.object({ projectName: z.string().max(200).optional().describe('the project to look in (default: wherever the referenceId is)') })

/** The project a query names, refused when missing. */
export function projectNameOf(query: Record<string, unknown>): string {
  const raw = Array.isArray(query.projectName) ? query.projectName[0] : query.projectName
  if (typeof raw !== 'string' || !raw.trim()) throw malformed('projectName: is required (the project of the portal\'s applications)', { field: 'projectName' })
  return raw.trim()
}

/** The portal reports' query (openapi.yaml getApiOpsPortalReport…): the project, and the products to report on. */
export const reportQuery = projectQuery.extend({
  productRefIds: z.union([z.string(), z.array(z.string())]).optional().describe('the products to report on, by the reference a provisioning gave (prodProductRefId or productName): comma-separated or repeated; absent: every product'),
})

/** productRefIds as a list of product names, or null for every product (absent or blank). */
export function productsOf(query: Record<string, unknown>): string[] | null {
  const raw = query.productRefIds
  const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : []))
  const names = [...new Set(values.map((v) => v.trim()).filter(Boolean))]
  if (names.some((n) => n.length > 200)) throw malformed('productRefIds: each product reference must be at most 200 characters', { field: 'productRefIds' })
  return names.length ? names : null
}

/** POST /apiops/portal-apps/provision: the vendor's ProdProvisionRequestDTO (all its fields; organization and app as objects). */
export const provisionInput = z
  .object({
    referenceId: text(200).trim().min(1, 'must not be blank').describe('the portal\'s reference of the application (provisioning is idempotent on it)'),
    name: text(200).nullish().describe('the application name (default: app.name, then nameDefault)'),
    nameDefault: text(200).nullish(),
    nameSecondary: text(200).nullish(),
    description: text(1000).nullish(),
    code: code.nullish().describe('the organization code when createNewOrganization'),
    contactEmail: z.email('must be an email address').max(320).nullish(),
    prodPortalId: text(200).nullish(),
    prodOrganizationId: text(200).nullish().describe('an organization of the project, by id or code'),
    createNewOrganization: z.boolean().nullish(),
    sandboxAppId: text(200).nullish(),
    prodProductRefId: text(200).nullish(),
    prodPlanRefId: text(200).nullish(),
    planName: text(200).nullish(),
    productName: text(200).nullish().describe('the product the application subscribes to (default: prodProductRefId)'),
    organization: z.object({ code: code.nullish(), name: text(200).nullish() }).loose().nullish().describe('code and name of an organization to create (createNewOrganization)'),
    app: z.object({ name: text(200).nullish(), description: text(1000).nullish() }).loose().nullish(),
  })
  .strict()
  .meta({ id: 'PortalProvisionInput' })
export type ProvisionInput = z.output<typeof provisionInput>
