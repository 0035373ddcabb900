import { z } from 'zod'
import { body, definePolicy, flag, int, list, nonEmptyList, optText, positive, text } from './common.js'

// Validation family: JSON and XML schema validation, message size bounds.

const schemaDefinition = (check: (v: string) => boolean, what: string) =>
  z.looseObject({ schemaNo: int(0, 10_000).nullish(), schemaBody: body().refine(check, `must be ${what}`), systemId: optText(1000), targetNamespace: optText(1000), rootSchema: flag() })

const isJsonObject = (v: string) => {
  try {
    const parsed: unknown = JSON.parse(v)
    return typeof parsed === 'object' && parsed !== null
  } catch {
    return false
  }
}

export const jsonSchemaValidation = definePolicy({
  type: 'policy-json-schema-validation',
  family: 'validation',
  title: 'JSON Schema Validation',
  description: 'Validates the JSON at pathForBody against JSON Schema definitions',
  fields: {
    pathForBody: text(1000).refine((v) => v.startsWith('$'), "must be a JSONPath expression starting with '$'"),
    schemaDefinitionList: nonEmptyList(schemaDefinition(isJsonObject, 'a JSON Schema (a JSON object as text)')),
  },
})

export const xmlSchemaValidation = definePolicy({
  type: 'policy-xml-schema-validation',
  family: 'validation',
  title: 'XML Schema Validation',
  description: 'Validates the XML at pathForBody against XSD definitions or the proxy’s WSDL',
  fields: {
    pathForBody: optText(1000),
    validateAgainstSpec: flag(),
    schemaDefinitionList: list(schemaDefinition((v) => v.trimStart().startsWith('<'), 'an XML Schema (XML text)')).nullish(),
  },
  refine: (p, ctx) => {
    if (p.validateAgainstSpec !== true && !p.schemaDefinitionList?.length) ctx.addIssue({ code: 'custom', path: ['schemaDefinitionList'], message: 'must contain at least one schema definition when validateAgainstSpec is false' })
  },
})

export const maxMessageSize = definePolicy({
  type: 'policy-max-message-size',
  family: 'validation',
  title: 'Max Message Size',
  description: 'Rejects messages whose body is larger than maxMessageSize bytes',
  fields: { maxMessageSize: positive(Number.MAX_SAFE_INTEGER) },
})

export const minMessageSize = definePolicy({
  type: 'policy-min-message-size',
  family: 'validation',
  title: 'Min Message Size',
  description: 'Rejects messages whose body is smaller than minMessageSize bytes',
  fields: { minMessageSize: positive(Number.MAX_SAFE_INTEGER) },
})

export const VALIDATION = [jsonSchemaValidation, xmlSchemaValidation, maxMessageSize, minMessageSize]
