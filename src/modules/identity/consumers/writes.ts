import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps } from '../../../platform/context.js'
import { createCredential, updateCredential, type CredentialWrite } from '../../credentials/service.js'
import { getConsumer } from './service.js'

// Consumers are the project's credentials seen from the identity pages (spec §2.15): creating or disabling one is
// the credential write, with its validation, permission (IDENTITY MANAGE) and deployment, addressed by the
// consumer's public key.

export interface ConsumerInput {
  username: string
  fullName?: string
  email?: string
  description?: string
  organizationCode?: string
}

/** A new consumer: a credential without a password (it gets a secret later, or an API client), deployed. */
export const createConsumer = (deps: Deps, actor: Actor, projectName: string, input: ConsumerInput): Promise<CredentialWrite> =>
  createCredential(deps, actor, projectName, input)

/** Enables or disables a consumer by its public key and deploys it as it now stands (the gateway refuses a disabled one). */
export async function setConsumerEnabled(deps: Deps, actor: Actor, projectName: string, consumerKey: string, enabled: boolean): Promise<CredentialWrite> {
  const consumer = await getConsumer(deps.prisma, actor, projectName, consumerKey)
  return updateCredential(deps, actor, projectName, consumer.username, { enabled })
}
