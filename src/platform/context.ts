import type { Config } from '../config.js'
import type { PrismaClient } from '../generated/prisma/client.js'
import type { Deployer } from './deploy/pusher.js'
import type { EventBus } from './events/bus.js'
import type { Logger } from './http/logger.js'
import type { Metrics } from './http/metrics.js'
import type { SecretKeyring } from './secrets/keyring.js'

/** What every module service is given: the shared infrastructure of one running instance. */
export interface Deps {
  prisma: PrismaClient
  keyring: SecretKeyring
  deployer: Deployer
  logger: Logger
  metrics: Metrics
  config: Config
  /** live events of every instance (LISTEN/NOTIFY); absent in a process that does not serve */
  events?: EventBus
}

export type Db = PrismaClient
/** Either the client or an interactive transaction: services accept both so they compose in one transaction. */
export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>
