import type { Tx } from '../../../platform/context.js'
import { DomainError } from '../../../platform/errors/domain-error.js'
import type { LimitFamily } from './enums.js'
import { AI_GATEWAY_MODULE, isModuleLicensed } from '../../licence/service.js'

/**
 * AI_TOKEN_BUDGET content needs the AI gateway module of the installation licence (spec §8); without a
 * stored licence every module is licensed. Every single-assignment write (create, update, activate,
 * validate) asks this before writing; bulk runs count unlicensed subjects instead of refusing.
 */
export async function isFamilyLicensed(db: Tx, family: LimitFamily): Promise<boolean> {
  return family !== 'AI_TOKEN_BUDGET' || (await isModuleLicensed(db, AI_GATEWAY_MODULE))
}

/** The refusal of a single-assignment write whose family is not licensed (the spec names none: documented). */
export async function requireFamilyLicensed(db: Tx, family: LimitFamily): Promise<void> {
  if (await isFamilyLicensed(db, family)) return
  throw new DomainError('permission', 'permissionDenied', `Family ${family} needs the AI gateway licence module`, {
    reason: 'license.moduleRequired',
    module: 'AI_GATEWAY',
  })
}
