// The admin console: sign-in, the shell (navigation landmark, project picker, sign-out) and the pages.
import './style.css'
import { render } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { session, whenSignedOut } from './client'
import { ConsoleLoginDocument, ConsoleLogoutDocument, ConsoleShellDocument } from './gql/graphql'
import { ErrorBox, Field, Loading, useMutation, useQuery } from './ui'
import { navigate, Link, usePath } from './router'
import { ChangePasswordPage } from './pages/password'
import { ProjectsPage } from './pages/projects'
import { ApiProxiesPage, ApiProxyPage } from './pages/apiproxies'
import { CredentialsPage } from './pages/credentials'
import { ApplicationsPage, ConsumersPage } from './pages/applications'
import { ApiClientsPage } from './pages/apiclients'
import { LimitsPage } from './pages/limits'
import { KeysPage } from './pages/keys'
import { EnvVarsPage } from './pages/envvars'
import { AuditPage } from './pages/audit'
import { PlansPage } from './pages/plans'

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const login = useMutation(ConsoleLoginDocument)
  return (
    <main class="signin">
      <h1>Gateway management console</h1>
      <form aria-label="Sign in" onSubmit={async (e) => {
        e.preventDefault()
        const r = await login.run({ username, password })
        if (r) {
          session.set(r.login.token)
          onSignedIn()
        }
      }}>
        <Field label="User name" name="username" required value={username} onInput={setUsername} autoComplete="username" />
        <Field label="Password" name="password" type="password" required value={password} onInput={setPassword} autoComplete="current-password" />
        <button type="submit" disabled={login.busy}>Sign in</button>
        <ErrorBox error={login.error} />
      </form>
    </main>
  )
}

const PROJECT_KEY = 'gateway-console-project'

function Shell({ onSignedOut }: { onSignedOut: () => void }) {
  const path = usePath()
  const shell = useQuery(ConsoleShellDocument, {})
  const logout = useMutation(ConsoleLogoutDocument)
  const [project, setProject] = useState<string | null>(sessionStorage.getItem(PROJECT_KEY))
  const projects = shell.data?.projects.items.map((p) => p.name) ?? []
  const current = project && projects.includes(project) ? project : projects[0] ?? null
  const me = shell.data?.me
  useEffect(() => {
    if (me?.initialPassword && path !== '/password') navigate('/password')
  }, [me?.initialPassword, path])
  if (!shell.data) return <main><Loading error={shell.error} /></main>
  const choose = (name: string) => {
    sessionStorage.setItem(PROJECT_KEY, name)
    setProject(name)
  }
  const signOut = async () => {
    const token = session.token
    if (token) await logout.run({ token })
    session.clear()
    onSignedOut()
  }
  const page = route(path, current)
  return (
    <div class="shell">
      <header class="top">
        <span class="brand">Gateway console</span>
        <label class="picker">
          Project{' '}
          <select value={current ?? ''} onChange={(e) => choose(e.currentTarget.value)}>
            {projects.map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </label>
        <span class="user">Signed in as {me!.username}</span>
        <Link href="/password">Change password</Link>
        <button type="button" onClick={signOut}>Sign out</button>
      </header>
      <nav aria-label="Console">
        <ul>
          <li><Link href="/projects">Projects</Link></li>
          <li><Link href="/api-proxies">API proxies</Link></li>
          <li>
            <Link href="/credentials">Credentials</Link>
            <ul>
              <li><Link href="/applications">Applications</Link></li>
              <li><Link href="/consumers">Consumers</Link></li>
              <li><Link href="/api-clients">API clients</Link></li>
            </ul>
          </li>
          <li><Link href="/limits">Limits</Link></li>
          <li><Link href="/keys">Keys and connections</Link></li>
          <li><Link href="/environment-variables">Environment variables</Link></li>
          <li><Link href="/audit">Audit trail</Link></li>
          <li><Link href="/plans">Plans</Link></li>
        </ul>
      </nav>
      <main>
        {me!.initialPassword && path === '/password' ? (
          <p role="status" class="notice">You are signed in with the initial password of the first run: choose a password of your own.</p>
        ) : null}
        {page}
      </main>
    </div>
  )

  function route(p: string, projectName: string | null) {
    if (p === '/password') return <ChangePasswordPage onChanged={shell.reload} />
    if (p === '/' || p === '/projects') return <ProjectsPage onChanged={shell.reload} />
    if (!projectName) return <p>No project is visible to you yet.</p>
    const proxy = /^\/api-proxies\/(.+)$/.exec(p)
    if (proxy) return <ApiProxyPage key={projectName} projectName={projectName} name={decodeURIComponent(proxy[1])} />
    const pages: Record<string, () => preact.JSX.Element> = {
      '/api-proxies': () => <ApiProxiesPage key={projectName} projectName={projectName} />,
      '/credentials': () => <CredentialsPage key={projectName} projectName={projectName} />,
      '/applications': () => <ApplicationsPage key={projectName} projectName={projectName} />,
      '/consumers': () => <ConsumersPage key={projectName} projectName={projectName} />,
      '/api-clients': () => <ApiClientsPage key={projectName} projectName={projectName} />,
      '/limits': () => <LimitsPage key={projectName} projectName={projectName} />,
      '/keys': () => <KeysPage key={projectName} projectName={projectName} />,
      '/environment-variables': () => <EnvVarsPage key={projectName} projectName={projectName} />,
      '/audit': () => <AuditPage key={projectName} projectName={projectName} />,
      '/plans': () => <PlansPage key={projectName} projectName={projectName} />,
    }
    return pages[p]?.() ?? <p>No such page.</p>
  }
}

function App() {
  const [signedIn, setSignedIn] = useState(Boolean(session.token))
  useEffect(() => whenSignedOut(() => {
    session.clear()
    setSignedIn(false)
  }), [])
  return signedIn ? <Shell onSignedOut={() => setSignedIn(false)} /> : <SignIn onSignedIn={() => setSignedIn(true)} />
}

render(<App />, document.getElementById('app')!)
