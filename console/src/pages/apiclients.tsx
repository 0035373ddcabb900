import { useState } from 'preact/hooks'
import {
  ConsoleActivateApiClientDocument, ConsoleApiClientsDocument, ConsoleDeleteApiClientDocument, ConsoleRegisterApiClientDocument,
  ConsoleRotateApiClientSecretDocument, ConsoleSuspendApiClientDocument,
} from '../gql/graphql'
import { ErrorBox, Loading, PAGE_SIZE, Pager, SearchBox, SecretOnce, SmallForm, Table, useListing, useMutation, useQuery } from '../ui'

export function ApiClientsPage({ projectName }: { projectName: string }) {
  const list = useListing()
  const q = useQuery(ConsoleApiClientsDocument, { projectName, page: list.page, size: PAGE_SIZE, search: list.search })
  const register = useMutation(ConsoleRegisterApiClientDocument)
  const rotate = useMutation(ConsoleRotateApiClientSecretDocument)
  const suspend = useMutation(ConsoleSuspendApiClientDocument)
  const activate = useMutation(ConsoleActivateApiClientDocument)
  const remove = useMutation(ConsoleDeleteApiClientDocument)
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null)
  return (
    <>
      <h1>API clients</h1>
      {secret ? <SecretOnce label={secret.label} value={secret.value} onDone={() => setSecret(null)} /> : null}
      <SearchBox label="Search API clients" onSearch={list.find} />
      {!q.data ? <Loading error={q.error} /> : (
        <>
          <Table caption={`API clients of ${projectName}`} rowKey={(c) => c.apiClientKey} rows={q.data.apiClients.items} columns={[
            ['Name', (c) => c.name],
            ['Client id', (c) => c.clientId],
            ['Owner', (c) => c.applicationName ?? c.credentialUsername ?? '—'],
            ['State', (c) => `${c.operationalState} (${c.readiness})`],
            ['Secret version', (c) => c.materialVersion ?? '—'],
            ['Actions', (c) => (
              <span class="row">
                <button type="button" onClick={async () => {
                  const r = await rotate.run({ apiClientKey: c.apiClientKey })
                  if (r) {
                    if (r.rotateApiClientSecret.clientSecret) setSecret({ label: `New secret of ${c.name}`, value: r.rotateApiClientSecret.clientSecret })
                    q.reload()
                  }
                }}>Rotate secret of {c.name}</button>
                {c.operationalState === 'ACTIVE' ? (
                  <button type="button" onClick={async () => { if (await suspend.run({ apiClientKey: c.apiClientKey })) q.reload() }}>Suspend {c.name}</button>
                ) : (
                  <button type="button" onClick={async () => { if (await activate.run({ apiClientKey: c.apiClientKey })) q.reload() }}>Activate {c.name}</button>
                )}
                <button type="button" onClick={async () => { if (await remove.run({ projectName, apiClientKey: c.apiClientKey })) q.reload() }}>Delete {c.name}</button>
              </span>
            )],
          ]} />
          <Pager label="API clients" page={q.data.apiClients.page} totalPages={q.data.apiClients.totalPages} totalElements={q.data.apiClients.totalElements} onPage={list.setPage} />
        </>
      )}
      <ErrorBox error={rotate.error ?? suspend.error ?? activate.error ?? remove.error} />
      <SmallForm title="Register an API client" submitLabel="Register API client" error={register.error} busy={register.busy}
        fields={[{ name: 'name', label: 'API client name', required: true }, { name: 'applicationName', label: 'Owning application' }, { name: 'consumerUsername', label: 'Or owning consumer' }]}
        submit={async (v) => {
          const r = await register.run({ input: { projectName, name: v.name, applicationName: v.applicationName || null, consumerUsername: v.consumerUsername || null } })
          if (r) {
            if (r.registerApiClient.clientSecret) setSecret({ label: `Secret of ${r.registerApiClient.apiClient.name}`, value: r.registerApiClient.clientSecret })
            q.reload()
          }
          return Boolean(r)
        }} />
    </>
  )
}
