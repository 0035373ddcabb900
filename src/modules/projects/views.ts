import type { Organization } from '../../generated/prisma/client.js'
import type { Tx } from '../../platform/context.js'
import { metadataView, type MetadataEntryView } from './organizations.js'

/** A credential organization as the vendor page's CredentialOrganizationDTO shows it (secret metadata values null). */
export interface CredentialOrganizationView {
  code: string
  nameDefault: string
  nameSecondary: string | null
  parentOrganizationCode: string | null
  metadata: MetadataEntryView[]
  state: string
  suspended: boolean
}

export async function credentialOrganizationView(db: Tx, org: Organization): Promise<CredentialOrganizationView> {
  const parent = org.parentId ? await db.organization.findUnique({ where: { id: org.parentId }, select: { code: true } }) : null
  return {
    code: org.code,
    nameDefault: org.name,
    nameSecondary: org.nameSecondary,
    parentOrganizationCode: parent?.code ?? null,
    metadata: metadataView(org.metadata),
    state: org.state,
    suspended: org.suspended,
  }
}
