import type { useTestbed } from '../support/testbed.js'

/** The declarative doors as root of a testbed: a REST call, a plan of a state document, the apply of a plan. */
export function declarativeDoors(bed: Pick<ReturnType<typeof useTestbed>, 'svc' | 'root'>) {
  async function call(method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await bed.svc.http(pathname, { method, headers: { authorization: `Bearer ${bed.root}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers }, body: body ? JSON.stringify(body) : undefined })
    return { status: res.status, body: (await res.json().catch(() => null)) as any }
  }
  const plan = (document: unknown, mode = 'apply', project = 'payments') => call('POST', `/apiops/projects/${project}/declarative-plans`, { mode, document })
  const apply = (id: string, project = 'payments') => call('POST', `/apiops/projects/${project}/declarative-plans/${id}/apply`)
  return { call, plan, apply }
}
