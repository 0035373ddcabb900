import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'

// Issue 29: the GraphQL twins of the declarative routes answer what REST answers (same service calls).

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })

const PLAN = `mutation ($projectName: String!, $document: JSON!, $mode: String) {
  createDeclarativePlan(projectName: $projectName, document: $document, mode: $mode) { formatVersion id baseRevision mode changes { action type name fields sensitive } summary { create update delete } } }`
const APPLY = `mutation ($projectName: String!, $planId: String!, $changeReference: String, $idempotencyKey: String) {
  applyDeclarativePlan(projectName: $projectName, planId: $planId, changeReference: $changeReference, idempotencyKey: $idempotencyKey) { applied changeReference summary { create update delete } pushes { type name success } pushFailed } }`
const DRIFT = `query ($projectName: String!) { declarativeDrift(projectName: $projectName) { planId drift { type name status fields changedBy } summary { changed deleted } } }`

describe('declarative GraphQL', { timeout: 180_000 }, () => {
  it('dumps, plans, applies (one audit event per change) and reports drift', async () => {
    const dump = await bed.svc.graphql('query { declarativeState(projectName: "payments", secrets: "refs") }', {}, bed.root)
    expect(dump.body.errors).toBeUndefined()
    const doc = dump.body.data.declarativeState
    expect(doc.credentials.find((c: { username: string }) => c.username === 'shop-frontend').password).toBe('${env:CREDENTIALS_SHOP_FRONTEND_PASSWORD}')

    // the server never resolves a reference: the CLI does
    const unresolved = await bed.svc.graphql(PLAN, { projectName: 'payments', document: doc }, bed.root)
    expect(unresolved.body.errors![0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'declarativeReferenceUnresolved', field: 'document.credentials[0].password' } })

    const document = { formatVersion: 1, project: 'payments', credentials: [{ username: 'gql-app', fullName: 'GraphQL App', password: 'gql-secret-1' }] }
    const plan = await bed.svc.graphql(PLAN, { projectName: 'payments', document }, bed.root)
    expect(plan.body.errors).toBeUndefined()
    expect(plan.body.data.createDeclarativePlan).toMatchObject({
      formatVersion: 1, mode: 'apply', summary: { create: 1, update: 0, delete: 0 },
      changes: [{ action: 'create', type: 'credentials', name: 'gql-app', sensitive: true }],
    })
    expect(JSON.stringify(plan.body)).not.toMatch(/gql-secret-1/)
    const planId = plan.body.data.createDeclarativePlan.id
    const apply = await bed.svc.graphql(APPLY, { projectName: 'payments', planId, changeReference: 'f00d', idempotencyKey: 'k-1' }, bed.root)
    expect(apply.body.errors).toBeUndefined()
    expect(apply.body.data.applyDeclarativePlan).toEqual({
      applied: true, changeReference: 'f00d', summary: { create: 1, update: 0, delete: 0 }, pushes: [{ type: 'credentials', name: 'gql-app', success: true }], pushFailed: false,
    })
    expect(bed.dev.received.map((m) => m.name)).toContain('gql-app')
    // a retry with the same Idempotency-Key answers the first outcome; another key finds the plan applied
    const retry = await bed.svc.graphql(APPLY, { projectName: 'payments', planId, changeReference: 'f00d', idempotencyKey: 'k-1' }, bed.root)
    expect(retry.body.data.applyDeclarativePlan).toEqual(apply.body.data.applyDeclarativePlan)
    const other = await bed.svc.graphql(APPLY, { projectName: 'payments', planId, idempotencyKey: 'k-2' }, bed.root)
    expect(other.body.errors![0].extensions).toMatchObject({ errorKey: 'dependencyConflict', params: { reason: 'declarativePlanAlreadyApplied' } })
    const events = await bed.svc.http('/apiops/projects/payments/audit-events?size=5', { headers: { authorization: `Bearer ${bed.root}` } })
    const items = ((await events.json()) as { items: Record<string, unknown>[] }).items
    // one event, under the mutation's own name, with the plan and the change reference in their own fields
    expect(items.filter((e) => e.declarativePlanId === planId).map((e) => [e.surface, e.operation, e.declarativeAction, e.changeReference, e.objectName]))
      .toEqual([['GRAPHQL', 'applyDeclarativePlan', 'create', 'f00d', 'gql-app']])

    const none = await bed.svc.graphql(DRIFT, { projectName: 'payments' }, bed.root)
    expect(none.body.data.declarativeDrift).toMatchObject({ drift: [], summary: { changed: 0, deleted: 0 } })
    const del = await bed.svc.http('/apiops/projects/payments/credentials/gql-app/', { method: 'DELETE', headers: { authorization: `Bearer ${bed.root}` } })
    expect(del.status).toBe(200)
    const drift = await bed.svc.graphql(DRIFT, { projectName: 'payments' }, bed.root)
    expect(drift.body.data.declarativeDrift).toMatchObject({ drift: [{ type: 'credentials', name: 'gql-app', status: 'deleted' }], summary: { changed: 0, deleted: 1 } })
  })
})
