import { DomainError } from '../errors/domain-error.js'

export const PERMISSION_LEVELS = ['VIEW', 'MANAGE', 'DEPLOY_UNDEPLOY', 'EXPORT_IMPORT'] as const
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number]

/** Fixed asset categories; every exportable type adds one named after the type (RUNTIME.md §3). */
export const BASE_CATEGORIES = ['IDENTITY', 'PROJECT_MANAGEMENT', 'AI_DEVELOPMENT', 'AI_BUDGETS', 'API_MANAGEMENT'] as const
export const EXPORTABLE_TYPES = [
  'LLM_PROVIDER', 'KNOWLEDGE_BASE', 'CREDENTIAL', 'IP_GROUP', 'CERTIFICATE', 'GLOBAL_POLICY', 'API_CREATOR',
  'IDENTITY_SERVICE', 'WEBHOOK_CONNECTION', 'CONNECTION',
] as const
export const ASSET_CATEGORIES: readonly string[] = [...BASE_CATEGORIES, ...EXPORTABLE_TYPES]

export interface ProjectAccess {
  project: { id: string; name: string }
  systemAdmin: boolean
  /** `CATEGORY:LEVEL` */
  grants: ReadonlySet<string>
}

export const grantKey = (category: string, level: string) => `${category}:${level}`

/** A system administrator holds every permission; MANAGE implies VIEW and nothing else implies anything. */
export function can(access: ProjectAccess, category: string, level: PermissionLevel): boolean {
  if (access.systemAdmin) return true
  if (access.grants.has(grantKey(category, level))) return true
  return level === 'VIEW' && access.grants.has(grantKey(category, 'MANAGE'))
}

export function requirePermission(access: ProjectAccess, category: string, level: PermissionLevel): void {
  if (can(access, category, level)) return
  throw new DomainError(
    'permission',
    'permissionDenied',
    `User lacks permission ${category} ${level} in project '${access.project.name}'`,
    { category, level },
  )
}

/** Some operations accept one of several categories (e.g. AI_BUDGETS in place of IDENTITY). */
export function requireAnyPermission(access: ProjectAccess, categories: string[], level: PermissionLevel): void {
  if (categories.some((c) => can(access, c, level))) return
  requirePermission(access, categories[0], level)
}
