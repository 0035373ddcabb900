// PREPARE records a run's subjects (issue 19 §5, src/modules/limits/bulk/prepare.ts): a selector the database can
// tell alone (no search, existingAssignment ANY) in one INSERT … SELECT; the others page by page through
// resolveSelector, as the preview does. Both must record the same subjects in the same order with the same counts:
// each selector below is run once the first way, then again with existingAssignment EXISTS (the paged way),
// which selects exactly the subjects the first run bound.
import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { bulkClient, customRate, seedConsumers } from './limit-bulk-helpers.js'

const bed = useTestbed({ workers: ['dev'], tokens: { alice: 'alice-pass-1', root: 's3cret-root' } })

const prisma = () => bed.svc.deps.prisma

/** The run's ledger (subject names in seq order) and counts, once it has finished. */
async function recorded(bulk: ReturnType<typeof bulkClient>, selector: Record<string, unknown>) {
  const { run } = await bulk.previewAndRun({ selector, content: customRate() })
  expect(run.status).toBe(202)
  const done = await bulk.finished(run.body.runId)
  const ledger = await prisma().limitBulkRunSubject.findMany({ where: { run: { runId: done.runId } }, orderBy: { seq: 'asc' } })
  expect(ledger.map((l) => l.seq)).toEqual(ledger.map((_, i) => i))
  return {
    names: ledger.map((l) => l.subjectName),
    counts: { actualCount: done.actualCount, includedSubjectCount: done.includedSubjectCount, excludedSubjectCount: done.excludedSubjectCount },
  }
}

describe('PREPARE in one statement', () => {
  it('records the subjects the paged resolution records, in key order, for every filter and subject type', async () => {
    const eu = await seedConsumers(prisma(), 'payments', 'prep-eu', 12, 'acme-eu')
    const acme = await seedConsumers(prisma(), 'payments', 'prep-acme', 8, 'acme')
    await seedConsumers(prisma(), 'payments', 'prep-none', 5)
    await prisma().credential.updateMany({ where: { username: { in: [eu[3], acme[0]] } }, data: { enabled: false } })
    const bulk = bulkClient(bed.svc.http, bed.alice)
    const cases: [Record<string, unknown>, string[]][] = [
      // organization with its sub-organizations, enabled only, one key excluded (and one unknown to the selection)
      [{ subjectType: 'CONSUMER', organizationCodes: ['acme'], includeSubOrganizations: true, enabledOnly: true, excludeSubjectKeys: [eu[0], 'prep-none-0001'] },
        [...acme.slice(1), ...eu.filter((n) => n !== eu[0] && n !== eu[3]), 'shop-frontend'].sort()],
      // the organization alone
      [{ subjectType: 'CONSUMER', organizationCodes: ['acme-eu'] }, eu],
      // a list of keys, one of them excluded
      [{ subjectType: 'CONSUMER', subjectKeys: ['prep-none-0003', 'prep-none-0001', 'prep-acme-0002', 'prep-none-0001'], excludeSubjectKeys: ['prep-acme-0002'] },
        ['prep-none-0001', 'prep-none-0003']],
      // enabledOnly per type: an organization suspended or tombstoned is left out, an ACTIVE client and application kept
      [{ subjectType: 'ORGANIZATION', enabledOnly: true }, ['acme', 'acme-eu']],
      [{ subjectType: 'ORGANIZATION' }, ['acme', 'acme-eu', 'frozen', 'gone']],
      [{ subjectType: 'API_CLIENT', enabledOnly: true }, ['checkout-web-id']],
      [{ subjectType: 'APPLICATION', enabledOnly: true, organizationCodes: ['acme'] }, ['checkout']],
    ]
    for (const [selector, expected] of cases) {
      const together = await recorded(bulk, selector)
      expect(together.names, JSON.stringify(selector)).toEqual(expected)
      const paged = await recorded(bulk, { ...selector, existingAssignment: 'EXISTS' })
      expect(paged).toEqual(together)
    }
  })

  it('a subject key or organization gone before PREPARE fails the run as the paged resolution does, nothing recorded', async () => {
    const other = await prisma().project.findUniqueOrThrow({ where: { name: 'other' } })
    const org = await prisma().organization.create({ data: { projectId: other.id, code: 'short-lived', name: 'Short lived' } })
    await seedConsumers(prisma(), 'other', 'prep-other', 3, 'short-lived')
    await seedConsumers(prisma(), 'payments', 'prep-held', 1)
    const bulk = bulkClient(bed.svc.http, bed.alice)
    const rootOther = bulkClient(bed.svc.http, bed.root, 'other')
    // a run of payments holds the runner (its worker holds its answers): the runs of other wait QUEUED meanwhile
    bed.dev.hold()
    const queued: string[] = []
    try {
      const held = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', subjectKeys: ['prep-held-0001'] }, content: customRate(7) })
      await bed.dev.holding()
      for (const selector of [{ subjectType: 'CONSUMER', organizationCodes: ['short-lived'] }, { subjectType: 'CONSUMER', subjectKeys: ['prep-other-0002'] }]) {
        const { run } = await rootOther.previewAndRun({ selector, content: customRate() })
        expect(run.status).toBe(202)
        queued.push(run.body.runId)
        // one active run per project: the next one is queued once this one has finished
        if (queued.length === 1) {
          await prisma().credential.updateMany({ where: { organizationId: org.id }, data: { organizationId: null } })
          await prisma().organization.delete({ where: { id: org.id } })
          bed.dev.release()
          await bulk.finished(held.run.body.runId)
          expect(await rootOther.finished(run.body.runId)).toMatchObject({ runStatus: 'FAILED', messageKey: 'resourceNotFound', messageParams: { organization: 'short-lived' } })
          bed.dev.hold()
          await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', subjectKeys: ['prep-held-0001'] }, content: customRate(8), conflictPolicy: 'REPLACE' })
          await bed.dev.holding()
        } else {
          await prisma().credential.delete({ where: { username: 'prep-other-0002' } })
        }
      }
    } finally {
      bed.dev.release()
    }
    expect(await rootOther.finished(queued[1])).toMatchObject({ runStatus: 'FAILED', messageKey: 'resourceNotFound', messageParams: { subject: 'prep-other-0002', missingCount: 1 } })
    for (const runId of queued) {
      expect(await prisma().limitBulkRunSubject.count({ where: { run: { runId } } })).toBe(0)
    }
  })
})
