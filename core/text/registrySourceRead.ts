/**
 * Compiles a registry text (./registrySource.ts) back to the registry's bytes. Every line is
 * checked; what the syntax cannot express (a name with NUL or a character beyond one byte, a
 * rotation that is not a unit quaternion, a key or member that names no object, a hex line out of
 * place, a record numbered out of order, a run past the records) fails with an `Arch06Error`
 * (INVALID) whose message starts `line N:` with the reason, and nothing is returned. The result is
 * read again by the registry reader before it is returned.
 */
import { Arch06Error, isArch06Error } from '../errors';
import { defaultHasher } from '../hash/stringHash';
import { ByteWriter } from '../io/byteWriter';
import {
  ModelBlock,
  ModelObject,
  ModelSet,
  OnlsGroupSpec,
  QUATERNION_TOLERANCE,
  RegistryModel,
  ScrbIndexSpec,
  ScrbRecordSpec,
  parseObjr,
  quaternionFromDegrees,
  saveRegistry,
} from '../formats/registry';
import { LineTokens, TextLineError, Token, lineTokens } from './lineTokens';
import { REGISTRY_TEXT_FORMAT, REGISTRY_TEXT_VERSION, nameProblem, registryToText } from './registrySource';

/** A name or hash that stays unresolved until every OBJL name is known. */
interface Key {
  line: number;
  name?: string;
  hash?: number;
}
interface PendingBlock {
  line: number;
  nameHash: number;
  kind: 'bytes' | 'OBJL' | 'SCRB' | 'ONLS';
  hex: ByteWriter;
  size?: number;
  sets: ModelSet[];
  /** The line of each object, over all sets. */
  objectLines: number[];
  records: ScrbRecordSpec[];
  defaultScript?: number;
  index: { key: Key; first: number; count: number }[];
  groups: { owners: Key[]; members: { line: number; name: string }[] }[];
}

const fail = (line: number, reason: string): never => {
  throw new TextLineError(line, reason);
};

function text(t: Token | undefined, line: number, what: string): string {
  if (!t) return fail(line, `${what} is missing`);
  if (t.kind !== 'bare' && t.kind !== 'string') return fail(line, `${what} is a name, not a ${t.kind}`);
  return t.text;
}

/** A name the registry can hold: single-byte text, no NUL, not empty, hashable. */
function name(t: Token | undefined, line: number, what: string): string {
  const s = text(t, line, what);
  if (t!.kind === 'bare' && s === '-') fail(line, `${what} is "-" (none): it needs a name`);
  const problem = nameProblem(s);
  if (problem) fail(line, `${what} ${problem}`);
  return s;
}

function integer(t: Token | undefined, line: number, what: string, max: number, fallback?: number): number {
  if (!t) return fallback ?? fail(line, `${what} is missing`);
  const s = t.kind === 'bare' ? t.text : '';
  const n = /^(0x[0-9A-Fa-f]+|\d+)$/.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(n) || n > max) return fail(line, `${what} must be an integer from 0 to ${max}, not ${JSON.stringify(s || t.kind)}`);
  return n;
}

const hash32 = (t: Token | undefined, line: number, what: string, fallback?: number): number => integer(t, line, what, 0xffffffff, fallback);

function floats(t: Token | undefined, line: number, what: string, n: number): number[] {
  if (!t || t.kind !== 'vector' || t.items.length !== n) return fail(line, `${what} must be a vector of ${n} numbers, as (1, 2, 3)`);
  return t.items.map((x) => {
    const v = x === '-0' ? -0 : /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(x) ? Number(x) : NaN;
    if (!Number.isFinite(v)) fail(line, `${what}: ${JSON.stringify(x)} is not a finite number`);
    return Math.fround(v);
  });
}

/** An SCRB or ONLS key: a name (resolved later against the OBJL) or a 0x%08X hash. */
function key(t: Token | undefined, line: number, what: string): Key {
  if (t?.kind === 'bare' && /^0x[0-9A-Fa-f]{8}$/.test(t.text)) return { line, hash: Number(t.text) };
  return { line, name: name(t, line, what) };
}

function objectOf(r: LineTokens, line: number): ModelObject {
  const a = r.attrs;
  const known = new Set(['class', 'group', 'pos', 'rot', 'deg', 'props', 'template', 'u16_0C', 'u32_2A']);
  for (const k of a.keys()) if (!known.has(k)) fail(line, `an object has no attribute ${k}= (it has ${[...known].join(', ')})`);
  if (a.has('rot') && a.has('deg')) fail(line, 'give rot= (a quaternion) or deg= (pitch, yaw, roll in degrees), not both');
  const g = a.get('group');
  const rotation = a.has('deg')
    ? quaternionFromDegrees(floats(a.get('deg'), line, 'deg', 3) as [number, number, number])
    : a.has('rot')
      ? floats(a.get('rot'), line, 'rot', 4)
      : [0, 0, 0, 1];
  const norm = Math.hypot(...rotation);
  if (!(Math.abs(norm - 1) <= QUATERNION_TOLERANCE))
    fail(line, `rot is not a unit quaternion (|q| = ${norm}); the reader refuses records whose |q| strays from 1 by more than ${QUATERNION_TOLERANCE}`);
  return {
    name: name(r.id, line, 'the object name'),
    className: name(a.get('class'), line, 'class='),
    group: g?.kind === 'bare' && g.text === '-' ? null : g ? name(g, line, 'group=') : null,
    position: (a.has('pos') ? floats(a.get('pos'), line, 'pos', 3) : [0, 0, 0]) as [number, number, number],
    rotation: rotation as [number, number, number, number],
    propertyIndex: integer(a.get('props'), line, 'props=', 0xffff, 0),
    templateId: hash32(a.get('template'), line, 'template=', 0),
    reserved0C: integer(a.get('u16_0C'), line, 'u16_0C=', 0xffff, 0),
    word2A: hash32(a.get('u32_2A'), line, 'u32_2A=', 0),
  };
}

function hexLine(raw: string, line: number, b: PendingBlock): void {
  const m = /^@0x([0-9A-Fa-f]+) {2}([^|]*)/.exec(raw);
  if (!m) return fail(line, 'a hex line is "@0x<offset>  <bytes>  |<text>|"');
  if (parseInt(m[1], 16) !== b.hex.length)
    fail(
      line,
      `the hex line says offset 0x${m[1].slice(0, 16)}, but the block's bytes so far end at 0x${b.hex.length.toString(16)} (a line was added, removed or moved)`,
    );
  for (const h of m[2].trim().split(/ +/)) {
    if (!/^[0-9A-Fa-f]{2}$/.test(h)) fail(line, `${JSON.stringify(h.slice(0, 20))} is not a byte in hex`);
    b.hex.u8(parseInt(h, 16));
  }
}

/** One record line, in the section it belongs to. */
function recordLine(section: string, raw: string, line: number, b: PendingBlock | undefined): void {
  if (!b) return fail(line, 'a record before the first [block]');
  if (raw.startsWith('@')) {
    if (b.kind !== 'bytes') fail(line, `a hex line in a ${b.kind} block (only kind=bytes blocks hold hex)`);
    return hexLine(raw, line, b);
  }
  const r = lineTokens(raw, line, true);
  if (section === 'objl.set' && b.kind === 'OBJL') {
    b.sets[b.sets.length - 1].objects.push(objectOf(r, line));
    b.objectLines.push(line);
  } else if (section === 'scrb.records' && b.kind === 'SCRB') {
    const i = integer(r.id, line, 'the record number', 0xffffffff);
    if (i !== b.records.length)
      fail(line, `record ${i} where record ${b.records.length} comes next (records are numbered from 0 in order; the index refers to them by number)`);
    const scriptHash = hash32(r.attrs.get('script'), line, 'script=', b.defaultScript);
    b.records.push({ event: name(r.attrs.get('event'), line, 'event='), function: name(r.attrs.get('function'), line, 'function='), scriptHash });
  } else if (section === 'scrb.index' && b.kind === 'SCRB') {
    const first = integer(r.attrs.get('first'), line, 'first=', 0xffffffff);
    const count = integer(r.attrs.get('count'), line, 'count=', 0xffffffff);
    b.index.push({ key: key(r.id, line, 'the object'), first, count });
  } else if (section === 'onls.groups' && b.kind === 'ONLS') {
    const m = r.attrs.get('members');
    if (!m || m.kind !== 'list') fail(line, 'members= is a list, as [a, b]');
    const members = (m as Extract<Token, { kind: 'list' }>).items.map((x) => ({
      line,
      name: name({ kind: x.quoted ? 'string' : 'bare', text: x.text }, line, 'a member'),
    }));
    const alsoT = r.attrs.get('also');
    if (alsoT && alsoT.kind !== 'list') fail(line, 'also= is a list, as [a, b]');
    const also = alsoT?.kind === 'list' ? alsoT.items.map((x) => key({ kind: x.quoted ? 'string' : 'bare', text: x.text }, line, 'an owner')) : [];
    const none = r.id?.kind === 'bare' && r.id.text === '-';
    if (none && also.length) fail(line, 'a group without an owner ("-") has no further owners');
    b.groups.push({ owners: none ? [] : [key(r.id, line, 'the owner'), ...also], members });
  } else fail(line, `a record outside its section ([${section || 'registry'}] in a ${b.kind} block)`);
}

function sectionLine(name: string, r: LineTokens, line: number, blocks: PendingBlock[], cur: PendingBlock | undefined): PendingBlock | undefined {
  if (name === 'block') {
    const kind = text(r.attrs.get('kind'), line, 'kind=');
    if (!['bytes', 'OBJL', 'SCRB', 'ONLS'].includes(kind)) fail(line, `kind=${kind}: a block is bytes, OBJL, SCRB or ONLS`);
    const size = kind === 'bytes' ? integer(r.attrs.get('size'), line, 'size=', 0xffffffff) : undefined;
    const b: PendingBlock = {
      line,
      nameHash: hash32(r.attrs.get('hash'), line, 'hash='),
      kind: kind as PendingBlock['kind'],
      hex: new ByteWriter(),
      size,
      sets: [],
      objectLines: [],
      records: [],
      index: [],
      groups: [],
    };
    blocks.push(b);
    return b;
  }
  const owner: Record<string, PendingBlock['kind']> = { 'objl.set': 'OBJL', 'scrb.records': 'SCRB', 'scrb.index': 'SCRB', 'onls.groups': 'ONLS' };
  if (!(name in owner)) fail(line, `[${name}] is no section of a registry text`);
  if (!cur || cur.kind !== owner[name]) fail(line, `[${name}] belongs to a kind=${owner[name]} block`);
  if (name === 'objl.set') cur!.sets.push({ hash: hash32(r.attrs.get('hash'), line, 'hash='), objects: [] });
  if (name === 'scrb.records' && r.attrs.has('script')) cur!.defaultScript = hash32(r.attrs.get('script'), line, 'script=');
  return cur;
}

/** The model blocks, with every name key resolved against the OBJL names. */
function finish(blocks: PendingBlock[]): ModelBlock[] {
  const objl = blocks.find((b) => b.kind === 'OBJL');
  const names = new Set<string>();
  (objl?.sets ?? [])
    .flatMap((s) => s.objects)
    .forEach((o, k) => {
      if (names.has(o.name)) fail(objl!.objectLines[k], `the OBJL block names ${JSON.stringify(o.name)} twice (SCRB and ONLS key objects by name)`);
      names.add(o.name);
    });
  const resolve = (k: Key, what: string): number => {
    if (k.hash !== undefined) return k.hash;
    if (!names.has(k.name!)) fail(k.line, `${what} ${JSON.stringify(k.name)} is no object of the OBJL block`);
    return defaultHasher.hash(k.name!);
  };
  return blocks.map((b): ModelBlock => {
    if (b.kind === 'bytes') {
      if (b.hex.length !== b.size) fail(b.line, `the block says size=${b.size}; its hex lines hold ${b.hex.length} bytes`);
      return { kind: 'raw', nameHash: b.nameHash, bytes: b.hex.toBytes(), tag: null };
    }
    if (b.kind === 'OBJL') {
      if (!b.sets.length) fail(b.line, 'an OBJL block holds at least one [objl.set]');
      return { kind: 'OBJL', nameHash: b.nameHash, sets: b.sets };
    }
    if (b.kind === 'SCRB') {
      const index: ScrbIndexSpec[] = b.index.map((e) => {
        if (e.first + e.count > b.records.length) fail(e.key.line, `records ${e.first}..${e.first + e.count - 1} run past the ${b.records.length} records`);
        return { hash: resolve(e.key, 'the object'), first: e.first, count: e.count };
      });
      index.sort((x, y) => x.hash - y.hash);
      return { kind: 'SCRB', nameHash: b.nameHash, records: b.records, index };
    }
    const groups: OnlsGroupSpec[] = b.groups.map((g) => ({
      owners: g.owners.map((o) => resolve(o, 'the owner')),
      members: g.members.map((m) => (names.has(m.name) ? m.name : fail(m.line, `the member ${JSON.stringify(m.name)} is no object of the OBJL block`))),
    }));
    return { kind: 'ONLS', nameHash: b.nameHash, groups };
  });
}

/** Compile a registry text to its model (see the file comment). */
export function registryTextToModel(source: string, file: string): RegistryModel {
  const blocks: PendingBlock[] = [];
  let cur: PendingBlock | undefined;
  let section = '';
  let hash: number | undefined;
  let header = false;
  const lines = source.split('\n');
  lines.forEach((rawLine, i) => {
    const line = i + 1;
    const raw = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (raw.trim() === '' || raw.startsWith('#')) return;
    const sec = /^\[([^\]]*)\](.*)$/.exec(raw);
    if (sec) {
      section = sec[1];
      const r = lineTokens(sec[2], line, false);
      if (section === 'registry') {
        if (header) fail(line, 'a second [registry] section');
        if (r.attrs.get('format')?.kind !== 'bare' || text(r.attrs.get('format'), line, 'format=') !== REGISTRY_TEXT_FORMAT)
          fail(line, `not a registry text: [registry] needs format=${REGISTRY_TEXT_FORMAT}`);
        if (integer(r.attrs.get('version'), line, 'version=', 0xffff) !== REGISTRY_TEXT_VERSION)
          fail(line, `this arch06 reads registry text version ${REGISTRY_TEXT_VERSION}`);
        header = true;
      } else if (!header) fail(line, `[${section}] before the [registry] header`);
      else cur = sectionLine(section, r, line, blocks, cur);
      return;
    }
    if (!header) fail(line, 'a registry text starts with its [registry] header');
    const field = /^([A-Za-z_][\w.]*) = (.*)$/.exec(raw);
    if (field && section === 'registry') {
      if (field[1] !== 'hash') fail(line, `the [registry] section has one field, hash, not ${field[1]}`);
      hash = hash32(lineTokens(field[2], line, true).id, line, 'hash');
      return;
    }
    recordLine(section, raw, line, cur);
  });
  if (!header) fail(lines.length, 'a registry text starts with its [registry] header');
  if (hash === undefined) fail(lines.length, 'the [registry] section needs its hash = 0x… field');
  return { file, hash: hash!, blocks: finish(blocks) };
}

/** Compile a registry text to bytes; errors are `Arch06Error`s (INVALID) starting `line N:`. */
export function registryFromText(source: string, file: string): Uint8Array {
  let model: RegistryModel;
  let bytes: Uint8Array;
  try {
    model = registryTextToModel(source, file);
    bytes = saveRegistry(model);
  } catch (e) {
    if (e instanceof TextLineError) throw new Arch06Error('INVALID', e.message, { file, field: `line ${e.line}`, actual: e.reason });
    if (isArch06Error(e)) throw new Arch06Error('INVALID', `the text cannot be written: ${e.message}`, { file, field: e.field });
    throw e;
  }
  // Blocks written from values must read back; blocks given as bytes are the text's own business.
  const reg = parseObjr(bytes, file);
  model.blocks.forEach((b, i) => {
    if (b.kind === 'raw') return;
    const read = reg.blocks[i];
    const why =
      read.error?.message ?? (b.kind === 'OBJL' && reg.objectList && !reg.objectList.recordLayout.validated ? reg.objectList.recordLayout.reason : undefined);
    if (why !== undefined) throw new Arch06Error('INVALID', `the compiled ${b.kind} block ${i} does not read back: ${why}`, { file, field: `block[${i}]` });
  });
  return bytes;
}

/** The registry's entry in a table of text formats (`arch06 to-text` / `from-text` dispatch on it). */
export const registryTextFormat = {
  kind: 'registry',
  /** The `format=` of the text's [registry] header, which names the format of a text. */
  textFormat: REGISTRY_TEXT_FORMAT,
  extensions: ['objres'],
  /** Whether a text is a registry text: its `[registry] format=…` header within the first lines. */
  recognizes: (source: string): boolean => /^\[registry\] format=arch06-registry-text(?: |$)/m.test(source.slice(0, 4096)),
  toText: registryToText,
  fromText: registryFromText,
} as const;
