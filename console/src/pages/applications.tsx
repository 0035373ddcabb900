import { useState } from 'preact/hooks'
import {
  ConsoleApplicationsDocument, ConsoleConsumersDocument, ConsoleCreateApplicationDocument, ConsoleCreateConsumerDocument, ConsoleDisableConsumerDocument, ConsoleEnableConsumerDocument, ConsoleDeleteApplicationDocument,
  ConsoleResumeApplicationDocument, ConsoleSuspendApplicationDocument,
} from '../gql/graphql'
import { ErrorBox, Loading, PAGE_SIZE, Pager, SearchBox, SmallForm, Table, useListing, useMutation, useQuery } from '../ui'

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
  const list = useListing()
  const q = useQuery(ConsoleConsumersDocument, { projectName, page: list.page, size: PAGE_SIZE, search: list.search })
  const create = useMutation(ConsoleCreateConsumerDocument)
  const disable = useMutation(ConsoleDisableConsumerDocument)
  const enable = useMutation(ConsoleEnableConsumerDocument)
  const [status, setStatus] = useState('')
  return (
    <>
      <h1>Consumers</h1>
      <p>Consumers are the credentials seen as identities; their passwords and tokens are under Credentials.</p>
      {status ? <p role="status">{status}</p> : null}
      <SearchBox label="Search consumers" onSearch={list.find} />
      {!q.data ? <Loading error={q.error} /> : (
        <>
          <Table caption={`Consumers of ${projectName}`} rowKey={(c) => c.consumerKey} rows={q.data.consumers.items} columns={[
            ['User name', (c) => c.username],
            ['Full name', (c) => c.fullName ?? ''],
            ['Email', (c) => c.email ?? ''],
            ['Enabled', (c) => (c.enabled ? 'yes' : 'no')],
            ['Organization', (c) => c.organizationCode ?? '—'],
            ['Actions', (c) => (
              <button type="button" onClick={async () => {
                const r = c.enabled
                  ? (await disable.run({ projectName, consumerKey: c.consumerKey }))?.disableConsumer
                  : (await enable.run({ projectName, consumerKey: c.consumerKey }))?.enableConsumer
                if (r) {
                  setStatus(`${r.consumer.username} ${r.consumer.enabled ? 'enabled' : 'disabled'}: ${r.deploymentResult.message}`)
                  q.reload()
                }
              }}>{c.enabled ? 'Disable' : 'Enable'} consumer {c.username}</button>
            )],
          ]} />
          <Pager label="Consumers" page={q.data.consumers.page} totalPages={q.data.consumers.totalPages} totalElements={q.data.consumers.totalElements} onPage={list.setPage} />
        </>
      )}
      <ErrorBox error={disable.error ?? enable.error} />
      <SmallForm title="New consumer" submitLabel="Create consumer" error={create.error} busy={create.busy}
        fields={[
          { name: 'username', label: 'Consumer user name', required: true },
          { name: 'fullName', label: 'Consumer full name' },
          { name: 'organizationCode', label: 'Organization code' },
        ]}
        submit={async (v) => {
          const r = await create.run({ projectName, input: { username: v.username, fullName: v.fullName || null, organizationCode: v.organizationCode || null } })
          if (r) {
            setStatus(`${r.createConsumer.consumer.username} created: ${r.createConsumer.deploymentResult.message}`)
            q.reload()
          }
          return Boolean(r)
        }} />
    </>
  )
}
