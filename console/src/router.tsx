// Paths below /console, kept in the History API (the session token never goes into a URL).
import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'

const BASE = '/console'
const current = () => location.pathname.slice(BASE.length).replace(/\/$/, '') || '/'

export function navigate(path: string) {
  history.pushState(null, '', BASE + path)
  dispatchEvent(new PopStateEvent('popstate'))
}

export function usePath() {
  const [path, setPath] = useState(current)
  useEffect(() => {
    const on = () => setPath(current())
    addEventListener('popstate', on)
    return () => removeEventListener('popstate', on)
  }, [])
  return path
}

export function Link({ href, children }: { href: string; children: ComponentChildren }) {
  const path = usePath()
  const active = path === href || (href !== '/' && path.startsWith(href + '/'))
  return (
    <a href={BASE + href} aria-current={active ? 'page' : undefined} onClick={(e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey) return
      e.preventDefault()
      navigate(href)
    }}>{children}</a>
  )
}
