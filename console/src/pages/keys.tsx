import { useState } from 'preact/hooks'
import {
  ConsoleCreateConnectionDocument, ConsoleDeleteCertificateDocument, ConsoleDeleteConnectionDocument, ConsoleDeleteCryptoKeyDocument, ConsoleDeleteKeyStoreDocument,
  ConsoleKeysDocument, ConsoleTestConnectionDocument,
} from '../gql/graphql'
import { ErrorBox, Loading, PAGE_SIZE, Pager, SearchBox, Section, SmallForm, Table, useListing, useMutation, useQuery } from '../ui'

export function KeysPage({ projectName }: { projectName: string }) {
  // one request for the page: each list's page and search are variables of the one query
  const keys = useListing()
  const certificates = useListing()
  const connections = useListing()
  const q = useQuery(ConsoleKeysDocument, {
    projectName, size: PAGE_SIZE, keysPage: keys.page, keysSearch: keys.search, certificatesPage: certificates.page,
    certificatesSearch: certificates.search, connectionsPage: connections.page, connectionsSearch: connections.search,
  })
  const test = useMutation(ConsoleTestConnectionDocument)
  const create = useMutation(ConsoleCreateConnectionDocument)
  const removeConnection = useMutation(ConsoleDeleteConnectionDocument)
  const removeKey = useMutation(ConsoleDeleteCryptoKeyDocument)
  const removeCertificate = useMutation(ConsoleDeleteCertificateDocument)
  const removeKeyStore = useMutation(ConsoleDeleteKeyStoreDocument)
  const [tested, setTested] = useState<Record<string, string>>({})
  if (!q.data) return <><h1>Keys and connections</h1><Loading error={q.error} /></>
  const { cryptoKeysPage, certificatesPage, keyStores, connectionsPage } = q.data
  return (
    <>
      <h1>Keys and connections</h1>
      <Section title="Keys">
        <SearchBox label="Search keys" button="Search keys" onSearch={keys.find} />
        <Table caption="Crypto keys" rowKey={(k) => k.name} rows={cryptoKeysPage.items} columns={[
          ['Name', (k) => k.name],
          ['Type', (k) => k.keyType ?? '—'],
          ['Per environment', (k) => k.cryptoKeyInfoEnvironmentList.map((e) => `${e.environmentName}: ${e.keyAlgorithm ?? ''} ${e.keySize ?? ''}${e.privateKeyPresent ? ' (private)' : ''}`).join('; ')],
          ['Actions', (k) => <button type="button" onClick={async () => { if (await removeKey.run({ projectName, name: k.name })) q.reload() }}>Delete key {k.name}</button>],
        ]} />
        <Pager label="Keys" page={cryptoKeysPage.page} totalPages={cryptoKeysPage.totalPages} totalElements={cryptoKeysPage.totalElements} onPage={keys.setPage} />
        <ErrorBox error={removeKey.error} />
      </Section>
      <Section title="Certificates">
        <SearchBox label="Search certificates" button="Search certificates" onSearch={certificates.find} />
        <Table caption="Certificates" rowKey={(c) => c.name} rows={certificatesPage.items} columns={[
          ['Name', (c) => c.name],
          ['Description', (c) => c.description],
          ['Per environment', (c) => c.certificateEnvironmentList.map((e) => `${e.environmentName}: ${e.subjectDn ?? ''} until ${e.endDate ?? '?'}${e.expired ? ' (expired)' : ''}`).join('; ')],
          ['Actions', (c) => <button type="button" onClick={async () => { if (await removeCertificate.run({ projectName, name: c.name })) q.reload() }}>Delete certificate {c.name}</button>],
        ]} />
        <Pager label="Certificates" page={certificatesPage.page} totalPages={certificatesPage.totalPages} totalElements={certificatesPage.totalElements} onPage={certificates.setPage} />
        <ErrorBox error={removeCertificate.error} />
      </Section>
      <Section title="Keystores">
        <Table caption="Keystores" rowKey={(k) => k.name} rows={keyStores} columns={[
          ['Name', (k) => k.name],
          ['Description', (k) => k.description],
          ['Environments', (k) => k.keyStoreEnvironmentList.map((e) => e.environmentName).join(', ') || '—'],
          ['Actions', (k) => <button type="button" onClick={async () => { if (await removeKeyStore.run({ projectName, name: k.name })) q.reload() }}>Delete keystore {k.name}</button>],
        ]} />
        <ErrorBox error={removeKeyStore.error} />
      </Section>
      <Section title="Connections">
        <SearchBox label="Search connections" button="Search connections" onSearch={connections.find} />
        <Table caption="Connections" rowKey={(c) => c.name} rows={connectionsPage.items} columns={[
          ['Name', (c) => c.name],
          ['Type', (c) => c.type],
          ['Enabled', (c) => (c.enabled ? 'yes' : 'no')],
          ['Test result', (c) => <span aria-live="polite">{tested[c.name] ?? '—'}</span>],
          ['Actions', (c) => (
            <span class="row">
              <button type="button" onClick={async () => {
                const r = await test.run({ projectName, name: c.name })
                if (r) setTested((t) => ({ ...t, [c.name]: `${r.testConnection.success ? 'OK' : 'Failed'}: ${r.testConnection.message} (${r.testConnection.durationMs} ms)` }))
              }}>Test {c.name}</button>
              <button type="button" onClick={async () => { if (await removeConnection.run({ projectName, name: c.name })) q.reload() }}>Delete connection {c.name}</button>
            </span>
          )],
        ]} />
        <Pager label="Connections" page={connectionsPage.page} totalPages={connectionsPage.totalPages} totalElements={connectionsPage.totalElements} onPage={connections.setPage} />
        <ErrorBox error={test.error ?? removeConnection.error} />
        <SmallForm title="New syslog connection" submitLabel="Create connection" error={create.error} busy={create.busy}
          fields={[{ name: 'name', label: 'Connection name', required: true }, { name: 'host', label: 'Syslog host', required: true }, { name: 'port', label: 'Syslog port', type: 'number', required: true, initial: '514' }]}
          submit={async (v) => {
            const r = await create.run({ projectName, name: v.name, type: 'syslog', config: { syslogProtocolType: 'UDP', syslogServerHostname: v.host, syslogPort: Number(v.port) } })
            if (r) q.reload()
            return Boolean(r)
          }} />
      </Section>
    </>
  )
}
