import { z } from 'zod'
import { actionObject, checkAction } from './actions.js'
import { definePolicy, enumOf, flag, int, nonEmptyList, optText, requireWhen, text, variable } from './common.js'

// Content family: regex content filters and redaction of sensitive values.

const validRegex = (v: string) => {
  try {
    new RegExp(v.replace(/^\(\?i\)/, ''))
    return true
  } catch {
    return false
  }
}

export const contentFilter = definePolicy({
  type: 'policy-content-filter',
  family: 'content',
  title: 'Content Filter',
  description: 'Blocks messages, or deletes content, matching regular expressions in headers, body or parameters',
  fields: {
    policyContentFilterDefList: nonEmptyList(
      z.looseObject({
        id: z.unknown().optional(),
        name: text(200),
        ruleValue: text(10_000).refine(validRegex, 'must be a valid regular expression'),
        headerActive: flag(),
        bodyActive: flag(),
        paramActive: flag(),
        action: enumOf(['BLOCK', 'DELETE'] as const).nullish(),
        contentType: enumOf(['XML', 'JSON', 'ALL_BODY'] as const).nullish(),
        content: optText(64 * 1024),
      }),
    ),
  },
  refine: (p, ctx) =>
    p.policyContentFilterDefList.forEach((d: { headerActive?: boolean | null; bodyActive?: boolean | null; paramActive?: boolean | null }, i: number) => {
      if (!d.headerActive && !d.bodyActive && !d.paramActive) ctx.addIssue({ code: 'custom', path: ['policyContentFilterDefList', i, 'headerActive'], message: 'one of headerActive, bodyActive or paramActive must be true' })
    }),
})

export const redaction = definePolicy({
  type: 'policy-redaction',
  family: 'content',
  title: 'Redaction',
  description: 'Deletes or modifies sensitive values when a key exists, a key has listed values, or for users and roles',
  fields: {
    redactionDefList: nonEmptyList(
      z.looseObject({
        redactionType: enumOf(['KEY_EXISTENCE', 'KEY_VALUE', 'USER', 'ROLE'] as const),
        keyValueVar: variable.nullish(),
        keyValueListStr: optText(64 * 1024),
        redactionDefDetailList: nonEmptyList(z.looseObject({ orderNum: int(1, 100_000), action: actionObject(['MODIFY', 'DELETE'] as const) })),
      }),
    ),
  },
  refine: (p, ctx) =>
    p.redactionDefList.forEach((d: any, i: number) => {
      const at = ['redactionDefList', i]
      requireWhen(ctx, d.redactionType === 'KEY_EXISTENCE' || d.redactionType === 'KEY_VALUE', d.keyValueVar, [...at, 'keyValueVar'], `is required for ${d.redactionType}`)
      requireWhen(ctx, d.redactionType === 'KEY_VALUE', d.keyValueListStr, [...at, 'keyValueListStr'], 'is required for KEY_VALUE')
      d.redactionDefDetailList.forEach((detail: any, j: number) => checkAction(detail.action, ctx, [...at, 'redactionDefDetailList', j, 'action']))
    }),
})

export const CONTENT = [contentFilter, redaction]
