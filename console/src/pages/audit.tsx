import { useState } from 'preact/hooks'
import { ConsoleAuditEventsDocument, ConsoleAuditTailDocument, type ConsoleAuditEventFragment } from '../gql/graphql'
import { Loading, PAGE_SIZE, Pager, Table, useQuery, useSubscription, when } from '../ui'

export function AuditPage({ projectName }: { projectName: string }) {
  const [page, setPage] = useState(0)
  const [filters, setFilters] = useState({ user: '', objectType: '', operation: '' })
  const [draft, setDraft] = useState(filters)
  const [tail, setTail] = useState(false)
  const [live, setLive] = useState<ConsoleAuditEventFragment[]>([])
  const q = useQuery(ConsoleAuditEventsDocument, { projectName, page, size: PAGE_SIZE, user: filters.user || null, objectType: filters.objectType || null, operation: filters.operation || null })
  // the live tail: one graphql-ws subscription while it is on
  useSubscription(ConsoleAuditTailDocument, tail ? { projectName } : null, (d) => setLive((l) => [d.auditEvents, ...l].slice(0, 200)))
  const columns: [string, (e: ConsoleAuditEventFragment) => string | number][] = [
    ['When', (e) => when(e.at)],
    ['Who', (e) => e.actor],
    ['Operation', (e) => e.operation],
    ['Object', (e) => `${e.objectType ?? ''} ${e.objectName ?? ''}`],
    ['Outcome', (e) => e.outcome],
    ['Surface', (e) => e.surface],
  ]
  return (
    <>
      <h1>Audit trail</h1>
      <form class="card row" aria-label="Audit filters" onSubmit={(e) => { e.preventDefault(); setFilters(draft); setPage(0) }}>
        <label class="field"><span>User</span><input value={draft.user} onInput={(e) => setDraft({ ...draft, user: e.currentTarget.value })} /></label>
        <label class="field"><span>Object type</span><input value={draft.objectType} onInput={(e) => setDraft({ ...draft, objectType: e.currentTarget.value })} /></label>
        <label class="field"><span>Operation</span><input value={draft.operation} onInput={(e) => setDraft({ ...draft, operation: e.currentTarget.value })} /></label>
        <button type="submit">Apply filters</button>
      </form>
      <label class="field inline">
        <input type="checkbox" checked={tail} onChange={(e) => { setTail(e.currentTarget.checked); setLive([]) }} /> Live tail
      </label>
      {tail ? (
        <div aria-live="polite">
          <Table caption={`Live events (${live.length})`} rowKey={(e) => e.id} rows={live} columns={columns} />
        </div>
      ) : null}
      {!q.data ? <Loading error={q.error} /> : (
        <>
          <Table caption={`Audit events of ${projectName}`} rowKey={(e) => e.id} rows={q.data.auditEvents.items} columns={columns} />
          <Pager label="Audit events" page={q.data.auditEvents.page} totalPages={q.data.auditEvents.totalPages} totalElements={q.data.auditEvents.totalElements} onPage={setPage} />
        </>
      )}
    </>
  )
}
