import { automationBootstrap, legacy, PETSTORE, specForm } from '../apiproxies/automation-proxy-support.js'
import type { TestService } from '../support/app.js'

// Shared by the RLCL and report suites: the automation installation plus an analyzer (ana) and two more
// credentials in payments, and a proxy with the Petstore endpoints (GET /pets, POST /pets, GET /pets/{petId}).

export function rlclBootstrap(workers: { dev: string[]; prod: string[] }) {
  const doc = automationBootstrap(workers)
  doc.users.push({ username: 'ana', password: 'ana-pass-1', role: 'ANALYZER' } as (typeof doc.users)[number])
  const payments = doc.projects[0]!
  type Cred = NonNullable<typeof payments.credentials>[number]
  payments.credentials!.push({ username: 'api-user-1', password: 'pw-3', organizationCode: 'acme-eu' } as Cred, { username: 'api-user-2', password: 'pw-4' } as Cred)
  return doc
}

export async function createPetstore(svc: TestService, token: string, name: string) {
  const meta = { apiProxyName: name, apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: [`/${name}`] }, deploy: false }
  const res = await legacy(svc, 'POST', 'payments/apiProxies/file/', token, specForm(meta, { text: JSON.stringify(PETSTORE), name: 'openapi.json' }))
  if (res.status !== 200) throw new Error(JSON.stringify(res.body))
}
