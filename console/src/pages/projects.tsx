import { ConsoleCreateProjectDocument, ConsoleDeleteProjectDocument, ConsoleProjectsDocument } from '../gql/graphql'
import { ErrorBox, Loading, PAGE_SIZE, Pager, SearchBox, SmallForm, Table, useListing, useMutation, useQuery, when } from '../ui'

export function ProjectsPage({ onChanged }: { onChanged: () => void }) {
  const list = useListing()
  const q = useQuery(ConsoleProjectsDocument, { page: list.page, size: PAGE_SIZE, search: list.search })
  const create = useMutation(ConsoleCreateProjectDocument)
  const remove = useMutation(ConsoleDeleteProjectDocument)
  const changed = () => {
    q.reload()
    onChanged()
  }
  return (
    <>
      <h1>Projects</h1>
      <SearchBox label="Search projects" onSearch={list.find} />
      {!q.data ? <Loading error={q.error} /> : (
        <>
          <Table caption="Projects with their environments and members" rowKey={(p) => p.name} rows={q.data.projects.items} columns={[
            ['Name', (p) => p.name],
            ['Description', (p) => p.description ?? ''],
            ['Environments', (p) => p.environments.map((e) => e.name).join(', ') || '—'],
            ['Members', (p) => (p.members ?? []).map((m) => `${m.username} (${m.permissions.map((x) => `${x.category} ${x.level}`).join(', ')})`).join('; ') || '—'],
            ['Created', (p) => when(p.createdAt)],
            ['Actions', (p) => (
              <button type="button" onClick={async () => {
                if (await remove.run({ name: p.name })) changed()
              }}>Delete project {p.name}</button>
            )],
          ]} />
          <Pager label="Projects" page={q.data.projects.page} totalPages={q.data.projects.totalPages} totalElements={q.data.projects.totalElements} onPage={list.setPage} />
          <ErrorBox error={remove.error} />
        </>
      )}
      <SmallForm title="New project" submitLabel="Create project" error={create.error} busy={create.busy}
        fields={[{ name: 'name', label: 'Project name', required: true }, { name: 'description', label: 'Description' }, { name: 'environments', label: 'Environments (comma-separated)' }]}
        submit={async (v) => {
          const environments = v.environments.split(',').map((s) => s.trim()).filter(Boolean)
          const ok = await create.run({ input: { name: v.name, description: v.description || null, environments } })
          if (ok) changed()
          return Boolean(ok)
        }} />
    </>
  )
}
