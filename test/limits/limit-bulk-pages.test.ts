// A selection larger than one page of the selector's resolution (SUBJECT_PAGE = 5,000 subjects, read a page at a
// time so that memory stays flat): the preview's counts and sample, and the run's ledger, are those of the whole
// selection in subject-key order, whatever side of a page boundary a subject, an exclusion or a live binding falls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SUBJECT_PAGE } from '../../src/modules/limits/bulk/selector.js'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { bulkClient, customRate, seedConsumers } from './limit-bulk-helpers.js'

let svc: TestService
let alice: string

beforeAll(async () => {
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }) })
  alice = await svc.tokenFor('alice', 'alice-pass-1')
})
afterAll(async () => svc?.close())

const SUBJECTS = SUBJECT_PAGE + 50

describe('a selection of more than one page of subjects', () => {
  it('previews and runs over every page: counts, exclusions and live bindings at the page boundary, ledger in key order', async () => {
    const names = await seedConsumers(svc.deps.prisma, 'payments', 'page', SUBJECTS)
    const bulk = bulkClient(svc.http, alice)
    // live bindings on both sides of the boundary (the 5,000th and 5,001st subjects) and at both ends
    const bound = [names[0], names[SUBJECT_PAGE - 1], names[SUBJECT_PAGE], names[SUBJECTS - 1]]
    const first = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', subjectKeys: bound }, content: customRate() })
    expect((await bulk.finished(first.run.body.runId)).createdCount).toBe(4)

    const excluded = [names[SUBJECT_PAGE - 2], names[SUBJECT_PAGE + 1]]
    const selector = { subjectType: 'CONSUMER', search: 'page-', excludeSubjectKeys: excluded }
    const any = await bulk.preview({ selector, content: customRate() })
    expect(any.body).toMatchObject({
      expectedCount: SUBJECTS - 2, willCreate: SUBJECTS - 6, willSkip: 4, willReplace: 0, licenseBlocked: 0,
      includedSubjectCount: SUBJECTS, excludedSubjectCount: 2, estimated: true,
    })
    expect(any.body.sample).toHaveLength(20)
    expect(any.body.sample[0]).toEqual({ subjectName: names[0], outcome: 'SKIPPED_EXISTING', existingBindingKey: expect.stringMatching(/^lb_/) })
    expect(any.body.sample.slice(1).map((s: { subjectName: string }) => s.subjectName)).toEqual(names.slice(1, 20))
    const exists = await bulk.preview({ selector: { ...selector, existingAssignment: 'EXISTS' }, content: customRate(), conflictPolicy: 'REPLACE' })
    expect(exists.body).toMatchObject({ expectedCount: 4, willReplace: 4, willCreate: 0, includedSubjectCount: SUBJECTS, excludedSubjectCount: 2, estimated: false })
    expect(exists.body.sample.map((s: { subjectName: string }) => s.subjectName)).toEqual(bound)

    const noneSelector = { ...selector, existingAssignment: 'NONE' }
    const { preview, run } = await bulk.previewAndRun({ selector: noneSelector, content: customRate() })
    expect(preview.body).toMatchObject({ expectedCount: SUBJECTS - 6, willCreate: SUBJECTS - 6, includedSubjectCount: SUBJECTS, excludedSubjectCount: 2 })
    const done = await bulk.finished(run.body.runId)
    expect(done).toMatchObject({ runStatus: 'SUCCESS', actualCount: SUBJECTS - 6, createdCount: SUBJECTS - 6, includedSubjectCount: SUBJECTS, excludedSubjectCount: 2 })

    // the ledger: every selected subject once, numbered 0… in key order across the page boundary
    const stored = await svc.deps.prisma.limitBulkRun.findUniqueOrThrow({ where: { runId: run.body.runId } })
    const ledger = await svc.deps.prisma.limitBulkRunSubject.findMany({ where: { runId: stored.id }, orderBy: { seq: 'asc' }, select: { seq: true, subjectName: true } })
    const skipped = new Set([...bound, ...excluded])
    expect(ledger.map((r) => r.subjectName)).toEqual(names.filter((n) => !skipped.has(n)))
    expect(ledger.map((r) => r.seq)).toEqual(ledger.map((_, i) => i))
    expect(await svc.deps.prisma.limitAssignment.count({ where: { credential: { username: { startsWith: 'page-' } }, status: 'ACTIVE' } })).toBe(SUBJECTS - 2)
  }, 120_000)
})
