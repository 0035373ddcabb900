import { namedCollectionRoutes } from '../global-policies/rest.js'
import { policyGroupBody } from './inputs.js'
import { createPolicyGroup, deletePolicyGroup, getPolicyGroup, listPolicyGroups, updatePolicyGroup } from './service.js'
import { policyGroupSchema } from './view-schemas.js'

/** Vendor api-reference/policy-groups. */
export const policyGroupRoutes = namedCollectionRoutes({
  base: '/apiops/projects/:projectName/policyGroups', item: 'policyGroupName', categories: ['API_MANAGEMENT'], tag: 'policy-groups', label: 'policy group',
  permission: 'API_MANAGEMENT', body: policyGroupBody, schema: policyGroupSchema,
  item400: '_class not policy-group, a group field invalid, a policyList entry invalid for its type',
  list: listPolicyGroups, get: getPolicyGroup, create: createPolicyGroup, update: updatePolicyGroup, remove: deletePolicyGroup,
})
