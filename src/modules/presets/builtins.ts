import type { Prisma } from '../../generated/prisma/client.js'
import type { AiPresetFamily } from '../../generated/prisma/enums.js'
import type { Deps } from '../../platform/context.js'
import { canonicalHash } from '../../platform/hashing/canonical.js'
import { mintPublicKey } from '../../platform/keys.js'
import { PLATFORM_PROJECT } from '../../platform/scope/project-scope.js'
import { familyDef } from './families.js'

export interface BuiltinPreset {
  family: AiPresetFamily
  name: string
  description: string
  enabled: boolean
  /** the family's fields, as a client would send them */
  fields: Record<string, unknown>
}

/**
 * The rule pack shipped with the service, seeded into the admin scope at every start. Java regular
 * expressions; every anchor is checked like a client's (a test compiles the whole pack).
 */
export const BUILTIN_PRESETS: BuiltinPreset[] = [
  {
    family: 'DLP', name: 'credit-card-number', enabled: true,
    description: 'Payment card numbers (Visa, Mastercard, American Express, Discover), optionally grouped by spaces or dashes',
    fields: { ruleValue: '\\b(?:4\\d{3}|5[1-5]\\d{2}|2[2-7]\\d{2}|6011|3[47]\\d{2})(?:[ -]?\\d{4}){2}[ -]?\\d{3,4}\\b', action: 'MASK', category: 'FINANCIAL', literalAnchors: [] },
  },
  {
    family: 'DLP', name: 'iban', enabled: true,
    description: 'International Bank Account Numbers: two-letter country code, two check digits, up to 30 alphanumerics',
    fields: { ruleValue: '\\b[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\\b', action: 'MASK', category: 'FINANCIAL', literalAnchors: [] },
  },
  {
    family: 'DLP', name: 'email-address', enabled: true,
    description: 'E-mail addresses',
    fields: { ruleValue: '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}', action: 'MASK', category: 'PII', literalAnchors: ['@'] },
  },
  {
    family: 'DLP', name: 'aws-access-key-id', enabled: true,
    description: 'AWS access key identifiers (long-term keys)',
    fields: { ruleValue: '\\bAKIA[0-9A-Z]{16}\\b', action: 'BLOCK', category: 'CREDENTIALS', literalAnchors: ['AKIA'] },
  },
  {
    family: 'DLP', name: 'github-token', enabled: true,
    description: 'GitHub personal access, OAuth, user-to-server, server-to-server and refresh tokens',
    fields: { ruleValue: '\\bgh[pousr]_[A-Za-z0-9]{36,255}\\b', action: 'BLOCK', category: 'CREDENTIALS', literalAnchors: [] },
  },
  {
    family: 'DLP', name: 'openai-api-key', enabled: true,
    description: 'OpenAI-style secret API keys',
    fields: { ruleValue: '\\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}\\b', action: 'BLOCK', category: 'CREDENTIALS', literalAnchors: ['sk-'] },
  },
  {
    family: 'DLP', name: 'private-key-block', enabled: true,
    description: 'PEM-encoded private keys',
    fields: { ruleValue: '-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----', action: 'BLOCK', category: 'CREDENTIALS', literalAnchors: ['-----BEGIN ', 'PRIVATE KEY-----'] },
  },
  {
    family: 'DLP', name: 'jwt', enabled: true,
    description: 'JSON Web Tokens (three base64url segments, the first two starting with eyJ)',
    fields: { ruleValue: '\\beyJ[A-Za-z0-9_-]{5,}\\.eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{10,}', action: 'MASK', category: 'CREDENTIALS', literalAnchors: ['eyJ', '.eyJ'] },
  },
  {
    family: 'PROMPT_GUARD', name: 'prompt-injection-phrases', enabled: true,
    description: 'Common prompt-injection phrasings that ask the model to drop its instructions',
    fields: {
      denyPatterns: [
        '(?i)\\bignore\\s+(?:all\\s+|any\\s+)?(?:previous|prior|above)\\s+instructions\\b',
        '(?i)\\bdisregard\\s+(?:the\\s+)?system\\s+prompt\\b',
        '(?i)\\byou\\s+are\\s+now\\s+in\\s+developer\\s+mode\\b',
      ],
      action: 'BLOCK',
      inspect: 'USER_MESSAGES',
    },
  },
]

/** What a built-in row holds, validated by its family like any client write. */
export function builtinRow(b: BuiltinPreset) {
  const content = familyDef(b.family).build(b.fields, undefined) as Prisma.InputJsonValue
  return { content, digest: canonicalHash({ description: b.description, enabled: b.enabled, content }) }
}

/**
 * builtinRow of each pack entry, once per process: the pack is constant, and its validation (the regular
 * expressions' translation above all) was most of a start's refresh when a process starts the service again (tests).
 */
const packRows = new Map<BuiltinPreset, ReturnType<typeof builtinRow>>()
function packRow(b: BuiltinPreset) {
  let row = packRows.get(b)
  if (!row) packRows.set(b, (row = builtinRow(b)))
  return row
}

/**
 * Start-up refresh of the rule pack in the admin scope: adds missing built-ins, updates the ones nobody
 * edited, and leaves alone what an administrator overrode or deleted (a deleted built-in stays a
 * tombstone). Built-ins dropped from the pack go away unless overridden, which then become ordinary
 * admin presets. Safe when two instances start together: every write is guarded by what it read.
 */
export async function refreshBuiltinPresets(deps: Pick<Deps, 'prisma' | 'logger'>): Promise<{ created: number; updated: number; retired: number }> {
  const db = deps.prisma
  const platform = await db.project.findUnique({ where: { name: PLATFORM_PROJECT }, select: { id: true } })
  if (!platform) return { created: 0, updated: 0, retired: 0 }
  const rows = await db.aiPreset.findMany({ where: { projectId: platform.id } })
  const byKey = new Map(rows.map((r) => [`${r.family}/${r.nameKey}`, r]))
  const packKeys = new Set(BUILTIN_PRESETS.map((b) => `${b.family}/${b.name.toLowerCase()}`))
  let created = 0
  let updated = 0
  let retired = 0
  // the missing ones in one statement (a fresh database: the whole pack); a row another instance wrote meanwhile is
  // skipped, as before when each was its own statement
  const missing: Prisma.AiPresetCreateManyInput[] = []
  for (const b of BUILTIN_PRESETS) {
    const { content, digest } = packRow(b)
    const row = byKey.get(`${b.family}/${b.name.toLowerCase()}`)
    if (!row) {
      missing.push({
        presetKey: mintPublicKey('prs'), family: b.family, projectId: platform.id, name: b.name, nameKey: b.name.toLowerCase(),
        description: b.description, enabled: b.enabled, content, builtIn: true, builtInDigest: digest,
      })
    } else if (row.builtIn && !row.overridden && !row.deletedAt && row.builtInDigest !== digest) {
      const res = await db.aiPreset.updateMany({
        where: { id: row.id, overridden: false, deletedAt: null, builtInDigest: row.builtInDigest },
        data: { description: b.description, enabled: b.enabled, content, builtInDigest: digest, revision: { increment: 1 } },
      })
      updated += res.count
    }
  }
  if (missing.length) created += (await db.aiPreset.createMany({ data: missing, skipDuplicates: true })).count
  for (const row of rows) {
    if (!row.builtIn || packKeys.has(`${row.family}/${row.nameKey}`)) continue
    if (row.overridden && !row.deletedAt) {
      await db.aiPreset.updateMany({ where: { id: row.id, overridden: true }, data: { builtIn: false, builtInDigest: null } })
    } else {
      retired += (await db.aiPreset.deleteMany({ where: { id: row.id, overridden: row.overridden } })).count
    }
  }
  if (created || updated || retired) deps.logger.info({ created, updated, retired }, 'built-in AI presets refreshed')
  return { created, updated, retired }
}
