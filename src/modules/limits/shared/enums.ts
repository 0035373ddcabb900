import {
  LimitActorScope, LimitAssignmentSource, LimitAssignmentStatus, LimitContentMode, LimitFamily, LimitPlanLifecycle, LimitRevisionStatus,
  LimitSubjectType, LimitTargetType,
} from '../../../generated/prisma/enums.js'

// The closed value sets of spec §2.12 and §2.13, as stored (one Prisma enum each).

export type {
  LimitActorScope, LimitAssignmentSource, LimitAssignmentStatus, LimitContentMode, LimitFamily, LimitPlanLifecycle, LimitRevisionStatus,
  LimitSubjectType, LimitTargetType,
} from '../../../generated/prisma/enums.js'

const values = <T extends Record<string, string>>(e: T) => Object.values(e) as [T[keyof T], ...T[keyof T][]]

export const FAMILIES = values(LimitFamily)
export const PLAN_LIFECYCLES = values(LimitPlanLifecycle)
export const REVISION_STATUSES = values(LimitRevisionStatus)
export const SUBJECT_TYPES = values(LimitSubjectType)
export const ACTOR_SCOPES = values(LimitActorScope)
export const TARGET_TYPES = values(LimitTargetType)
export const CONTENT_MODES = values(LimitContentMode)
export const ASSIGNMENT_STATUSES = values(LimitAssignmentStatus)
export const ASSIGNMENT_SOURCES = values(LimitAssignmentSource)
