/**
 * `dump <root> <path> [--json] [--source S]`: the decoded structure of a bundle (`.bndl` / `.embb`:
 * its members, each served as the engine would), a string table (`.strdb`), an object registry
 * (`.objres`: blocks, objects, script bindings resolved against the part's own script, groups) or a
 * script (`.scripts` / `.hks`: header, kind, top-level functions).
 *
 * `<path>` is a mount path, or a path inside a bundle folder (`x.bndl [bundle]\<member path>`, as the
 * extension shows them). A mount path no source holds is looked up as a member of the bundle of its
 * own stem (a layer's `.objres` and `.scripts` live in the layer's container): loose entry first,
 * then the container, as the engine serves it. Entries are read header-first within the per-entry
 * memory cap (cli/limits.ts).
 */
import { Arch06Error, isArch06Error } from '../../core/errors';
import { EntryByteSource, bundleFolderPath, bundleStem, locateBundleMember, resolveBundle } from '../../core/archive';
import type { Mount, ResolvedBundle, SourceEntry } from '../../core/archive';
import { readEmbb } from '../../core/formats/bundle';
import { checkEntrySize } from '../../core/io/node';
import { FieldReader, expectMagicVersion, startsWithTag } from '../../core/io';
import { formatHash } from '../../core/hash';
import { SKDB_VERSION, parseSkdb } from '../../core/formats/strings';
import { SCRI_VERSION, listFunctions, parseScript } from '../../core/formats/script';
import { OBJR_VERSION, ownScriptPath, parseObjr, resolveRegistry } from '../../core/formats/registry';
import { ParsedArgs, flagString, need } from '../args';
import { HEADER_PREFIX_BYTES, RAISE_CAP_HINT, maxEntryBytes, readEntryChecked } from '../limits';
import { escapeControls, escapeName, printJson, writeOut } from '../output';
import { openMount } from './mountCommands';

type Kind = 'bundle' | 'strings' | 'registry' | 'script';

function kindOf(p: string): Kind {
  const ext = /\.([^.\\/]+)$/.exec(p)?.[1].toLowerCase();
  if (ext === 'bndl' || ext === 'embb') return 'bundle';
  if (ext === 'strdb') return 'strings';
  if (ext === 'objres') return 'registry';
  if (ext === 'scripts' || ext === 'hks') return 'script';
  throw new Arch06Error('BAD_ARGUMENT', 'dump reads bundles (.bndl, .embb), string tables (.strdb), object registries (.objres) and scripts (.scripts, .hks)', {
    actual: p,
  });
}

/** Where a dumped file's bytes came from. */
interface Served {
  /** The game path read. */
  path: string;
  servedFrom: 'loose' | 'container';
  source: string;
  /** The bundle whose member it is, when read through one. */
  bundle?: string;
}

/** The magic-and-version check a kind starts with, on an entry's first bytes. */
function headerCheck(kind: Kind, file: string): (prefix: Uint8Array) => void {
  return (prefix) => {
    if (prefix.length < 8) return; // the whole entry is this short: the parser reports it
    const r = new FieldReader(prefix, file);
    if (kind === 'strings') expectMagicVersion(r, 'SKDB', [SKDB_VERSION], 'SKDB', { what: 'an SKDB string table' });
    else if (kind === 'registry') expectMagicVersion(r, 'OBJR', [OBJR_VERSION], 'OBJR', { what: 'an OBJR object registry' });
    else if (kind === 'script' && startsWithTag(r, 'SCRI')) expectMagicVersion(r, 'SCRI', [SCRI_VERSION], 'SCRI', { what: 'a SCRI script' });
  };
}

/** A member's bytes, header first and within the cap, as readEntryChecked reads entries. */
function readMemberChecked(m: Mount, bundle: ResolvedBundle, member: string, check: (prefix: Uint8Array) => void): { bytes: Uint8Array; served: Served } {
  const { entry, start, end } = locateBundleMember(m, bundle, member);
  const declared = bundle.members.find((x) => x.path.toLowerCase() === member.toLowerCase().replace(/\//g, '\\'))!;
  check(entry.readSync(start, Math.min(end, start + HEADER_PREFIX_BYTES)));
  checkEntrySize(end - start, member, maxEntryBytes(), RAISE_CAP_HINT);
  const served: Served = {
    path: declared.path,
    servedFrom: declared.servedFrom === 'loose' ? 'loose' : 'container',
    source: entry.source.name,
    bundle: `${bundle.stem}.bndl`,
  };
  return { bytes: entry.readSync(start, end), served };
}

const isNotFound = (e: unknown): boolean => isArch06Error(e) && e.code === 'NOT_FOUND';

const declares = (bundle: ResolvedBundle, member: string): boolean => {
  const k = member.toLowerCase().replace(/\//g, '\\');
  return bundle.members.some((x) => x.path.toLowerCase() === k);
};

/**
 * A game path's bytes as the engine serves them: the mount's entry (or --source's copy), else the
 * member of the bundle of the same stem (`x.objres` in `x.bndl`). `within`, the bundle a registry
 * was read from, is asked first.
 */
function readGamePath(m: Mount, p: string, kind: Kind, source?: string, within?: ResolvedBundle): { bytes: Uint8Array; served: Served } {
  const check = headerCheck(kind, p);
  if (within && declares(within, p)) return readMemberChecked(m, within, p, check);
  let entry: SourceEntry;
  try {
    entry = m.entry(p, source);
  } catch (e) {
    if (!isNotFound(e) || source !== undefined) throw e;
    let bundle: ResolvedBundle;
    try {
      bundle = resolveBundle(m, `${bundleStem(p.replace(/\.[^.\\/]+$/, ''))}.bndl`);
    } catch (b) {
      if (isNotFound(b)) throw e;
      throw b;
    }
    if (!declares(bundle, p)) throw e;
    return readMemberChecked(m, bundle, p, check);
  }
  return { bytes: readEntryChecked(entry, p, check), served: { path: entry.path, servedFrom: 'loose', source: entry.source.name } };
}

export function dumpCommand(args: ParsedArgs): number {
  const extra = args.positionals.slice(2);
  if (extra.length) throw new Arch06Error('BAD_ARGUMENT', `unexpected argument ${JSON.stringify(extra[0])}`);
  const m = openMount(args);
  try {
    const input = need(args, 1, '<path>');
    const json = args.flags.has('json');
    const source = flagString(args, 'source');
    const folder = bundleFolderPath(input);
    if (folder && !folder.member) return dumpBundle(m, folder.bundle, json);
    const p = folder ? folder.member : input;
    const kind = kindOf(p);
    if (kind === 'bundle') {
      if (folder) throw new Arch06Error('BAD_ARGUMENT', 'a bundle inside a bundle folder is dumped by its own path', { actual: input });
      return dumpBundle(m, p, json);
    }
    let within: ResolvedBundle | undefined;
    let read: { bytes: Uint8Array; served: Served };
    if (folder) {
      within = resolveBundle(m, folder.bundle);
      read = readMemberChecked(m, within, p, headerCheck(kind, p));
    } else read = readGamePath(m, p, kind, source);
    if (kind === 'strings') return dumpStrings(read.bytes, read.served, json);
    if (kind === 'script') return dumpScript(read.bytes, read.served, json);
    return dumpRegistry(m, read.bytes, read.served, json, within);
  } finally {
    m.close();
  }
}

// ---- bundles ---------------------------------------------------------------------------

function dumpBundle(m: Mount, p: string, json: boolean): number {
  let b: ResolvedBundle;
  try {
    b = resolveBundle(m, p);
  } catch (e) {
    // A container without a manifest: list what the container holds.
    if (!isNotFound(e) || !/\.embb$/i.test(p)) throw e;
    return dumpContainer(m, p, json);
  }
  if (json) {
    printJson({
      stem: b.stem,
      type: b.type,
      manifest: b.manifest,
      container: b.container ?? null,
      members: b.members.map((x) => ({
        path: x.path,
        declaredSize: x.declaredSize,
        servedFrom: x.servedFrom,
        source: x.source ?? null,
        size: x.size ?? null,
        sizeMatchesDeclared: x.sizeMatchesDeclared,
        note: x.note ?? null,
      })),
      undeclared: b.undeclared,
      mirror: b.mirror ?? null,
      counts: b.counts,
      notes: b.notes,
    });
    return 0;
  }
  const lines = [
    `${escapeName(b.manifest.path)}  type ${escapeName(b.type) || '(none)'}  manifest from ${escapeName(b.manifest.source)}` +
      (b.container
        ? `; container ${escapeName(b.container.path)} from ${escapeName(b.container.source)}, ${b.container.memberCount} members`
        : '; no container'),
    `${'served'.padEnd(9)} ${'declared'.padStart(10)} ${'size'.padStart(10)}  ${'source'.padEnd(20)} path`,
  ];
  for (const x of b.members) {
    lines.push(
      `${x.servedFrom.padEnd(9)} ${String(x.declaredSize).padStart(10)} ${String(x.size ?? '-').padStart(10)}  ${escapeName(x.source ?? '-').padEnd(20)} ${escapeName(x.path)}${x.sizeMatchesDeclared || x.servedFrom === 'missing' ? '' : '  (size differs from the declared size)'}`,
    );
    if (x.note) lines.push(`          note: ${escapeName(x.note)}`);
  }
  for (const u of b.undeclared) lines.push(`undeclared in the container: ${escapeName(u.path)} (${u.size} bytes)`);
  lines.push(
    `container ${b.counts.container}, loose ${b.counts.loose}, missing ${b.counts.missing}` +
      (b.mirror ? `; the manifest ${b.mirror.mirrors ? 'mirrors' : 'does not mirror'} the container` : ''),
  );
  for (const n of b.notes) lines.push(`note: ${escapeName(n)}`);
  writeOut(lines.join('\n') + '\n');
  return 0;
}

function dumpContainer(m: Mount, p: string, json: boolean): number {
  const entry = m.entry(p);
  const c = readEmbb(new EntryByteSource(entry));
  const notes = ['no manifest (.bndl) for this container in any mounted source: members as the container lists them', ...c.notes];
  const members = c.members.map((x) => ({
    path: x.path,
    declaredSize: null,
    servedFrom: 'container',
    source: entry.source.name,
    size: x.size,
    offset: x.offset,
  }));
  if (json) printJson({ container: { path: entry.path, source: entry.source.name, size: entry.size, confidence: c.confidence }, members, notes });
  else
    writeOut(
      [
        `${escapeName(entry.path)} from ${escapeName(entry.source.name)}: ${members.length} members`,
        ...members.map((x) => `${String(x.size).padStart(10)}  ${escapeName(x.path)}`),
        ...notes.map((n) => `note: ${escapeName(n)}`),
      ].join('\n') + '\n',
    );
  return 0;
}

// ---- string tables, scripts ------------------------------------------------------------

function servedLine(s: Served): string {
  return `${escapeName(s.path)} (${s.servedFrom} from ${escapeName(s.source)}${s.bundle ? `, bundle ${escapeName(s.bundle)}` : ''})`;
}

function dumpStrings(bytes: Uint8Array, served: Served, json: boolean): number {
  const t = parseSkdb(bytes, served.path);
  if (json) {
    printJson({
      ...served,
      version: t.version,
      keys: t.keyCount,
      textUnits: t.textUnits,
      distinctTexts: t.distinctTexts,
      confidence: t.confidence,
      entries: t.entries.map((e) => ({ hash: formatHash(e.hash), text: e.text })),
      notes: t.notes,
    });
    return 0;
  }
  const lines = [
    servedLine(served),
    `SKDB v${t.version}: ${t.keyCount} keys, ${t.distinctTexts} distinct texts, ${t.textUnits} UTF-16 units (${t.confidence})`,
  ];
  for (const e of t.entries) lines.push(`${formatHash(e.hash)}  ${escapeControls(e.text)}`);
  for (const n of t.notes) lines.push(`note: ${escapeControls(n)}`);
  writeOut(lines.join('\n') + '\n');
  return 0;
}

function dumpScript(bytes: Uint8Array, served: Served, json: boolean): number {
  const s = parseScript(bytes, served.path);
  const functions = s.source !== undefined ? listFunctions(s.source) : [];
  if (json) {
    printJson({
      ...served,
      version: s.header?.version ?? null,
      flag: s.header?.flag ?? null,
      hasHeader: s.header !== undefined,
      kind: s.kind,
      payloadOffset: s.payloadOffset,
      payloadSize: s.payloadSize,
      bytecode: s.bytecode ?? null,
      functions,
      confidence: s.confidence,
      notes: s.notes,
    });
    return 0;
  }
  const lines = [
    servedLine(served),
    s.header
      ? `SCRI v${s.header.version}, u8 @0x08 = ${s.header.flag}, payload ${s.payloadSize} bytes at 0x${s.payloadOffset.toString(16)}`
      : `no SCRI header: a bare payload of ${s.payloadSize} bytes`,
  ];
  if (s.kind === 'bytecode') {
    const b = s.bytecode!;
    lines.push(
      `compiled Havok Script (only its header is read): version 0x${b.version.toString(16)}, format ${b.format}, endianness ${b.endianness}, int ${b.intSize}, size_t ${b.sizeTSize}, instruction ${b.instructionSize}, number ${b.numberSize} (type ${b.numberType}), flags ${b.flags}`,
    );
  } else {
    lines.push(`source, ${functions.length} top-level definitions:`);
    for (const f of functions)
      lines.push(`${String(f.line).padStart(7)}  ${escapeName(f.name)}${f.kind === 'hmake' ? `  (hmake ${escapeName(f.type ?? '')})` : ''}`);
  }
  for (const n of s.notes) lines.push(`note: ${escapeControls(n)}`);
  writeOut(lines.join('\n') + '\n');
  return 0;
}

// ---- registries ------------------------------------------------------------------------

const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

function dumpRegistry(m: Mount, bytes: Uint8Array, served: Served, json: boolean, within: ResolvedBundle | undefined): number {
  const reg = parseObjr(bytes, served.path);
  const scriptPath = ownScriptPath(served.path);
  // The part's own script, as the engine serves it; without it, function names are not checked.
  let functions: Set<string> | undefined;
  let script: { path: string; servedFrom?: string; source?: string; functions?: number; error?: string };
  try {
    const s = readGamePath(m, scriptPath, 'script', undefined, within);
    const parsed = parseScript(s.bytes, s.served.path);
    script = { path: s.served.path, servedFrom: s.served.servedFrom, source: s.served.source };
    if (parsed.source !== undefined) {
      functions = new Set(listFunctions(parsed.source).map((f) => f.name));
      script.functions = functions.size;
    } else script.error = 'compiled script: function names are not checked';
  } catch (e) {
    if (!isArch06Error(e)) throw e;
    script = { path: scriptPath, error: e.message };
  }
  const res = resolveRegistry(reg, { scriptPath, functions });
  const l = reg.objectList;
  const layout = l ? { validated: l.recordLayout.validated, reason: l.recordLayout.reason ?? null } : { validated: false, reason: 'no OBJL block' };
  const blocks = reg.blocks.map((b) => ({
    index: b.index,
    tag: b.tag,
    name: b.name ?? null,
    nameHash: formatHash(b.nameHash),
    offset: b.offset,
    size: b.size,
    decoded: b.decoded ?? null,
    error: b.error?.message ?? null,
  }));
  const objects = (l?.objects ?? []).map((o) => ({
    set: formatHash(o.set),
    name: o.name,
    class: o.className,
    group: o.group,
    position: o.position,
    rotation: o.rotation,
    templateId: formatHash(o.templateId),
    propertyIndex: o.propertyIndex,
  }));
  const bindings = res.bindings.map((b) => ({
    object: b.object ?? formatHash(b.objectHash),
    class: b.class,
    event: b.event,
    function: b.function,
    scriptHash: formatHash(b.scriptHash),
    script: b.script,
    problems: b.problems,
  }));
  const groups = res.groups.map((g) => ({ owner: g.owner ?? formatHash(g.ownerHash), members: g.members }));
  if (json) {
    printJson({
      ...served,
      version: reg.version,
      hash: formatHash(reg.hash),
      confidence: reg.confidence,
      blocks,
      objects,
      bindings,
      groups,
      recordLayout: layout,
      ...(l && !l.recordLayout.validated
        ? {
            strings: { classes: [...l.classes.byOffset.values()], names: [...l.names.byOffset.values()], groups: [...l.groups.byOffset.values()] },
            rawRecords: l.rawRecords.map((r) => ({ set: formatHash(r.set), offset: r.offset, bytes: hex(r.bytes) })),
          }
        : {}),
      objProps: reg.objProps ? { version: reg.objProps.version, words: reg.objProps.words } : null,
      ownScript: script,
      bindingsResolved: res.bindingsResolved,
      problems: res.problems,
      notes: reg.notes,
    });
    return 0;
  }
  const lines = [servedLine(served), `OBJR v${reg.version}, hash ${formatHash(reg.hash)}, ${reg.blocks.length} blocks (${reg.confidence})`];
  for (const b of blocks)
    lines.push(
      `  ${String(b.index).padStart(3)}  ${(b.tag ?? '-').padEnd(4)}  ${(b.name ?? '?').padEnd(20)} ${b.nameHash}  @0x${b.offset.toString(16).padStart(6, '0')}  ${String(b.size).padStart(9)} bytes${b.error ? `  error: ${escapeControls(b.error)}` : ''}`,
    );
  if (!l) lines.push('objects: no OBJL block');
  else if (l.recordLayout.validated) {
    lines.push(`objects: ${objects.length} (record layout validated)`);
    for (const o of objects)
      lines.push(
        `  ${escapeName(o.class).padEnd(28)} ${escapeName(o.name)}${o.group ? `  [${escapeName(o.group)}]` : ''}  (${o.position.map((x) => +x.toFixed(2)).join(', ')})  template ${o.templateId}`,
      );
  } else {
    lines.push(`objects: record layout NOT validated: ${escapeControls(l.recordLayout.reason ?? '')}; the names from the table, the records raw:`);
    for (const n of l.names.byOffset.values()) lines.push(`  ${escapeName(n)}`);
    for (const r of l.rawRecords) lines.push(`  @0x${r.offset.toString(16)} ${hex(r.bytes)}`);
  }
  lines.push(
    `script: ${escapeName(script.path)}${script.servedFrom ? ` (${script.servedFrom} from ${escapeName(script.source ?? '')}, ${script.functions ?? 0} definitions)` : ''}${script.error ? ` (${escapeControls(script.error)})` : ''}`,
  );
  lines.push(`bindings: ${bindings.length} rows over ${reg.bindings?.bindings.length ?? 0} binding records${res.bindingsResolved ? ', all resolved' : ''}`);
  for (const b of bindings)
    lines.push(
      `  ${escapeName(b.object)} (${escapeName(b.class ?? '?')})  ${escapeName(b.event ?? '?')} -> ${escapeName(b.function ?? '?')}${b.problems.length ? `  PROBLEM: ${escapeControls(b.problems.join('; '))}` : ''}`,
    );
  lines.push(`groups: ${groups.length}`);
  for (const g of groups) lines.push(`  ${escapeName(g.owner)}: ${g.members.map(escapeName).join(', ')}`);
  for (const p of res.problems) lines.push(`problem: ${escapeControls(p)}`);
  for (const n of reg.notes) lines.push(`note: ${escapeControls(n)}`);
  writeOut(lines.join('\n') + '\n');
  return 0;
}
