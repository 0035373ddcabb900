import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import { actorName } from '../../platform/auth/actor.js'
import { requireSystemAdmin } from '../../platform/auth/require.js'
import type { Tx } from '../../platform/context.js'
import { parseInput } from '../../platform/errors/validation.js'

/**
 * The installation licence: which product modules this installation may use. Stored in the database (one row,
 * shared by every instance) so that a change — from the bootstrap file at start-up or from a system administrator
 * at runtime — reaches a bulk run in flight at its next chunk boundary. No row means every module is licensed.
 */
export const LICENSE_MODULES = ['API_GATEWAY', 'AI_GATEWAY', 'API_PORTAL', 'ANALYTICS'] as const
export type LicenseModule = (typeof LICENSE_MODULES)[number]

/** The module AI_TOKEN_BUDGET limit content needs. */
export const AI_GATEWAY_MODULE: LicenseModule = 'AI_GATEWAY'

/** `license` of the bootstrap file and the body of the runtime update. */
export const licenseInput = z.strictObject({
  modules: z.array(z.enum(LICENSE_MODULES)).describe('the licensed modules; an empty list licenses none'),
})
export type LicenseInput = z.output<typeof licenseInput>

export interface LicenseView {
  modules: LicenseModule[]
  /** true when no licence was ever set: every module is licensed */
  allModulesLicensed: boolean
  source: 'DEFAULT' | 'BOOTSTRAP' | 'API'
  updatedAt: Date | null
  updatedBy: string | null
}

const LICENSE_ROW = 'current'

export async function currentLicense(db: Tx): Promise<LicenseView> {
  const row = await db.installationLicense.findUnique({ where: { id: LICENSE_ROW } })
  if (!row) return { modules: [...LICENSE_MODULES], allModulesLicensed: true, source: 'DEFAULT', updatedAt: null, updatedBy: null }
  const modules = LICENSE_MODULES.filter((m) => row.modules.includes(m))
  return { modules, allModulesLicensed: false, source: row.source as LicenseView['source'], updatedAt: row.updatedAt, updatedBy: row.updatedBy }
}

export async function isModuleLicensed(db: Tx, module: LicenseModule): Promise<boolean> {
  return (await currentLicense(db)).modules.includes(module)
}

async function storeLicense(db: Tx, modules: LicenseModule[], source: 'BOOTSTRAP' | 'API', by: string) {
  const unique = [...new Set(modules)]
  await db.installationLicense.upsert({
    where: { id: LICENSE_ROW },
    create: { id: LICENSE_ROW, modules: unique, source, updatedBy: by },
    update: { modules: unique, source, updatedBy: by },
  })
}

/** The bootstrap file's licence replaces the stored one at every start (the file is the installation's licence). */
export async function applyBootstrapLicense(db: Tx, license: LicenseInput): Promise<void> {
  await storeLicense(db, license.modules, 'BOOTSTRAP', 'bootstrap')
}

/** Replaces the licence at runtime (system administrators only); a revoked module stops bulk runs that need it. */
export async function setInstallationLicense(db: Tx, actor: Actor, body: unknown): Promise<LicenseView> {
  requireSystemAdmin(actor)
  const input = parseInput(licenseInput, body)
  await storeLicense(db, input.modules, 'API', actorName(actor))
  return currentLicense(db)
}

/** Back to the default: every module licensed. */
export async function resetInstallationLicense(db: Tx, actor: Actor): Promise<LicenseView> {
  requireSystemAdmin(actor)
  await db.installationLicense.deleteMany({ where: { id: LICENSE_ROW } })
  return currentLicense(db)
}

export async function getInstallationLicense(db: Tx, actor: Actor): Promise<LicenseView> {
  requireSystemAdmin(actor)
  return currentLicense(db)
}
