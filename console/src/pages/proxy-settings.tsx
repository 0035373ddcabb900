// The settings pages of an API proxy, each saved by its own typed mutation (updateApiProxy…Settings).
import { useState } from 'preact/hooks'
import { ConsoleUpdateCorsSettingsDocument, ConsoleUpdateHideSpecFileSettingsDocument, ConsoleUpdateRoutingStatusSettingsDocument } from '../gql/graphql'
import { ErrorBox, Section, useMutation } from '../ui'

type Json = Record<string, unknown>
const list = (v: unknown) => (Array.isArray(v) ? v.join(', ') : '')
const items = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean)

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label class="field check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} />
      <span>{label}</span>
    </label>
  )
}

export function ProxySettings({ projectName, name, settings, onSaved }: { projectName: string; name: string; settings: Json; onSaved: () => void }) {
  const cors = (settings.corsSettings ?? {}) as Json
  const routing = (settings.routing ?? {}) as Json
  const [corsActive, setCorsActive] = useState(cors.corsActive === true)
  const [origins, setOrigins] = useState(list(cors.allowOriginList))
  const [methods, setMethods] = useState(list(cors.allowMethodList))
  const [routingEnabled, setRoutingEnabled] = useState(routing.routingEnabled !== false)
  const [hideSpecFile, setHideSpecFile] = useState(settings.hideSpecFile === true)
  const [saved, setSaved] = useState('')
  const saveCors = useMutation(ConsoleUpdateCorsSettingsDocument)
  const saveRouting = useMutation(ConsoleUpdateRoutingStatusSettingsDocument)
  const saveHide = useMutation(ConsoleUpdateHideSpecFileSettingsDocument)
  const done = (what: string) => {
    setSaved(`${what} saved`)
    onSaved()
  }
  return (
    <Section title="Settings">
      {saved ? <p role="status">{saved}</p> : null}
      <form class="card" aria-label="CORS" onSubmit={async (e) => {
        e.preventDefault()
        const input = { name: 'cors', corsActive, allowOriginList: items(origins), ...(items(methods).length ? { allowMethodList: items(methods) } : {}) }
        if (await saveCors.run({ projectName, apiProxyName: name, input })) done('CORS')
      }}>
        <h3>CORS</h3>
        <div class="row">
          <Check label="CORS active" checked={corsActive} onChange={setCorsActive} />
          <label class="field"><span>Allowed origins (comma-separated)</span><input value={origins} onInput={(e) => setOrigins(e.currentTarget.value)} /></label>
          <label class="field"><span>Allowed methods (comma-separated)</span><input value={methods} onInput={(e) => setMethods(e.currentTarget.value)} /></label>
          <button type="submit" disabled={saveCors.busy}>Save CORS</button>
        </div>
        <ErrorBox error={saveCors.error} />
      </form>
      <form class="card" aria-label="Routing status" onSubmit={async (e) => {
        e.preventDefault()
        if (await saveRouting.run({ projectName, apiProxyName: name, input: { routingEnabled } })) done('Routing status')
      }}>
        <h3>Routing status</h3>
        <div class="row">
          <Check label="Routing enabled" checked={routingEnabled} onChange={setRoutingEnabled} />
          <button type="submit" disabled={saveRouting.busy}>Save routing status</button>
        </div>
        <ErrorBox error={saveRouting.error} />
      </form>
      <form class="card" aria-label="Specification file" onSubmit={async (e) => {
        e.preventDefault()
        if (await saveHide.run({ projectName, apiProxyName: name, hideSpecFile })) done('Specification file setting')
      }}>
        <h3>Specification file</h3>
        <div class="row">
          <Check label="Hide the specification file" checked={hideSpecFile} onChange={setHideSpecFile} />
          <button type="submit" disabled={saveHide.busy}>Save specification file setting</button>
        </div>
        <ErrorBox error={saveHide.error} />
      </form>
      <details>
        <summary>Every settings section as stored</summary>
        <pre tabIndex={0}>{JSON.stringify(settings, null, 2)}</pre>
      </details>
    </Section>
  )
}
