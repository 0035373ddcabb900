import { z } from 'zod'
import { describes, type AsJson } from '../../platform/http/response-schemas.js'
import { LICENSE_MODULES, type LicenseView } from './service.js'

// The answer schema of the installation licence (tied at compile time to LicenseView; updatedAt as ISO 8601).

export const installationLicenseSchema = describes<AsJson<LicenseView>>()(
  z
    .object({
      modules: z.array(z.enum(LICENSE_MODULES)),
      allModulesLicensed: z.boolean(),
      source: z.enum(['DEFAULT', 'BOOTSTRAP', 'API']),
      updatedAt: z.string().nullable(),
      updatedBy: z.string().nullable(),
    })
    .meta({ id: 'InstallationLicense', description: 'The licensed modules of the installation' }),
)
