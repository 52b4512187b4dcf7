/**
 * The object-registry editor's model, built without vscode (unit-tested in plain node): what
 * media/registry/ shows of an `.objres` (OBJR v13, core/formats/registry):
 *
 * - the header: counts, the registry's confidence, the OBJL record layout (validated, or why not),
 *   the part's script the bindings were checked against, and seed 001's patch rule for this copy;
 * - the block chain (tag, registered name where known, name hash, offset, size, decoded or raw;
 *   a raw block's bytes as a hex view on request);
 * - the OBJL objects behind `ObjectTable` (./registryObjectTable.ts: classes, search as you type,
 *   windows of rows); when the layout did not validate, the records raw;
 * - the SCRB bindings resolved (core/formats/registry/resolve.ts) against the part's own script,
 *   each with the function's line and what opening it does; the ONLS groups (owner → members).
 *
 * Where things come from in the mount (the part's script as the search order serves it, the patch
 * rule) is found here too, from core/archive; the editor only reads bytes and sends messages.
 */
import {
  type ArchUri,
  type Mount,
  type ResolvedBundle,
  type LocatedPartScript,
  type PartScriptNear,
  declaredMember,
  headerCheckFor,
  locatePartScript,
  mergedUriPath,
  partBundlePath,
  partScriptNames,
  readEntryCheckedAsync,
  resolveBundle,
  servedFromText,
  sourceFolderName,
  sourceUriPath,
} from '../../core/archive';
import { isArch06Error } from '../../core/errors';
import { formatHash } from '../../core/hash';
import { type GroupRow, type ObjectRegistry, bindingRows, ownScriptPath, parseObjr, resolveRegistry } from '../../core/formats/registry';
import type { ScriptDefinition } from '../../core/havokScript';
import { MAX_VIEW_ROWS } from '../../media/registry/protocol';
import type { BindingRowView, BlockRow, GroupRowView, PatchView, RegistryView } from '../../media/registry/protocol';
import { ObjectTable, cell } from './registryObjectTable';
import { bundleMemberUriPath } from './bundleRows';
import { hexDump } from './hexDump';

/** What opening a binding does: open the script at an `arch06:` URI path on a line, or say why not. */
export type BindingTarget = { uriPath: string; line: number } | { reason: string };

/** The part's own script: where the search order serves it from and what it defines. */
export interface PartScript {
  /** `<part>.scripts`, the path every binding's script hash must be StringHash of. */
  path: string;
  /** The `arch06:` URI path it opens at: the merged view's loose copy, or the member of the part's bundle folder. */
  uriPath?: string;
  /** Where that copy is, in words. */
  from?: string;
  /** Its top-level definitions with their lines; undefined when it was not found or is compiled. */
  functions?: ScriptDefinition[];
  /** Its source (for the bindings' previews). */
  source?: string;
  /** One line for the header: what the bindings were checked against, or why they were not. */
  note: string;
}

/** Resolves a bundle by its manifest path (the editor passes the file system's cache). */
export type BundleResolver = (manifest: string) => ResolvedBundle;

/** Lines of a bound function a binding row's tooltip shows. */
const PREVIEW_LINES = 8;

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The bundle of a part path's stem (`x.objres` → `x.bndl`), or undefined when there is none. */
function partBundle(path: string, resolve: BundleResolver): ResolvedBundle | undefined {
  try {
    return resolve(partBundlePath(path));
  } catch (e) {
    if (isArch06Error(e)) return undefined;
    throw e;
  }
}

/** The member at `path` (core/archive's one comparison of member paths). */
function memberOf(b: ResolvedBundle | undefined, path: string): ResolvedBundle['members'][number] | undefined {
  return b && declaredMember(b, path);
}

/**
 * Seed 001's patch rule for the registry a URI names: a standalone `.objres` in the mount replaces
 * the one embedded in the part's container. A bundle-folder member says whether a standalone copy
 * is in effect (and from which source); a standalone copy says which embedded copy it replaces,
 * or, opened from one source, whether it is the copy the engine loads.
 */
export function patchRuleOf(mount: Mount, u: ArchUri, resolve: BundleResolver = (p) => resolveBundle(mount, p)): PatchView {
  if (u.view === 'sources') return { state: 'unresolved', text: 'not a file' };
  const path = u.view === 'bundle' ? u.member : u.path;
  const bundle = partBundle(u.view === 'bundle' ? u.bundle : path, resolve);
  const member = memberOf(bundle, path);
  const container = bundle?.container;
  const embeddedIn = member?.embedded && container ? `the copy embedded in ${container.path} (${container.source})` : undefined;
  let winner: { source: string; copies: string[] } | undefined;
  try {
    const w = mount.which(path);
    if (w) winner = { source: w.winner.source.name, copies: w.copies.map((c) => c.source.name) };
  } catch (e) {
    if (!isArch06Error(e)) throw e;
  }
  const others = (self: string): string => {
    const rest = winner?.copies.filter((c) => c !== self) ?? [];
    return rest.length ? `; it shadows the standalone ${rest.length === 1 ? 'copy' : 'copies'} in ${rest.join(', ')}` : '';
  };
  if (u.view === 'bundle') {
    if (member?.servedFrom === 'loose' && member.source)
      return {
        state: 'standalone',
        text: `A standalone copy in ${member.source} is in effect${embeddedIn ? `: the engine loads it instead of ${embeddedIn}` : ''}${others(member.source)}`,
      };
    if (member?.servedFrom === 'container')
      return {
        state: 'embedded',
        text: `${embeddedIn ? 'T' + embeddedIn.slice(1) : 'The embedded copy'} is in effect: no mounted source ships a standalone copy`,
      };
    return { state: 'unresolved', text: `the bundle ${bundle ? bundle.manifest.path : ''} does not serve this registry` };
  }
  const self = u.view === 'source' ? u.source : winner?.source;
  if (u.view === 'source' && winner && winner.source !== self)
    return { state: 'shadowed', text: `Not in effect: the engine loads the standalone copy in ${winner.source}, not this one (${self})` };
  if (embeddedIn) return { state: 'standalone', text: `This standalone copy (${self}) is in effect: it replaces ${embeddedIn}${others(self ?? '')}` };
  return { state: 'alone', text: `A standalone registry (${self}): no container of its part embeds a copy${others(self ?? '')}` };
}

/**
 * The part's own script (`x.scripts` for `x.objres`) as the engine serves it (core/archive
 * `locatePartScript`, the one served-part rule: `near` first, then the loose winner, else the
 * member of the part's bundle), read and listed (`partScriptNames`). Never throws for a script that
 * is absent or does not parse: the note says so.
 */
export async function loadPartScript(mount: Mount, registryPath: string, near: PartScriptNear = {}): Promise<PartScript> {
  const path = ownScriptPath(registryPath);
  let at: LocatedPartScript;
  try {
    at = locatePartScript(mount, registryPath, near);
  } catch (e) {
    if (!isArch06Error(e)) throw e;
    if (e.code === 'NOT_FOUND')
      return { path, note: `the part's script ${path} is in no mounted source and in no container of its bundle: bound names are not checked` };
    return { path, note: `the part's script ${path} could not be located: ${e.message}` };
  }
  const from = servedFromText(at);
  const where = { path, uriPath: partScriptUriPath(mount, at), from };
  try {
    const bytes = await readEntryCheckedAsync(at.entry, { maxBytes: mount.maxEntryBytes, checkHeader: headerCheckFor(path) ?? null, name: at.entry.path });
    const names = partScriptNames(bytes, path);
    if (!names) return { ...where, note: `the part's script (${from}) is compiled Havok Script: bound names are not checked` };
    return {
      ...where,
      functions: names.functions,
      source: names.source,
      note: `bound names checked against the part's script (${from}, ${plural(names.functions.length, 'definition')})`,
    };
  } catch (e) {
    if (!isArch06Error(e)) throw e;
    return { ...where, note: `the part's script (${from}) could not be read: ${e.message}` };
  }
}

/** The `arch06:` URI path a located script opens at: its bundle folder's member, one source's own copy, or the merged view's. */
function partScriptUriPath(mount: Mount, at: LocatedPartScript): string {
  if (at.bundle && at.member) return bundleMemberUriPath(at.bundle.manifest.path, at.member.path);
  const source = at.entry.source.name;
  if (mount.winner(at.entry.path)?.source.name === source) return mergedUriPath(at.entry.path);
  const i = mount.sources.findIndex((x) => x.name === source);
  return sourceUriPath(sourceFolderName(i + 1, mount.sources.length, source), at.entry.path);
}

// ---- objects ------------------------------------------------------------------------------

// ---- the whole model --------------------------------------------------------------------------

export interface RegistryModel {
  view: RegistryView;
  objects: ObjectTable;
  /** Index for index with `view.bindings`: what opening each does. */
  targets: BindingTarget[];
  registry: ObjectRegistry;
}

export interface RegistryInput {
  bytes: Uint8Array;
  /** The registry's game path (or file name outside the mount). */
  path: string;
  /** The part's script, when the registry was opened in the mount. */
  script?: PartScript;
  patch: PatchView;
}

function blockRows(reg: ObjectRegistry): BlockRow[] {
  return reg.blocks.map((b) => ({
    index: b.index,
    tag: b.tag,
    name: b.name ?? null,
    nameConfidence: b.nameConfidence ?? null,
    hash: formatHash(b.nameHash),
    offset: b.offset,
    size: b.size,
    state: b.error ? 'error' : b.decoded ? 'decoded' : 'raw',
    ...(b.error ? { error: b.error.message } : {}),
  }));
}

/** Groups for the view: a group several owners share is listed for its first owner; the others name that owner. */
function groupViews(groups: readonly GroupRow[]): GroupRowView[] {
  const first = new Map<readonly string[], string>();
  return groups.map((g) => {
    const head = { owner: g.owner, ownerHash: formatHash(g.ownerHash), memberCount: g.members.length };
    const same = g.members.length ? first.get(g.members) : undefined;
    if (same !== undefined) return { ...head, members: [], unknownMembers: [], sameMembersAs: same };
    if (g.members.length) first.set(g.members, g.owner ?? head.ownerHash);
    return { ...head, members: g.members, unknownMembers: g.unknownMembers };
  });
}

/** Build the model of a registry's bytes. Throws the reader's typed errors when the chain does not parse (the failure page). */
export function buildRegistryModel(input: RegistryInput): RegistryModel {
  const reg = parseObjr(input.bytes, input.path);
  const scriptPath = input.script?.path ?? ownScriptPath(input.path);
  const fns = new Map<string, ScriptDefinition>();
  for (const f of input.script?.functions ?? []) if (!fns.has(f.name)) fns.set(f.name, f);
  const res = resolveRegistry(reg, { scriptPath, functions: input.script?.functions ? new Set(fns.keys()) : undefined });
  const targets: BindingTarget[] = [];
  const lines = input.script?.source?.split('\n');
  /** A bound function's first lines, as the row's tooltip shows them (rows naming one function share it). */
  const previews = new Map<number, string | undefined>();
  const preview = (line: number): string | undefined => {
    if (!previews.has(line)) previews.set(line, lines && cell(lines.slice(line - 1, line - 1 + PREVIEW_LINES).join('\n')));
    return previews.get(line);
  };
  // Objects share runs of binding records: the rows they make are capped (the view states the true count).
  const bindings: BindingRowView[] = [...bindingRows(res, MAX_VIEW_ROWS)].map((b) => {
    const fn = b.function === null ? undefined : fns.get(b.function);
    let target: BindingTarget;
    if (!input.script) target = { reason: 'The registry was opened outside the mounted install: its script is not looked up.' };
    else if (!input.script.uriPath) target = { reason: `No copy of ${scriptPath} is mounted: ${input.script.note}.` };
    else if (!input.script.functions) target = { reason: `${input.script.note}.` };
    else if (b.function === null) target = { reason: 'The bound function name does not resolve in the SCRB strings.' };
    else if (!fn) target = { reason: `${cell(b.function)} is not defined in ${scriptPath} (${input.script.from}).` };
    else target = { uriPath: input.script.uriPath, line: fn.line };
    targets.push(target);
    return {
      object: cell(b.object),
      objectHash: formatHash(b.objectHash),
      className: cell(b.class),
      event: cell(b.event),
      function: cell(b.function),
      script: b.script ?? formatHash(b.scriptHash),
      scriptResolved: b.script !== null,
      binding: b.binding,
      line: fn?.line ?? null,
      kind: fn ? (fn.kind === 'hmake' ? 'hmake' : 'function') : null,
      problems: b.problems,
      openable: 'uriPath' in target,
      ...(fn && lines ? { preview: preview(fn.line) } : {}),
    };
  });
  const groups = groupViews(res.groups.slice(0, MAX_VIEW_ROWS));
  const objects = new ObjectTable(reg.objectList);
  const l = reg.objectList;
  const view: RegistryView = {
    title: input.path,
    size: reg.size,
    version: reg.version,
    hash: formatHash(reg.hash),
    confidence: reg.confidence,
    layout: {
      present: !!l,
      validated: l?.recordLayout.validated ?? false,
      confidence: l?.recordLayout.confidence ?? 'uncertain',
      reason: l ? (l.recordLayout.reason ?? null) : 'no OBJL block',
    },
    objectKind: objects.kind,
    objectCount: objects.total,
    classes: objects.classes,
    blocks: blockRows(reg),
    bindings,
    bindingRows: res.rowCount,
    bindingRecords: reg.bindings?.bindings.length ?? 0,
    bindingsResolved: res.bindingsResolved,
    groups,
    groupCount: res.groups.length,
    script: {
      path: scriptPath,
      from: input.script?.from ?? null,
      functions: input.script?.functions?.length ?? null,
      note: input.script?.note ?? 'opened outside the mounted install: the part’s script was not read',
    },
    patch: input.patch,
    problems: res.problems,
    notes: reg.notes,
  };
  return { view, objects, targets, registry: reg };
}

/** Most bytes of a block the hex view shows. */
const MAX_HEX_BYTES = 64 * 1024;

/** A block's payload as a hex view (its first `MAX_HEX_BYTES`), or undefined for an index outside the chain. */
export function blockHex(model: RegistryModel, index: number): { text: string; shown: number; size: number } | undefined {
  const b = model.registry.blocks[index];
  if (!b) return undefined;
  const shown = Math.min(b.size, MAX_HEX_BYTES);
  return { text: hexDump(b.raw, shown), shown, size: b.size };
}

/** One line for the output channel. */
export function summaryLine(v: RegistryView): string {
  const objects = v.objectKind === 'objects' ? plural(v.objectCount, 'object') : v.objectKind === 'raw' ? `${plural(v.objectCount, 'raw record')}` : 'no OBJL';
  return `${plural(v.blocks.length, 'block')}, ${objects}, ${plural(v.bindingRows, 'binding row')}, ${plural(v.groupCount, 'group')}; ${v.patch.text}`;
}
