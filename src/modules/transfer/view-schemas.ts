import { z } from 'zod'
import { describes } from '../../platform/http/response-schemas.js'
import { transferAdvisorySchema } from '../../platform/transfer/view-schemas.js'
import type { PreflightView } from './analysis.js'
import type { ImportResult } from './import.js'
import type { ExportPreview } from './selection.js'

// The answer schemas of the transfer routes (export preview, import preflight and run), tied at compile time to
// the views that build them.

const objectRef = z.object({ name: z.string(), kind: z.string().nullable(), type: z.string() })


export const transferExportPreviewSchema = describes<ExportPreview>()(
  z.object({
    formatVersion: z.number().int(),
    type: z.string(),
    withDependencies: z.boolean(),
    objects: z.array(objectRef),
    dependencies: z.array(z.object({ type: z.string(), kind: z.string().nullable(), name: z.string(), secret: z.boolean() })),
    secretHandling: z.string(),
    advisories: z.array(transferAdvisorySchema),
    exportDigest: z.string(),
  }),
)

export const transferPreflightSchema = describes<PreflightView>()(
  z.object({
    formatVersion: z.number().int(),
    type: z.string(),
    detectedType: z.string().nullable(),
    objects: z.array(objectRef),
    dependencies: z.array(
      z.object({ type: z.string(), kind: z.string().nullable(), name: z.string(), secret: z.boolean(), resolvedByName: z.boolean(), candidateNames: z.array(z.string()) }),
    ),
    replaceTargets: z.array(z.string()),
    packageEnvironments: z.array(z.string()),
    installationEnvironments: z.array(z.string()),
    blockers: z.array(z.object({ code: z.string(), entryFileName: z.string().nullable(), detail: z.string() })),
    advisories: z.array(transferAdvisorySchema),
    preflightDigest: z.string(),
  }),
)

export const transferImportResultSchema = describes<ImportResult>()(
  z.object({
    formatVersion: z.literal(1),
    type: z.string(),
    conflictPolicy: z.enum(['NEW', 'REPLACE']),
    imported: z.array(objectRef),
    advisories: z.array(transferAdvisorySchema),
    unresolvedReferences: z.array(z.string()),
  }),
)
