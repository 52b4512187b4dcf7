/**
 * A registry (`.objres`) as editable text that compiles back to the same bytes (issue 24 item 4):
 * `registryToText` and `registryFromText` (./registrySourceRead.ts), with
 * `registryFromText(registryToText(x)) == x` byte for byte on every real and sample registry.
 *
 * The syntax is the decoded-text syntax (./syntax.ts): `# comments` (ignored when compiling),
 * `[section] key=value …` headers, `key = value` fields, records `id key=value …` and hex lines
 * `@0x000000  4B 45 …  |KEYF|`. Values are bare or JSON strings, `(x, y, z)` vectors, `[a, b]`
 * lists, `0x%08X` hashes, `-` for none; floats are written in the shortest form that reads back as
 * the same f32 (and `-0` as `-0`). What it holds:
 *
 *   [registry] format=arch06-registry-text version=1          the header: its raw hash word
 *   hash = 0x5A3C9E21
 *   [block] index=0 hash=0x9B011056 name=ObjRes.Keyframer kind=bytes size=16
 *   @0x000000  4B 45 59 46 …                                   a block kept as bytes: hex, block offsets
 *   [block] … kind=ONLS, then [onls.groups]: owner members=[…] also=[…] (area order; `-` no owner)
 *   [block] … kind=SCRB, then [scrb.records] script=0x…: n event=… function=… (script=0x… when another)
 *                         and [scrb.index]: object first=n count=n (sorted by hash when compiled)
 *   [block] … kind=OBJL, then per set [objl.set] hash=0x…: name class=… group=… pos=(…) rot=(…)
 *                         props=n template=0x… (u16_0C=, u32_2A= when not 0)
 *
 * Blocks the project does not decode (PFDG, GADB, VOLM, WorldPhysics, unnamed ones) and decoded
 * blocks whose values do not write back to their exact bytes are hex, never regenerated. Objects
 * in SCRB and ONLS keys are written by name when an OBJL name has the key's hash, as `0x%08X`
 * otherwise. A decoded block is hex too when its text could not compile back to it: a name the
 * text cannot carry (empty, NUL, beyond one byte, no StringHash value), an object name given twice,
 * an ONLS member that is no OBJL name (compiling checks member names). Counts and sizes in section headers are for reading, except a hex block's `size`,
 * which must match its hex lines.
 */
import { formatHash } from '../hash';
import { defaultHasher } from '../hash/stringHash';
import { ModelBlock, ModelObject, RegistryModel, knownBlockName, openRegistry } from '../formats/registry';
import { List, hex6, value } from './syntax';

export const REGISTRY_TEXT_FORMAT = 'arch06-registry-text';
export const REGISTRY_TEXT_VERSION = 1;
const HASH_LIKE = /^0x[0-9A-Fa-f]{8}$/;

/** A float as the shortest text that reads back as the same value, `-0` kept. */
export const floatText = (x: number): string => (Object.is(x, -0) ? '-0' : String(x));
const vector = (xs: readonly number[]): string => `(${xs.map(floatText).join(', ')})`;

/** A name value: bare or JSON, and quoted when it would read as a hash or as `-`. */
export const nameText = (s: string): string => (HASH_LIKE.test(s) ? JSON.stringify(s) : value(s));

/** Why a registry text cannot carry `s` as a name (the rule compiling applies), or undefined when it can. */
export function nameProblem(s: string): string | undefined {
  if (s === '') return 'is empty';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) return 'holds a NUL character';
    if (c > 0xff) return `holds ${JSON.stringify(s[i])}, which is not single-byte (latin1) text`;
  }
  return defaultHasher.tryHash(s).ok ? undefined : 'holds a character without a StringHash value';
}

/** Why a decoded block must be written as hex for its text to compile back to it, or undefined. */
function notExpressible(b: ModelBlock, objl: Set<string> | undefined): string | undefined {
  const bad = (what: string, xs: Iterable<string>): string | undefined => {
    for (const x of xs) {
      const p = nameProblem(x);
      if (p) return `${what} ${JSON.stringify(x.slice(0, 40))} ${p}`;
    }
    return undefined;
  };
  if (b.kind === 'OBJL') {
    const seen = new Set<string>();
    for (const s of b.sets)
      for (const o of s.objects) {
        const p = bad('a name', [o.name, o.className, ...(o.group === null ? [] : [o.group])]);
        if (p) return p;
        if (seen.has(o.name)) return `it names ${JSON.stringify(o.name.slice(0, 40))} twice (the text keys objects by name)`;
        seen.add(o.name);
      }
  } else if (b.kind === 'SCRB')
    return bad(
      'a binding name',
      b.records.flatMap((r) => [r.event, r.function]),
    );
  else if (b.kind === 'ONLS') {
    for (const g of b.groups) {
      const p = bad('a member', g.members);
      if (p) return p;
      for (const m of g.members) if (!objl?.has(m)) return `its member ${JSON.stringify(m.slice(0, 40))} is no OBJL name`;
    }
  }
  return undefined;
}

/** The OBJL names by their StringHash (the first name of a hash). */
function namesByHash(model: RegistryModel): Map<number, string> {
  const out = new Map<number, string>();
  for (const b of model.blocks) {
    if (b.kind !== 'OBJL') continue;
    for (const s of b.sets)
      for (const o of s.objects) {
        const h = defaultHasher.tryHash(o.name);
        if (h.ok && !out.has(h.hash)) out.set(h.hash, o.name);
      }
    break;
  }
  return out;
}

const keyText = (names: Map<number, string>, hash: number): string => {
  const n = names.get(hash >>> 0);
  return n === undefined ? formatHash(hash) : nameText(n);
};

function objectLine(o: ModelObject): string {
  const parts = [
    nameText(o.name),
    `class=${nameText(o.className)}`,
    `group=${o.group === null ? '-' : nameText(o.group)}`,
    `pos=${vector(o.position)}`,
    `rot=${vector(o.rotation)}`,
    `props=${o.propertyIndex}`,
    `template=${formatHash(o.templateId)}`,
  ];
  if (o.reserved0C) parts.push(`u16_0C=${o.reserved0C}`);
  if (o.word2A) parts.push(`u32_2A=${o.word2A}`);
  return parts.join(' ');
}

function hexLines(bytes: Uint8Array, out: string[]): void {
  for (let o = 0; o < bytes.length; o += 16) {
    const row = bytes.subarray(o, Math.min(o + 16, bytes.length));
    let hex = '';
    let ascii = '';
    for (const b of row) {
      hex += (hex ? ' ' : '') + b.toString(16).toUpperCase().padStart(2, '0');
      ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
    }
    out.push(`@${hex6(o)}  ${hex.padEnd(47)}  |${ascii}|`);
  }
}

function blockLines(b: ModelBlock, index: number, names: Map<number, string>, objl: Set<string> | undefined, out: string[]): void {
  const known = knownBlockName(b.nameHash);
  const head = `[block] index=${index} hash=${formatHash(b.nameHash)} name=${known ? value(known.name) : '-'}`;
  const hexWhy = b.kind === 'raw' ? b.why : notExpressible(b, objl);
  if (b.kind === 'raw' || hexWhy !== undefined) {
    const bytes = b.bytes!;
    out.push(`${head} kind=bytes size=${bytes.length}`);
    if (hexWhy) out.push(`# kept as bytes: ${hexWhy}`);
    hexLines(bytes, out);
  } else if (b.kind === 'ONLS') {
    out.push(
      `${head} kind=ONLS`,
      '',
      `[onls.groups] count=${b.groups.length}`,
      '# owner  members  also (further owners of the same group); `-` a group no owner names',
    );
    for (const g of b.groups) {
      const [first, ...also] = g.owners.map((h) => keyText(names, h));
      const parts = [first ?? '-', `members=${value(new List(g.members))}`];
      if (also.length) parts.push(`also=[${also.join(', ')}]`);
      out.push(parts.join(' '));
    }
  } else if (b.kind === 'SCRB') {
    const script = b.records[0]?.scriptHash;
    out.push(`${head} kind=SCRB`, '', `[scrb.records] count=${b.records.length}${script === undefined ? '' : ` script=${formatHash(script)}`}`);
    out.push('# record  event  function (script= when not the section’s)');
    b.records.forEach((r, i) => {
      const extra = r.scriptHash === script ? '' : ` script=${formatHash(r.scriptHash)}`;
      out.push(`${i} event=${nameText(r.event)} function=${nameText(r.function)}${extra}`);
    });
    out.push('', `[scrb.index] count=${b.index.length}`, '# object  first record  count');
    for (const e of b.index) out.push(`${keyText(names, e.hash)} first=${e.first} count=${e.count}`);
  } else {
    out.push(`${head} kind=OBJL`);
    for (const s of b.sets) {
      out.push(
        '',
        `[objl.set] hash=${formatHash(s.hash)} count=${s.objects.length}`,
        '# name  class  group  position (cm)  rotation (quaternion x, y, z, w; or deg=(pitch, yaw, roll))  property record  template id',
      );
      for (const o of s.objects) out.push(objectLine(o));
    }
  }
}

/** A registry model as text (see the file comment). */
export function registryModelToText(model: RegistryModel): string {
  const out: string[] = [
    `# arch06 registry text · object registry (OBJR) · ${model.file.replace(/[\x00-\x1f]/g, '?')}`,
    '# edit and compile back with `arch06 from-text`; comments are ignored; blocks shown as hex are written back as they are',
    `[registry] format=${REGISTRY_TEXT_FORMAT} version=${REGISTRY_TEXT_VERSION}`,
    `hash = ${formatHash(model.hash)}`,
  ];
  // SCRB and ONLS keys are spelled by OBJL names only when the OBJL block is text itself.
  const objl = model.blocks.find((b) => b.kind === 'OBJL');
  const objlText = objl?.kind === 'OBJL' && notExpressible(objl, undefined) === undefined ? objl : undefined;
  const names = objlText ? namesByHash(model) : new Map<number, string>();
  const objlNames = objlText ? new Set(objlText.sets.flatMap((s) => s.objects.map((o) => o.name))) : undefined;
  model.blocks.forEach((b, i) => {
    out.push('');
    blockLines(b, i, names, objlNames, out);
  });
  return out.join('\n') + '\n';
}

/** A registry's bytes as text. Throws the reader's typed errors when its chain does not parse. */
export function registryToText(bytes: Uint8Array, file: string): string {
  return registryModelToText(openRegistry(bytes, file));
}
