/**
 * `dump <root> <path> [--json] [--source S]`: the decoded structure of a bundle (`.bndl` / `.embb`:
 * its members, each served as the engine would), a string table (`.strdb`), an object registry
 * (`.objres`: blocks, objects, script bindings resolved against the part's own script, groups) or a
 * script (`.scripts` / `.hks`: header, kind, top-level functions).
 *
 * `<path>` is a mount path, or a path inside a bundle folder (`x.bndl [bundle]\<member path>`, as the
 * extension shows them). A mount path no source holds is looked up as a member of the bundle of its
 * own stem (a layer's `.objres` and `.scripts` live in the layer's container): loose entry first,
 * then the container, as the engine serves it (one rule for every command: core/archive
 * `locateAddress`). Entries are read header-first within the per-entry memory cap (cli/limits.ts).
 */
import { Arch06Error, isArch06Error } from '../../core/errors';
import { EntryByteSource, bundleFolderPath, locateAddress, resolveBundle } from '../../core/archive';
import type { Mount, ResolvedBundle } from '../../core/archive';
import { readEmbb } from '../../core/formats/bundle';
import { formatHash } from '../../core/hash';
import { parseSkdb } from '../../core/formats/strings';
import { parseScript } from '../../core/formats/script';
import { scriptDefinitions } from '../../core/havokScript';
import { ParsedArgs, flagString, need } from '../args';
import { OutputBudget } from '../output';
import { openMount } from './mountCommands';
import { dumpRegistry } from './dumpRegistry';
import { type Served, readLocated, servedLine } from './served';

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
    const at = locateAddress(m, input, { source });
    const read = readLocated(m, at);
    if (kind === 'strings') return dumpStrings(read.bytes, read.served, json);
    if (kind === 'script') return dumpScript(read.bytes, read.served, json);
    return dumpRegistry(m, read, json, at.bundle);
  } finally {
    m.close();
  }
}

const isNotFound = (e: unknown): boolean => isArch06Error(e) && e.code === 'NOT_FOUND';

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
  const out = new OutputBudget(b.manifest.size);
  const members = out.items(b.members);
  if (json) {
    out.writeJson({
      stem: b.stem,
      type: b.type,
      manifest: b.manifest,
      container: b.container ?? null,
      memberCount: b.members.length,
      members: members.map((x) => ({
        path: x.path,
        declaredSize: x.declaredSize,
        servedFrom: x.servedFrom,
        source: x.source ?? null,
        size: x.size ?? null,
        sizeMatchesDeclared: x.sizeMatchesDeclared,
        note: x.note ?? null,
      })),
      undeclared: out.items(b.undeclared),
      undeclaredCount: b.undeclared.length,
      mirror: b.mirror ?? null,
      counts: b.counts,
      notes: b.notes,
    });
    return 0;
  }
  out.line(
    `${out.name(b.manifest.path)}  type ${out.name(b.type) || '(none)'}  manifest from ${out.name(b.manifest.source)}` +
      (b.container ? `; container ${out.name(b.container.path)} from ${out.name(b.container.source)}, ${b.container.memberCount} members` : '; no container'),
  );
  out.line(`${'served'.padEnd(9)} ${'declared'.padStart(10)} ${'size'.padStart(10)}  ${'source'.padEnd(20)} path`);
  for (const x of members) {
    if (out.full) break;
    out.line(
      `${x.servedFrom.padEnd(9)} ${String(x.declaredSize).padStart(10)} ${String(x.size ?? '-').padStart(10)}  ${out.name(x.source ?? '-').padEnd(20)} ${out.name(x.path)}${x.sizeMatchesDeclared || x.servedFrom === 'missing' ? '' : '  (size differs from the declared size)'}`,
    );
    if (x.note) out.line(`          note: ${out.text(x.note)}`);
  }
  out.omit(b.members.length - members.length);
  for (const u of out.items(b.undeclared)) out.line(`undeclared in the container: ${out.name(u.path)} (${u.size} bytes)`);
  out.line(
    `${b.members.length} members: container ${b.counts.container}, loose ${b.counts.loose}${b.counts.empty ? `, empty ${b.counts.empty}` : ''}, missing ${b.counts.missing}` +
      (b.mirror ? `; the manifest ${b.mirror.mirrors ? 'mirrors' : 'does not mirror'} the container` : ''),
  );
  for (const n of b.notes) out.line(`note: ${out.text(n)}`);
  out.writeText();
  return 0;
}

function dumpContainer(m: Mount, p: string, json: boolean): number {
  const entry = m.entry(p);
  const c = readEmbb(new EntryByteSource(entry));
  const notes = ['no manifest (.bndl) for this container in any mounted source: members as the container lists them', ...c.notes];
  const out = new OutputBudget(c.size);
  const members = out.items(c.members).map((x) => ({
    path: x.path,
    declaredSize: null,
    servedFrom: 'container',
    source: entry.source.name,
    size: x.size,
    offset: x.offset,
  }));
  if (json)
    out.writeJson({
      container: { path: entry.path, source: entry.source.name, size: entry.size, confidence: c.confidence },
      memberCount: c.members.length,
      members,
      notes,
    });
  else {
    out.line(`${out.name(entry.path)} from ${out.name(entry.source.name)}: ${c.members.length} members`);
    for (const x of members) out.line(`${String(x.size).padStart(10)}  ${out.name(x.path)}`);
    out.omit(c.members.length - members.length);
    for (const n of notes) out.line(`note: ${out.text(n)}`);
    out.writeText();
  }
  return 0;
}

// ---- string tables, scripts ------------------------------------------------------------

function dumpStrings(bytes: Uint8Array, served: Served, json: boolean): number {
  const t = parseSkdb(bytes, served.path);
  const out = new OutputBudget(bytes.length);
  const entries = out.items(t.entries);
  if (json) {
    out.writeJson({
      ...served,
      version: t.version,
      keys: t.keyCount,
      textUnits: t.textUnits,
      distinctTexts: t.distinctTexts,
      confidence: t.confidence,
      entries: entries.map((e) => ({ hash: formatHash(e.hash), text: e.text })),
      notes: t.notes,
    });
    return 0;
  }
  out.line(servedLine(out, served));
  out.line(`SKDB v${t.version}: ${t.keyCount} keys, ${t.distinctTexts} distinct texts, ${t.textUnits} UTF-16 units (${t.confidence})`);
  for (const e of entries) {
    if (out.full) break;
    out.line(`${formatHash(e.hash)}  ${out.text(e.text)}`);
  }
  out.omit(t.entries.length - entries.length);
  for (const n of t.notes) out.line(`note: ${out.text(n)}`);
  out.writeText();
  return 0;
}

function dumpScript(bytes: Uint8Array, served: Served, json: boolean): number {
  const s = parseScript(bytes, served.path);
  // The top-level definitions (an object's methods are under it, not listed here).
  const functions = s.source !== undefined ? scriptDefinitions(s.source).filter((d) => d.kind !== 'method') : [];
  const out = new OutputBudget(bytes.length);
  if (json) {
    out.writeJson({
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
  out.line(servedLine(out, served));
  out.line(
    s.header
      ? `SCRI v${s.header.version}, u8 @0x08 = ${s.header.flag}, payload ${s.payloadSize} bytes at 0x${s.payloadOffset.toString(16)}`
      : `no SCRI header: a bare payload of ${s.payloadSize} bytes`,
  );
  if (s.kind === 'bytecode') {
    const b = s.bytecode!;
    out.line(
      `compiled Havok Script (only its header is read): version 0x${b.version.toString(16)}, format ${b.format}, endianness ${b.endianness}, int ${b.intSize}, size_t ${b.sizeTSize}, instruction ${b.instructionSize}, number ${b.numberSize} (type ${b.numberType}), flags ${b.flags}`,
    );
  } else {
    out.line(`source, ${functions.length} top-level definitions:`);
    for (const f of functions) out.line(`${String(f.line).padStart(7)}  ${out.name(f.name)}${f.kind === 'hmake' ? `  (hmake ${out.name(f.type ?? '')})` : ''}`);
  }
  for (const n of s.notes) out.line(`note: ${out.text(n)}`);
  out.writeText();
  return 0;
}
