/**
 * A skeleton (`.skel`, SKEL v17) as decoded text (syntax: ./syntax.ts): the header, the bones in
 * file (depth-first) order with their parents, the StringHash of their names and the bind pose
 * (model space), the LOD parts, masks, sockets, animation libraries and the section map.
 */
import { defaultHasher, formatHash } from '../hash';
import { parseSkel } from '../formats/mesh';
import { List, TextDoc, hex6 } from './syntax';

const hashOf = (name: string): string | null => {
  const h = defaultHasher.tryHash(name);
  return h.ok ? formatHash(h.hash) : null;
};

/** Render the bytes of a skeleton. Throws the reader's typed errors. */
export function renderSkeleton(bytes: Uint8Array, path: string): string {
  const s = parseSkel(bytes, path);
  const h = s.header;
  const d = new TextDoc({ inputSize: bytes.length });
  d.comment(`arch06 decoded text · skeleton (SKEL) · ${path}`);
  d.comment('syntax: [section] headers, "key = value" fields, one record per line ("id key=value …")');
  d.section('skeleton');
  d.field('version', h.version);
  d.field('size', s.size);
  d.field('bones', s.bones.length);
  d.field('parts', s.parts.length);
  d.field('sockets', s.sockets.length);
  d.field('masks', s.masks.length);
  d.field('anix', s.anixNames.length);
  d.field('bounds.min', h.bounds.min);
  d.field('bounds.max', h.bounds.max);
  d.field('f32_44', h.distance0x44);
  d.field('unknown', new List(h.unknownWords));
  d.section('bones', [['count', s.bones.length]]);
  d.comment('name  index  parent  StringHash of the name  deform  translation, rotation (model space, cm; quaternion x, y, z, w)  children');
  for (const b of s.bones)
    d.record(b.name, [
      ['index', b.index],
      ['parent', b.parent < 0 ? null : (s.bones[b.parent]?.name ?? b.parent)],
      ['hash', hashOf(b.name)],
      ['deform', b.deform],
      ['t', b.translation],
      ['r', b.rotation],
      ['children', b.childCount],
    ]);
  d.section('parts', [['count', s.parts.length]]);
  d.comment('part (LOD group) name  LOD  StringHash (the mesh LOD group id)  switch distance (cm)  material slot  flags  unknown');
  for (const p of s.parts)
    p.entries.forEach((e, lod) =>
      d.record(p.name, [
        ['lod', lod],
        ['hash', hashOf(p.name)],
        ['distance', e.distance],
        ['material', e.material],
        ['flags', [e.flagA, e.flagB]],
        ['unk', e.unk],
      ]),
    );
  if (s.masks.length) {
    d.section('masks', [['count', s.masks.length]]);
    for (const m of s.masks)
      d.record(m.name, [
        ['bones', m.boneCount],
        ['unk', m.unk],
        ['values', new List(m.values)],
      ]);
  }
  if (s.sockets.length) {
    d.section('sockets', [['count', s.sockets.length]]);
    for (const k of s.sockets)
      d.record(k.name, [
        ['bone', s.bones[k.bone]?.name ?? k.bone],
        ['t', k.translation],
        ['r', k.rotation],
        ['scale', k.scale],
      ]);
  }
  if (s.anixNames.length) {
    d.section('anix', [['count', s.anixNames.length]]);
    s.anixNames.forEach((n, i) => d.record(n, [['type', s.animationTypes[i]]]));
  }
  d.section('sections', [['count', s.sections.length]]);
  for (const x of s.sections)
    d.record(x.name, [
      ['id', formatHash(x.id)],
      ['offset', hex6(x.offset)],
      ['end', hex6(x.end)],
    ]);
  return d.toString();
}
