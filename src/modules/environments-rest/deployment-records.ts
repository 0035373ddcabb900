import { Prisma } from '../../generated/prisma/client.js'
import type { Tx } from '../../platform/context.js'
import type { Deployer, DeployMessage, DeploymentOutcome } from '../../platform/deploy/pusher.js'
import type { Logger } from '../../platform/http/logger.js'

/**
 * Records what every environment answered to each push, one row per (project, environment, kind, name),
 * so that environments can say whether they hold deployed objects and whether they missed a change. A
 * row only moves forward: an older revision delivered late (an outbox retry) never overwrites a newer one.
 */
export async function recordDeployment(db: Tx, message: DeployMessage, outcome: DeploymentOutcome, at = new Date()): Promise<void> {
  if (!outcome.environmentResults.length) return
  const iso = at.toISOString()
  const rows = outcome.environmentResults.map(
    (r) => Prisma.sql`(${message.project}, ${r.environmentName}, ${message.kind}, ${message.name}, ${message.action}, ${message.revision}, ${r.success}, (${iso}::timestamptz AT TIME ZONE 'UTC'))`,
  )
  await db.$executeRaw`
    INSERT INTO "DeploymentRecord" ("projectName", "environmentName", "kind", "name", "action", "revision", "acknowledged", "at")
    VALUES ${Prisma.join(rows)}
    ON CONFLICT ("projectName", "environmentName", "kind", "name") DO UPDATE
      SET "action" = EXCLUDED."action", "revision" = EXCLUDED."revision", "acknowledged" = EXCLUDED."acknowledged", "at" = EXCLUDED."at"
      WHERE "DeploymentRecord"."revision" <= EXCLUDED."revision"`
}

/**
 * The deployer every module uses, with each push's outcome recorded. Recording never fails a push: the
 * change is saved and pushed either way, a lost record only makes an environment report less precisely.
 */
export function recordingDeployer<D extends Deployer>(inner: D, db: Tx, logger: Logger): D {
  return {
    ...inner,
    async push(environments, message) {
      const outcome = await inner.push(environments, message)
      try {
        await recordDeployment(db, message, outcome)
      } catch (err) {
        logger.warn({ err, kind: message.kind, name: message.name }, 'deployment outcome not recorded')
      }
      return outcome
    },
  }
}
