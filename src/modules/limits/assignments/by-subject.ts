import type { Tx } from '../../../platform/context.js'
import { assignmentInclude, assignmentView, type AssignmentView } from './views.js'

// The `limit-assignments` arrays of consumers and applications (spec §4.10): every assignment whose subject is
// that consumer or application, all statuses, newest first. Bulk rows appear as soon as their chunk commits.

const newestFirst = [{ assignedAt: 'desc' as const }, { bindingKey: 'asc' as const }]

export async function limitAssignmentsOfConsumer(db: Tx, credentialId: string): Promise<AssignmentView[]> {
  const rows = await db.limitAssignment.findMany({ where: { subjectType: 'CONSUMER', credentialId }, include: assignmentInclude, orderBy: newestFirst })
  return rows.map(assignmentView)
}

export async function limitAssignmentsOfApplication(db: Tx, applicationId: string): Promise<AssignmentView[]> {
  const rows = await db.limitAssignment.findMany({ where: { subjectType: 'APPLICATION', applicationId }, include: assignmentInclude, orderBy: newestFirst })
  return rows.map(assignmentView)
}
