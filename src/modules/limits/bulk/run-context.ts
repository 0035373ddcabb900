import type { LimitBulkOutcome, LimitBulkRun } from '../../../generated/prisma/client.js'
import type { LicenseModule } from '../../licence/service.js'
import type { compileAssignment } from '../assignments/service.js'
import type { BulkContent } from './assignment-ops.js'
import type { BulkSubjectType, ConflictPolicy } from './inputs.js'

// What a run's chunks share and what one chunk hands on: the run's context (prepare.ts builds it), a chunk's
// outcomes (chunk.ts) and the compiled message kept for its pushes (push.ts).

type Template = Awaited<ReturnType<typeof compileAssignment>>

/**
 * Kept by the run across its chunks: the compiled message of the rows a chunk creates together, when compiling it
 * reads nothing but the row (compile.ts: a PLAN assignment reads its plans' current published revisions, so it is
 * compiled again in every chunk; CUSTOM content is the row's own).
 */
export interface PushCache { together?: { subjectType: string; runtimeRevision: number; template: Template } }

export interface RunContext {
  run: LimitBulkRun
  project: { id: string; name: string }
  subjectType: BulkSubjectType
  /** validated and prepared content; null for ROLLBACK runs */
  bulk: BulkContent | null
  conflictPolicy: ConflictPolicy
  /** the licence module the content needs (AI_GATEWAY for AI_TOKEN_BUDGET), or null */
  module: LicenseModule | null
  /** whether that module was licensed when the run started: if not, every subject is SKIPPED_LICENSE */
  licensedAtStart: boolean
  /** subjects recorded in PREPARE */
  total: number
  deployDegraded: boolean
  /** recorded as assignedBy / endedBy */
  actorName: string
  /** what the run's chunks share for their pushes */
  pushCache: PushCache
}

export interface SubjectOutcome {
  seq: number
  subjectType: string
  subjectName: string
  outcome: LimitBulkOutcome
  bindingKey?: string | null
  replacedBindingKey?: string | null
  messageKey?: string
  messageParams?: Record<string, unknown>
}

export interface ChunkResult {
  rows: SubjectOutcome[]
  /** assignments created or ended: pushed once the chunk has committed */
  touchedAssignmentIds: string[]
  /** those of them created by the chunk's one INSERT, all with the run's content: pushed without reading them back */
  createdTogether?: Map<string, { bindingKey: string; subjectKey: string }>
}
