import { useState } from 'preact/hooks'
import {
  ConsoleCreateCredentialDocument, ConsoleCredentialsDocument, ConsoleDeleteCredentialDocument, ConsoleResetCredentialSecretDocument,
  ConsoleResetCredentialTokenDocument, ConsoleUpdateCredentialDocument,
} from '../gql/graphql'
import { ErrorBox, Loading, PAGE_SIZE, Pager, SearchBox, SecretOnce, SmallForm, Table, useListing, useMutation, useQuery } from '../ui'

export function CredentialsPage({ projectName }: { projectName: string }) {
  // the list pages and searches in the database (credentialsPage)
  const list = useListing()
  const q = useQuery(ConsoleCredentialsDocument, { projectName, page: list.page, size: PAGE_SIZE, search: list.search })
  const rows = q.data?.credentialsPage.items ?? []
  const resetSecret = useMutation(ConsoleResetCredentialSecretDocument)
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null)
  const create = useMutation(ConsoleCreateCredentialDocument)
  const update = useMutation(ConsoleUpdateCredentialDocument)
  const reset = useMutation(ConsoleResetCredentialTokenDocument)
  const remove = useMutation(ConsoleDeleteCredentialDocument)
  const [editing, setEditing] = useState<string | null>(null)
  const [status, setStatus] = useState('')
  const rowError = update.error ?? reset.error ?? resetSecret.error ?? remove.error
  return (
    <>
      <h1>Credentials</h1>
      {status ? <p role="status">{status}</p> : null}
      {secret ? <SecretOnce label={secret.label} value={secret.value} onDone={() => setSecret(null)} /> : null}
      <SearchBox label="Search credentials" onSearch={list.find} />
      {!q.data ? <Loading error={q.error} /> : (<>
        <Table caption={`Credentials of ${projectName}`} rowKey={(c) => c.username} rows={rows} columns={[
          ['User name', (c) => c.username],
          ['Full name', (c) => c.fullName ?? ''],
          ['Email', (c) => c.email ?? ''],
          ['State', (c) => (c.enabled ? 'enabled' : 'disabled')],
          ['Password', (c) => (c.passwordSet ? 'set' : 'none')],
          ['Organization', (c) => c.organizationCode ?? '—'],
          ['Actions', (c) => (
            <span class="row">
              <button type="button" onClick={() => setEditing(c.username)}>Edit {c.username}</button>
              <button type="button" onClick={async () => {
                const r = await update.run({ projectName, username: c.username, input: { enabled: !c.enabled } })
                if (r) {
                  setStatus(`${c.username} ${r.updateCredential.credential.enabled ? 'enabled' : 'disabled'}: ${r.updateCredential.deploymentResult.message}`)
                  q.reload()
                }
              }}>{c.enabled ? 'Disable' : 'Enable'} {c.username}</button>
              <button type="button" onClick={async () => {
                const r = await reset.run({ projectName, username: c.username })
                if (r) setStatus(`Token settings of ${c.username} reset: ${r.resetCredentialToken.deploymentResult.message}`)
              }}>Reset token of {c.username}</button>
              <button type="button" onClick={async () => {
                const r = await resetSecret.run({ projectName, username: c.username })
                if (r) {
                  setSecret({ label: `New password of ${c.username}`, value: r.resetCredentialSecret.secret })
                  setStatus(`New password of ${c.username}: ${r.resetCredentialSecret.deploymentResult.message}`)
                  q.reload()
                }
              }}>New password for {c.username}</button>
              <button type="button" onClick={async () => {
                if (await remove.run({ projectName, username: c.username })) {
                  setStatus(`${c.username} deleted`)
                  q.reload()
                }
              }}>Delete {c.username}</button>
            </span>
          )],
        ]} />
        <Pager label="Credentials" page={q.data.credentialsPage.page} totalPages={q.data.credentialsPage.totalPages} totalElements={q.data.credentialsPage.totalElements} onPage={list.setPage} />
      </>)}
      <ErrorBox error={rowError} />
      {editing && q.data ? (
        <SmallForm key={editing} title={`Edit credential ${editing}`} submitLabel="Save credential" error={update.error} busy={update.busy}
          fields={[
            { name: 'fullName', label: 'Full name', initial: rows.find((c) => c.username === editing)?.fullName ?? '' },
            { name: 'email', label: 'Email', initial: rows.find((c) => c.username === editing)?.email ?? '' },
          ]}
          submit={async (v) => {
            const r = await update.run({ projectName, username: editing, input: { fullName: v.fullName || null, email: v.email || null } })
            if (r) {
              setEditing(null)
              setStatus(`${editing} saved: ${r.updateCredential.deploymentResult.message}`)
              q.reload()
            }
            return Boolean(r)
          }} />
      ) : null}
      <SmallForm title="New credential" submitLabel="Create credential" error={create.error} busy={create.busy}
        fields={[
          { name: 'username', label: 'Credential user name', required: true },
          { name: 'fullName', label: 'Full name' },
          { name: 'email', label: 'Email' },
          { name: 'password', label: 'Credential password', type: 'password' },
        ]}
        submit={async (v) => {
          const r = await create.run({ projectName, input: { username: v.username, fullName: v.fullName || null, email: v.email || null, password: v.password || null } })
          if (r) {
            setStatus(`${v.username} created: ${r.createCredential.deploymentResult.message}`)
            q.reload()
          }
          return Boolean(r)
        }} />
    </>
  )
}
