import { Arg, Args, Ctx, Field, Float, GraphQLISODateTime, InputType, Int, Mutation, ObjectType, Query, registerEnumType, Resolver, type ClassType } from 'type-graphql'
import type { AiPresetFamily } from '../../generated/prisma/enums.js'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { DeploymentResultType, PageOf, PagingArgs } from '../../platform/graphql/types.js'
import { parsePaging, toPage } from '../../platform/envelopes/paging.js'
import {
  DECORATOR_POSITIONS, DIRECTIONS, DLP_ACTIONS, GUARD_ACTIONS, GUARD_INSPECT, GUARD_RULE_ACTIONS, MESSAGE_ROLES, PII_ENTITIES, PRIVACY_ACTIONS, PRIVACY_MASK_MODES,
  PRIVACY_OPERATIONS, PRIVACY_PATTERN_TYPES,
} from './families.js'
import { deletePreset, getPreset, listPresets, PRESET_SORT, savePreset, type PresetDoor } from './service.js'

const enumObject = <T extends readonly string[]>(values: T) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T[number]]: K }

const DlpAction = enumObject(DLP_ACTIONS)
const PiiEntity = enumObject(PII_ENTITIES)
const PrivacyAction = enumObject(PRIVACY_ACTIONS)
const PresetDirection = enumObject(DIRECTIONS)
const GuardAction = enumObject(GUARD_ACTIONS)
const GuardInspect = enumObject(GUARD_INSPECT)
const MessageRole = enumObject(MESSAGE_ROLES)
registerEnumType(DlpAction, { name: 'AiDlpAction', description: 'What the gateway does with a DLP match' })
registerEnumType(PiiEntity, { name: 'AiPiiEntity', description: 'Kinds of personal data a privacy preset detects' })
registerEnumType(PrivacyAction, { name: 'AiPrivacyAction' })
registerEnumType(PresetDirection, { name: 'AiPresetDirection', description: 'Which traffic a preset inspects' })
registerEnumType(GuardAction, { name: 'AiGuardAction' })
registerEnumType(GuardInspect, { name: 'AiPromptGuardInspect', description: 'Which messages of a chat request are inspected' })
registerEnumType(MessageRole, { name: 'AiMessageRole' })
const PrivacyPatternType = enumObject(PRIVACY_PATTERN_TYPES)
const PrivacyOperation = enumObject(PRIVACY_OPERATIONS)
const PrivacyMaskMode = enumObject(PRIVACY_MASK_MODES)
const GuardRuleAction = enumObject(GUARD_RULE_ACTIONS)
const DecoratorPosition = enumObject(DECORATOR_POSITIONS)
registerEnumType(PrivacyPatternType, { name: 'AiPrivacyPatternType', description: 'What a one-rule privacy preset matches: a field name or a Java regular expression' })
registerEnumType(PrivacyOperation, { name: 'AiPrivacyOperation', description: 'What a one-rule privacy preset does with a match' })
registerEnumType(PrivacyMaskMode, { name: 'AiPrivacyMaskMode', description: 'The mask shape of a one-rule privacy preset of operation MASK' })
registerEnumType(GuardRuleAction, { name: 'AiPromptGuardAction', description: 'What a prompt guard preset does with a match (MASK: one-rule presets only)' })
registerEnumType(DecoratorPosition, { name: 'AiPromptDecoratorPosition' })

const OLDER = 'older shape (lists); null for a one-rule preset'
const RULE = 'one-rule shape (the newest pages); null for a preset in the older shape'

const SCOPE = 'null: the admin catalog (system administrators); a project name: that project\'s presets (AI_DEVELOPMENT VIEW/MANAGE), built-in and admin-shared ones included read-only'

/** Common fields, inherited by each family's type. */
@ObjectType('AiPresetCommonFields')
abstract class PresetFields {
  @Field(() => String, { description: 'public identifier' }) id: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => Boolean) enabled: boolean
  @Field(() => Boolean, { description: 'shipped in the rule pack' }) builtIn: boolean
  @Field(() => Boolean, { description: 'a built-in edited by an administrator: rule-pack refreshes skip it' }) overridden: boolean
  @Field(() => String, { nullable: true, description: 'owning project; null for the admin scope' }) projectId: string | null
  @Field(() => Boolean, { description: 'seen from a project but owned by the admin scope: read-only there' }) inherited: boolean
  @Field(() => Int) revision: number
  @Field(() => GraphQLISODateTime) createdAt: Date
  @Field(() => GraphQLISODateTime) updatedAt: Date
}

@InputType('AiPresetCommonInput')
abstract class PresetInputFields {
  @Field(() => String, { nullable: true, description: 'must equal the name argument case-insensitively; defaults to it' }) name?: string
  @Field(() => String, { nullable: true, description: 'at most 1000 characters; null clears' }) description?: string | null
  @Field(() => Boolean, { nullable: true, description: 'default true; omitted keeps' }) enabled?: boolean
}

// ---------------------------------------------------------------- DLP

@ObjectType('AiDlpPreset', { description: 'DLP rule (spec §2.10): a Java regular expression and what to do with a match' })
class DlpPresetType extends PresetFields {
  @Field(() => String, { description: 'Java regular expression' }) ruleValue: string
  @Field(() => [String], { description: 'literals every match contains (scan prefilter); empty: always scanned' }) literalAnchors: string[]
  @Field(() => DlpAction) action: string
  @Field(() => String, { nullable: true }) category: string | null
}

@InputType('AiDlpPresetInput')
class DlpPresetInput extends PresetInputFields {
  @Field(() => String, { nullable: true, description: 'required; Java regular expression (docs/presets.md lists the supported constructs)' }) ruleValue?: string
  @Field(() => [String], { nullable: true, description: 'omitted or null keeps the stored anchors; each must occur in every match of ruleValue' }) literalAnchors?: string[]
  @Field(() => DlpAction, { nullable: true, description: 'required' }) action?: string
  @Field(() => String, { nullable: true, description: 'label, at most 100 characters; null clears' }) category?: string | null
}

// ---------------------------------------------------------------- privacy

@ObjectType('AiPrivacyCustomPattern')
class PrivacyCustomPatternType {
  @Field(() => String) name: string
  @Field(() => String, { description: 'Java regular expression' }) ruleValue: string
}

@InputType('AiPrivacyCustomPatternInput')
class PrivacyCustomPatternInput {
  @Field(() => String) name: string
  @Field(() => String) ruleValue: string
}

@ObjectType('AiPrivacyPreset', { description: 'Detection and masking of personal data' })
class PrivacyPresetType extends PresetFields {
  @Field(() => [PiiEntity], { nullable: true, description: OLDER }) entities: string[] | null
  @Field(() => [PrivacyCustomPatternType], { nullable: true, description: OLDER }) customPatterns: PrivacyCustomPatternType[] | null
  @Field(() => PrivacyAction, { nullable: true, description: OLDER }) action: string | null
  @Field(() => String, { nullable: true, description: OLDER }) maskCharacter: string | null
  @Field(() => Boolean, { nullable: true, description: `put the masked values back into the response (MASK only); ${OLDER}` }) restoreInResponse: boolean | null
  @Field(() => PresetDirection, { nullable: true, description: OLDER }) direction: string | null
  @Field(() => PrivacyPatternType, { nullable: true, description: RULE }) patternType: string | null
  @Field(() => String, { nullable: true, description: `the field name matched (ELEMENT_NAME); ${RULE}` }) elementName: string | null
  @Field(() => String, { nullable: true, description: `Java regular expression (REGEX); ${RULE}` }) regexPattern: string | null
  @Field(() => PrivacyOperation, { nullable: true, description: RULE }) operation: string | null
  @Field(() => PrivacyMaskMode, { nullable: true, description: `operation MASK only; ${RULE}` }) maskMode: string | null
  @Field(() => String, { nullable: true, description: `FIXED: the replacement; partial shapes: its first character masks; ${RULE}` }) maskPattern: string | null
  @Field(() => Int, { nullable: true, description: `characters kept (masked, with MASK_FIRST) by the partial shapes; ${RULE}` }) maskVisibleCharCount: number | null
}

@InputType('AiPrivacyPresetInput')
class PrivacyPresetInput extends PresetInputFields {
  @Field(() => [PiiEntity], { nullable: true, description: 'at least one entity or custom pattern' }) entities?: string[]
  @Field(() => [PrivacyCustomPatternInput], { nullable: true, description: 'at most 20' }) customPatterns?: PrivacyCustomPatternInput[]
  @Field(() => PrivacyAction, { nullable: true, description: 'default MASK' }) action?: string
  @Field(() => String, { nullable: true, description: "one character, default '*'" }) maskCharacter?: string
  @Field(() => Boolean, { nullable: true, description: 'default false' }) restoreInResponse?: boolean
  @Field(() => PresetDirection, { nullable: true, description: 'default REQUEST' }) direction?: string
  @Field(() => PrivacyPatternType, { nullable: true, description: 'one-rule shape: required (not with the older fields)' }) patternType?: string
  @Field(() => String, { nullable: true, description: 'required with ELEMENT_NAME' }) elementName?: string | null
  @Field(() => String, { nullable: true, description: 'required with REGEX; a Java regular expression' }) regexPattern?: string | null
  @Field(() => PrivacyOperation, { nullable: true, description: 'one-rule shape: required' }) operation?: string
  @Field(() => PrivacyMaskMode, { nullable: true, description: 'operation MASK only; default FIXED' }) maskMode?: string
  @Field(() => String, { nullable: true, description: "operation MASK only; default '***'" }) maskPattern?: string
  @Field(() => Int, { nullable: true, description: 'operation MASK only; default 4' }) maskVisibleCharCount?: number
}

// ---------------------------------------------------------------- prompt guard

@ObjectType('AiPromptGuardPreset', { description: 'Allow and deny patterns for prompts' })
class PromptGuardPresetType extends PresetFields {
  @Field(() => [String], { nullable: true, description: `Java regular expressions; when any is given, a prompt must match one; ${OLDER}` }) allowPatterns: string[] | null
  @Field(() => [String], { nullable: true, description: `Java regular expressions; a match is refused (deny wins over allow); ${OLDER}` }) denyPatterns: string[] | null
  @Field(() => GuardRuleAction) action: string
  @Field(() => GuardInspect, { nullable: true, description: OLDER }) inspect: string | null
  @Field(() => String, { nullable: true, description: `Java regular expression matched against the prompt; ${RULE}` }) ruleValue: string | null
  @Field(() => String, { nullable: true, description: `label; ${RULE}` }) category: string | null
}

@InputType('AiPromptGuardPresetInput')
class PromptGuardPresetInput extends PresetInputFields {
  @Field(() => [String], { nullable: true, description: 'at most 50' }) allowPatterns?: string[]
  @Field(() => [String], { nullable: true, description: 'at most 50; at least one pattern overall' }) denyPatterns?: string[]
  @Field(() => GuardRuleAction, { nullable: true, description: 'older shape: BLOCK or FLAG, default BLOCK; one-rule shape: required' }) action?: string
  @Field(() => GuardInspect, { nullable: true, description: 'default USER_MESSAGES' }) inspect?: string
  @Field(() => String, { nullable: true, description: 'one-rule shape: required (not with the older fields); a Java regular expression' }) ruleValue?: string
  @Field(() => String, { nullable: true, description: 'one-rule shape: label, at most 100 characters; null clears' }) category?: string | null
}

// ---------------------------------------------------------------- prompt decorator

@ObjectType('AiPromptMessage')
class PromptMessageType {
  @Field(() => MessageRole) role: string
  @Field(() => String) content: string
}

@InputType('AiPromptMessageInput')
class PromptMessageInput {
  @Field(() => MessageRole) role: string
  @Field(() => String, { description: '1 to 10000 characters' }) content: string
}

@ObjectType('AiPromptDecoratorPreset', { description: 'Messages added before and after the caller\'s chat messages' })
class PromptDecoratorPresetType extends PresetFields {
  @Field(() => [PromptMessageType], { nullable: true, description: OLDER }) prepend: PromptMessageType[] | null
  @Field(() => [PromptMessageType], { nullable: true, description: OLDER }) append: PromptMessageType[] | null
  @Field(() => String, { nullable: true, description: `the message added; ${RULE}` }) content: string | null
  @Field(() => String, { nullable: true, description: `system, user or assistant; ${RULE}` }) role: string | null
  @Field(() => DecoratorPosition, { nullable: true, description: RULE }) position: string | null
  @Field(() => String, { nullable: true, description: `label; ${RULE}` }) category: string | null
}

@InputType('AiPromptDecoratorPresetInput')
class PromptDecoratorPresetInput extends PresetInputFields {
  @Field(() => [PromptMessageInput], { nullable: true, description: 'at most 20' }) prepend?: PromptMessageInput[]
  @Field(() => [PromptMessageInput], { nullable: true, description: 'at most 20; at least one message overall' }) append?: PromptMessageInput[]
  @Field(() => String, { nullable: true, description: 'one-rule shape: required (not with prepend/append); 1 to 10000 characters' }) content?: string
  @Field(() => String, { nullable: true, description: "one-rule shape: system (default, also when blank), user or assistant" }) role?: string
  @Field(() => DecoratorPosition, { nullable: true, description: 'one-rule shape: default PREPEND' }) position?: string
  @Field(() => String, { nullable: true, description: 'one-rule shape: label, at most 100 characters; null clears' }) category?: string | null
}

// ---------------------------------------------------------------- topic categories

@ObjectType('AiTopicCategoryPreset', { description: 'A content-safety category: keywords and example prompts' })
class TopicCategoryPresetType extends PresetFields {
  @Field(() => [String]) keywords: string[]
  @Field(() => [String], { description: 'example prompts for semantic matching' }) examples: string[]
  @Field(() => Float, { description: 'similarity threshold 0..1' }) threshold: number
  @Field(() => GuardAction) action: string
  @Field(() => PresetDirection) direction: string
}

@InputType('AiTopicCategoryPresetInput')
class TopicCategoryPresetInput extends PresetInputFields {
  @Field(() => [String], { nullable: true, description: 'at most 200' }) keywords?: string[]
  @Field(() => [String], { nullable: true, description: 'at most 50; at least one keyword or example overall' }) examples?: string[]
  @Field(() => Float, { nullable: true, description: '0..1, default 0.75' }) threshold?: number
  @Field(() => GuardAction, { nullable: true, description: 'default BLOCK' }) action?: string
  @Field(() => PresetDirection, { nullable: true, description: 'default BOTH' }) direction?: string
}

// ---------------------------------------------------------------- prompt templates

@ObjectType('AiPromptTemplateVariable')
class TemplateVariableType {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => Boolean) required: boolean
  @Field(() => String, { nullable: true }) defaultValue: string | null
}

@InputType('AiPromptTemplateVariableInput')
class TemplateVariableInput {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => Boolean, { nullable: true, description: 'default: true unless defaultValue is given' }) required?: boolean
  @Field(() => String, { nullable: true }) defaultValue?: string
}

@ObjectType('AiPromptTemplate', { description: 'A prompt with {{variable}} placeholders' })
class PromptTemplateType extends PresetFields {
  @Field(() => String) template: string
  @Field(() => [TemplateVariableType]) variables: TemplateVariableType[]
}

@InputType('AiPromptTemplateInput')
class PromptTemplateInput extends PresetInputFields {
  @Field(() => String, { nullable: true, description: 'required on create; omitted keeps' }) template?: string
  @Field(() => [TemplateVariableInput], { nullable: true, description: 'omitted: derived from the placeholders' }) variables?: TemplateVariableInput[]
}

// ---------------------------------------------------------------- resolvers: one per family, same shape

const doorOf = (projectName: string | null | undefined): PresetDoor =>
  projectName ? { door: 'project', projectName } : { door: 'admin' }

/** GraphQL input objects are class instances with absent fields; the service validates plain JSON. */
const plain = (input: object) => JSON.parse(JSON.stringify(input)) as unknown

interface FamilyNames { type: string; one: string; many: string; save: string; update: string; remove: string; label: string }

function presetResolver(family: AiPresetFamily, names: FamilyNames, Type: ClassType, Input: ClassType) {
  @ObjectType(`${names.type}Page`)
  class Page extends PageOf(Type, `${names.type}Page`) {}

  @ObjectType(`${names.type}WriteResult`)
  class WriteResult {
    @Field(() => Type) preset: object
    @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
  }

  @Resolver()
  class FamilyResolver {
    @Query(() => Page, { name: names.many, description: `${names.label}s by name` })
    async list(
      @Ctx() ctx: GqlContext,
      @Arg('projectName', () => String, { nullable: true, description: SCOPE }) projectName: string | null,
      @Args(() => PagingArgs) paging: PagingArgs,
    ) {
      const page = parsePaging(paging, PRESET_SORT)
      const { items, total } = await listPresets(ctx.deps.prisma, requireViewer(ctx), family, doorOf(projectName), page)
      return toPage(page, items, total)
    }

    @Query(() => Type, { name: names.one })
    async one(
      @Ctx() ctx: GqlContext,
      @Arg('name', () => String) name: string,
      @Arg('projectName', () => String, { nullable: true, description: SCOPE }) projectName: string | null,
    ) {
      return getPreset(ctx.deps.prisma, requireViewer(ctx), family, doorOf(projectName), name)
    }

    @Mutation(() => WriteResult, { name: names.save, description: `Admin scope: create a ${names.label} or update the one of that name (a built-in too, which becomes overridden). Project: create the project's own (a built-in or admin-shared name counts as absent; a name the project owns collides). Then deploy it` })
    async save(
      @Ctx() ctx: GqlContext,
      @Arg('name', () => String) name: string,
      @Arg('input', () => Input) input: object,
      @Arg('projectName', () => String, { nullable: true, description: SCOPE }) projectName: string | null,
    ) {
      const { preset, deploymentResult } = await savePreset(ctx.deps, requireViewer(ctx), family, doorOf(projectName), name, plain(input), 'upsert')
      return { preset, deploymentResult: DeploymentResultType.from(deploymentResult) }
    }

    @Mutation(() => WriteResult, { name: names.update, description: `Update an existing ${names.label} of the scope; then deploy it` })
    async update(
      @Ctx() ctx: GqlContext,
      @Arg('name', () => String) name: string,
      @Arg('input', () => Input) input: object,
      @Arg('projectName', () => String, { nullable: true, description: SCOPE }) projectName: string | null,
    ) {
      const { preset, deploymentResult } = await savePreset(ctx.deps, requireViewer(ctx), family, doorOf(projectName), name, plain(input), 'update')
      return { preset, deploymentResult: DeploymentResultType.from(deploymentResult) }
    }

    @Mutation(() => DeploymentResultType, { name: names.remove, description: `Delete a ${names.label} of the scope and undeploy it (a deleted built-in stays deleted)` })
    async remove(
      @Ctx() ctx: GqlContext,
      @Arg('name', () => String) name: string,
      @Arg('projectName', () => String, { nullable: true, description: SCOPE }) projectName: string | null,
    ) {
      const { deploymentResult } = await deletePreset(ctx.deps, requireViewer(ctx), family, doorOf(projectName), name)
      return DeploymentResultType.from(deploymentResult)
    }
  }
  return FamilyResolver
}

const names = (type: string, singular: string, plural: string, label: string): FamilyNames => ({
  type, one: singular, many: plural, save: `save${type}`, update: `update${type}`, remove: `delete${type}`, label,
})

export const AiDlpPresetResolver = presetResolver('DLP', names('AiDlpPreset', 'aiDlpPreset', 'aiDlpPresets', 'DLP preset'), DlpPresetType, DlpPresetInput)
export const AiPrivacyPresetResolver = presetResolver('PRIVACY', names('AiPrivacyPreset', 'aiPrivacyPreset', 'aiPrivacyPresets', 'privacy preset'), PrivacyPresetType, PrivacyPresetInput)
export const AiPromptGuardPresetResolver = presetResolver('PROMPT_GUARD', names('AiPromptGuardPreset', 'aiPromptGuardPreset', 'aiPromptGuardPresets', 'prompt guard preset'), PromptGuardPresetType, PromptGuardPresetInput)
export const AiPromptDecoratorPresetResolver = presetResolver('PROMPT_DECORATOR', names('AiPromptDecoratorPreset', 'aiPromptDecoratorPreset', 'aiPromptDecoratorPresets', 'prompt decorator preset'), PromptDecoratorPresetType, PromptDecoratorPresetInput)
export const AiTopicCategoryPresetResolver = presetResolver('TOPIC_CATEGORY', names('AiTopicCategoryPreset', 'aiTopicCategoryPreset', 'aiTopicCategoryPresets', 'topic category preset'), TopicCategoryPresetType, TopicCategoryPresetInput)
export const AiPromptTemplateResolver = presetResolver('PROMPT_TEMPLATE', names('AiPromptTemplate', 'aiPromptTemplate', 'aiPromptTemplates', 'prompt template'), PromptTemplateType, PromptTemplateInput)

/** Every preset resolver, for src/schema.ts. */
export const PRESET_RESOLVERS = [
  AiDlpPresetResolver, AiPrivacyPresetResolver, AiPromptGuardPresetResolver, AiPromptDecoratorPresetResolver, AiTopicCategoryPresetResolver, AiPromptTemplateResolver,
] as const
