import { z } from 'zod'
import { body, definePolicy, enumOf, flag, list, nonEmptyList, optText, requireWhen, text } from './common.js'

// Transformation family: JSON (JOLT, JSON to XML), XML (XSLT, XML to JSON) and the REST/SOAP protocol switches.

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const

const jsonSpec = (value: string) => {
  try {
    JSON.parse(value)
    return true
  } catch {
    return false
  }
}

export const jsonTransformation = definePolicy({
  type: 'policy-json-transformation',
  family: 'transformation',
  title: 'JSON Transformation',
  description: 'Transforms JSON bodies with a JOLT specification (JSON2JSON) or converts them to XML (JSON2XML)',
  fields: {
    transformationType: enumOf(['JSON2JSON', 'JSON2XML'] as const),
    joltValue: body().refine(jsonSpec, 'must be a JOLT specification (JSON text)').nullish(),
    jsonToXmlIgnoreNull: flag(),
    jsonToXmlIgnoreEmpty: flag(),
    jsonToXmlUseNullForNil: flag(),
    jsonToXmlUnwrapElement: flag(),
  },
  refine: (p, ctx) => requireWhen(ctx, p.transformationType === 'JSON2JSON', p.joltValue, ['joltValue'], 'is required when transformationType is JSON2JSON'),
})

export const xmlTransformation = definePolicy({
  type: 'policy-xml-transformation',
  family: 'transformation',
  title: 'XML Transformation',
  description: 'Transforms XML bodies with an XSLT stylesheet (XML2XML) or converts them to JSON (XML2JSON)',
  fields: {
    transformationType: enumOf(['XML2XML', 'XML2JSON'] as const),
    xsltValue: body().refine((v) => v.trimStart().startsWith('<'), 'must be an XSLT stylesheet (XML text)').nullish(),
    xmlToJsonUnwrapElement: flag(),
    xmlToJsonIgnoreNull: flag(),
    xmlToJsonIgnoreEmpty: flag(),
    xmlToJsonNumbersAsStrings: flag(),
    xmlToJsonUseNullForNil: flag(),
    xmlToJsonArrayPathList: list(text(1000)).nullish(),
  },
  refine: (p, ctx) => requireWhen(ctx, p.transformationType === 'XML2XML', p.xsltValue, ['xsltValue'], 'is required when transformationType is XML2XML'),
})

/**
 * The protocol transformation pages (since 2025-11-17, e02b1ca): these policies come with the SOAP/REST transformation
 * settings of an API proxy and can not be added by a policy write; they stay valid in proxy packages and reads.
 */
const fromProtocolSettings = (type: string) =>
  `a ${type} policy can not be added manually; it comes with the SOAP/REST transformation settings of the API proxy`

export const requestProtocolTransformation = definePolicy({
  type: 'policy-request-protocol-transformation',
  family: 'transformation',
  title: 'Request Protocol Transformation',
  description: 'Turns REST requests into SOAP requests (configured by the endpoint settings; only the common fields)',
  fields: {},
  notAddable: fromProtocolSettings('policy-request-protocol-transformation'),
})

export const responseProtocolTransformation = definePolicy({
  type: 'policy-response-protocol-transformation',
  family: 'transformation',
  title: 'Response Protocol Transformation',
  description: 'Turns SOAP responses from the backend into REST responses, per API method (apiMethodList)',
  fields: {
    apiMethodList: nonEmptyList(
      z.looseObject({ id: text(200), name: text(200), description: optText(), active: flag(), httpMethod: enumOf(HTTP_METHODS), backendResourceUrl: text(2000), backendHttpMethod: enumOf(HTTP_METHODS) }),
      1000,
    ),
  },
  notAddable: fromProtocolSettings('policy-response-protocol-transformation'),
})

export const TRANSFORMATION = [jsonTransformation, xmlTransformation, requestProtocolTransformation, responseProtocolTransformation]
