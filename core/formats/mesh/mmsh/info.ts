/**
 * The MMSH v17 info section: the fixed fields, the LOD groups, connection records, LodInfo and
 * MeshInfo tables, the LOD section, the vertex layouts and the bones (the layout and where each
 * reading comes from: ./layout.ts). Every count is checked against the bytes left in the section
 * before anything is read for it.
 */
import { Arch06Error } from '../../../errors';
import { FieldReader } from '../../../io/fieldReader';
import { asF32 } from '../../../io/half';
import {
  MMSH_BONE_SECTION_ID,
  MMSH_BONE_SIZE,
  MMSH_CONNECTION_SIZE,
  MMSH_INFO_FIXED_SIZE,
  MMSH_INFO_ID,
  MMSH_LADDER_LENGTH,
  MMSH_LAYOUT_SECTION_ID,
  MMSH_LODINFO_SIZE,
  MMSH_LOD_SECTION_ID,
  MMSH_MESHINFO_SIZE,
  MMSH_SEMANTICS,
  MMSH_TYPES,
  MmshAttribute,
  MmshBone,
  MmshConnection,
  MmshInfo,
  MmshLayout,
  MmshLodInfo,
  MmshLodSection,
  MmshMeshInfo,
} from './layout';

/** The fixed fields opening the info section: the counts every later table is read with. */
interface InfoFixed {
  readonly offset: number;
  readonly G: number;
  readonly C: number;
  readonly L: number;
  readonly meshCount: number;
  readonly unknown14: number;
  readonly S: number;
  readonly ML: number;
  readonly SL: number;
  readonly VL: number;
  readonly attributeTotal: number;
  readonly cullDistance: number;
  readonly sphereV: [number, number, number, number];
  readonly B: number;
  readonly boneSectionSize: number;
  /** The offset of fixed field `k` (relative to the section start), for errors naming a count. */
  at(k: number): number;
}

export function parseInfo(r: FieldReader, notes: string[], uncertain: (n: string) => void): MmshInfo {
  const x = readFixed(r);
  const lodGroupIds: number[] = [];
  r.fits(x.G, 4, 'info.lodGroupCount', x.at(0x04));
  for (let i = 0; i < x.G; i++) lodGroupIds.push(r.u32(`info.lodGroupIds[${i}]`));
  const connections = readConnections(r, x);
  const lods = readLodInfos(r, x, uncertain);
  const meshes = readMeshInfos(r, x, lods);
  const lodSection = readLodSection(r, x);
  const layouts = readLayouts(r, x, uncertain);
  const bones = readBones(r, x, uncertain);
  notes.push('info +0x14, MeshInfo unk7/unk8 and the connection flags are UNCERTAIN and kept raw');
  const { offset, sphereV } = x;
  return {
    offset,
    size: r.end - offset,
    lodGroupCount: x.G,
    connectionCount: x.C,
    lodCount: x.L,
    meshCount: x.meshCount,
    unknown14: x.unknown14,
    lodSettingsCount: x.S,
    meshLodCount: x.ML,
    shadowLodCount: x.SL,
    layoutCount: x.VL,
    attributeTotal: x.attributeTotal,
    cullDistance: x.cullDistance,
    sphere: { center: [sphereV[0], sphereV[1], sphereV[2]], radius: sphereV[3] },
    boneCount: x.B,
    boneSectionSize: x.boneSectionSize,
    lodGroupIds,
    connections,
    lods,
    meshes,
    lodSection,
    layouts,
    bones,
  };
}

function readFixed(r: FieldReader): InfoFixed {
  const offset = r.pos;
  r.sectionId(MMSH_INFO_ID, 'info.sectionId');
  r.need(MMSH_INFO_FIXED_SIZE - 4, 'info.fixed');
  return {
    offset,
    G: r.u32('info.lodGroupCount'),
    C: r.u32('info.connectionCount'),
    L: r.u32('info.lodCount'),
    meshCount: r.u32('info.meshCount'),
    unknown14: r.u32('info.unknown14'),
    S: r.u32('info.lodSettingsCount'),
    ML: r.u32('info.meshLodCount'),
    SL: r.u32('info.shadowLodCount'),
    VL: r.u32('info.layoutCount'),
    attributeTotal: r.u32('info.attributeTotal'),
    cullDistance: r.f32('info.cullDistance'),
    sphereV: r.vec4('info.sphere'),
    B: r.u32('info.boneCount'),
    boneSectionSize: r.u32('info.boneSectionSize'),
    at: (k: number): number => offset + k,
  };
}

/** The connection records: LOD group, data block and material slot, each checked against the counts. */
function readConnections(r: FieldReader, x: InfoFixed): MmshConnection[] {
  const { file } = r;
  const { G, C, L } = x;
  r.fits(C, MMSH_CONNECTION_SIZE, 'info.connectionCount', x.at(0x08));
  const connections: MmshConnection[] = [];
  for (let i = 0; i < C; i++) {
    const o = r.pos;
    const f = `info.connections[${i}]`;
    const lodGroup = r.s32(`${f}.lodGroup`);
    const lod = r.s32(`${f}.lod`);
    const material = r.s32(`${f}.material`);
    const flags = r.s32(`${f}.flags`);
    if (lodGroup < 0 || lodGroup >= G)
      throw new Arch06Error('OUT_OF_RANGE', 'connection names a LOD group that does not exist', {
        file,
        offset: o,
        field: `${f}.lodGroup`,
        expected: `0..${G - 1}`,
        actual: String(lodGroup),
      });
    if (lod < -1 || lod >= L)
      throw new Arch06Error('OUT_OF_RANGE', 'connection names a data block that does not exist', {
        file,
        offset: o + 4,
        field: `${f}.lod`,
        expected: `-1..${L - 1}`,
        actual: String(lod),
      });
    if (material < -1)
      throw new Arch06Error('OUT_OF_RANGE', 'connection material slot is negative', {
        file,
        offset: o + 8,
        field: `${f}.material`,
        expected: '>= -1',
        actual: String(material),
      });
    connections.push({ index: i, offset: o, lodGroup, lod, material, flags });
  }
  return connections;
}

/** The LodInfo table: per data block its byte sizes, mesh count and triangle ladder; the mesh counts must add up. */
function readLodInfos(r: FieldReader, x: InfoFixed, uncertain: (n: string) => void): MmshLodInfo[] {
  const { file } = r;
  const { L, meshCount } = x;
  r.fits(L, MMSH_LODINFO_SIZE, 'info.lodCount', x.at(0x0c));
  const lods: MmshLodInfo[] = [];
  let meshSum = 0;
  for (let i = 0; i < L; i++) {
    const o = r.pos;
    const f = `info.lods[${i}]`;
    const vertexBytes = r.u32(`${f}.vertexBytes`);
    const faceBytes = r.u32(`${f}.faceBytes`);
    const paletteBytes = r.u32(`${f}.paletteBytes`);
    const mc = r.u32(`${f}.meshCount`);
    const ladder: number[] = [];
    for (let k = 0; k < MMSH_LADDER_LENGTH; k++) ladder.push(r.u16(`${f}.ladder[${k}]`));
    if (faceBytes % 6 !== 0)
      throw new Arch06Error('INVALID', 'face bytes are not whole 16-bit triangles', {
        file,
        offset: o + 4,
        field: `${f}.faceBytes`,
        expected: 'a multiple of 6',
        actual: String(faceBytes),
      });
    const triangles = faceBytes / 6;
    let rising = ladder[MMSH_LADDER_LENGTH - 1] === Math.min(triangles, 0xffff);
    for (let k = 1; k < MMSH_LADDER_LENGTH; k++) if (ladder[k]! < ladder[k - 1]!) rising = false;
    if (!rising)
      uncertain(`LodInfo[${i}] ladder ${ladder.join(',')} does not rise to the block's ${triangles} triangles (seed 004: it does on 4,377 of 4,377 arenas)`);
    lods.push({
      index: i,
      offset: o,
      vertexBytes,
      faceBytes,
      paletteBytes,
      meshCount: mc,
      firstMesh: meshSum,
      ladder,
      triangles,
      ladderConfidence: rising ? 'confirmed' : 'uncertain',
    });
    meshSum += mc;
  }
  if (meshSum !== meshCount) {
    throw new Arch06Error('INVALID', 'the LodInfo mesh counts do not add up to info.meshCount', {
      file,
      offset: x.at(0x10),
      field: 'info.meshCount',
      expected: `${meshSum} (sum over LodInfo)`,
      actual: String(meshCount),
    });
  }
  return lods;
}

/** The MeshInfo table: the meshes of each data block in turn, with their vertex, index and palette ranges. */
function readMeshInfos(r: FieldReader, x: InfoFixed, lods: MmshLodInfo[]): MmshMeshInfo[] {
  r.fits(x.meshCount, MMSH_MESHINFO_SIZE, 'info.meshCount', x.at(0x10));
  const meshes: MmshMeshInfo[] = [];
  for (const l of lods) {
    for (let k = 0; k < l.meshCount; k++) {
      const o = r.pos;
      const index = meshes.length;
      const f = `info.meshes[${index}]`;
      const vertexByteOffset = r.u32(`${f}.vertexByteOffset`);
      const firstVertex = r.u32(`${f}.firstVertex`);
      const vertexCount = r.u32(`${f}.vertexCount`);
      const firstIndex = r.u32(`${f}.firstIndex`);
      const indexCount = r.u32(`${f}.indexCount`);
      const firstPalette = r.u32(`${f}.firstPalette`);
      const paletteCount = r.u32(`${f}.paletteCount`);
      const raw7 = r.u32(`${f}.unk7`);
      const raw8 = r.u32(`${f}.unk8`);
      const layout = r.u32(`${f}.layout`);
      meshes.push({
        index,
        lod: l.index,
        indexInLod: k,
        offset: o,
        vertexByteOffset,
        firstVertex,
        vertexCount,
        firstIndex,
        indexCount,
        firstPalette,
        paletteCount,
        unk7: { raw: raw7, asFloat: asF32(raw7) },
        unk8: { raw: raw8, asFloat: asF32(raw8) },
        layout,
      });
    }
  }
  return meshes;
}

/** The LOD section: settings, then the mesh and shadow LOD distances and links. */
function readLodSection(r: FieldReader, x: InfoFixed): MmshLodSection {
  const lodOffset = r.pos;
  r.sectionId(MMSH_LOD_SECTION_ID, 'info.lodSection.sectionId');
  const u32s = (n: number, field: string, countField: string, countAt: number): number[] => {
    r.fits(n, 4, countField, countAt);
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(r.u32(`${field}[${i}]`));
    return out;
  };
  const f32s = (n: number, field: string, countField: string, countAt: number): number[] => {
    r.fits(n, 4, countField, countAt);
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(r.f32(`${field}[${i}]`));
    return out;
  };
  return {
    offset: lodOffset,
    settings: u32s(x.S, 'info.lodSection.settings', 'info.lodSettingsCount', x.at(0x18)),
    meshLodDistances: f32s(x.ML, 'info.lodSection.meshLodDistances', 'info.meshLodCount', x.at(0x1c)),
    shadowLodDistances: f32s(x.SL, 'info.lodSection.shadowLodDistances', 'info.shadowLodCount', x.at(0x20)),
    meshLodLinks: u32s(x.ML, 'info.lodSection.meshLodLinks', 'info.meshLodCount', x.at(0x1c)),
    shadowLodLinks: u32s(x.SL, 'info.lodSection.shadowLodLinks', 'info.shadowLodCount', x.at(0x20)),
  };
}

/** The vertex layouts section: per layout its attributes (stream, type, semantic, channel). */
function readLayouts(r: FieldReader, x: InfoFixed, uncertain: (n: string) => void): MmshLayout[] {
  const { VL, attributeTotal } = x;
  r.sectionId(MMSH_LAYOUT_SECTION_ID, 'info.layouts.sectionId');
  r.fits(VL, 4, 'info.layoutCount', x.at(0x24));
  const layouts: MmshLayout[] = [];
  let attrSum = 0;
  for (let i = 0; i < VL; i++) {
    const o = r.pos;
    const n = r.u32(`info.layouts[${i}].attributeCount`);
    r.fits(n, 4, `info.layouts[${i}].attributeCount`, o);
    const attributes: MmshAttribute[] = [];
    for (let k = 0; k < n; k++) {
      const ao = r.pos;
      const f = `info.layouts[${i}].attributes[${k}]`;
      const stream = r.u8(`${f}.stream`);
      const type = r.u8(`${f}.type`);
      const semantic = r.u8(`${f}.semantic`);
      const channel = r.u8(`${f}.channel`);
      const t = MMSH_TYPES[type];
      attributes.push({
        index: k,
        offset: ao,
        stream,
        type,
        typeName: t?.name,
        semantic,
        semanticName: MMSH_SEMANTICS[semantic] ?? `unknown${semantic}`,
        channel,
        size: t?.size,
      });
    }
    attrSum += n;
    layouts.push(layoutOf(i, o, attributes));
  }
  if (attrSum !== attributeTotal) uncertain(`info.attributeTotal is ${attributeTotal}, the layouts hold ${attrSum} attributes (S4 reads it as the total)`);
  for (const l of layouts) for (const n of l.notes) uncertain(`layout ${l.index}: ${n}`);
  return layouts;
}

/** The bone section closing the info section: 40 bytes per bone, parents checked, child counts compared. */
function readBones(r: FieldReader, x: InfoFixed, uncertain: (n: string) => void): MmshBone[] {
  const { file } = r;
  const { B, boneSectionSize } = x;
  r.sectionId(MMSH_BONE_SECTION_ID, 'info.bones.sectionId');
  if (boneSectionSize !== B * MMSH_BONE_SIZE) {
    throw new Arch06Error('INVALID', 'the bone section size is not 40 bytes per bone', {
      file,
      offset: x.at(0x44),
      field: 'info.boneSectionSize',
      expected: `${B * MMSH_BONE_SIZE} (40 x ${B})`,
      actual: String(boneSectionSize),
    });
  }
  r.fits(B, MMSH_BONE_SIZE, 'info.boneCount', x.at(0x40));
  const bones: MmshBone[] = [];
  for (let i = 0; i < B; i++) {
    const o = r.pos;
    const f = `info.bones[${i}]`;
    const nameHash = r.u32(`${f}.nameHash`);
    const parent = r.s16(`${f}.parent`);
    const childCount = r.u16(`${f}.childCount`);
    const translation = r.vec3(`${f}.translation`);
    const rotation = r.vec4(`${f}.rotation`);
    const scale = r.f32(`${f}.scale`);
    if (parent < -1 || parent >= B || parent === i)
      throw new Arch06Error('OUT_OF_RANGE', 'bone parent index outside the bone list', {
        file,
        offset: o + 4,
        field: `${f}.parent`,
        expected: `-1 or 0..${B - 1}, not ${i}`,
        actual: String(parent),
      });
    bones.push({ index: i, offset: o, nameHash, parent, childCount, translation, rotation, scale });
  }
  r.atEnd('info.end');
  const children = new Array<number>(B).fill(0);
  for (const b of bones) if (b.parent >= 0) children[b.parent]!++;
  const wrongChildren = bones.filter((b) => b.childCount !== children[b.index]).length;
  if (wrongChildren) uncertain(`${wrongChildren} MMSH bones have a child count that differs from the number of bones naming them as parent`);
  return bones;
}

/** The LOD section as levels, or [] when it does not read that way. */
function layoutOf(index: number, offset: number, attributes: MmshAttribute[]): MmshLayout {
  const notes: string[] = [];
  const strides: [number | undefined, number | undefined] = [0, 0];
  for (const a of attributes) {
    if (a.stream > 1) {
      notes.push(`attribute ${a.index} names stream ${a.stream} (only 0 and 1 are known)`);
      strides[0] = strides[1] = undefined;
      continue;
    }
    const s = strides[a.stream];
    if (s !== undefined) a.streamOffset = s;
    if (a.size === undefined) {
      notes.push(`attribute ${a.index} (${a.semanticName}) has unknown type code ${a.type}: its size is not known`);
      strides[a.stream] = undefined;
    } else if (s !== undefined) strides[a.stream] = s + a.size;
    if (a.semantic >= MMSH_SEMANTICS.length) notes.push(`attribute ${a.index} has unknown semantic ${a.semantic}`);
  }
  const stride = strides[0] !== undefined && strides[1] !== undefined ? strides[0] + strides[1] : undefined;
  return { index, offset, attributes, strides, stride, confidence: notes.length ? 'uncertain' : 'confirmed', notes };
}
