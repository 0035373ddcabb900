import { useState } from 'preact/hooks'
import {
  ConsoleCreateEnvironmentVariableDocument, ConsoleDeleteEnvironmentVariableDocument, ConsoleEnvironmentVariablesDocument,
  ConsoleUpdateEnvironmentVariableDocument,
} from '../gql/graphql'
import { ErrorBox, Loading, PAGE_SIZE, Pager, SearchBox, SmallForm, Table, useListing, useMutation, useQuery } from '../ui'

export function EnvVarsPage({ projectName }: { projectName: string }) {
  const list = useListing()
  const q = useQuery(ConsoleEnvironmentVariablesDocument, { projectName, page: list.page, size: PAGE_SIZE, search: list.search })
  const rows = q.data?.environmentVariablesPage.items ?? []
  const create = useMutation(ConsoleCreateEnvironmentVariableDocument)
  const update = useMutation(ConsoleUpdateEnvironmentVariableDocument)
  const remove = useMutation(ConsoleDeleteEnvironmentVariableDocument)
  const [editing, setEditing] = useState<string | null>(null)
  const [status, setStatus] = useState('')
  const value = (v: { global: boolean; globalVisible: boolean; globalValue?: string | null; environmentValueList?: { environmentName: string; value?: string | null; visible: boolean }[] | null }) =>
    v.global ? (v.globalVisible ? v.globalValue ?? '' : '(secret)') : (v.environmentValueList ?? []).map((e) => `${e.environmentName}=${e.visible ? e.value ?? '' : '(secret)'}`).join(', ')
  return (
    <>
      <h1>Environment variables</h1>
      {status ? <p role="status">{status}</p> : null}
      <SearchBox label="Search variables" onSearch={list.find} />
      {!q.data ? <Loading error={q.error} /> : (<>
        <Table caption={`Environment variables of ${projectName}`} rowKey={(v) => v.name} rows={rows} columns={[
          ['Name', (v) => v.name],
          ['Scope', (v) => (v.global ? 'global' : 'per environment')],
          ['Value', value],
          ['Description', (v) => v.description ?? ''],
          ['Actions', (v) => (
            <span class="row">
              {v.global ? <button type="button" onClick={() => setEditing(v.name)}>Edit {v.name}</button> : null}
              <button type="button" onClick={async () => {
                const r = await remove.run({ projectName, name: v.name })
                if (r) {
                  setStatus(`${v.name} deleted: ${r.deleteEnvironmentVariable.message}`)
                  q.reload()
                }
              }}>Delete {v.name}</button>
            </span>
          )],
        ]} />
        <Pager label="Environment variables" page={q.data.environmentVariablesPage.page} totalPages={q.data.environmentVariablesPage.totalPages} totalElements={q.data.environmentVariablesPage.totalElements} onPage={list.setPage} />
      </>)}
      <ErrorBox error={remove.error} />
      {editing && q.data ? (
        <SmallForm key={editing} title={`Edit ${editing}`} submitLabel="Save variable" error={update.error} busy={update.busy}
          fields={[{ name: 'value', label: 'Global value', initial: rows.find((v) => v.name === editing)?.globalValue ?? '' }]}
          submit={async (f) => {
            const r = await update.run({ projectName, name: editing, input: { name: editing, global: true, globalValue: f.value } })
            if (r) {
              setStatus(`${editing} saved: ${r.updateEnvironmentVariable.deploymentResult.message}`)
              setEditing(null)
              q.reload()
            }
            return Boolean(r)
          }} />
      ) : null}
      <SmallForm title="New global variable" submitLabel="Create variable" error={create.error} busy={create.busy}
        fields={[{ name: 'name', label: 'Variable name', required: true }, { name: 'value', label: 'Value', required: true }, { name: 'description', label: 'Description' }]}
        submit={async (f) => {
          const r = await create.run({ projectName, input: { name: f.name, global: true, globalValue: f.value, description: f.description || null } })
          if (r) {
            setStatus(`${f.name} created: ${r.createEnvironmentVariable.deploymentResult.message}`)
            q.reload()
          }
          return Boolean(r)
        }} />
    </>
  )
}
