import type { Actor } from '../auth/actor.js'
import type { ProjectAccess } from '../auth/permissions.js'
import type { Deps, Tx } from '../context.js'
import { DomainError, malformedReason } from '../errors/domain-error.js'

/**
 * The registry of exportable object types. Each type is one adapter object; a module that owns a type
 * contributes its adapter (see adapters/index.ts), otherwise the type's objects come from the opaque
 * stored objects. The transfer engine (export, preview, preflight, import) only ever talks to adapters.
 *
 * Everything an adapter hands over is PORTABLE: no stored id, no timestamp, no revision, secrets apart.
 * References between objects are named by (type, kind, name), never by a stored id.
 *
 * This interface is a contract other modules implement: extend it only with optional members.
 */

/** (type, kind, name): how an object is named across installations. kind is null for single-kind types. */
export interface ObjectRef {
  type: string
  kind: string | null
  name: string
}

/** An object in its portable form, as it travels in a package. */
export interface PortableObject extends ObjectRef {
  /** every non-secret field needed to recreate the object; no stored ids, timestamps or revisions */
  data: Record<string, unknown>
  /** clear values of the adapter's secret fields that are set (the engine decides how they travel) */
  secrets: Record<string, string>
  /** the objects this one refers to, by (type, kind, name) */
  dependencies: ObjectRef[]
  /**
   * On import only: the secret fields the package names whose value is not restored here (NONE, or sealed under
   * another installation's key), so an adapter can keep the target's value on REPLACE.
   */
  uncarriedSecrets?: string[]
}

/** Where an adapter reads and writes: the project of the call (installation-wide types ignore it). */
export interface AdapterContext {
  db: Tx
  deps: Deps
  actor: Actor
  access: ProjectAccess
}

/** How REPLACE merges per-environment data of certificate-family objects (spec §4.4 import options). */
export interface ImportWriteOptions {
  certEnvironmentMergeMethod: 'MATCH_BY_NAME' | 'OVERWRITE_ALL'
  certEnvironmentUncoveredAction: 'FILL_FROM_PACKAGE' | 'REMOVE_FROM_TARGET'
  /** environment names of the target project (after environmentMapping was applied to the object) */
  targetEnvironments: readonly string[]
  /**
   * Told the stored portable form of each object a writeMany created when the adapter knows it without reading it
   * back (what findByName would answer right after the write). A declarative apply records its drift baseline from
   * it instead of reading thousands of objects again; an adapter may tell none.
   */
  created?: (object: PortableObject) => void
}

/** A reason why one packaged object cannot be imported here, reported as a preflight blocker. */
export interface ImportRefusal {
  /** the stable errorKey the import run answers with */
  code: string
  detail: string
}

/** Something the caller should know after an import, e.g. a reference left unresolved. */
export interface Advisory {
  level: 'INFO' | 'WARNING'
  key: string
  params: Record<string, unknown>
}

export interface TransferAdapter {
  /** the type name, upper case, as in paths and packages (e.g. CREDENTIAL) */
  readonly type: string
  /** the asset category whose EXPORT_IMPORT level the type needs (PROJECT_MANAGEMENT also does) */
  readonly category: string
  /** kinds of a multi-kind type; null for a single-kind type */
  readonly kinds: readonly string[] | null
  /** fields whose values are secrets (they travel per secretHandling, never in `data`) */
  readonly secretFields: readonly string[]
  /**
   * project: objects live in the project of the call. installation: objects are installation-wide (one
   * name space for the whole installation); exporting and importing them needs a system administrator.
   */
  readonly scope: 'project' | 'installation'
  /** who owns the objects: a module name, or `stored-objects` for the opaque fallback */
  readonly source: string

  /** Every object of this type named `name` (one per kind), optionally of one kind. */
  findByName(ctx: AdapterContext, name: string, kind: string | null): Promise<PortableObject[]>
  /**
   * Optional batch form of findByName: every object matching one of the (name, kind) pairs (kind null: any
   * kind), in one query. The engine uses it for large selections and packages when present.
   */
  findManyByName?(ctx: AdapterContext, refs: { name: string; kind: string | null }[]): Promise<PortableObject[]>
  /**
   * Optional: every object of the type (of one kind) in the call's project, sorted by name as listNames, in one query by project (no list of
   * names: a declarative plan or dump reads whole collections this way, and after a bulk write a long IN list of
   * names can be planned on a trigram index while the table's statistics are stale).
   */
  findAll?(ctx: AdapterContext, kind: string | null): Promise<PortableObject[]>
  /**
   * Optional: findAll a page at a time — the first `limit` objects named after `after` (null: from the start), in
   * findAll's order, so that pages read one after the other are findAll. A declarative plan compares a large
   * collection this way without holding all of it.
   */
  findPage?(ctx: AdapterContext, kind: string | null, after: string | null, limit: number): Promise<PortableObject[]>
  /** Names of the type's objects (of one kind), sorted; used for candidateNames and listings. */
  listNames(ctx: AdapterContext, kind: string | null): Promise<string[]>
  /** Environment names an object refers to (e.g. a webhook connection's environment). */
  environmentsOf?(object: PortableObject): string[]
  /** Whether every environment the object names must exist in the installation (after environmentMapping). */
  readonly environmentsRequired?: boolean
  /** The object with its environment names rewritten (environmentMapping of the import). */
  mapEnvironments?(object: PortableObject, map: (environment: string) => string): PortableObject
  /** Why this object cannot be imported into the call's project, or null (e.g. a username taken elsewhere). */
  checkImport?(ctx: AdapterContext, object: PortableObject): Promise<ImportRefusal | null>
  /**
   * Creates (existing = false) or replaces (existing = true) the object. Runs inside the import's
   * transaction (ctx.db); must not push to environments. Returns advisories such as unresolved references.
   */
  write(ctx: AdapterContext, object: PortableObject, existing: boolean, options: ImportWriteOptions): Promise<Advisory[]>
  /**
   * Optional batch form of write for many objects of this type (same contract, same transaction). It makes
   * checkImport's checks itself, for the whole batch: objects it refuses are thrown together (`batchRefused`),
   * nothing of the batch written.
   */
  writeMany?(ctx: AdapterContext, objects: { object: PortableObject; existing: boolean }[], options: ImportWriteOptions): Promise<Advisory[]>
  /** After the import committed: push written objects to the environments when the type deploys. */
  afterImport?(deps: Deps, access: ProjectAccess, written: ObjectRef[]): Promise<Advisory[]>
  /** A file name for a one-object package other than `<name>.zip` (e.g. the webhook pattern of §2.17). */
  packageFileName?(object: ObjectRef, exportedAt: Date): string
}

/** One object of a writeMany batch that was refused: its stable code, message and field inside the object. */
export interface ObjectRefusal { name: string; code: string; detail: string; field?: string }

/** The error a writeMany throws when objects of its batch are refused: all of them in params.refusals. */
export const batchRefused = (refusals: ObjectRefusal[]) =>
  malformedReason(refusals[0]!.code, refusals.slice(0, 20).map((r) => `${r.name}: ${r.detail}`).join('; '), {
    ...(refusals[0]!.field ? { field: refusals[0]!.field } : {}), refusals,
  })

/** The refusals a batchRefused error carries, or null for any other error. */
export const refusalsOf = (err: unknown): ObjectRefusal[] | null =>
  err instanceof DomainError && Array.isArray(err.params.refusals) ? (err.params.refusals as ObjectRefusal[]) : null

/** An error a write threw, as the refusal of one object (reason first, else the error key); null when it is not a domain error. */
export function refusalOf(name: string, err: unknown): ObjectRefusal | null {
  if (!(err instanceof DomainError)) return null
  const code = typeof err.params.reason === 'string' ? err.params.reason : err.errorKey
  return { name, code, detail: err.message, ...(typeof err.params.field === 'string' ? { field: err.params.field } : {}) }
}

const adapters = new Map<string, TransferAdapter>()

/** Registers an adapter; a module's adapter replaces the opaque fallback of the same type. */
export function registerTransferAdapter(adapter: TransferAdapter, options: { replace?: boolean } = {}): void {
  const type = adapter.type.toUpperCase()
  if (adapters.has(type) && !options.replace) throw new Error(`transfer adapter for ${type} already registered`)
  adapters.set(type, adapter)
}

export const supportedTypes = (): string[] => [...adapters.keys()].sort()

/** The adapter of a type named in a path or body; case-insensitive. */
export function adapterFor(type: string | null | undefined): TransferAdapter {
  const adapter = adapters.get((type ?? '').trim().toUpperCase())
  if (adapter) return adapter
  const supported = supportedTypes()
  throw malformedReason(
    'unknownType',
    `${type?.trim() ? `Unknown object type '${type}'` : 'Object type is required'}; supported types: ${supported.join(', ')}`,
    { field: 'type', type: type ?? null, supported },
  )
}

export const findAdapter = (type: string): TransferAdapter | undefined => adapters.get(type.toUpperCase())

export const refKey = (ref: ObjectRef) => `${ref.type}\u0000${ref.kind ?? ''}\u0000${ref.name}`

/** How a reference reads in messages and plain-text lines: TYPE/KIND/name or TYPE/name. */
export const refLabel = (ref: ObjectRef) => [ref.type, ref.kind, ref.name].filter(Boolean).join('/')

/**
 * findByName and findManyByName of a single-kind type whose objects one `find(ctx, names)` reads (names once each;
 * no query for an empty batch).
 */
export function lookupsByName(
  find: (ctx: AdapterContext, names: string[]) => Promise<PortableObject[]>,
): Pick<TransferAdapter, 'findByName' | 'findManyByName'> {
  return {
    findByName: (ctx, name) => find(ctx, [name]),
    findManyByName: (ctx, refs) => (refs.length ? find(ctx, [...new Set(refs.map((r) => r.name))]) : Promise.resolve([])),
  }
}
