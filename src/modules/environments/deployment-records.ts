import { Prisma } from '../../generated/prisma/client.js'
import type { Tx } from '../../platform/context.js'
import { outcomeOfMessage, type BatchDeploymentOutcome, type Deployer, type DeployEnvironment, type DeployMessage, type DeploymentOutcome } from '../../platform/deploy/pusher.js'
import type { Logger } from '../../platform/http/logger.js'

/**
 * Records what every environment answered to each push, one row per (project, environment, kind, name),
 * so that environments can say whether they hold deployed objects and whether they missed a change. A
 * row only moves forward: an older revision delivered late (an outbox retry) never overwrites a newer one.
 */
export async function recordDeployment(db: Tx, message: DeployMessage, outcome: DeploymentOutcome, at = new Date()): Promise<void> {
  await recordDeployments(db, [{ message, outcome }], at)
}

/** Many outcomes in one statement; of one object's messages in one call, the last (newest) counts. */
export async function recordDeployments(db: Tx, entries: { message: DeployMessage; outcome: DeploymentOutcome }[], at = new Date()): Promise<void> {
  const sql = deploymentRecordsSql(deploymentRecordRows(entries, at))
  if (sql) await db.$executeRaw`${sql}`
}

/** Outcomes to record, one row per (project, environment, kind, name): [project, environment, kind, name, action, revision, acknowledged, at]. */
export type DeploymentRecordRow = [project: string, environment: string, kind: string, name: string, action: string, revision: number, acknowledged: boolean, at: string]

const recordKey = (r: DeploymentRecordRow) => `${r[0]}\u0000${r[1]}\u0000${r[2]}\u0000${r[3]}`

/** The rows recording what every environment answered to each message; of one object's messages, the last counts. */
export function deploymentRecordRows(entries: { message: DeployMessage; outcome: DeploymentOutcome }[], at = new Date()): DeploymentRecordRow[] {
  const rows: DeploymentRecordRow[] = []
  for (const { message, outcome } of entries) {
    for (const r of outcome.environmentResults) {
      rows.push([message.project, r.environmentName, message.kind, message.name, message.action, message.revision, r.success, at.toISOString()])
    }
  }
  return rows
}

/** The rows of a batched push (pushMessages): message i acknowledged by an environment when its error is null. */
export function batchRecordRows(messages: DeployMessage[], batch: BatchDeploymentOutcome, at = new Date()): DeploymentRecordRow[] {
  const when = at.toISOString()
  const rows: DeploymentRecordRow[] = []
  messages.forEach((m, i) => {
    for (const r of batch.environmentResults) rows.push([m.project, r.environmentName, m.kind, m.name, m.action, m.revision, r.errors[i] === null, when])
  })
  return rows
}

/**
 * The upsert of recorded outcomes as one statement — or as a data-modifying WITH item of another statement, `when`
 * being a condition of that statement's (the bulk runner writes a chunk's records with its next chunk); null when
 * there is nothing to record. ON CONFLICT may touch a row only once per statement: of rows with the same key the
 * last one given counts.
 */
export function deploymentRecordsSql(given: DeploymentRecordRow[], when: Prisma.Sql = Prisma.sql`TRUE`): Prisma.Sql | null {
  const byKey = new Map<string, DeploymentRecordRow>()
  for (const r of given) byKey.set(recordKey(r), r)
  if (!byKey.size) return null
  const rows = [...byKey.values()]
  const column = <K extends number>(k: K) => rows.map((r) => r[k])
  // one array per column rather than eight parameters per row: a bulk chunk records 200 outcomes at once
  return Prisma.sql`
    INSERT INTO "DeploymentRecord" ("projectName", "environmentName", "kind", "name", "action", "revision", "acknowledged", "at")
    SELECT r.project, r.environment, r.kind, r.name, r.action, r.revision, r.acknowledged, (r.at::timestamptz AT TIME ZONE 'UTC')
      FROM unnest(${column(0)}::text[], ${column(1)}::text[], ${column(2)}::text[], ${column(3)}::text[], ${column(4)}::text[],
                  ${column(5)}::integer[], ${column(6)}::boolean[], ${column(7)}::text[]) AS r(project, environment, kind, name, action, revision, acknowledged, at)
     WHERE ${when}
    ON CONFLICT ("projectName", "environmentName", "kind", "name") DO UPDATE
      SET "action" = EXCLUDED."action", "revision" = EXCLUDED."revision", "acknowledged" = EXCLUDED."acknowledged", "at" = EXCLUDED."at"
      WHERE "DeploymentRecord"."revision" <= EXCLUDED."revision"`
}

/** The deployer a recording deployer wraps, for a caller that records the outcomes itself (deploymentRecordsSql). */
const UNRECORDED = Symbol('unrecorded deployer')

/** The deployer under a recording one (recordingDeployer), or null when this deployer does not record. */
export function unrecordedDeployer(deployer: Deployer): Deployer | null {
  return (deployer as Deployer & { [UNRECORDED]?: Deployer })[UNRECORDED] ?? null
}

/**
 * The deployer every module uses, with each push's outcome recorded. Recording never fails a push: the
 * change is saved and pushed either way, a lost record only makes an environment report less precisely.
 */
export function recordingDeployer<D extends Deployer>(inner: D, db: Tx, logger: Logger): D {
  return {
    ...inner,
    [UNRECORDED]: inner,
    async push(environments, message) {
      const outcome = await inner.push(environments, message)
      try {
        await recordDeployment(db, message, outcome)
      } catch (err) {
        logger.warn({ err, kind: message.kind, name: message.name }, 'deployment outcome not recorded')
      }
      return outcome
    },
    ...(inner.pushMany && {
      async pushMany(environments: DeployEnvironment[], messages: DeployMessage[]) {
        const batch = await inner.pushMany!(environments, messages)
        try {
          await recordDeployments(db, messages.map((message, i) => ({ message, outcome: outcomeOfMessage(batch, message, i) })))
        } catch (err) {
          logger.warn({ err, messages: messages.length }, 'batch deployment outcomes not recorded')
        }
        return batch
      },
    }),
  }
}
