import { Arg, Ctx, Mutation, registerEnumType, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { withoutNulls } from '../../../platform/graphql/inputs.js'
import { CredentialTokenSettingsType, CredentialWriteResult } from '../graphql.js'
import { MATERIAL_SLOTS, parseSlot, removeCredentialMaterial, setCredentialMaterial, setCredentialTokenSettings, type MaterialSlot } from './service.js'

// The GraphQL door of a credential's security material and token settings: the services of material.ts, as the
// REST doors of rest.ts call them.

const CredentialMaterialSlot = Object.fromEntries(MATERIAL_SLOTS.map((s) => [s, s])) as Record<MaterialSlot, MaterialSlot>
registerEnumType(CredentialMaterialSlot, {
  name: 'CredentialMaterialSlot',
  description: 'The security material a credential names: certificate, keystore, truststore, private, public or secret key, validation or encryption JWK',
})

@Resolver()
export class CredentialMaterialResolver {
  @Mutation(() => CredentialWriteResult, { description: "Sets a credential's certificate, keystore, truststore, key or JWK by name (the project's, else the admin project's) and deploys it (IDENTITY MANAGE)" })
  async setCredentialMaterial(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('username', () => String) username: string,
    @Arg('slot', () => CredentialMaterialSlot) slot: MaterialSlot, @Arg('name', () => String) name: string,
  ) {
    return CredentialWriteResult.from(await setCredentialMaterial(ctx.deps, requireViewer(ctx), projectName, username, parseSlot(slot), name))
  }

  @Mutation(() => CredentialWriteResult, { description: "Removes a credential's material of one slot (refused when none is set) and deploys it (IDENTITY MANAGE)" })
  async removeCredentialMaterial(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('username', () => String) username: string,
    @Arg('slot', () => CredentialMaterialSlot) slot: MaterialSlot,
  ) {
    return CredentialWriteResult.from(await removeCredentialMaterial(ctx.deps, requireViewer(ctx), projectName, username, parseSlot(slot)))
  }

  @Mutation(() => CredentialWriteResult, { description: 'Sets the given token settings (the others stay; authentication type SECRET_MANAGER) and deploys the credential (IDENTITY MANAGE)' })
  async setCredentialTokenSettings(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('username', () => String) username: string,
    @Arg('input', () => CredentialTokenSettingsType) input: CredentialTokenSettingsType,
  ) {
    return CredentialWriteResult.from(await setCredentialTokenSettings(ctx.deps, requireViewer(ctx), projectName, username, withoutNulls(input)))
  }
}
