import { useState } from 'preact/hooks'
import {
  ConsoleApplicationsDocument, ConsoleConsumersDocument, ConsoleCreateApplicationDocument, ConsoleDeleteApplicationDocument,
  ConsoleResumeApplicationDocument, ConsoleSuspendApplicationDocument,
} from '../gql/graphql'
import { ErrorBox, Loading, PAGE_SIZE, Pager, SearchBox, SmallForm, Table, useMutation, useQuery } from '../ui'

export function ApplicationsPage({ projectName }: { projectName: string }) {
  const [page, setPage] = useState(0)
  const [search, setSearch] = useState('')
  const q = useQuery(ConsoleApplicationsDocument, { projectName, page, size: PAGE_SIZE, search: search || null })
  const create = useMutation(ConsoleCreateApplicationDocument)
  const suspend = useMutation(ConsoleSuspendApplicationDocument)
  const resume = useMutation(ConsoleResumeApplicationDocument)
  const remove = useMutation(ConsoleDeleteApplicationDocument)
  return (
    <>
      <h1>Applications</h1>
      <SearchBox label="Search applications" onSearch={(s) => { setSearch(s); setPage(0) }} />
      {!q.data ? <Loading error={q.error} /> : (
        <>
          <Table caption={`Applications of ${projectName}`} rowKey={(a) => a.applicationKey} rows={q.data.applications.items} columns={[
            ['Name', (a) => a.name],
            ['Status', (a) => a.appStatus],
            ['Kind', (a) => a.applicationKind],
            ['Organization', (a) => a.organizationCode ?? '—'],
            ['Actions', (a) => (
              <span class="row">
                {a.appStatus === 'SUSPENDED' ? (
                  <button type="button" onClick={async () => { if (await resume.run({ projectName, applicationKey: a.applicationKey })) q.reload() }}>Resume {a.name}</button>
                ) : (
                  <button type="button" onClick={async () => { if (await suspend.run({ projectName, applicationKey: a.applicationKey })) q.reload() }}>Suspend {a.name}</button>
                )}
                <button type="button" onClick={async () => { if (await remove.run({ projectName, name: a.name })) q.reload() }}>Delete {a.name}</button>
              </span>
            )],
          ]} />
          <Pager label="Applications" page={q.data.applications.page} totalPages={q.data.applications.totalPages} totalElements={q.data.applications.totalElements} onPage={setPage} />
        </>
      )}
      <ErrorBox error={suspend.error ?? resume.error ?? remove.error} />
      <SmallForm title="New application" submitLabel="Create application" error={create.error} busy={create.busy}
        fields={[{ name: 'name', label: 'Application name', required: true }, { name: 'description', label: 'Description' }]}
        submit={async (v) => {
          const r = await create.run({ projectName, input: { name: v.name, description: v.description || null } })
          if (r) q.reload()
          return Boolean(r)
        }} />
    </>
  )
}

export function ConsumersPage({ projectName }: { projectName: string }) {
  const [page, setPage] = useState(0)
  const [search, setSearch] = useState('')
  const q = useQuery(ConsoleConsumersDocument, { projectName, page, size: PAGE_SIZE, search: search || null })
  return (
    <>
      <h1>Consumers</h1>
      <p>Consumers are the credentials seen as identities; create, disable and reset them under Credentials.</p>
      <SearchBox label="Search consumers" onSearch={(s) => { setSearch(s); setPage(0) }} />
      {!q.data ? <Loading error={q.error} /> : (
        <>
          <Table caption={`Consumers of ${projectName}`} rowKey={(c) => c.consumerKey} rows={q.data.consumers.items} columns={[
            ['User name', (c) => c.username],
            ['Full name', (c) => c.fullName ?? ''],
            ['Email', (c) => c.email ?? ''],
            ['Enabled', (c) => (c.enabled ? 'yes' : 'no')],
            ['Organization', (c) => c.organizationCode ?? '—'],
          ]} />
          <Pager label="Consumers" page={q.data.consumers.page} totalPages={q.data.consumers.totalPages} totalElements={q.data.consumers.totalElements} onPage={setPage} />
        </>
      )}
    </>
  )
}
