import { legacyList, legacySuccess } from '../../../../platform/envelopes/legacy.js'
import { legacyBody, legacyListBody } from '../../../../platform/http/response-schemas.js'
import { defineRoutes, requireActor } from '../../../../platform/http/routes.js'
import { policyTypeDetail, policyTypeSummaries } from './service.js'
import { policyTypeDetailFields, policyTypeSummarySchema } from '../view-schemas.js'

// The published policy catalogue (issue 17 §3, beyond the vendor pages): the types and the JSON Schema of each,
// for console authors building forms. Any authenticated user may read them; legacy envelope.

const COMMON = { 401: 'missing, invalid, expired or revoked token' }

export const policyTypeRoutes = defineRoutes([
  {
    method: 'get',
    path: '/apiops/policy-types/',
    style: 'legacy',
    auth: 'token',
    tag: 'policies',
    summary: 'List the policy types a policy write accepts, with family, title and a short description (any authenticated user)',
    response: legacyListBody(policyTypeSummarySchema),
    responses: { 200: 'status SUCCESS, resultList [type, family, title, description], resultCount', ...COMMON },
    async handle(ctx) {
      requireActor(ctx)
      return { body: legacyList(policyTypeSummaries()) }
    },
  },
  {
    method: 'get',
    path: '/apiops/policy-types/:type/schema',
    style: 'legacy',
    auth: 'token',
    tag: 'policies',
    summary: 'The JSON Schema (draft 2020-12) of one policy type: the `policy` object of a write (any authenticated user)',
    response: legacyBody(policyTypeDetailFields.shape),
    responses: { 200: 'status SUCCESS, type, family, title, description, schema', 404: 'unknown policy type (status FAILURE, errorKey policyTypeNotFound)', ...COMMON },
    async handle(ctx, input) {
      requireActor(ctx)
      const type = input.params.type!
      const detail = policyTypeDetail(type)
      if (!detail) {
        return { status: 404, body: { status: 'FAILURE', resultMessage: `Policy type '${type}' not found`, errorKey: 'policyTypeNotFound', params: { type } } }
      }
      return { body: legacySuccess(detail) }
    },
  },
])
