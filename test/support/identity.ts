// Shared scaffolding of the identity read-surface tests: one service with users of every access level,
// a fresh project per test, and the Common Contract assertions.
import crypto from 'node:crypto'
import { expect } from 'vitest'
import { SYSTEM } from '../../src/platform/auth/actor.js'
import { createOrganization } from '../../src/modules/projects/organizations.js'
import { createProject, setMemberPermissions } from '../../src/modules/projects/projects.js'
import type { TestService } from './app.js'
import { sampleBootstrap } from './fixtures.js'
import { jsonOf } from './http.js'
import { useTestbed } from './testbed.js'

export const unique = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString('hex')}`

/** The identity bootstrap: sampleBootstrap plus erin, a member of payments without any IDENTITY permission. */
function identityBootstrap() {
  const bootstrap = sampleBootstrap({ dev: [] })
  bootstrap.users.push({ username: 'erin', password: 'erin-pass-1' })
  bootstrap.projects[0].members!.push({ username: 'erin', permissions: [{ category: 'AI_DEVELOPMENT', level: 'VIEW' }] })
  return bootstrap
}

/** One service for the file with users of every access level (`bed.root`, `bed.alice`, `bed.carol`, `bed.erin`). */
export const useIdentityTestbed = () =>
  useTestbed({ bootstrap: identityBootstrap, tokens: { root: 's3cret-root', alice: 'alice-pass-1', carol: 'carol-pass-1', erin: 'erin-pass-1' } })

/** A project of its own for a test: carol may view identities, erin may not, alice manages them. */
export async function freshProject(svc: TestService, organizations: string[] = []) {
  const db = svc.deps.prisma
  const name = unique('proj')
  const project = await createProject(db, SYSTEM, { name, environments: ['dev'] })
  await setMemberPermissions(db, SYSTEM, name, 'carol', [{ category: 'IDENTITY', level: 'VIEW' }])
  await setMemberPermissions(db, SYSTEM, name, 'alice', [{ category: 'IDENTITY', level: 'MANAGE' }])
  await setMemberPermissions(db, SYSTEM, name, 'erin', [{ category: 'AI_DEVELOPMENT', level: 'VIEW' }])
  for (const code of organizations) await createOrganization(db, SYSTEM, name, { code, name: code.toUpperCase() })
  return { name, id: project.id }
}

/** The body of a 200 answer (the body is printed when the status is not 200). */
export async function okJson(res: Response) {
  const body = await jsonOf(res)
  expect(res.status, JSON.stringify(body)).toBe(200)
  return body
}
