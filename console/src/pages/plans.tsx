// Declarative plans: the project's state document, edited here, planned against the project (the changes shown),
// then applied (the outcome shown, each push's result). Drift since the last apply is listed first.
import { useState } from 'preact/hooks'
import { GqlError } from '../client'
import { ConsoleApplyPlanDocument, ConsoleCreatePlanDocument, ConsolePlansDocument, type ConsoleApplyPlanMutation, type ConsoleCreatePlanMutation } from '../gql/graphql'
import { ErrorBox, Loading, Section, Table, useMutation, useQuery, when } from '../ui'

type Plan = ConsoleCreatePlanMutation['createDeclarativePlan']
type Applied = ConsoleApplyPlanMutation['applyDeclarativePlan']
const counts = (s: { create: number; update: number; delete: number }) => `${s.create} to create, ${s.update} to update, ${s.delete} to delete`

export function PlansPage({ projectName }: { projectName: string }) {
  const q = useQuery(ConsolePlansDocument, { projectName })
  const create = useMutation(ConsoleCreatePlanDocument)
  const apply = useMutation(ConsoleApplyPlanDocument)
  const [text, setText] = useState<string | null>(null)
  const [mode, setMode] = useState('apply')
  const [parseError, setParseError] = useState<GqlError | null>(null)
  const [plan, setPlan] = useState<Plan | null>(null)
  const [applied, setApplied] = useState<Applied | null>(null)
  if (!q.data) return <><h1>Plans</h1><Loading error={q.error} /></>
  const { declarativeState, declarativeDrift } = q.data
  const documentText = text ?? JSON.stringify(declarativeState, null, 2)
  return (
    <>
      <h1>Plans</h1>
      <Section title="Drift since the last apply">
        <p>{declarativeDrift.planId ? `Last apply ${when(declarativeDrift.appliedAt)} by ${declarativeDrift.appliedBy ?? '—'}.` : 'No plan applied yet.'} {`${declarativeDrift.summary.changed} changed, ${declarativeDrift.summary.deleted} deleted outside the file.`}</p>
        {declarativeDrift.drift.length ? (
          <Table caption="Objects changed outside the file" rowKey={(d) => `${d.type}/${d.name}`} rows={declarativeDrift.drift} columns={[
            ['Collection', (d) => d.type],
            ['Name', (d) => d.name],
            ['Status', (d) => d.status],
            ['Fields', (d) => d.fields.join(', ') || '—'],
            ['By', (d) => d.changedBy ?? '—'],
          ]} />
        ) : null}
      </Section>
      <form class="card" aria-label="State document" onSubmit={async (e) => {
        e.preventDefault()
        setApplied(null)
        let document: unknown
        try {
          document = JSON.parse(documentText)
        } catch (err) {
          setParseError(new GqlError(`The document is not JSON: ${(err as Error).message}`, undefined, 'document'))
          return
        }
        setParseError(null)
        const r = await create.run({ projectName, document, mode })
        if (r) setPlan(r.createDeclarativePlan)
      }}>
        <h2>State document</h2>
        <label class="field">
          <span>State document (JSON)</span>
          <textarea rows={14} spellcheck={false} value={documentText} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <div class="row">
          <label class="field">
            <span>Mode</span>
            <select value={mode} onChange={(e) => setMode(e.currentTarget.value)}>
              <option value="apply">apply (create and update)</option>
              <option value="sync">sync (also delete what the file leaves out)</option>
            </select>
          </label>
          <button type="submit" disabled={create.busy}>Plan changes</button>
        </div>
        <ErrorBox error={parseError ?? create.error} />
      </form>
      {plan ? (
        <section aria-label="Plan" class="card">
          <h2>Plan {plan.id}</h2>
          <p role="status">{counts(plan.summary)} ({plan.mode})</p>
          <Table caption="Changes of the plan" rowKey={(c) => `${c.action}/${c.type}/${c.name}`} rows={plan.changes} columns={[
            ['Action', (c) => c.action],
            ['Collection', (c) => c.type],
            ['Name', (c) => (c.renamedFrom ? `${c.name} (was ${c.renamedFrom})` : c.name)],
            ['Fields', (c) => (c.sensitive ? `${c.fields.join(', ')} (secret)` : c.fields.join(', ')) || '—'],
          ]} />
          <button type="button" disabled={apply.busy || applied !== null} onClick={async () => {
            const r = await apply.run({ projectName, planId: plan.id, idempotencyKey: crypto.randomUUID() })
            if (r) {
              setApplied(r.applyDeclarativePlan)
              q.reload()
            }
          }}>Apply plan</button>
          <ErrorBox error={apply.error} />
        </section>
      ) : null}
      {applied ? (
        <section aria-label="Apply outcome" class="card">
          <h2>Apply outcome</h2>
          <p role="status">{applied.applied ? 'Applied' : 'Not applied'}: {counts(applied.summary).replace(/to /g, '')}{applied.pushFailed ? '; some pushes failed' : ''}</p>
          {applied.advisories.map((a) => <p key={a}>{a}</p>)}
          <Table caption="Pushes to the gateway" rowKey={(p) => `${p.type}/${p.name}`} rows={applied.pushes} columns={[
            ['Collection', (p) => p.type],
            ['Name', (p) => p.name],
            ['Result', (p) => `${p.success ? 'OK' : 'Failed'}${p.message ? `: ${p.message}` : ''}`],
          ]} />
        </section>
      ) : null}
    </>
  )
}
