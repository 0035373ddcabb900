// Shared pieces of the console's pages: the data hooks (one request per page for its first data, subscriptions
// for live data), the error box, the pager, tables and small forms.
import type { ComponentChildren, JSX } from 'preact'
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { GqlError, request, subscribe } from './client'
import type { TypedDocumentString } from './gql/graphql'

export const PAGE_SIZE = 20

export function useQuery<R, V>(doc: TypedDocumentString<R, V>, variables: V | null) {
  const [data, setData] = useState<R | null>(null)
  const [error, setError] = useState<GqlError | null>(null)
  const [tick, setTick] = useState(0)
  const key = JSON.stringify(variables)
  useEffect(() => {
    if (variables === null) return
    let live = true
    setError(null)
    request(doc, variables).then(
      (d) => live && setData(d),
      (e: GqlError) => live && setError(e),
    )
    return () => {
      live = false
    }
  }, [key, tick])
  const reload = useCallback(() => setTick((t) => t + 1), [])
  return { data, error, reload, setData }
}

export function useSubscription<R, V>(doc: TypedDocumentString<R, V>, variables: V | null, next: (d: R) => void) {
  const handler = useRef(next)
  handler.current = next
  const [error, setError] = useState<GqlError | null>(null)
  const key = JSON.stringify(variables)
  useEffect(() => {
    if (variables === null) return
    return subscribe(doc, variables, (d) => handler.current(d), setError)
  }, [key])
  return error
}

/**
 * Runs a mutation for a form or button: the error is kept to show, and `then` runs only on success, so a refused
 * mutation changes nothing on screen.
 */
export function useMutation<R, V>(doc: TypedDocumentString<R, V>) {
  const [error, setError] = useState<GqlError | null>(null)
  const [busy, setBusy] = useState(false)
  const run = async (variables: V): Promise<R | null> => {
    setBusy(true)
    setError(null)
    try {
      return await request(doc, variables)
    } catch (e) {
      setError(e instanceof GqlError ? e : new GqlError(String(e)))
      return null
    } finally {
      setBusy(false)
    }
  }
  return { run, error, busy, clearError: () => setError(null) }
}

export function ErrorBox({ error }: { error: GqlError | null }) {
  if (!error) return null
  return (
    <div role="alert" class="error">
      <strong>{error.message}</strong>
      {error.field ? <span> (field: {error.field})</span> : null}
      {error.errorKey ? <span class="muted"> [{error.errorKey}]</span> : null}
    </div>
  )
}

export function Loading({ error }: { error: GqlError | null }) {
  return error ? <ErrorBox error={error} /> : <p aria-busy="true">Loading…</p>
}

export function Pager({ page, totalPages, totalElements, onPage, label }: { page: number; totalPages: number; totalElements: number; onPage: (p: number) => void; label: string }) {
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={page <= 0} onClick={() => onPage(page - 1)}>Previous page</button>
      <span>Page {totalPages ? page + 1 : 0} of {totalPages} ({totalElements} in all)</span>
      <button type="button" disabled={page + 1 >= totalPages} onClick={() => onPage(page + 1)}>Next page</button>
    </nav>
  )
}

/** The page and search of one server-side list: a new search starts again from the first page. */
export function useListing() {
  const [page, setPage] = useState(0)
  const [search, setSearch] = useState('')
  return { page, search: search || null, setPage, find: (text: string) => { setSearch(text); setPage(0) } }
}

export function SearchBox({ label, onSearch, button = 'Search' }: { label: string; onSearch: (text: string) => void; button?: string }) {
  const [text, setText] = useState('')
  return (
    <form role="search" class="row" onSubmit={(e) => { e.preventDefault(); onSearch(text.trim()) }}>
      <label>
        {label} <input type="search" value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      <button type="submit">{button}</button>
    </form>
  )
}

export function Table<T>({ caption, columns, rows, rowKey }: { caption: string; columns: [string, (row: T) => ComponentChildren][]; rows: T[]; rowKey: (row: T) => string }) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>{columns.map(([h]) => <th scope="col" key={h}>{h}</th>)}</tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr><td colSpan={columns.length}>None yet.</td></tr>
        ) : (
          rows.map((r) => <tr key={rowKey(r)}>{columns.map(([h, cell]) => <td key={h}>{cell(r)}</td>)}</tr>)
        )}
      </tbody>
    </table>
  )
}

export function Field({ label, name, type = 'text', required, value, onInput, autoComplete }: { label: string; name: string; type?: string; required?: boolean; value: string; onInput: (v: string) => void; autoComplete?: string }) {
  return (
    <label class="field">
      <span>{label}</span>
      <input name={name} type={type} required={required} value={value} autoComplete={autoComplete} onInput={(e) => onInput(e.currentTarget.value)} />
    </label>
  )
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  )
}

/** A secret shown this once: it is never read back from the service. */
export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  return (
    <div role="status" class="secret">
      <p>{label} (shown this once, copy it now):</p>
      <code>{value}</code>
      <button type="button" onClick={onDone}>I have copied it</button>
    </div>
  )
}

/** A small form of text fields; `submit` gets the values and returns true when the form may reset. */
export function SmallForm({ title, fields, submitLabel, submit, error, busy }: {
  title: string
  fields: { name: string; label: string; type?: string; required?: boolean; initial?: string }[]
  submitLabel: string
  submit: (values: Record<string, string>) => Promise<boolean>
  error: GqlError | null
  busy: boolean
}) {
  const initial = () => Object.fromEntries(fields.map((f) => [f.name, f.initial ?? '']))
  const [values, setValues] = useState<Record<string, string>>(initial)
  const onSubmit = async (e: JSX.TargetedEvent<HTMLFormElement>) => {
    e.preventDefault()
    if (await submit(values)) setValues(initial())
  }
  return (
    <form class="card" aria-label={title} onSubmit={onSubmit}>
      <h3>{title}</h3>
      <div class="row">
        {fields.map((f) => (
          <Field key={f.name} label={f.label} name={f.name} type={f.type} required={f.required} value={values[f.name]} onInput={(v) => setValues({ ...values, [f.name]: v })} />
        ))}
        <button type="submit" disabled={busy}>{submitLabel}</button>
      </div>
      <ErrorBox error={error} />
    </form>
  )
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—')
