/**
 * PRFB (.inst) and MESH (.wldmsh) → MeshModel, only when the geometry is checkable: the tables
 * were located, the buffers were found, and every draw's vertex block and index range lie inside
 * them with every index below its draw's vertex count (core/formats/prefab/tables/). Otherwise no
 * model is made and the reason is returned; the structure is still there to show.
 *
 * PRFB LODs (seed 001: "Per instance the engine walks coarse to fine and draws the first unit
 * whose next is -1 or whose switch distance the camera is beyond"): the group shown is the first
 * one, in file order, whose chains draw something (a placement picks a group by its tag; the
 * others are listed in the notes). One MeshModel LOD per chain level, finest first (LOD 0 = the
 * units whose next is -1), each the draws of that level's unit in every chain of the group;
 * chains of different lengths are aligned at their finest unit, a shorter chain contributing its
 * coarsest unit to the coarser levels. A level that draws nothing is left out (noted). Draws in
 * no unit (depth prepass, shadow casters) are not shown. Switch distances are quoted in the notes
 * as stored: the seed quotes metres for a keep wall but does not say what the file stores, so
 * `ModelLod.distance` (centimetres) is left unset.
 *
 * MESH: one LOD with every draw. Draws wider than 20 km (taking positions as centimetres) are
 * sky domes and vista cards (seed 001); they are kept as parts, named so, and left out of the
 * bounds so the view frames the ground.
 *
 * Vertices: positions as stored (float3, or half4 without w), normals (normalised), the first uv
 * channel, colours (see `decodeDraw`).
 */
import { formatHash } from '../hash/stringHash';
import { Prfb, PrfbLodRecord, drawCoverage, parsePrfb, prfbNotes, prfbSummary } from '../formats/prefab/prfb';
import { Buffers, Geometry, Tables } from '../formats/prefab/tables/layout';
import { DecodedDraw, decodeDraw } from '../formats/prefab/tables/decode';
import { SKY_DRAW_WIDTH, WorldMesh, parseWorldMesh, worldMeshNotes, worldMeshSummary } from '../formats/prefab/worldMesh';
import { MeshModel, ModelLod, ModelPart, boundsOf } from './meshModel';

export interface ModelAttempt {
  model?: MeshModel;
  /** Why there is no model, when there is none. */
  reason?: string;
}

interface Located {
  bytes: Uint8Array;
  file: string;
  tables?: Tables;
  buffers?: Buffers;
  geometry?: Geometry;
}

function whyNot(x: Located): string | undefined {
  if (!x.tables) return 'the draw table was not located';
  if (!x.tables.formats) return 'the vertex formats were not located';
  if (!x.buffers) return 'the vertex and index buffers were not located';
  if (!x.geometry?.checkable) return x.geometry?.notes.find((n) => n.startsWith('geometry not shown')) ?? 'the draws do not fit the buffers';
  return undefined;
}

const baseName = (p: string): string => p.split(/[\\/]/).pop() ?? p;

function partOf(d: DecodedDraw, label: string, tables: Tables): ModelPart | undefined {
  if (!d.positions) return undefined;
  const rec = tables.draws[d.draw]!;
  const path = tables.materials?.paths[rec.material]?.path;
  const part: ModelPart = {
    name: label,
    material: path ? baseName(path) : `material ${rec.material}`,
    materialIndex: rec.material,
    positions: d.positions,
    indices: d.indices,
  };
  if (d.normals) {
    const n = d.normals;
    for (let i = 0; i + 2 < n.length; i += 3) {
      const l = Math.hypot(n[i]!, n[i + 1]!, n[i + 2]!);
      if (l > 0 && Number.isFinite(l)) {
        n[i] = n[i]! / l;
        n[i + 1] = n[i + 1]! / l;
        n[i + 2] = n[i + 2]! / l;
      }
    }
    part.normals = n;
  }
  if (d.uvs) part.uvs = d.uvs;
  if (d.colors) part.colors = d.colors;
  return part;
}

function lodOf(index: number, parts: ModelPart[]): ModelLod {
  return { index, parts, triangles: parts.reduce((s, p) => s + p.indices.length / 3, 0), vertices: parts.reduce((s, p) => s + p.positions.length / 3, 0) };
}

class DrawCache {
  private readonly decoded = new Map<number, DecodedDraw>();
  readonly notes = new Set<string>();
  constructor(private readonly x: Located) {}
  get(i: number): DecodedDraw {
    let d = this.decoded.get(i);
    if (!d) {
      d = decodeDraw(this.x.bytes, this.x.file, this.x.tables!, this.x.buffers!, this.x.geometry!.placements[i]!);
      this.decoded.set(i, d);
      for (const n of d.notes) this.notes.add(`draw ${i}: ${n}`);
    }
    return d;
  }
}

/** Most chain levels turned into LODs (real prefabs have a handful). */
const MAX_LEVELS = 16;
/** Most indices a model is built with (shared index ranges could otherwise multiply a file's size). */
const MAX_MODEL_INDICES = 24_000_000;
const fmtDist = (x: number | undefined): string => (x === undefined ? '?' : String(Math.round(x * 1000) / 1000));

/** A MeshModel of a PRFB's first drawing LOD group, or the reason there is none. */
export function meshModelFromPrfb(p: Prfb, name: string): ModelAttempt {
  const reason = whyNot(p);
  if (reason) return { reason };
  const tables = p.tables!;
  const D = tables.draws.length;
  const cache = new DrawCache(p);
  const notes: string[] = [
    'PRFB read from seed 001 alone (no sample file): tables and buffers located by search, UNCERTAIN',
    ...tables.notes,
    ...p.geometry!.notes,
  ];
  const recs = p.lods.records;
  const draws = (u: PrfbLodRecord): boolean => u.drawCount! > 0 && u.firstDraw! + u.drawCount! <= D;
  const listOf = (mask: Uint8Array): number[] => {
    const out: number[] = [];
    for (let i = 0; i < mask.length; i++) if (mask[i]) out.push(i);
    return out;
  };

  // Levels from the first group whose chains draw something.
  const group = p.lods.groups.find((g) => g.chains.some((c) => c.units.some((u) => draws(recs[u]!))));
  let levels: { draws: number[]; label: string }[] = [];
  if (group) {
    const chains = group.chains.filter((c) => c.units.length);
    const depth = chains.reduce((m, c) => Math.max(m, c.units.length), 0);
    for (let j = 0; j < Math.min(depth, MAX_LEVELS); j++) {
      const units = chains.map((c) => recs[c.units[Math.max(0, c.units.length - 1 - j)]!]!);
      const label =
        units
          .slice(0, 4)
          .map((u) => `unit ${u.index}${u.next === -1 ? ' (finest)' : ''} switch distance ${fmtDist(u.switchDistance)}`)
          .join('; ') + (units.length > 4 ? `; … ${units.length - 4} more chains` : '');
      levels.push({ draws: listOf(drawCoverage(D, units)), label });
    }
    if (depth > MAX_LEVELS) notes.push(`only the ${MAX_LEVELS} finest of ${depth} chain levels are shown`);
    const others = p.lods.groups.filter((g) => g !== group).map((g) => formatHash(g.tag));
    notes.push(
      `LOD group ${formatHash(group.tag)} shown (the first that draws anything; a placement picks a group by its tag)` +
        (others.length ? `; other group(s) not shown: ${others.slice(0, 16).join(', ')}${others.length > 16 ? ` … (${others.length})` : ''}` : '') +
        `; next read as ${p.lods.nextReading}`,
    );
    const empty = levels.filter((l) => !l.draws.length);
    if (empty.length) notes.push(`${empty.length} level(s) draw nothing and are not shown (${empty.map((l) => l.label).join(' | ')})`);
    levels = levels.filter((l) => l.draws.length);
    levels.forEach((l, i) => notes.push(`LOD ${i}: ${l.label} (distances as stored; the seed does not give their unit)`));
    const used = drawCoverage(D, recs);
    const orphans = used.length - used.reduce((s2, x) => s2 + x, 0);
    if (orphans > 0) notes.push(`${orphans} draw(s) are in no unit (seed: depth prepass and shadow casters) and are not shown`);
  } else {
    levels = [{ draws: [...Array(D).keys()], label: 'all draws' }];
    notes.push('no LOD chain draws anything (or none resolved): every draw is shown as one LOD');
  }

  const size = levels.reduce((s2, l) => s2 + l.draws.reduce((s3, di) => s3 + tables.draws[di]!.triangles * 3, 0), 0);
  if (size > MAX_MODEL_INDICES) return { reason: `the LODs would hold ${size} indices, more than the ${MAX_MODEL_INDICES} a view is given` };
  const lods: ModelLod[] = [];
  for (const [li, l] of levels.entries()) {
    const parts: ModelPart[] = [];
    for (const di of l.draws) {
      const part = partOf(cache.get(di), `LOD${li} draw ${di}`, tables);
      if (part) parts.push(part);
      else notes.push(`draw ${di}: no position attribute that can be read (float3 or half4), not shown`);
    }
    if (parts.length) lods.push(lodOf(lods.length, parts));
  }
  if (!lods.length) return { reason: 'no draw has readable positions' };
  for (const n of cache.notes) notes.push(n); // not push(...): notes per draw, a count the file sets
  notes.push('positions as stored (prefab-local, pivot at the base centre per seed 001; the unit is not stated, shown as centimetres)');
  return { model: { name, lods, bounds: boundsOf(lods[0]!.parts.map((x) => x.positions)), notes } };
}

/** A MeshModel of a MESH world mesh (one LOD, every draw), or the reason there is none. */
export function meshModelFromWorldMesh(m: WorldMesh, name: string): ModelAttempt {
  const reason = whyNot(m);
  if (reason) return { reason };
  const tables = m.tables!;
  const cache = new DrawCache(m);
  const notes: string[] = ['MESH read from seed 001 alone (no sample file): tables located by search, UNCERTAIN', ...tables.notes, ...m.geometry!.notes];
  const size = tables.draws.reduce((s2, d) => s2 + d.triangles * 3, 0);
  if (size > MAX_MODEL_INDICES) return { reason: `the draws hold ${size} indices, more than the ${MAX_MODEL_INDICES} a view is given` };
  const parts: ModelPart[] = [];
  const ground: Float32Array[] = [];
  let sky = 0;
  for (let di = 0; di < tables.draws.length; di++) {
    const d = cache.get(di);
    const b = d.positions ? boundsOf([d.positions]) : undefined;
    const width = b ? Math.max(b.max[0] - b.min[0], b.max[2] - b.min[2]) : 0;
    const wide = width > SKY_DRAW_WIDTH;
    const part = partOf(d, wide ? `draw ${di} (${Math.round(width / 100_000)} km wide: sky dome or vista card)` : `draw ${di}`, tables);
    if (!part) {
      notes.push(`draw ${di}: no position attribute that can be read (float3 or half4), not shown`);
      continue;
    }
    if (wide) sky++;
    else ground.push(part.positions);
    parts.push(part);
  }
  if (!parts.length) return { reason: 'no draw has readable positions' };
  for (const n of cache.notes) notes.push(n); // not push(...): notes per draw, a count the file sets
  notes.push("materials index the part's WDSC material list (seed 001); positions as stored (world space; taken as centimetres)");
  if (sky) notes.push(`${sky} draw(s) wider than 20 km (seed 001: sky domes and vista cards) are left out of the bounds`);
  const lods = [lodOf(0, parts)];
  return { model: { name, lods, bounds: boundsOf(ground.length ? ground : parts.map((x) => x.positions)), notes } };
}

/** What `readPrefabLike` gives: the model or why not, the structure as lines, the notes, and the parse itself. */
export type PrefabLikeRead = ModelAttempt & { structure: string[]; notes: string[] } & ({ kind: 'PRFB'; prfb: Prfb } | { kind: 'MESH'; worldMesh: WorldMesh });

/**
 * For front ends: parse a .inst or .wldmsh and give a model when the geometry is checkable, and
 * always the structure as lines (header words, LOD groups, what was located and what was not).
 * Arch06Errors from the header (magic, version, truncation) propagate; so does a decode error.
 */
export function readPrefabLike(bytes: Uint8Array, file: string, name: string, kind: 'PRFB' | 'MESH'): PrefabLikeRead {
  if (kind === 'PRFB') {
    const p = parsePrfb(bytes, file);
    const a = meshModelFromPrfb(p, name);
    return { ...a, structure: prfbSummary(p), notes: prfbNotes(p), kind, prfb: p };
  }
  const m = parseWorldMesh(bytes, file);
  const a = meshModelFromWorldMesh(m, name);
  return { ...a, structure: worldMeshSummary(m), notes: worldMeshNotes(m), kind, worldMesh: m };
}

/** The kind a file's magic names, if it is one of the two. */
export function prefabKindOf(bytes: Uint8Array): 'PRFB' | 'MESH' | undefined {
  if (bytes.length < 4) return undefined;
  const m = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  return m === 'PRFB' ? 'PRFB' : m === 'MESH' ? 'MESH' : undefined;
}

/**
 * The text a front end shows when there is no model: why, the structure found (header words with
 * labels, LOD groups and units, tables) and every note on what could not be located and why.
 * One line per item, joined with newlines.
 */
export function explainNoModel(kind: 'PRFB' | 'MESH', r: ModelAttempt & { structure: string[]; notes: string[] }): string {
  const what = kind === 'PRFB' ? 'PRFB v8 prefab (.inst)' : 'MESH v5 world mesh (.wldmsh)';
  return [
    `This ${what} is read from seed 001 alone (no sample file exists; the tables are located by search and uncertain). No 3D view: ${r.reason ?? 'no model'}.`,
    'Structure found:',
    ...r.structure,
    'Notes:',
    ...r.notes.map((n) => `- ${n}`),
    'The raw bytes are below.',
  ].join('\n');
}
