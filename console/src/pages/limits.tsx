import { useState } from 'preact/hooks'
import {
  ConsoleBulkProgressDocument, ConsoleCancelBulkDocument, ConsoleCreateLimitPlanDocument, ConsoleDeleteLimitPlanDocument, ConsoleLimitsDocument,
  ConsolePreviewBulkDocument, ConsolePublishLimitPlanRevisionDocument, ConsoleStartBulkDocument,
  type ConsoleBulkRunFragment, type ConsolePreviewBulkMutation, type LimitBulkInput,
} from '../gql/graphql'
import { ErrorBox, Loading, PAGE_SIZE, Pager, Section, SmallForm, Table, useMutation, useQuery, useSubscription, when } from '../ui'

const key = () => crypto.randomUUID()
const TERMINAL = ['SUCCESS', 'PARTIAL', 'FAILED', 'CANCELLED', 'INTERRUPTED', 'LICENSE_REVOKED']

export function LimitsPage({ projectName }: { projectName: string }) {
  const [page, setPage] = useState(0)
  const q = useQuery(ConsoleLimitsDocument, { projectName, page, size: PAGE_SIZE })
  const create = useMutation(ConsoleCreateLimitPlanDocument)
  const publish = useMutation(ConsolePublishLimitPlanRevisionDocument)
  const remove = useMutation(ConsoleDeleteLimitPlanDocument)
  if (!q.data) return <><h1>Limits</h1><Loading error={q.error} /></>
  const { limitPlans, limitAssignments, limitBulkRuns } = q.data
  return (
    <>
      <h1>Limits</h1>
      <Section title="Limit plans">
        <Table caption="Limit plans with their revisions" rowKey={(p) => p.planKey} rows={limitPlans.items} columns={[
          ['Plan', (p) => p.name],
          ['Key', (p) => p.planKey],
          ['Family', (p) => p.family],
          ['Lifecycle', (p) => p.lifecycle],
          ['Revisions', (p) => p.revisions.map((r) => `${r.revision} ${r.status}${r.publishedAt ? ` (${when(r.publishedAt)})` : ''}`).join('; ')],
          ['Actions', (p) => {
            const draft = p.revisions.find((r) => r.status === 'DRAFT')
            return (
              <span class="row">
                {draft ? (
                  <button type="button" onClick={async () => { if (await publish.run({ projectName, planKey: p.planKey, revision: draft.revision, changeReason: 'published from the console' })) q.reload() }}>Publish revision {draft.revision} of {p.name}</button>
                ) : null}
                <button type="button" onClick={async () => { if (await remove.run({ projectName, planKey: p.planKey })) q.reload() }}>Delete plan {p.name}</button>
              </span>
            )
          }],
        ]} />
        <Pager label="Limit plans" page={limitPlans.page} totalPages={limitPlans.totalPages} totalElements={limitPlans.totalElements} onPage={setPage} />
        <ErrorBox error={publish.error ?? remove.error} />
        <SmallForm title="New request-rate plan" submitLabel="Create plan" error={create.error} busy={create.busy}
          fields={[{ name: 'name', label: 'Plan name', required: true }, { name: 'count', label: 'Requests per minute', type: 'number', required: true, initial: '100' }]}
          submit={async (v) => {
            const r = await create.run({ projectName, idempotencyKey: key(), input: { name: v.name, family: 'REQUEST_RATE', initialRuleSpec: { requestRate: { windows: [{ permittedMessageCount: Number(v.count), interval: 'ONE_MINUTE' }] } } } })
            if (r) q.reload()
            return Boolean(r)
          }} />
      </Section>
      <Section title="Assignments">
        <Table caption={`Assignments (${limitAssignments.totalElements} in all, newest 20)`} rowKey={(a) => a.bindingKey} rows={limitAssignments.items} columns={[
          ['Subject', (a) => `${a.subject.type} ${a.subject.key ?? ''}`],
          ['Target', (a) => `${a.target.type} ${a.target.targetKey ?? ''}`],
          ['Family', (a) => a.family],
          ['Mode', (a) => `${a.mode} ${a.planKeys.join(', ')}`],
          ['Status', (a) => a.status],
          ['Source', (a) => a.source],
        ]} />
      </Section>
      <BulkRuns projectName={projectName} plans={limitPlans.items.filter((p) => p.currentPublishedRevision > 0)} runs={limitBulkRuns.items} onChanged={q.reload} />
    </>
  )
}

function BulkRuns({ projectName, plans, runs, onChanged }: { projectName: string; plans: { planKey: string; name: string; family: string }[]; runs: ConsoleBulkRunFragment[]; onChanged: () => void }) {
  const [subjectType, setSubjectType] = useState('CONSUMER')
  const [search, setSearch] = useState('')
  const [planKey, setPlanKey] = useState('')
  const [preview, setPreview] = useState<ConsolePreviewBulkMutation['previewLimitBulkAssignment'] | null>(null)
  const [run, setRun] = useState<ConsoleBulkRunFragment | null>(null)
  const previewer = useMutation(ConsolePreviewBulkDocument)
  const starter = useMutation(ConsoleStartBulkDocument)
  const canceller = useMutation(ConsoleCancelBulkDocument)
  const plan = plans.find((p) => p.planKey === planKey) ?? plans[0]
  const input = (): LimitBulkInput => ({
    selector: { subjectType, search: search || null },
    content: { family: plan?.family ?? 'REQUEST_RATE', mode: 'PLAN', planKeys: plan ? [plan.planKey] : [] },
  })
  // the run as it is now, then after every change, until a terminal status
  const live = useSubscription(ConsoleBulkProgressDocument, run ? { runId: run.runId } : null, (d) => {
    setRun(d.limitBulkRunProgress)
    if (TERMINAL.includes(d.limitBulkRunProgress.runStatus)) onChanged()
  })
  return (
    <Section title="Bulk runs">
      <form class="card" aria-label="Bulk assignment" onSubmit={async (e) => {
        e.preventDefault()
        const r = await previewer.run({ projectName, input: input() })
        if (r) setPreview(r.previewLimitBulkAssignment)
      }}>
        <h3>Assign a plan in bulk</h3>
        <div class="row">
          <label class="field"><span>Subjects</span>
            <select value={subjectType} onChange={(e) => { setSubjectType(e.currentTarget.value); setPreview(null) }}>
              {['CONSUMER', 'API_CLIENT', 'APPLICATION', 'ORGANIZATION'].map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          </label>
          <label class="field"><span>Subjects matching</span>
            <input value={search} onInput={(e) => { setSearch(e.currentTarget.value); setPreview(null) }} />
          </label>
          <label class="field"><span>Plan</span>
            <select value={plan?.planKey ?? ''} onChange={(e) => { setPlanKey(e.currentTarget.value); setPreview(null) }}>
              {plans.map((p) => <option key={p.planKey} value={p.planKey}>{p.name}</option>)}
            </select>
          </label>
          <button type="submit" disabled={previewer.busy}>Preview</button>
        </div>
        <ErrorBox error={previewer.error} />
      </form>
      {preview ? (
        <div class="card" role="region" aria-label="Preview">
          <p>{preview.expectedCount} subjects{preview.estimated ? ' (estimated)' : ''}: {preview.willCreate} to create, {preview.willReplace} to replace, {preview.willSkip} to skip, {preview.licenseBlocked} blocked by the licence.</p>
          <button type="button" disabled={starter.busy} onClick={async () => {
            const r = await starter.run({ projectName, idempotencyKey: key(), input: { ...input(), previewFingerprint: preview.selectorFingerprint, expectedCount: preview.expectedCount } })
            if (r) {
              setRun(r.startLimitBulkRun)
              setPreview(null)
            }
          }}>Start bulk run</button>
          <ErrorBox error={starter.error} />
        </div>
      ) : null}
      {run ? (
        <div class="card" role="region" aria-label="Bulk run progress">
          <p aria-live="polite">Run {run.runId}: {run.runStatus}, phase {run.phase}, {run.processedCount} of {run.expectedCount ?? '?'} processed ({run.createdCount} created, {run.replacedCount} replaced, {run.skippedCount} skipped, {run.failedCount} failed){run.cancelRequested ? ', cancel requested' : ''}</p>
          <progress max={run.expectedCount ?? 1} value={run.processedCount} aria-label="Bulk run progress" />
          {!TERMINAL.includes(run.runStatus) ? (
            <button type="button" onClick={async () => { const r = await canceller.run({ projectName, runId: run.runId }); if (r) setRun(r.cancelLimitBulkRun) }}>Cancel bulk run</button>
          ) : null}
          <ErrorBox error={canceller.error ?? live} />
        </div>
      ) : null}
      <Table caption="Recent bulk runs" rowKey={(r) => r.runId} rows={runs} columns={[
        ['Run', (r) => r.runId],
        ['Kind', (r) => r.kind],
        ['Status', (r) => r.runStatus],
        ['Processed', (r) => `${r.processedCount} of ${r.expectedCount ?? '?'}`],
        ['Started', (r) => when(r.startedAt)],
      ]} />
    </Section>
  )
}
