import type { AddressInfo } from 'node:net'
import type { Config } from './config.js'
import { startAuditRetention } from './platform/audit/recorder.js'
import { startEmbeddedMaintenance } from './platform/db/embedded-maintenance.js'
import { applyBootstrap, CredentialLookAhead, parseBootstrap, readBootstrapFile, StreamedBootstrap } from './bootstrap/apply.js'
import { createApp } from './app.js'
import type { Deps } from './platform/context.js'
import { openDatabase } from './platform/db/database.js'
import { releasePrismaDebugHistory } from './platform/db/prisma-debug.js'
import { startEventBus } from './platform/events/bus.js'
import { createDeployer } from './platform/deploy/pusher.js'
import { recordingDeployer } from './modules/environments/deployment-records.js'
import { outboxSettings, startOutboxDeliverer, type OutboxDeliverer } from './platform/deploy/outbox.js'
import { API_CLIENT_OUTBOX_HANDLERS } from './modules/identity/api-client-runtime.js'
import { chunkOutboxTransports } from './modules/limits/bulk/push.js'
import { startEventWebhooks, WEBHOOK_OUTBOX_HANDLERS, webhookOutboxTransports } from './modules/events/webhooks/service.js'
import { limitBulkRunnerSettings } from './modules/limits/bulk/lease.js'
import { startLimitBulkRunner } from './modules/limits/bulk/runner.js'
import { createLogger, type Logger } from './platform/http/logger.js'
import { createMetrics } from './platform/http/metrics.js'
import { loadKeyring } from './platform/secrets/master-key.js'
import { refreshBuiltinPresets } from './modules/presets/builtins.js'
import { releaseHeap } from './platform/heap-budget.js'
import { setPasswordScryptCost } from './platform/auth/passwords.js'

/** Credentials in a bootstrap file from which start-up returns what the apply allocated (a full collection). */
const LARGE_BOOTSTRAP = 10_000

export interface RunningService {
  url: string
  port: number
  deps: Deps
  /** the embedded database's PostgreSQL wire server, when EMBEDDED_PG_PORT asked for one */
  embeddedPg?: { host: string; port: number }
  /** the retry outbox's deliverer: runOnce() delivers what is due now, without waiting for its next poll */
  outbox: Pick<OutboxDeliverer, 'runOnce'>
  /** drains in-flight requests, then closes the database */
  stop(): Promise<void>
}

/**
 * Start-up order of RUNTIME.md §1: configuration and key → database with migrations → bootstrap → listen.
 * Anything that fails stops start-up with a clear message.
 */
/**
 * Applies the bootstrap file (without one this still creates the platform project, under the same lock). A function
 * of its own so that what reading the file held (the streamed reader, the look-ahead's rows) is out of scope once it
 * returns: a collection run in the caller's frame kept ≈ 180 MB of it alive after a 50,000-credential file.
 */
async function bootstrap(deps: Deps, file: string | undefined) {
  const started = Date.now()
  // a file is read as a stream twice: validated whole first, its credentials then applied in batches
  // (a restart with the same file reads it once: its credentials are looked up as they are validated)
  const lookAhead = new CredentialLookAhead(deps.prisma)
  const source = file ? await readBootstrapFile(file, lookAhead.sink) : parseBootstrap('{}')
  const summary = await applyBootstrap(deps, source, source instanceof StreamedBootstrap ? await lookAhead.stored(source) : undefined)
  // a file of many credentials leaves much behind to let go of; a small one is not worth a full collection
  const largeFile = source instanceof StreamedBootstrap && source.credentialCounts.reduce((n, c) => n + c, 0) >= LARGE_BOOTSTRAP
  return { summary, largeFile, durationMs: Date.now() - started }
}

export async function startService(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningService> {
  const started = Date.now()
  const keyring = loadKeyring(config, logger)
  setPasswordScryptCost(config.passwordScryptCost)
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, embeddedPg: config.embeddedPg, sharedBuffersMb: config.embeddedSharedBuffersMb })
  try {
    const metrics = createMetrics()
    const deps: Deps = {
      prisma: db.prisma,
      keyring,
      logger,
      metrics,
      config,
      deployer: recordingDeployer(createDeployer({ timeoutMs: config.deployTimeoutMs, logger, metrics }), db.prisma, logger),
      events: await startEventBus(db.listen, logger),
    }
    const { summary, largeFile, durationMs } = await bootstrap(deps, config.bootstrapFile)
    if (largeFile && db.reopen) {
      // the embedded database's memory stays at the apply's high-water mark until its thread is replaced
      const reopenStarted = Date.now()
      if (await db.reopen()) logger.info({ durationMs: Date.now() - reopenStarted }, 'embedded database reopened after a large bootstrap file')
    }
    if (config.bootstrapFile) {
      logger.info({ file: config.bootstrapFile, created: summary.created, kept: summary.kept, correlationId: summary.correlationId, durationMs }, 'bootstrap applied')
    }
    const auditRetention = await startAuditRetention(deps)
    await refreshBuiltinPresets(deps) // AI preset rule pack: adds/updates built-ins nobody overrode or deleted
    const app = await createApp(deps)
    if (largeFile) {
      // what start-up allocated (a large file's apply above all) goes back now rather than at the collector's
      // leisure: Prisma's debug history lets go of the apply's statements, then a full collection once the app is
      // built, which also hands the emptied pages back to the system
      await releasePrismaDebugHistory(deps.prisma)
      const before = process.memoryUsage()
      releaseHeap()
      const after = process.memoryUsage()
      const mb = (n: number) => Math.round(n / 1048576)
      logger.debug({ heapUsedMb: [mb(before.heapUsed), mb(after.heapUsed)], heapTotalMb: [mb(before.heapTotal), mb(after.heapTotal)], rssMb: [mb(before.rss), mb(after.rss)] }, 'start-up memory released')
    }
    // one turn of the event loop before the port opens: building the app is synchronous work of a few hundred ms, and a
    // signal that arrived meanwhile is only seen when the loop polls (main.ts then stops once started, as the
    // contract says), not after `listening on` (test/platform/process.test.ts, under load)
    await new Promise<void>((resolve) => setImmediate(resolve))
    await new Promise<void>((resolve, reject) => {
      app.httpServer.once('error', reject)
      app.httpServer.listen(config.port, config.host, resolve)
    })
    const port = (app.httpServer.address() as AddressInfo).port
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
    app.setReady(true)
    // the embedded database has no autovacuum: its tables are vacuumed and analyzed where autovacuum would
    const maintenance = db.maintenance ? startEmbeddedMaintenance(db.maintenance, logger, config.embeddedMaintenanceIntervalMs) : undefined
    // retries of unacknowledged pushes, including rows a previous instance left behind
    const deliverer = startOutboxDeliverer(
      deps,
      outboxSettings(config.outboxPollIntervalMs, config.deployTimeoutMs, { ...API_CLIENT_OUTBOX_HANDLERS, ...WEBHOOK_OUTBOX_HANDLERS }, { ...webhookOutboxTransports(deps), ...chunkOutboxTransports(deps) }),
    )
    // event webhooks: each bus event a webhook subscribes to becomes a delivery the outbox sends
    const eventWebhooks = startEventWebhooks(deps)
    // durable bulk limit runs: interrupts runs whose worker died, then works through queued ones
    const bulkRunner = startLimitBulkRunner(deps, limitBulkRunnerSettings(process.env, config.deployTimeoutMs))
    if (db.wire) logger.info({ embeddedPg: db.wire }, `embedded database served on ${db.wire.host}:${db.wire.port} (PostgreSQL wire protocol)`)
    logger.info({ url, database: db.kind, startupMs: Date.now() - started }, `listening on ${url}`)
    return {
      url,
      port,
      deps,
      embeddedPg: db.wire,
      outbox: { runOnce: deliverer.runOnce },
      stop: async () => {
        // the deliverer finishes its delivery in flight before the database goes away
        auditRetention.stop()
        await Promise.all([app.stop(), deliverer.stop(), bulkRunner.stop(), eventWebhooks.stop(), maintenance?.stop()])
        logger.info('HTTP server drained, outbox deliverer stopped')
        await deps.events?.close()
        await db.close()
        logger.info('database closed')
      },
    }
  } catch (err) {
    await db.close()
    throw err
  }
}
