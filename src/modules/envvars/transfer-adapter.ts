import type { EnvironmentVariable } from '../../generated/prisma/client.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'
import { lookupsByName, type AdapterContext, type Advisory, type PortableObject, type TransferAdapter } from '../../platform/transfer/registry.js'
import { pushDeclaredVariables, writeDeclaredVariable } from './service.js'
import { storedValues } from './values.js'

/**
 * Environment variables (modules/envvars) travel as ENVIRONMENT_VARIABLE objects (category PROJECT_MANAGEMENT, like
 * their pages), named by name. `data` is the body of the create and update without the secret values: description,
 * global, globalVisible, globalValue (a visible one only), environmentValueList sorted by environment name, each entry
 * `{ environmentName, visible, value }` with the value of a visible entry only. Secrets: `globalValue` when the global
 * value is not visible, `environments/<environment>/value` for a secret value of one environment. Writes go through
 * the envvars service's schema and rules (writeDeclaredVariable); pushes as its REST writes push.
 */
const TYPE = 'ENVIRONMENT_VARIABLE'
const ENV_PREFIX = 'environments/'
export const environmentSecretKey = (environment: string) => `${ENV_PREFIX}${environment}/value`

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)
const byEnvironment = (a: unknown, b: unknown) => String((a as Record<string, unknown>)?.environmentName).localeCompare(String((b as Record<string, unknown>)?.environmentName))

/** One environment entry as compared: visible defaults to false as the body's does; a secret's value is never data. */
function portableEntry(e: Record<string, unknown>): Record<string, unknown> {
  const visible = e.visible === true
  return { environmentName: e.environmentName, visible, ...(visible ? { value: e.value ?? null } : {}) }
}

/** The variable's data in the one form the live side and a file's object are compared in (after splitSecrets). */
export function normalizeVariable(d: Record<string, unknown>): Record<string, unknown> {
  const out = { ...d }
  if (Array.isArray(d.environmentValueList)) out.environmentValueList = d.environmentValueList.map((e) => (isRecord(e) ? portableEntry(e) : e)).sort(byEnvironment)
  return out
}

/**
 * The secret values a file's object carries, taken out of its data: a global value that is not visible, and each
 * environment value that is not visible (`environments/<environment>/value`).
 */
export function splitVariableSecrets(obj: Record<string, unknown>): { data: Record<string, unknown>; secrets: Record<string, string> } {
  const data = { ...obj }
  const secrets: Record<string, string> = {}
  if (data.globalVisible === false && 'globalValue' in data) {
    if (typeof data.globalValue === 'string' && data.globalValue !== '') secrets.globalValue = data.globalValue
    delete data.globalValue
  }
  if (Array.isArray(data.environmentValueList)) {
    data.environmentValueList = data.environmentValueList.map((e) => {
      if (!isRecord(e) || e.visible === true) return e
      const { value, ...rest } = e
      if (typeof value === 'string' && value !== '') secrets[environmentSecretKey(String(e.environmentName))] = value
      return rest
    })
  }
  return { data, secrets }
}

/** Where a dump writes the `${env:NAME}` of a secret: the global value, or the value of its environment's entry. */
export function placeVariableSecret(obj: Record<string, unknown>, key: string, ref: string) {
  if (!key.startsWith(ENV_PREFIX)) return void (obj[key] = ref)
  const environment = key.slice(ENV_PREFIX.length, -'/value'.length)
  if (Array.isArray(obj.environmentValueList)) obj.environmentValueList = obj.environmentValueList.map((e) => (isRecord(e) && e.environmentName === environment ? { ...e, value: ref } : e))
}

const clear = (keyring: SecretKeyring, sealed: string) => (keyring.knows(sealed) ? keyring.decrypt(sealed) : sealed)

function toPortable(keyring: SecretKeyring, v: EnvironmentVariable): PortableObject {
  const secrets: Record<string, string> = {}
  if (v.global && !v.globalVisible && v.globalValueCipher) secrets.globalValue = clear(keyring, v.globalValueCipher)
  const entries = v.global ? [] : storedValues(v)
  for (const e of entries) if (!e.visible && e.valueCipher) secrets[environmentSecretKey(e.environmentName)] = clear(keyring, e.valueCipher)
  return {
    type: TYPE, kind: null, name: v.name, secrets, dependencies: [],
    data: {
      description: v.description,
      global: v.global,
      globalVisible: v.globalVisible,
      globalValue: v.global && v.globalVisible ? v.globalValue : null,
      environmentValueList: entries.map((e) => portableEntry(e as unknown as Record<string, unknown>)).sort(byEnvironment),
    },
  }
}

const find = async (ctx: AdapterContext, names: string[]) =>
  (await ctx.db.environmentVariable.findMany({ where: { projectId: ctx.access.project.id, nameKey: { in: names.map((n) => n.toLowerCase()) } }, orderBy: { nameKey: 'asc' } }))
    .map((v) => toPortable(ctx.deps.keyring, v))

export const environmentVariableTransferAdapter: TransferAdapter = {
  type: TYPE,
  category: 'PROJECT_MANAGEMENT',
  kinds: null,
  secretFields: ['globalValue', 'environments/<environment>/value'],
  scope: 'project',
  source: 'envvars',

  ...lookupsByName(find),

  async findAll(ctx) {
    const rows = await ctx.db.environmentVariable.findMany({ where: { projectId: ctx.access.project.id }, orderBy: { name: 'asc' } })
    return rows.map((v) => toPortable(ctx.deps.keyring, v))
  },

  async listNames(ctx) {
    const rows = await ctx.db.environmentVariable.findMany({ where: { projectId: ctx.access.project.id }, select: { name: true }, orderBy: { name: 'asc' } })
    return rows.map((r) => r.name)
  },

  /** The body the REST create and update take: secret values from the secrets, a kept one left null (the service keeps it). */
  async write(ctx, object, existing) {
    const d = object.data
    const list = Array.isArray(d.environmentValueList) ? d.environmentValueList.filter(isRecord) : []
    const body = {
      name: object.name,
      description: d.description ?? null,
      global: d.global ?? false,
      globalVisible: d.globalVisible ?? true,
      globalValue: d.globalVisible === false ? (object.secrets.globalValue ?? null) : (d.globalValue ?? null),
      environmentValueList: list.map((e) => ({
        environmentName: e.environmentName,
        visible: e.visible === true,
        value: e.visible === true ? (e.value ?? null) : (object.secrets[environmentSecretKey(String(e.environmentName))] ?? null),
      })),
    }
    await writeDeclaredVariable(ctx.db, ctx.deps.keyring, ctx.access, body, existing ? object.name : null)
    return []
  },

  async afterImport(deps, access, written): Promise<Advisory[]> {
    const outcome = await pushDeclaredVariables(deps, access, written.filter((w) => w.type === TYPE).map((w) => w.name))
    if (!outcome || outcome.success) return []
    return [{ level: 'WARNING', key: 'deployRequired', params: { type: TYPE, names: written.map((w) => w.name).sort(), reason: outcome.message } }]
  },
}
