import { useState } from 'preact/hooks'
import {
  ConsoleApiProxiesDocument, ConsoleApiProxyDocument, ConsoleCreateApiProxyDocument, ConsoleDeleteApiProxyDocument,
  ConsoleDeployApiProxyDocument, ConsoleDeploymentOutcomesDocument, ConsoleUndeployApiProxyDocument,
  type ConsoleDeploymentOutcomesSubscription,
} from '../gql/graphql'
import { Link, navigate } from '../router'
import { ErrorBox, Loading, PAGE_SIZE, Pager, SearchBox, Section, SmallForm, Table, useListing, useMutation, useQuery, useSubscription, when } from '../ui'
import { ProxySettings } from './proxy-settings'

export function ApiProxiesPage({ projectName }: { projectName: string }) {
  const list = useListing()
  const q = useQuery(ConsoleApiProxiesDocument, { projectName, page: list.page, size: PAGE_SIZE, search: list.search })
  const create = useMutation(ConsoleCreateApiProxyDocument)
  return (
    <>
      <h1>API proxies</h1>
      <SearchBox label="Search API proxies" onSearch={list.find} />
      {!q.data ? <Loading error={q.error} /> : (
        <>
          <Table caption={`API proxies of ${projectName}`} rowKey={(p) => p.name} rows={q.data.apiProxies.items} columns={[
            ['Name', (p) => <Link href={`/api-proxies/${encodeURIComponent(p.name)}`}>{p.name}</Link>],
            ['Kind', (p) => p.kind],
            ['Path', (p) => p.relativePath ?? '—'],
            ['Revision', (p) => p.revision],
            ['Updated', (p) => when(p.updatedAt)],
          ]} />
          <Pager label="API proxies" page={q.data.apiProxies.page} totalPages={q.data.apiProxies.totalPages} totalElements={q.data.apiProxies.totalElements} onPage={list.setPage} />
        </>
      )}
      <SmallForm title="New API proxy" submitLabel="Create API proxy" error={create.error} busy={create.busy}
        fields={[{ name: 'name', label: 'API proxy name', required: true }]}
        submit={async (v) => {
          const r = await create.run({ projectName, input: { name: v.name } })
          if (r) navigate(`/api-proxies/${encodeURIComponent(r.createApiProxy.name)}`)
          return Boolean(r)
        }} />
    </>
  )
}

type Outcome = ConsoleDeploymentOutcomesSubscription['deploymentOutcomes']

export function ApiProxyPage({ projectName, name }: { projectName: string; name: string }) {
  const q = useQuery(ConsoleApiProxyDocument, { projectName, name })
  const deploy = useMutation(ConsoleDeployApiProxyDocument)
  const undeploy = useMutation(ConsoleUndeployApiProxyDocument)
  const remove = useMutation(ConsoleDeleteApiProxyDocument)
  const [outcomes, setOutcomes] = useState<Record<string, Outcome>>({})
  const [results, setResults] = useState<Record<string, string>>({})
  // each environment's outcome as the pushes and outbox retries report it
  useSubscription(ConsoleDeploymentOutcomesDocument, { projectName }, (d) => {
    const o = d.deploymentOutcomes
    if (o.kind === 'API_PROXY' && (o.name === name || o.name.startsWith(`${name}/`))) setOutcomes((prev) => ({ ...prev, [o.environmentName]: o }))
  })
  if (!q.data) return <Loading error={q.error} />
  const { apiProxy, apiProxyDeployments, apiProxySettings } = q.data
  const act = async (environmentName: string, action: 'deploy' | 'undeploy') => {
    const m = action === 'deploy' ? deploy : undeploy
    const r = await m.run({ projectName, name, environmentName })
    if (!r) return
    const result = 'deployApiProxy' in r ? r.deployApiProxy : r.undeployApiProxy
    setResults((prev) => ({ ...prev, [environmentName]: result.message }))
    q.reload()
  }
  return (
    <>
      <h1>API proxy {apiProxy.name}</h1>
      <p>{apiProxy.kind} · path {apiProxy.relativePath ?? '—'} · revision {apiProxy.revision}{apiProxy.description ? ` · ${apiProxy.description}` : ''}</p>
      <Section title="Deployments">
        <Table caption="Deployment per environment" rowKey={(d) => d.environmentName} rows={apiProxyDeployments} columns={[
          ['Environment', (d) => d.environmentName],
          ['Deployed', (d) => (d.deployed ? (d.redeployRequired ? 'yes (redeploy required)' : 'yes') : 'no')],
          ['Last result', (d) => results[d.environmentName] ?? '—'],
          ['Live outcome', (d) => {
            const o = outcomes[d.environmentName]
            return <span aria-live="polite">{o ? `${o.action} ${o.acknowledged ? 'acknowledged' : 'failed'} (revision ${o.revision}, ${when(o.at)})` : '—'}</span>
          }],
          ['Actions', (d) => (
            <span class="row">
              <button type="button" onClick={() => act(d.environmentName, 'deploy')}>Deploy to {d.environmentName}</button>
              <button type="button" onClick={() => act(d.environmentName, 'undeploy')}>Undeploy from {d.environmentName}</button>
            </span>
          )],
        ]} />
        <ErrorBox error={deploy.error ?? undeploy.error} />
      </Section>
      <Section title="Endpoints">
        <Table caption={`Endpoints (${apiProxy.endpoints.length})`} rowKey={(e) => e.id} rows={apiProxy.endpoints} columns={[
          ['Method', (e) => e.httpMethod],
          ['Path', (e) => e.endpoint],
          ['Version', (e) => e.version],
          ['Backend', (e) => `${e.backendHttpMethod} ${e.backendResourceUrl}`],
          ['Active', (e) => (e.active ? 'yes' : 'no')],
          ['Endpoint policies', (e) => e.policies.map((p) => `${p.pipeline} ${p.order}: ${p.name}`).join(', ') || '—'],
        ]} />
      </Section>
      <Section title="Policies">
        <Table caption="Policies of every endpoint, by pipeline and order" rowKey={(p) => `${p.pipeline}/${p.name}`} rows={apiProxy.policies} columns={[
          ['Pipeline', (p) => p.pipeline],
          ['Order', (p) => p.order],
          ['Name', (p) => p.name],
          ['Type', (p) => p.type],
          ['Active', (p) => (p.active ? 'yes' : 'no')],
        ]} />
      </Section>
      <ProxySettings projectName={projectName} name={name} settings={apiProxySettings as Record<string, unknown>} onSaved={q.reload} />
      <button type="button" class="danger" onClick={async () => {
        if (await remove.run({ projectName, name })) navigate('/api-proxies')
      }}>Delete API proxy</button>
      <ErrorBox error={remove.error} />
    </>
  )
}
