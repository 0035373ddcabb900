import type { EnvironmentVariable } from '../../generated/prisma/client.js'

/** One environment's value as stored: a secret is sealed (valueCipher), a visible one kept as given. */
export interface StoredEnvironmentValue {
  environmentName: string
  visible: boolean
  value: string | null
  valueCipher: string | null
}

export function storedValues(variable: Pick<EnvironmentVariable, 'environmentValues'>): StoredEnvironmentValue[] {
  return Array.isArray(variable.environmentValues) ? (variable.environmentValues as unknown as StoredEnvironmentValue[]) : []
}

/** A variable as every door shows it: secret values are null with a presence flag beside them. */
export interface EnvironmentVariableView {
  projectId: string
  projectName: string
  name: string
  description: string | null
  global: boolean
  globalValue: string | null
  globalVisible: boolean
  globalValueSet: boolean
  environmentValueList: { environmentName: string; value: string | null; visible: boolean; valueSet: boolean }[] | null
  revision: number
  updatedAt: Date
}

export function variableView(variable: EnvironmentVariable, projectName: string): EnvironmentVariableView {
  return {
    // objects are addressed by name (spec §1 rule 2): projectId carries the project's name
    projectId: projectName,
    projectName,
    name: variable.name,
    description: variable.description,
    global: variable.global,
    globalValue: variable.global && variable.globalVisible ? variable.globalValue : null,
    globalVisible: variable.globalVisible,
    globalValueSet: variable.global && (variable.globalValue !== null || variable.globalValueCipher !== null),
    environmentValueList: variable.global
      ? null
      : storedValues(variable).map((v) => ({
          environmentName: v.environmentName,
          value: v.visible ? v.value : null,
          visible: v.visible,
          valueSet: v.value !== null || v.valueCipher !== null,
        })),
    revision: variable.revision,
    updatedAt: variable.updatedAt,
  }
}
