import { isSystemAdmin, type Actor } from './actor.js'
import { DomainError } from '../errors/domain-error.js'

/** Installation-wide writes (users, projects, environments, settings) are for system administrators only. */
export function requireSystemAdmin(actor: Actor): void {
  if (!isSystemAdmin(actor)) {
    throw new DomainError('permission', 'permissionDenied', 'Only a system administrator may do this', { reason: 'systemAdminRequired' })
  }
}
