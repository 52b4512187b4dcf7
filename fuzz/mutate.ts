/**
 * Mutations. Structure-aware first: a seed parsed with `spans` knows where each field lies
 * (core/io/fieldReader records every field read), so a lie can target one field by name: a size,
 * count or offset set to 0, to the maximum, to the file's length, off by one, doubled, pointed at
 * another field, or copied from a sibling record's same field (sharing: two records naming one
 * run, one string, one group). Then the blind ones: bit flips, set bytes, truncation, splices with
 * another seed, insertions, deletions, repeated ranges, garbage runs.
 */
import type { FieldSpan } from '../core/io';
import type { Rng } from './random';
import { concatBytes } from '../core/io/concat';

export interface Mutated {
  bytes: Uint8Array;
  /** What was done, for reports ("field header.count = 0xFFFFFFFF (was 3)"). */
  label: string;
  /** For text targets: the text itself (it may hold what UTF-8 cannot, such as a lone surrogate). */
  text?: string;
}

/** A seed: valid bytes and, when its reader records them, the fields it read. */
export interface Seed {
  name: string;
  bytes: Uint8Array;
  fields?: FieldSpan[];
}

/** A copy (`slice` on a Node Buffer is a view of the same memory, and a mutation must never write into a seed). */
export const copyOf = (b: Uint8Array): Uint8Array => new Uint8Array(b);

const hex = (v: number | bigint): string => '0x' + v.toString(16).toUpperCase();

/** Names that hold sizes, counts or offsets: the fields whose lies reach allocation and indexing. */
const SHAPE_FIELD = /count|num|size|len|offset|off\b|first|start|end|index|idx|stride|width|height|depth|mip|level|slice|pos|ptr|at\b|total|bytes/i;

function readField(b: Uint8Array, s: FieldSpan): bigint {
  let v = 0n;
  for (let i = Math.min(s.length, 8) - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[s.offset + i] ?? 0);
  return v;
}

function writeField(b: Uint8Array, s: FieldSpan, v: bigint): void {
  const width = Math.min(s.length, 8);
  const mask = (1n << BigInt(8 * width)) - 1n;
  let x = ((v % (mask + 1n)) + mask + 1n) & mask;
  for (let i = 0; i < width && s.offset + i < b.length; i++) {
    b[s.offset + i] = Number(x & 0xffn);
    x >>= 8n;
  }
}

/** Index-free form of a field name: `sets[3].records[12].nameOffset` → `sets[].records[].nameOffset`. */
export const fieldShape = (name: string): string => name.replace(/\[\d+\]/g, '[]');

/** The numeric fields of a seed worth lying about (1, 2, 4 or 8 bytes inside the seed), shape fields first. */
function liableFields(seed: Seed): FieldSpan[] {
  const all = (seed.fields ?? []).filter(
    (s) => (s.length === 1 || s.length === 2 || s.length === 4 || s.length === 8) && s.offset + s.length <= seed.bytes.length,
  );
  return all;
}

/** One lie about one field; returns its label. */
function lie(b: Uint8Array, fields: FieldSpan[], rnd: Rng): string {
  const shaped = fields.filter((f) => SHAPE_FIELD.test(f.name));
  const s = shaped.length > 0 && rnd.chance(0.8) ? rnd.pick(shaped) : rnd.pick(fields);
  const was = readField(b, s);
  const width = BigInt(8 * Math.min(s.length, 8));
  const max = (1n << width) - 1n;
  const len = BigInt(b.length);
  let v: bigint;
  let how = '';
  switch (rnd.int(14)) {
    case 0:
      v = 0n;
      break;
    case 1:
      v = max;
      break;
    case 2:
      v = was + 1n;
      break;
    case 3:
      v = was - 1n;
      break;
    case 4:
      v = was * 2n + 1n;
      break;
    case 5:
      v = len;
      break;
    case 6:
      v = len - BigInt(s.offset);
      break;
    case 7:
      v = max >> 1n;
      break;
    case 8:
      v = (max >> 1n) + 1n;
      break;
    case 9: {
      // Point at another field: offsets that land on a header, a count, another record.
      const other = rnd.pick(fields);
      v = BigInt(other.offset);
      how = ` (→ ${other.name})`;
      break;
    }
    case 10: {
      // Sharing: the same field of a sibling record (two records naming one run, one name, one group).
      const shape = fieldShape(s.name);
      const siblings = fields.filter((f) => f !== s && f.length === s.length && fieldShape(f.name) === shape);
      const from = siblings.length > 0 ? rnd.pick(siblings) : rnd.pick(fields);
      v = readField(b, from);
      how = ` (shared with ${from.name})`;
      break;
    }
    case 11:
      v = was + BigInt(1 + rnd.int(64));
      break;
    case 12:
      v = BigInt(rnd.int(0x10000)) * BigInt(1 + rnd.int(0x10000));
      break;
    default:
      v = was << BigInt(1 + rnd.int(16));
  }
  writeField(b, s, v);
  return `field ${s.name} = ${hex(readField(b, s))} (was ${hex(was)})${how}`;
}

/**
 * Sharing at scale: every record's same field given one value (one record's, or a lie), so that
 * thousands of records name one run, one string, one group, or all claim the maximum.
 */
function shareAll(b: Uint8Array, fields: FieldSpan[], rnd: Rng): string {
  const groups = new Map<string, FieldSpan[]>();
  for (const f of fields) {
    const k = `${fieldShape(f.name)}/${f.length}`;
    const g = groups.get(k);
    if (g) g.push(f);
    else groups.set(k, [f]);
  }
  const many = [...groups.values()].filter((g) => g.length > 1);
  if (many.length === 0) return lie(b, fields, rnd);
  const shaped = many.filter((g) => SHAPE_FIELD.test(g[0].name));
  const group = shaped.length > 0 && rnd.chance(0.8) ? rnd.pick(shaped) : rnd.pick(many);
  const from = rnd.pick(group);
  const max = (1n << BigInt(8 * Math.min(from.length, 8))) - 1n;
  const v = rnd.pick([readField(b, from), readField(b, from), 0n, max, BigInt(b.length), readField(b, from) * 2n]);
  const share = rnd.chance(0.5) ? 1 : rnd.next();
  let n = 0;
  for (const f of group) {
    if (f === from || rnd.next() < share) {
      writeField(b, f, v);
      n++;
    }
  }
  return `${n} of ${group.length} ${fieldShape(from.name)} = ${hex(v)}`;
}

const concat = (...parts: Uint8Array[]): Uint8Array => concatBytes(parts);

const BLIND = ['bitflip', 'byteset', 'truncate', 'splice', 'insert', 'delete', 'repeat', 'garbage-run', 'zero-run', 'word'] as const;
type Blind = (typeof BLIND)[number];

const INTERESTING_WORDS = [0, 1, 0xff, 0x7f, 0x80, 0xffff, 0x8000, 0x7fffffff, 0x80000000, 0xffffffff, 0x10000, 0x100000];

/** One blind mutation of `src`; returns the new bytes and what was done. */
function blind(kind: Blind, src: Uint8Array, rnd: Rng, others: readonly Seed[]): Mutated {
  const n = src.length;
  const b = copyOf(src);
  switch (kind) {
    case 'bitflip': {
      const flips = 1 + rnd.int(8);
      for (let i = 0; i < flips && n > 0; i++) b[rnd.int(n)] ^= 1 << rnd.int(8);
      return { bytes: b, label: `${flips} bit flips` };
    }
    case 'byteset': {
      const sets = 1 + rnd.int(4);
      for (let i = 0; i < sets && n > 0; i++) b[rnd.int(n)] = rnd.chance(0.5) ? rnd.int(256) : rnd.pick([0, 0xff, 0x80, 0x7f]);
      return { bytes: b, label: `${sets} bytes set` };
    }
    case 'truncate': {
      const at = rnd.chance(0.3) ? Math.max(0, n - 1 - rnd.int(16)) : rnd.int(n + 1);
      return { bytes: copyOf(src.subarray(0, at)), label: `truncated to ${at}` };
    }
    case 'splice': {
      const w = rnd.pick(others);
      const cut = rnd.int(n + 1);
      const from = rnd.int(w.bytes.length + 1);
      return { bytes: concat(src.subarray(0, cut), w.bytes.subarray(from)), label: `spliced at ${cut} with ${w.name} from ${from}` };
    }
    case 'insert': {
      const at = rnd.int(n + 1);
      const bytes = new Uint8Array(1 + rnd.int(16));
      for (let i = 0; i < bytes.length; i++) bytes[i] = rnd.int(256);
      return { bytes: concat(src.subarray(0, at), bytes, src.subarray(at)), label: `${bytes.length} bytes inserted at ${at}` };
    }
    case 'delete': {
      const at = rnd.int(n + 1);
      const len = 1 + rnd.int(16);
      return { bytes: concat(src.subarray(0, at), src.subarray(Math.min(n, at + len))), label: `${len} bytes deleted at ${at}` };
    }
    case 'repeat': {
      // A record (or any range) repeated: counts that no longer match, tables that overlap.
      if (n === 0) return { bytes: b, label: 'nothing to repeat' };
      const at = rnd.int(n);
      const len = Math.min(n - at, 1 + rnd.int(64));
      const times = 1 + rnd.int(rnd.chance(0.2) ? 200 : 4);
      const piece = src.subarray(at, at + len);
      return {
        bytes: concat(src.subarray(0, at + len), ...Array<Uint8Array>(times).fill(piece), src.subarray(at + len)),
        label: `${len} bytes at ${at} repeated ${times}x`,
      };
    }
    case 'garbage-run':
    case 'zero-run': {
      if (n === 0) return { bytes: b, label: 'nothing to overwrite' };
      const at = rnd.int(n);
      const len = Math.min(n - at, 1 + rnd.int(64));
      for (let i = 0; i < len; i++) b[at + i] = kind === 'zero-run' ? 0 : rnd.int(256);
      return { bytes: b, label: `${len} bytes at ${at} ${kind === 'zero-run' ? 'zeroed' : 'garbled'}` };
    }
    case 'word': {
      if (n < 4) return { bytes: b, label: 'too short for a word' };
      const at = rnd.chance(0.7) ? rnd.int(n >> 2) << 2 : rnd.int(n - 3);
      const w = rnd.pick(INTERESTING_WORDS);
      new DataView(b.buffer, b.byteOffset).setUint32(at, w, true);
      return { bytes: b, label: `u32 at ${at} = ${hex(w)}` };
    }
  }
}

/**
 * Mutate `seed`: mostly field lies when the seed knows its fields (one to four of them, sometimes
 * with a blind mutation after), otherwise blind mutations, one or a few.
 */
export function mutateBytes(seed: Seed, rnd: Rng, others: readonly Seed[]): Mutated {
  const fields = liableFields(seed);
  const labels: string[] = [];
  let bytes = seed.bytes;
  if (fields.length > 0 && rnd.chance(0.6)) {
    bytes = copyOf(bytes);
    const lies = 1 + (rnd.chance(0.3) ? rnd.int(4) : 0);
    for (let i = 0; i < lies; i++) labels.push(rnd.chance(0.2) ? shareAll(bytes, fields, rnd) : lie(bytes, fields, rnd));
    if (rnd.chance(0.15)) {
      const m = blind(rnd.pick(BLIND), bytes, rnd, others);
      bytes = m.bytes;
      labels.push(m.label);
    }
  } else {
    const steps = rnd.chance(0.25) ? 2 + rnd.int(3) : 1;
    for (let i = 0; i < steps; i++) {
      const m = blind(rnd.pick(BLIND), bytes, rnd, others);
      bytes = m.bytes;
      labels.push(m.label);
    }
  }
  return { bytes, label: `${labels.join(' + ')} of ${seed.name}` };
}

/** A region of a seed a target mutates alone (a registry block's payload), and the size word that frames it. */
export interface Region {
  start: number;
  end: number;
  /** Fields inside the region are those whose name starts with this. */
  prefix: string;
  /** A u32 holding the region's length: rewritten (mostly) when a mutation changes it, so the mutation reaches the region's reader. */
  sizeField?: number;
}

/** Mutate only `region` of `seed` (field lies on its fields, or blind mutations of its bytes), the rest kept. */
export function mutateRegion(seed: Seed, region: Region, rnd: Rng, others: readonly Seed[]): Mutated {
  const { start, end } = region;
  const inner: Seed = {
    name: seed.name,
    bytes: seed.bytes.subarray(start, end),
    fields: (seed.fields ?? [])
      .filter((f) => f.name.startsWith(region.prefix) && f.offset >= start && f.offset + f.length <= end)
      .map((f) => ({ ...f, offset: f.offset - start })),
  };
  const m = mutateBytes(inner, rnd, others);
  const bytes = concat(seed.bytes.subarray(0, start), m.bytes, seed.bytes.subarray(end));
  let label = `${m.label} [${region.prefix} at ${start}]`;
  if (region.sizeField !== undefined && m.bytes.length !== end - start && rnd.chance(0.8)) {
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(region.sizeField, m.bytes.length, true);
    label += ' + its size word';
  }
  return { bytes, label };
}
