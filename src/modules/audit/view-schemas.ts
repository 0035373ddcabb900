import { z } from 'zod'
import { describes } from '../../platform/http/response-schemas.js'
import type { AuditEventView } from './service.js'

// The answer schema of the audit trail (tied at compile time to auditEventView).

export const auditEventSchema = describes<AuditEventView>()(
  z
    .object({
      id: z.string(),
      at: z.string(),
      surface: z.string(),
      actor: z.string(),
      projectName: z.string().nullable(),
      operation: z.string(),
      objectType: z.string().nullable(),
      objectName: z.string().nullable(),
      outcome: z.string(),
      httpStatus: z.number().int().nullable(),
      correlationId: z.string(),
      declarativePlanId: z.string().optional().describe('a declarative apply\'s change: the plan applied'),
      declarativeAction: z.string().nullable().optional().describe('a declarative apply\'s change: create, update or delete'),
      changeReference: z.string().nullable().optional().describe('a declarative apply\'s change: its X-Change-Reference (e.g. a commit SHA)'),
    })
    .meta({ id: 'AuditEvent', description: 'One audited write: who, when, on which surface and object, with what outcome' }),
)
