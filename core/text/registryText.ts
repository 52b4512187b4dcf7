/**
 * An object registry (`.objres`, OBJR) as decoded text (syntax: ./syntax.ts): the block chain, the
 * OBJL objects (or, when the record layout does not validate, the reason, the string tables and
 * the records raw), the SCRB bindings resolved to objects, classes and the part's own script, the
 * raw SCRB records and object index, the ONLS groups, the GADB header, and every other block as hex.
 */
import { formatHash } from '../hash';
import { bindingRows, ownScriptPath, parseObjr, resolveRegistry } from '../formats/registry';
import type { GroupRow, ObjectRegistry, ResolvedRegistry } from '../formats/registry';
import { List, TextDoc, hex6, hexString } from './syntax';

export interface RegistryTextOptions {
  /** The part's own script path (default: the registry's path with `.scripts`). */
  scriptPath?: string;
  /** The names the part's script defines; when given, every bound name is checked against them. */
  functions?: ReadonlySet<string>;
  /** Where the script's names came from, for the header comment (e.g. "container of …"). */
  scriptNote?: string;
  /** Bytes of an undecoded block shown as hex (default 64 KiB each). */
  maxHexBytes?: number;
}

/** Render the bytes of a registry. Throws the reader's typed errors when the chain does not parse. */
export function renderRegistry(bytes: Uint8Array, path: string, options: RegistryTextOptions = {}): string {
  return renderParsedRegistry(parseObjr(bytes, path), path, options);
}

/** Object-binding rows a text expands at most (the summary's `rows` is the true count). */
const MAX_BINDING_ROWS = 20_000;

/** The groups, each shared group's members written for its first owner only. */
function writeGroups(d: TextDoc, groups: readonly GroupRow[]): void {
  const firstOwner = new Map<readonly string[], string>();
  d.each(groups, groups.length, (g) => {
    const owner = g.owner ?? formatHash(g.ownerHash);
    const same = g.members.length ? firstOwner.get(g.members) : undefined;
    if (same === undefined && g.members.length) firstOwner.set(g.members, owner);
    d.record(owner, [
      ['hash', g.owner === null ? undefined : formatHash(g.ownerHash)],
      ['members', same === undefined ? new List(g.members) : undefined],
      ['unknown', same === undefined && g.unknownMembers.length ? new List(g.unknownMembers) : undefined],
      ['count', same === undefined ? undefined : g.members.length],
      ['same', same],
    ]);
  });
}

/** The text, section by section in file order: header and block chain, OBJL objects, SCRB bindings, ONLS groups, GADB header, findings, undecoded blocks. */
function renderParsedRegistry(reg: ObjectRegistry, path: string, options: RegistryTextOptions = {}): string {
  const scriptPath = options.scriptPath ?? ownScriptPath(path);
  const res = resolveRegistry(reg, { scriptPath, functions: options.functions });
  const d = new TextDoc({ inputSize: reg.size });
  d.comment(`arch06 decoded text · object registry (OBJR) · ${path}`);
  d.comment('syntax: [section] headers, "key = value" fields, one record per line ("id key=value …"); hashes 0x%08X');
  writeChain(d, reg);
  writeObjects(d, reg);
  writeBindings(d, reg, res, scriptPath, options);
  d.section('groups', [['count', res.groups.length]]);
  d.comment('owner  members (ONLS: owner -> member names); owners whose entries point at one group list it once, the others say whose it is');
  writeGroups(d, res.groups);
  writeGadb(d, reg);
  writeFindings(d, reg, res);
  for (const b of reg.blocks) {
    if (b.decoded && !b.error) continue;
    d.section(`raw.${b.index}`, [
      ['tag', b.tag],
      ['name', b.name ?? formatHash(b.nameHash)],
      ['size', b.size],
    ]);
    d.hex(b.raw, b.offset, options.maxHexBytes);
  }
  return d.toString();
}

/** The OBJR header and its block chain. */
function writeChain(d: TextDoc, reg: ObjectRegistry): void {
  d.section('registry');
  d.field('version', reg.version);
  d.field('hash', formatHash(reg.hash));
  d.field('size', reg.size);
  d.field('blocks', reg.blocks.length);
  d.field('confidence', reg.confidence);

  d.section('blocks', [['count', reg.blocks.length]]);
  d.comment('index  tag (payload magic)  hash and registered name of the block  payload offset and size  reader');
  for (const b of reg.blocks)
    d.record(b.index, [
      ['tag', b.tag],
      ['hash', formatHash(b.nameHash)],
      ['name', b.name ?? null],
      ['offset', hex6(b.offset)],
      ['size', b.size],
      ['decoded', b.decoded],
      ['error', b.error?.message],
    ]);
}

/** OBJL: the objects, or (a record layout that did not validate) its string tables and raw records. */
function writeObjects(d: TextDoc, reg: ObjectRegistry): void {
  const l = reg.objectList;
  if (!l) {
    d.section('objects', [['layout', 'absent']]).comment('no OBJL block: objects cannot be named');
    return;
  }
  if (l.recordLayout.validated) {
    d.section('objects', [
      ['count', l.objects.length],
      ['sets', l.sets.length],
      ['layout', 'validated'],
    ]);
    d.comment('name  class  group  position (cm)  rotation (quaternion x, y, z, w)  template id  property record  set');
    d.each(l.objects, l.objects.length, (o) =>
      d.record(o.name, [
        ['class', o.className],
        ['group', o.group],
        ['pos', o.position],
        ['rot', o.rotation],
        ['template', formatHash(o.templateId)],
        ['props', o.propertyIndex],
        ['set', formatHash(o.set)],
        ['u16_0C', o.reserved0C || undefined],
        ['u32_2A', o.word2A || undefined],
      ]),
    );
    return;
  }
  d.section('objects', [
    ['count', l.objectCount],
    ['sets', l.sets.length],
    ['layout', 'not-validated'],
    ['reason', l.recordLayout.reason ?? null],
  ]);
  d.comment('the 50-byte record layout did not validate: the string tables and the records raw follow');
  for (const [name, table] of [
    ['classes', l.classes],
    ['names', l.names],
    ['groups', l.groups],
  ] as const) {
    d.section(`objects.${name}`, [['count', table.byOffset.size]]);
    d.each(table.byOffset, table.byOffset.size, ([offset, s]) => d.record(s, [['offset', offset]]));
  }
  d.section('objects.records', [['count', l.rawRecords.length]]);
  d.each(l.rawRecords, l.rawRecords.length, (r) =>
    d.record(hex6(r.offset), [
      ['set', formatHash(r.set)],
      ['bytes', hexString(r.bytes)],
    ]),
  );
}

/** SCRB: the object-binding rows resolved against the part's script, then the raw records and object index. */
function writeBindings(d: TextDoc, reg: ObjectRegistry, res: ResolvedRegistry, scriptPath: string, options: RegistryTextOptions): void {
  const s = reg.bindings;
  const scriptHash = s?.bindings[0]?.scriptHash;
  const shownRows = Math.min(res.rowCount, MAX_BINDING_ROWS);
  d.section('bindings', [
    ['rows', res.rowCount],
    ['records', s?.bindings.length ?? 0],
    ['resolved', res.bindingsResolved],
    ['shown', shownRows < res.rowCount ? shownRows : undefined],
  ]);
  d.field('script', scriptPath);
  if (scriptHash !== undefined) d.field('script.hash', formatHash(scriptHash));
  d.field('script.names', options.functions ? options.functions.size : null);
  if (options.scriptNote) d.comment(options.scriptNote);
  if (!options.functions) d.comment("the part's script was not read: bound names are not checked against it");
  d.comment('object  class  event  bound function or hmake object  binding record  found in the script; one row per object and binding');
  if (shownRows < res.rowCount)
    d.comment(
      `the first ${shownRows} of ${res.rowCount} rows: objects share runs of binding records, and the rows they make are capped here ([bindings.records] and [bindings.index] list what the file holds)`,
    );
  d.each(bindingRows(res, shownRows), shownRows, (b) =>
    d.record(b.object ?? formatHash(b.objectHash), [
      ['class', b.class],
      ['event', b.event],
      ['function', b.function],
      ['binding', b.binding],
      ['found', b.functionFound],
      ['script', b.script === null ? formatHash(b.scriptHash) : undefined],
      ['problem', b.problems.length ? b.problems.join('; ') : undefined],
    ]),
  );
  if (!s) return;
  d.section('bindings.records', [['count', s.bindings.length]]);
  d.comment('index  event (and its hash)  function  script hash  record offset');
  d.each(s.bindings, s.bindings.length, (b) =>
    d.record(b.index, [
      ['event', b.event],
      ['event.hash', formatHash(b.eventHash)],
      ['function', b.function],
      ['script', formatHash(b.scriptHash)],
      ['offset', hex6(b.offset)],
    ]),
  );
  d.section('bindings.index', [
    ['count', s.objects.length],
    ['sorted', s.sortedByHash],
  ]);
  d.comment('object hash  first binding record  count');
  d.each(s.objects, s.objects.length, (o) =>
    d.record(formatHash(o.hash), [
      ['first', o.firstBinding],
      ['count', o.count],
    ]),
  );
}

/** GADB: the header words only. */
function writeGadb(d: TextDoc, reg: ObjectRegistry): void {
  if (!reg.objProps) return;
  d.section('gadb', [
    ['version', reg.objProps.version],
    ['confidence', reg.objProps.confidence],
  ]);
  d.comment('the header only: the nine words after magic and version, with the public labels');
  for (const w of reg.objProps.words)
    d.record(hex6(w.offset), [
      ['label', w.label],
      ['value', w.value],
    ]);
}

/** What the resolver found wrong, and the reader's notes. */
function writeFindings(d: TextDoc, reg: ObjectRegistry, res: ResolvedRegistry): void {
  if (res.problems.length) {
    d.section('problems', [['count', res.problems.length]]);
    d.each(res.problems, res.problems.length, (p) => d.record(p));
  }
  if (reg.notes.length) {
    d.section('notes', [['count', reg.notes.length]]);
    for (const n of reg.notes) d.record(n);
  }
}
