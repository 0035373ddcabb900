import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { jsonOf } from '../support/http.js'

// AI budget saves merge the stored override lists (an absent list keeps the stored one): concurrent PUTs on
// one target are serialised, so none works from a stale read and drops what another saved (issue 11 §6).

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })

const call = (method: string, path: string, body: unknown) =>
  bed.svc.http(path, { method, headers: { authorization: `Bearer ${bed.root}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('concurrent AI budget saves on one target', () => {
  it('serialise: every answer and the stored budget equal the saves applied one after another, so no entry is lost', async () => {
    const PER_LIST = 8
    const providerIds: string[] = []
    for (let i = 0; i < PER_LIST; i++) {
      const res = await call('POST', `/apiops/projects/payments/llm-providers/race-${i}/`, { _class: 'llm', name: `race-${i}`, providerType: 'OPENAI' })
      expect(res.status).toBe(200)
      providerIds.push((await jsonOf(res)).resultList[0].id)
    }
    const targetId = (await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'orders-api' } })).id
    const target = { targetType: 'API_PROXY', targetId }

    // each save replaces ONE list and leaves the other absent (kept from what is stored), interleaved
    const saves = Array.from({ length: PER_LIST }, (_, i) => [
      { modelBudgets: [{ modelId: `model-${i}`, tokensPerDay: i + 1 }] },
      { providerBudgets: [{ providerRef: providerIds[i], tokensPerMonth: i + 1 }] },
    ]).flat()
    const answers = await Promise.all(saves.map(async (lists) => {
      const res = await call('PUT', '/apiops/projects/payments/ai-budgets/', { ...target, budget: { enabled: true, ...lists } })
      expect(res.status, await res.clone().text()).toBe(200)
      return { lists, saved: (await jsonOf(res)).resultList[0] }
    }))

    // the revisions order the saves; replaying them serially must give each answer and the final row
    const byRevision = [...answers].sort((a, b) => a.saved.revision - b.saved.revision)
    expect(byRevision.map((a) => a.saved.revision)).toEqual(saves.map((_, i) => i + 1))
    let models: string[] = []
    let providers: string[] = []
    for (const { lists, saved } of byRevision) {
      if (lists.modelBudgets) models = lists.modelBudgets.map((e) => e.modelId)
      if (lists.providerBudgets) providers = lists.providerBudgets.map((e) => e.providerRef)
      expect(saved.budget.modelBudgets.map((e: any) => e.modelId), `revision ${saved.revision}`).toEqual(models)
      expect(saved.budget.providerBudgets.map((e: any) => e.providerRef), `revision ${saved.revision}`).toEqual(providers)
    }
    const row = await bed.svc.deps.prisma.aiBudget.findUniqueOrThrow({ where: { targetType_targetId: { targetType: 'API_PROXY', targetId } } })
    const stored = row.budget as { modelBudgets: { modelId: string }[]; providerBudgets: { providerRef: string }[] }
    expect(row.revision).toBe(saves.length)
    expect(stored.modelBudgets.map((e) => e.modelId)).toEqual(models)
    expect(stored.providerBudgets.map((e) => e.providerRef)).toEqual(providers)
    // both lists hold the entry of their last save: neither was overwritten by a stale read of the other
    expect(models).toHaveLength(1)
    expect(providers).toHaveLength(1)
  })
})
