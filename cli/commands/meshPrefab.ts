/**
 * The mesh commands on `.inst` (PRFB v8 prefabs) and `.wldmsh` (MESH v5 world meshes), or any file
 * with those magics (see mesh.ts): their structure as read from seed 001 alone, how each table was
 * located, and the model's LODs when the geometry is checkable.
 */
import * as path from 'node:path';
import { Arch06Error } from '../../core/errors';
import { formatHash } from '../../core/hash';
import { type ModelAttempt, prefabKindOf, readPrefabLike } from '../../core/model';
import { type Prfb, type Tables, type WorldMesh, prfbNotes, worldMeshNotes } from '../../core/formats/prefab';
import { type ParsedArgs, flagString } from '../args';
import { escapeControls, escapeName, printJson, writeOut } from '../output';
import { writeGlbOption } from './meshGlb';

/** PRFB / MESH by extension, else by magic (a .mesh is MMSH). */
export function prefabKind(p: string, bytes: Uint8Array): 'PRFB' | 'MESH' | undefined {
  if (/\.inst$/i.test(p)) return 'PRFB';
  if (/\.wldmsh$/i.test(p)) return 'MESH';
  return prefabKindOf(bytes);
}

const hex = (v: number): string => formatHash(v >>> 0);

function describeTables(t: Tables | undefined): Record<string, unknown> | null {
  if (!t) return null;
  return {
    confidence: t.confidence,
    drawsOffset: t.drawsOffset,
    draws: t.draws.map((d) => ({
      index: d.index,
      offset: d.offset,
      vertexCount: d.vertexCount,
      indexStart: d.indexStart,
      base: d.base,
      triangles: d.triangles,
      material: d.material,
      format: d.format,
      vend: d.vend,
      unknown44: d.unknown44.asFloat,
      unknown48: d.unknown48.asFloat,
      words: [d.word0, d.vertexCount2, d.word7, d.word8],
    })),
    formats: t.formats
      ? {
          offset: t.formats.offset,
          size: t.formats.size,
          framing: t.formats.framing,
          count: t.formats.count,
          formats: t.formats.formats.map((f) => ({
            index: f.index,
            offset: f.offset,
            strides: f.strides,
            entries: f.entries.map((e) => ({
              stream: e.stream,
              type: e.type,
              typeName: e.typeName,
              usage: e.usage,
              usageName: e.usageName,
              index: e.index,
              size: e.size,
              streamOffset: e.streamOffset,
            })),
          })),
        }
      : null,
    materials: t.materials
      ? { offset: t.materials.offset, size: t.materials.size, encoding: t.materials.encoding, paths: t.materials.paths.map((m) => m.path) }
      : null,
    end: t.end,
    notes: t.notes,
  };
}

function describeModel(a: ModelAttempt): Record<string, unknown> {
  return {
    model: a.model
      ? {
          lods: a.model.lods.map((l) => ({ index: l.index, vertices: l.vertices, triangles: l.triangles, parts: l.parts.map((p) => p.name) })),
          bounds: a.model.bounds,
        }
      : null,
    modelReason: a.reason ?? null,
  };
}

function describePrfb(p: Prfb, a: ModelAttempt): Record<string, unknown> {
  return {
    file: p.file,
    size: p.size,
    format: 'PRFB',
    version: p.version,
    confidence: p.confidence,
    hash: hex(p.hash),
    header: p.header,
    counts: p.counts,
    lods: {
      offset: p.lods.offset,
      end: p.lods.end,
      count: p.lods.records.length,
      stop: p.lods.stop,
      nextReading: p.lods.nextReading,
      records: p.lods.records.map((r) => ({ ...r, tag: hex(r.tag), nameHash: r.nameHash === undefined ? undefined : hex(r.nameHash), raw: r.raw.map(hex) })),
      groups: p.lods.groups.map((g) => ({ tag: hex(g.tag), roots: g.roots, units: g.units, chains: g.chains })),
    },
    tables: describeTables(p.tables),
    buffers: p.buffers ?? null,
    geometry: p.geometry ? { checkable: p.geometry.checkable, confidence: p.geometry.confidence, notes: p.geometry.notes } : null,
    rest: p.rest ?? null,
    ...describeModel(a),
    notes: [...new Set([...prfbNotes(p), ...(a.model?.notes ?? []), ...(a.reason ? [`no model: ${a.reason}`] : [])])],
  };
}

function describeWorldMesh(m: WorldMesh, a: ModelAttempt): Record<string, unknown> {
  return {
    file: m.file,
    size: m.size,
    format: 'MESH',
    version: m.version,
    confidence: m.confidence,
    header: m.header,
    counts: m.counts,
    buffers: m.buffers,
    tables: describeTables(m.tables),
    geometry: m.geometry ? { checkable: m.geometry.checkable, confidence: m.geometry.confidence, notes: m.geometry.notes } : null,
    rest: m.rest ?? null,
    ...describeModel(a),
    notes: [...new Set([...worldMeshNotes(m), ...(a.model?.notes ?? []), ...(a.reason ? [`no model: ${a.reason}`] : [])])],
  };
}

export function showPrefabLike(bytes: Uint8Array, file: string, kind: 'PRFB' | 'MESH', args: ParsedArgs, forbid: string[]): number {
  const name = path.basename(file.replace(/\\/g, '/'));
  const a = readPrefabLike(bytes, file, name, kind);
  const d = a.kind === 'PRFB' ? describePrfb(a.prfb, a) : describeWorldMesh(a.worldMesh, a);
  const summary = a.structure;
  let glb: { file: string; bytes: number } | undefined;
  if (flagString(args, 'glb') !== undefined) {
    if (!a.model) throw new Arch06Error('INVALID', `no model to export: ${a.reason}`, { file, field: 'geometry' });
    glb = writeGlbOption(a.model, args, forbid);
  }
  if (args.flags.has('json')) {
    printJson({ ...d, glb: glb ?? null });
    return 0;
  }
  const lines = [...summary];
  if (a.model) {
    for (const l of a.model.lods)
      lines.push(
        `LOD ${l.index}: ${l.vertices} vertices, ${l.triangles} triangles, ${l.parts.length} parts (${l.parts.map((p) => escapeName(p.name)).join(', ')})`,
      );
  } else lines.push(`no model: ${a.reason}`);
  for (const n of d.notes as string[]) lines.push(`note: ${n}`);
  if (glb) lines.push(`wrote ${glb.file} (${glb.bytes} bytes, LOD 0)`);
  writeOut(lines.map(escapeControls).join('\n') + '\n');
  return 0;
}
