import path from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The suite's two workers take the next file from one queue, so the run ends soonest when the longest files start
 * first. Vitest orders by the durations of the previous run, but CI runs in a fresh clone with no such record and
 * falls back to file size; these files (the longest in measured runs, set-up and hooks included, see the README's test
 * section) go first there.
 */
const LONGEST_FIRST = [
  'test/console/console.test.ts',
  'test/bootstrap/bootstrap.test.ts',
  'test/platform/process.test.ts',
  'test/platform/db-outage.test.ts',
  'test/platform/drain.test.ts',
  'test/openapi/vendor-examples.test.ts',
  'test/bootstrap/streamed.test.ts',
  'test/declarative/gwctl-clients-plans.test.ts',
  'test/limits/limit-assignments.test.ts',
  'test/limits/limit-bulk-process.test.ts',
  'test/keys/jwks.test.ts',
  'test/declarative/gwctl.test.ts',
  'test/openapi/typed-client.test.ts',
  'test/platform/multipart-limits.test.ts',
  'test/platform/fuzz-openapi-1.test.ts',
  'test/platform/fuzz-openapi-2.test.ts',
  'test/platform/db.test.ts',
]

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (spec: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/'))
      return i === -1 ? LONGEST_FIRST.length : i
    }
    return sorted.map((spec, i) => ({ spec, i })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i).map((x) => x.spec)
  }
}
