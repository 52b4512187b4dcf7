/**
 * PRFB v8 prefabs (`.inst`): a prefab's baked geometry. The only description is seed 001
 * ("Prefabs (PRFB, .inst)", with "Placements" for the LOD group tags); formats-public has no
 * layout (§11) and no sample file exists, so every field beyond the seed's words is kept raw and
 * every located table is `confidence: 'uncertain'`.
 *
 * What the seed fixes:
 *   0x00  'PRFB' | u32 8 | u32 hash | ... header words up to 0x38; [4] draws, [5] materials,
 *         [6] child prefabs, [9] vertex formats; [7] is NOT the unit count (88 of 431 chained
 *         prefabs disagree). The other words are unknown and shown raw.
 *   0x38  LOD records, 44 bytes each, -1.0 (f32) at +28, in groups that open with a per-group tag
 *         (the tag a placement names, see WDSC instances +0x40):
 *           root {tag, -1, 0, 0, next = first unit, f32 cull distance, ...}
 *           unit {tag, name hash, first draw, draw count, next unit (-1 = finest),
 *                 f32 switch distance, f32, -1.0, 0, 0, distinct draws}
 *         Per instance the engine walks a chain coarse to fine and draws the first unit whose
 *         next is -1 or whose switch distance the camera is beyond. Draws in no unit are
 *         depth-prepass and shadow casters.
 *   then  {u32 draws, u32 vertex bytes, u32 index bytes}, the vertex blocks, the u16 indices,
 *         and the tail: vertex formats, 52-byte draw records, material paths; a composite
 *         prefab ends with a block of placed child prefabs (its layout is not given).
 *
 * What is read here, and how (the shared search and its checks: ./tables/):
 *   - the header words, raw, with the seed's labels;
 *   - LOD records from 0x38 while the pattern holds: -1.0 at +28 and either a root (+4 = -1,
 *     +8 = +12 = 0) or a unit (+32 = +36 = 0) whose tag a root has opened. The walk stops at the
 *     first record that breaks it (or when fewer than 44 bytes remain); the stop is reported.
 *   - records grouped by tag; chains followed from each root through `next`. The seed does not
 *     say what `next` counts: it is read as an index over all LOD records, or else as an index
 *     within the group (root = 0); a reading is taken only when every chain resolves with it
 *     (each link lands on a unit of the same tag, no cycle, ending at -1). When neither does,
 *     chains are taken in file order (a root, then its tag's units up to the next root) and
 *     that is noted.
 *   - the tail and the buffers by search (./tables/search.ts), reported with how they were found.
 *
 * Hard errors (Arch06Error): a short header (TRUNCATED), the magic (BAD_MAGIC), the version
 * (UNSUPPORTED_VERSION). Everything after the header is located or reported as not located;
 * nothing is read outside the file and no count is trusted before it is bounded by the bytes left.
 */
import { formatHash } from '../../hash/stringHash';
import { FieldReader, ParseOptions } from '../../io/fieldReader';
import { asF32 } from '../../io/half';
import { expectMagicVersion } from '../../io/magic';
import { Buffers, Geometry, HeaderWord, Tables, hexOff } from './tables/layout';
import { locateTables } from './tables/search';
import { headerWords, tableSummary } from './tables/summary';

export const PRFB_MAGIC = 0x42465250; // "PRFB"
export const PRFB_VERSION = 8;
/** LOD records start here (seed 001), so the header is 14 words. */
export const PRFB_LOD_OFFSET = 0x38;
const PRFB_HEADER_WORDS = PRFB_LOD_OFFSET / 4;
export const PRFB_LOD_RECORD_SIZE = 44;
/** -1.0 as f32: the word at +28 of every LOD record (seed 001). */
export const PRFB_LOD_MARKER = 0xbf800000;
export const PRFB_NONE = 0xffffffff;

/** The seed's names for header words (index = word number from the start of the file). */
const PRFB_HEADER_LABELS: Readonly<Record<number, string>> = {
  0: 'magic "PRFB"',
  1: 'version (8)',
  2: 'hash (seed: "u32 hash"; of what is not stated)',
  4: 'draws',
  5: 'materials',
  6: 'child prefabs',
  9: 'vertex formats',
};
/** Word [7]: the seed says only what it is not. */
const PRFB_HEADER7_NOTE = 'unknown (seed: not the unit count; 88 of 431 chained prefabs disagree)';

export interface PrfbLodRecord {
  index: number;
  offset: number;
  kind: 'root' | 'unit';
  tag: number;
  /** The 11 words as stored (u32). */
  raw: number[];
  /** +16 as s32: root: the first unit; unit: the next finer unit (-1 = finest). */
  next: number;
  /** Root +20 (f32). */
  cullDistance?: number;
  /** Unit +4. */
  nameHash?: number;
  /** Unit +8, +12: a range of draw records. */
  firstDraw?: number;
  drawCount?: number;
  /** Unit +20 (f32): the camera distance beyond which this unit is drawn. */
  switchDistance?: number;
  /** Unit +24 (f32): not named by the seed. */
  unknown24?: number;
  /** Unit +40: "distinct draws" (seed). */
  distinctDraws?: number;
}

export interface PrfbChain {
  /** Record index of the root. */
  root: number;
  /** Record indices of its units, coarse to fine. */
  units: number[];
  /** Ends at a unit whose next is -1 (or the root's next is -1). */
  complete: boolean;
  problem?: string;
}

export interface PrfbLodGroup {
  tag: number;
  /** Record indices, in file order. */
  records: number[];
  roots: number[];
  units: number[];
  chains: PrfbChain[];
}

export type PrfbNextReading = 'record index' | 'index in group' | 'file order' | 'none';

export interface PrfbLods {
  offset: number;
  /** First byte after the last record. */
  end: number;
  records: PrfbLodRecord[];
  groups: PrfbLodGroup[];
  /** How `next` was read (see the file comment). */
  nextReading: PrfbNextReading;
  /** Why the walk stopped. */
  stop: string;
  notes: string[];
}

export interface Prfb {
  file: string;
  size: number;
  format: 'PRFB';
  version: number;
  hash: number;
  /** Words 0 .. 13 (0x00 .. 0x34), raw, with the seed's labels. */
  header: HeaderWord[];
  counts: { draws: number; materials: number; childPrefabs: number; vertexFormats: number };
  lods: PrfbLods;
  tables?: Tables;
  buffers?: Buffers;
  geometry?: Geometry;
  /** Bytes after the last thing located (the child-prefab block of a composite, or unknown). */
  rest?: { offset: number; size: number; note: string };
  confidence: 'uncertain';
  notes: string[];
  /** The parsed bytes (not enumerable, so the record prints as JSON without them). */
  readonly bytes: Uint8Array;
}

const s32 = (u: number): number => u | 0;

/**
 * Parse a PRFB v8 prefab held in memory. Throws Arch06Error only for the header (TRUNCATED,
 * BAD_MAGIC, UNSUPPORTED_VERSION); the rest is located under checks and reported.
 */
export function parsePrfb(bytes: Uint8Array, file: string, options: ParseOptions = {}): Prfb {
  const r = new FieldReader(bytes, file, { spans: options.spans });
  const version = expectMagicVersion(r, 'PRFB', [PRFB_VERSION], 'PRFB', { what: 'a PRFB prefab' });
  r.need(PRFB_LOD_OFFSET - 8, 'header.words');
  const header = headerWords(r, PRFB_HEADER_WORDS, { ...PRFB_HEADER_LABELS, 7: PRFB_HEADER7_NOTE });
  header[7]!.labelled = false;
  const w = (i: number): number => header[i]!.value;
  const counts = { draws: w(4), materials: w(5), childPrefabs: w(6), vertexFormats: w(9) };
  const notes: string[] = [];

  const lods = readLods(r);

  const search = locateTables({
    reader: r,
    from: lods.end,
    drawCount: counts.draws,
    formatCount: counts.vertexFormats,
    materialCount: counts.materials,
    findCounts: true,
    labels: { draws: 'header [4]', formats: 'header [9]', materials: 'header [5]' },
  });
  notes.push(...search.notes);
  const { tables, buffers, geometry } = search;
  if (buffers?.countsOffset !== undefined) {
    notes.push(
      buffers.countsOffset === lods.end
        ? 'the {draws, vertex bytes, index bytes} words follow the LOD records directly'
        : `the {draws, vertex bytes, index bytes} words lie ${buffers.countsOffset - lods.end} bytes after the LOD records (the bytes between are not described by the seed)`,
    );
  }
  if (tables) {
    const D = tables.draws.length;
    const units = lods.records.filter((r) => r.kind === 'unit');
    const beyond = units.filter((u) => u.firstDraw! + u.drawCount! > D).map((u) => u.index);
    if (beyond.length) notes.push(`unit record(s) ${beyond.slice(0, 32).join(', ')}${beyond.length > 32 ? ' …' : ''} name draws past the ${D} draw records`);
    const inUnit = drawCoverage(D, units);
    const orphans: number[] = [];
    for (let i = 0; i < D; i++) if (!inUnit[i]) orphans.push(i);
    if (orphans.length)
      notes.push(
        `draw(s) ${orphans.slice(0, 32).join(', ')}${orphans.length > 32 ? ` … (${orphans.length})` : ''} are in no unit (seed: depth-prepass and shadow casters)`,
      );
  }

  let rest: Prfb['rest'];
  const after = tables ? tables.end : lods.end;
  if (after < bytes.length) {
    const note = !tables
      ? 'not located: kept raw'
      : counts.childPrefabs > 0
        ? `after the material paths; header [6] = ${counts.childPrefabs} child prefabs and the seed says a composite prefab ends with a block of placed child prefabs (its layout is not given): kept raw`
        : 'after the material paths, with header [6] = 0 child prefabs: not described by the seed, kept raw';
    rest = { offset: after, size: bytes.length - after, note };
  } else if (tables && counts.childPrefabs > 0) {
    notes.push(`header [6] = ${counts.childPrefabs} child prefabs, but nothing follows the material paths`);
  }

  const prfb = {
    file,
    size: bytes.length,
    format: 'PRFB',
    version,
    hash: w(2),
    header,
    counts,
    lods,
    tables,
    buffers,
    geometry,
    rest,
    confidence: 'uncertain',
    notes,
  } as Omit<Prfb, 'bytes'>;
  Object.defineProperty(prfb, 'bytes', { value: bytes, enumerable: false });
  return prfb as Prfb;
}

/**
 * Which of `drawCount` draws the given units name (units whose range runs past the table are
 * skipped). Linear in units + draws whatever the ranges (a difference array).
 */
export function drawCoverage(drawCount: number, units: readonly PrfbLodRecord[]): Uint8Array {
  const diff = new Int32Array(drawCount + 1);
  for (const u of units) {
    if (u.kind !== 'unit' || u.drawCount! === 0 || u.firstDraw! + u.drawCount! > drawCount) continue;
    diff[u.firstDraw!]!++;
    diff[u.firstDraw! + u.drawCount!]!--;
  }
  const out = new Uint8Array(drawCount);
  let run = 0;
  for (let i = 0; i < drawCount; i++) out[i] = (run += diff[i]!) > 0 ? 1 : 0;
  return out;
}

/** LOD records from 0x38 while the pattern holds (see the file comment). */
function readLods(r: FieldReader): PrfbLods {
  // A walk while the pattern holds: each record is tested through the view (the loop keeps it in
  // the file) and recorded as a span only once accepted.
  const { bytes, view: v } = r;
  const records: PrfbLodRecord[] = [];
  const rootTags = new Set<number>();
  let o = PRFB_LOD_OFFSET;
  let stop = '';
  const max = Math.floor((bytes.length - PRFB_LOD_OFFSET) / PRFB_LOD_RECORD_SIZE);
  for (let i = 0; ; i++, o += PRFB_LOD_RECORD_SIZE) {
    if (i >= max) {
      stop = o === bytes.length ? 'the file ends after the last record' : `fewer than ${PRFB_LOD_RECORD_SIZE} bytes remain at ${hexOff(o)}`;
      break;
    }
    const raw: number[] = [];
    for (let k = 0; k < 11; k++) raw.push(v.getUint32(o + 4 * k, true));
    if (raw[7] !== PRFB_LOD_MARKER) {
      stop = `the record at ${hexOff(o)} has no -1.0 at +28 (${hexOff(raw[7]!)})`;
      break;
    }
    const tag = raw[0]!;
    if (raw[1] === PRFB_NONE && raw[2] === 0 && raw[3] === 0) {
      rootTags.add(tag);
      records.push({ index: i, offset: o, kind: 'root', tag, raw, next: s32(raw[4]!), cullDistance: asF32(raw[5]!) });
      r.record(`lods[${i}]`, o, PRFB_LOD_RECORD_SIZE);
      continue;
    }
    if (raw[8] !== 0 || raw[9] !== 0) {
      stop = `the record at ${hexOff(o)} has -1.0 at +28 but is neither a root (+4 = -1, +8 = +12 = 0) nor a unit (+32 = +36 = 0)`;
      break;
    }
    if (!rootTags.has(tag)) {
      stop = `the record at ${hexOff(o)} reads as a unit of tag ${formatHash(tag)}, which no root has opened`;
      break;
    }
    records.push({
      index: i,
      offset: o,
      kind: 'unit',
      tag,
      raw,
      next: s32(raw[4]!),
      nameHash: raw[1],
      firstDraw: raw[2],
      drawCount: raw[3],
      switchDistance: asF32(raw[5]!),
      unknown24: asF32(raw[6]!),
      distinctDraws: raw[10],
    });
    r.record(`lods[${i}]`, o, PRFB_LOD_RECORD_SIZE);
  }
  const end = PRFB_LOD_OFFSET + records.length * PRFB_LOD_RECORD_SIZE;
  const notes: string[] = [`${records.length} LOD records from 0x38 (44 bytes, -1.0 at +28); the walk stopped because ${stop}`];

  const byTag = new Map<number, PrfbLodGroup>();
  for (const r of records) {
    let g = byTag.get(r.tag);
    if (!g) byTag.set(r.tag, (g = { tag: r.tag, records: [], roots: [], units: [], chains: [] }));
    g.records.push(r.index);
    (r.kind === 'root' ? g.roots : g.units).push(r.index);
  }
  const groups = [...byTag.values()];
  const nextReading = resolveChains(records, groups, notes);
  return { offset: PRFB_LOD_OFFSET, end, records, groups, nextReading, stop, notes };
}

/**
 * Follow every root's chain under one reading of `next`; undefined when a chain does not resolve.
 * A unit may belong to one chain only (so a cycle or a shared tail rejects the reading, and the
 * walk is linear in the number of records).
 */
function chainsUnder(records: PrfbLodRecord[], g: PrfbLodGroup, resolve: (next: number) => number | undefined): PrfbChain[] | undefined {
  const chains: PrfbChain[] = [];
  const claimed = new Set<number>();
  for (const root of g.roots) {
    const units: number[] = [];
    let next = records[root]!.next;
    while (next !== -1) {
      const at = resolve(next);
      if (at === undefined) return undefined;
      const u = records[at]!;
      if (u.kind !== 'unit' || u.tag !== g.tag || claimed.has(at)) return undefined;
      claimed.add(at);
      units.push(at);
      next = u.next;
    }
    chains.push({ root, units, complete: true });
  }
  return chains;
}

function resolveChains(records: PrfbLodRecord[], groups: PrfbLodGroup[], notes: string[]): PrfbNextReading {
  if (!groups.some((g) => g.roots.length)) {
    if (records.length) notes.push('no root records: chains cannot be followed');
    return 'none';
  }
  const readings: { name: PrfbNextReading; resolve: (g: PrfbLodGroup) => (next: number) => number | undefined }[] = [
    { name: 'record index', resolve: () => (n) => (n >= 0 && n < records.length ? n : undefined) },
    { name: 'index in group', resolve: (g) => (n) => (n >= 0 && n < g.records.length ? g.records[n] : undefined) },
  ];
  const results = readings.map((r) => {
    const all: PrfbChain[][] = [];
    for (const g of groups) {
      const c = chainsUnder(records, g, r.resolve(g));
      if (!c) return undefined;
      all.push(c);
    }
    return all;
  });
  const ok = results.map((x, i) => (x ? i : -1)).filter((i) => i >= 0);
  if (ok.length) {
    const pick = ok[0]!;
    results[pick]!.forEach((c, gi) => (groups[gi]!.chains = c));
    const same = ok.length === 2 && JSON.stringify(results[0]) === JSON.stringify(results[1]);
    notes.push(
      `next read as ${readings[pick]!.name === 'record index' ? 'an index over all LOD records' : 'an index within the group (root = 0)'} (our reading: every chain resolves with it)` +
        (ok.length === 2
          ? same
            ? '; reading it within the group gives the same chains'
            : '; reading it within the group also resolves, to different chains: UNCERTAIN'
          : ''),
    );
    return readings[pick]!.name;
  }
  // File order: a root, then its tag's units up to the next root of that tag.
  for (const g of groups) {
    // One sweep over the group's records (file order): each unit joins the last root before it.
    const chains: PrfbChain[] = [];
    for (const i of g.records) {
      if (records[i]!.kind === 'root') chains.push({ root: i, units: [], complete: true, problem: 'taken in file order: next did not resolve' });
      else chains[chains.length - 1]?.units.push(i);
    }
    for (const c of chains) {
      const last = c.units.length ? records[c.units[c.units.length - 1]!]! : undefined;
      c.complete = !last || last.next === -1;
    }
    g.chains = chains;
  }
  notes.push(
    'next resolves neither as an index over all LOD records nor within the group: chains taken in file order (a root, then its units up to the next root): UNCERTAIN',
  );
  return 'file order';
}

// ---- summary -------------------------------------------------------------------------------

/** Longest list the summary prints in full (the JSON form has everything). */
const SUMMARY_MAX = 64;
const f = (x: number | undefined): string => (x === undefined ? '?' : Number.isFinite(x) ? String(Math.round(x * 1000) / 1000) : String(x));

/** Lines describing what was found (CLI summary, the editor's message when there is no model). */
export function prfbSummary(p: Prfb): string[] {
  const lines: string[] = [`PRFB v${p.version}, ${p.size} bytes, hash ${formatHash(p.hash)}; confidence uncertain (no sample file; layout from seed 001)`];
  lines.push('header words:');
  for (const h of p.header) lines.push(`  [${h.index}] ${hexOff(h.offset)} = ${h.value} (${h.hex}): ${h.label}`);
  lines.push(`LOD records at 0x38 .. ${hexOff(p.lods.end)}: ${p.lods.records.length} (walk stopped: ${p.lods.stop}); next read as ${p.lods.nextReading}`);
  const capped = <T>(items: T[], max: number, line: (x: T) => string, what: string): void => {
    for (const x of items.slice(0, max)) lines.push(line(x));
    if (items.length > max) lines.push(`    … ${items.length - max} more ${what}`);
  };
  for (const g of p.lods.groups.slice(0, SUMMARY_MAX)) {
    lines.push(`  group ${formatHash(g.tag)}: ${g.roots.length} root(s), ${g.units.length} unit(s)`);
    capped(
      g.roots,
      SUMMARY_MAX,
      (ri) => {
        const r = p.lods.records[ri]!;
        return `    root ${ri} at ${hexOff(r.offset)}: next ${r.next}, cull distance ${f(r.cullDistance)}`;
      },
      'roots',
    );
    capped(
      g.units,
      SUMMARY_MAX,
      (ui) => {
        const u = p.lods.records[ui]!;
        return `    unit ${ui} at ${hexOff(u.offset)}: name ${formatHash(u.nameHash!)}, draws ${u.firstDraw} + ${u.drawCount}, next ${u.next}${u.next === -1 ? ' (finest)' : ''}, switch distance ${f(u.switchDistance)}, f32 ${f(u.unknown24)}, distinct draws ${u.distinctDraws}`;
      },
      'units',
    );
    capped(
      g.chains,
      SUMMARY_MAX,
      (c) =>
        `    chain from root ${c.root} (coarse to fine): ${c.units.length ? c.units.join(' -> ') : 'no units'}${c.complete ? '' : ' (does not end at -1)'}`,
      'chains',
    );
  }
  if (p.lods.groups.length > SUMMARY_MAX) lines.push(`  … ${p.lods.groups.length - SUMMARY_MAX} more groups`);
  // A loop, not push(...): the summary has a line per vertex format and material path, counts the file sets.
  for (const l of tableSummary({ tables: p.tables, buffers: p.buffers, geometry: p.geometry, notes: [] })) lines.push(l);
  if (p.rest) lines.push(`${p.rest.size} bytes at ${hexOff(p.rest.offset)}: ${p.rest.note}`);
  return lines;
}

/** Every note, in order: LOD walk, table search, tables, geometry, the rest. */
export function prfbNotes(p: Prfb): string[] {
  return [...p.lods.notes, ...(p.tables?.notes ?? []), ...p.notes, ...(p.geometry?.notes ?? [])];
}
