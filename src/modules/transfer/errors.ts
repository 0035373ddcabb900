import { isSystemAdmin } from '../../platform/auth/actor.js'
import { can } from '../../platform/auth/permissions.js'
import { DomainError, malformedReason } from '../../platform/errors/domain-error.js'
import type { AdapterContext, ObjectRef, TransferAdapter } from '../../platform/transfer/registry.js'
import { refLabel } from '../../platform/transfer/registry.js'

export const FORMAT_VERSION_REASON = 'transfer.formatVersionUnsupported'

/** spec §9.1: formatVersion defaults to 1; any other value is refused */
export function checkFormatVersion(value: unknown, field = 'formatVersion'): void {
  if (value === undefined || value === null || value === 1) return
  throw malformedReason(FORMAT_VERSION_REASON, `${field}: format version ${JSON.stringify(value)} is not supported; the supported version is 1`, {
    field, supported: [1],
  })
}

/** EXPORT_IMPORT on the type's own category or on PROJECT_MANAGEMENT; installation-wide types: system administrators. */
export function canExportImport(ctx: AdapterContext, adapter: TransferAdapter): boolean {
  if (adapter.scope === 'installation' && !isSystemAdmin(ctx.actor)) return false
  return can(ctx.access, adapter.category, 'EXPORT_IMPORT') || can(ctx.access, 'PROJECT_MANAGEMENT', 'EXPORT_IMPORT')
}

export function requireExportImport(ctx: AdapterContext, adapter: TransferAdapter, object?: ObjectRef): void {
  if (canExportImport(ctx, adapter)) return
  const about = object ? ` (needed for ${refLabel(object)})` : ''
  if (adapter.scope === 'installation' && !isSystemAdmin(ctx.actor)) {
    throw new DomainError('permission', 'permissionDenied', `Only a system administrator may export or import ${adapter.type} objects${about}`, {
      reason: 'systemAdminRequired', type: adapter.type, ...(object ? { object: refLabel(object) } : {}),
    })
  }
  throw new DomainError(
    'permission',
    'permissionDenied',
    `User lacks permission ${adapter.category} EXPORT_IMPORT (or PROJECT_MANAGEMENT EXPORT_IMPORT) in project '${ctx.access.project.name}'${about}`,
    { category: adapter.category, level: 'EXPORT_IMPORT', ...(object ? { object: refLabel(object) } : {}) },
  )
}
