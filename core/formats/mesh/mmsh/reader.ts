/**
 * The MMSH v17 reader: header, desc, info (./info.ts) and data sections, each bounded by its
 * declared size, then the cross-checks between them (layout and evidence: ./layout.ts). Vertex
 * data is decoded on demand (./vertices.ts).
 */
import { Arch06Error } from '../../../errors';
import { Confidence } from '../../../io/confidence';
import { FieldReader, ParseOptions } from '../../../io/fieldReader';
import { expectMagicVersion } from '../../../io/magic';
import { parseInfo } from './info';
import {
  MMSH_DATA_ID,
  MMSH_DESC_ID,
  MMSH_HEADER_SIZE,
  MMSH_VERSION,
  Mmsh,
  MmshBlock,
  MmshData,
  MmshDesc,
  MmshHeader,
  MmshInfo,
  MmshLodGroup,
  MmshLodLevel,
} from './layout';

/**
 * Parse an MMSH v17 mesh held in memory: header, desc, info (groups, connections, LodInfo,
 * MeshInfo, LOD section, layouts, bones) and the data section's block offsets. Throws
 * `Arch06Error` (TRUNCATED, BAD_MAGIC, UNSUPPORTED_VERSION, INVALID, OUT_OF_RANGE) naming file,
 * offset and field. Vertex data is decoded on demand by `decodeMmshMesh`.
 */
export function parseMmsh(bytes: Uint8Array, file: string, options: ParseOptions = {}): Mmsh {
  const notes: string[] = [];
  let confidence: Confidence = 'confirmed';
  const uncertain = (note: string): void => {
    confidence = 'uncertain';
    notes.push(note);
  };

  const h = new FieldReader(bytes, file, { section: 'header', spans: options.spans });
  const version = expectMagicVersion(h, 'MMSH', [MMSH_VERSION], 'MMSH', { what: 'an MMSH mesh' });
  const descSize = h.u32('header.descSize');
  const infoSize = h.u32('header.infoSize');
  const dataSize = h.u32('header.dataSize');
  const total = MMSH_HEADER_SIZE + descSize + infoSize + dataSize;
  if (total !== bytes.length) {
    const code = total > bytes.length ? 'TRUNCATED' : 'INVALID';
    throw new Arch06Error(code, '20 + descSize + infoSize + dataSize is not the file length', {
      file,
      offset: 8,
      field: 'header.sizes',
      expected: `${total} bytes (20 + ${descSize} + ${infoSize} + ${dataSize})`,
      actual: `${bytes.length} bytes`,
    });
  }
  const header: MmshHeader = { magic: 'MMSH', version, descSize, infoSize, dataSize };
  const descAt = MMSH_HEADER_SIZE;
  const infoAt = descAt + descSize;
  const dataAt = infoAt + infoSize;

  const desc = parseDesc(h.sub('desc section', descAt, infoAt));
  const info = parseInfo(h.sub('info section', infoAt, dataAt), notes, uncertain);

  // desc and info describe the same blocks.
  if (desc.lodCount !== info.lodCount) {
    throw new Arch06Error('INVALID', 'the desc and info sections count different data blocks', {
      file,
      offset: descAt + 8,
      field: 'desc.lodCount',
      expected: `info.lodCount = ${info.lodCount}`,
      actual: String(desc.lodCount),
    });
  }
  for (const l of info.lods) {
    for (const [k, a, b] of [
      ['vertexBytes', l.vertexBytes, desc.vertexBytes[l.index]],
      ['faceBytes', l.faceBytes, desc.faceBytes[l.index]],
      ['paletteBytes', l.paletteBytes, desc.paletteBytes[l.index]],
    ] as const) {
      if (a !== b)
        throw new Arch06Error('INVALID', `LodInfo[${l.index}].${k} differs from the desc section`, {
          file,
          offset: l.offset,
          field: `info.lods[${l.index}].${k}`,
          expected: String(b),
          actual: String(a),
        });
    }
  }
  if (desc.connectionCount !== info.connectionCount) {
    uncertain(`the desc section has ${desc.connectionCount} connection entries, the info section ${info.connectionCount} (equal in every public sample)`);
  } else {
    const differs = info.connections.findIndex((c, i) => c.flags !== desc.connectionFlags[i] || c.lod !== desc.connectionLods[i]);
    if (differs >= 0) uncertain(`desc entry ${differs} differs from connection ${differs} (flags/block), unlike the sample`);
  }

  const data = parseData(h.sub('data section', dataAt, bytes.length), desc);
  checkMeshes(info, file, uncertain);

  const lodGroups: MmshLodGroup[] = info.lodGroupIds.map((id, index) => ({ index, id, connections: [] }));
  for (const c of info.connections) lodGroups[c.lodGroup]!.connections.push(c.index);
  const levels = lodLevels(info);
  if (!levels.length && info.lodSettingsCount + info.meshLodCount + info.shadowLodCount > 0) {
    uncertain('the LOD section does not read as levels (link counts must add up to the settings count and name connections): kept raw');
  }

  const mmsh = { file, size: bytes.length, header, desc, info, data, lodGroups, levels, confidence, notes } as Omit<Mmsh, 'bytes'>;
  Object.defineProperty(mmsh, 'bytes', { value: bytes, enumerable: false });
  return mmsh as Mmsh;
}

function parseDesc(r: FieldReader): MmshDesc {
  const offset = r.pos;
  r.sectionId(MMSH_DESC_ID, 'desc.sectionId');
  const mAt = r.pos;
  const M = r.u32('desc.connectionCount');
  const dAt = r.pos;
  const D = r.u32('desc.lodCount');
  r.fits(M, 8, 'desc.connectionCount', mAt);
  const arr = (n: number, signed: boolean, field: string): number[] => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(signed ? r.s32(`${field}[${i}]`) : r.u32(`${field}[${i}]`));
    return out;
  };
  const connectionFlags = arr(M, true, 'desc.connectionFlags');
  const connectionLods = arr(M, true, 'desc.connectionLods');
  r.fits(D, 12, 'desc.lodCount', dAt);
  const vertexBytes = arr(D, false, 'desc.vertexBytes');
  const faceBytes = arr(D, false, 'desc.faceBytes');
  const paletteBytes = arr(D, false, 'desc.paletteBytes');
  r.atEnd('desc.end');
  return { offset, size: r.end - offset, connectionCount: M, lodCount: D, connectionFlags, connectionLods, vertexBytes, faceBytes, paletteBytes };
}

function lodLevels(info: MmshInfo): MmshLodLevel[] {
  const { settings, meshLodDistances, shadowLodDistances, meshLodLinks, shadowLodLinks } = info.lodSection;
  const sum = [...meshLodLinks, ...shadowLodLinks].reduce((a, b) => a + b, 0);
  if (sum !== settings.length || settings.some((c) => c >= info.connectionCount)) return [];
  const levels: MmshLodLevel[] = [];
  let at = 0;
  const take = (kind: MmshLodLevel['kind'], distances: number[], links: number[]): void => {
    links.forEach((n, index) => {
      levels.push({ kind, index, distance: distances[index]!, connections: settings.slice(at, at + n) });
      at += n;
    });
  };
  take('mesh', meshLodDistances, meshLodLinks);
  take('shadow', shadowLodDistances, shadowLodLinks);
  return levels;
}

function parseData(r: FieldReader, desc: MmshDesc): MmshData {
  const offset = r.pos;
  r.sectionId(MMSH_DATA_ID, 'data.sectionId');
  const blocks = (sizes: number[], kind: string): MmshBlock[] =>
    sizes.map((size, i) => {
      const at = r.pos;
      if (size > r.end - at) {
        throw new Arch06Error('INVALID', `${kind} block ${i} runs past the end of the data section`, {
          file: r.file,
          offset: at,
          field: `data.${kind}Blocks[${i}]`,
          expected: `at most ${r.end - at} bytes`,
          actual: `${size} bytes`,
        });
      }
      r.skip(size, `data.${kind}Blocks[${i}]`);
      return { offset: at, size };
    });
  const vertexBlocks = blocks(desc.vertexBytes, 'vertex');
  const faceBlocks = blocks(desc.faceBytes, 'face');
  const paletteBlocks = blocks(desc.paletteBytes, 'palette');
  r.atEnd('data.end');
  return { offset, size: r.end - offset, vertexBlocks, faceBlocks, paletteBlocks };
}

/** Every mesh's ranges inside its block; the seed's closing sums are checked as notes. */
function checkMeshes(info: MmshInfo, file: string, uncertain: (n: string) => void): void {
  for (const l of info.lods) {
    let vSum = 0;
    let iSum = 0;
    let pSum = 0;
    let nextIndex = 0;
    let closes = true;
    for (let k = 0; k < l.meshCount; k++) {
      const m = info.meshes[l.firstMesh + k]!;
      const f = `info.meshes[${m.index}]`;
      if (m.layout >= info.layouts.length) {
        throw new Arch06Error('OUT_OF_RANGE', 'mesh names a vertex layout that does not exist', {
          file,
          offset: m.offset + 36,
          field: `${f}.layout`,
          expected: `0..${info.layouts.length - 1}`,
          actual: String(m.layout),
        });
      }
      const layout = info.layouts[m.layout]!;
      const span = layout.stride === undefined ? 0 : m.vertexCount * layout.stride;
      if (m.vertexByteOffset + span > l.vertexBytes) {
        throw new Arch06Error('OUT_OF_RANGE', "mesh vertices run past its block's vertex bytes", {
          file,
          offset: m.offset,
          field: `${f}.vertexByteOffset`,
          expected: `offset + ${m.vertexCount} x ${layout.stride ?? '?'} <= ${l.vertexBytes}`,
          actual: String(m.vertexByteOffset + span),
        });
      }
      if (m.firstIndex + m.indexCount > l.faceBytes / 2) {
        throw new Arch06Error('OUT_OF_RANGE', "mesh indices run past its block's face bytes", {
          file,
          offset: m.offset + 12,
          field: `${f}.indexCount`,
          expected: `firstIndex + indexCount <= ${l.faceBytes / 2}`,
          actual: String(m.firstIndex + m.indexCount),
        });
      }
      if (m.indexCount % 3 !== 0)
        throw new Arch06Error('INVALID', 'mesh index count is not whole triangles', {
          file,
          offset: m.offset + 16,
          field: `${f}.indexCount`,
          expected: 'a multiple of 3',
          actual: String(m.indexCount),
        });
      if (m.firstPalette + m.paletteCount > l.paletteBytes) {
        throw new Arch06Error('OUT_OF_RANGE', "mesh palette runs past its block's palette bytes", {
          file,
          offset: m.offset + 20,
          field: `${f}.paletteCount`,
          expected: `firstPalette + paletteCount <= ${l.paletteBytes}`,
          actual: String(m.firstPalette + m.paletteCount),
        });
      }
      vSum += span;
      iSum += m.indexCount * 2;
      pSum += m.paletteCount;
      if (m.firstIndex !== nextIndex) closes = false;
      nextIndex = m.firstIndex + m.indexCount;
    }
    const known = info.meshes.slice(l.firstMesh, l.firstMesh + l.meshCount).every((m) => info.layouts[m.layout]!.stride !== undefined);
    if ((known && vSum !== l.vertexBytes) || iSum !== l.faceBytes || pSum !== l.paletteBytes || !closes) {
      uncertain(
        `block ${l.index}: its meshes do not close its buffers exactly (vertex ${known ? vSum : '?'}/${l.vertexBytes}, index ${iSum}/${l.faceBytes}, palette ${pSum}/${l.paletteBytes}, index ranges ${closes ? 'follow on' : 'do not follow on'}); seed 004 found them closing on every loose mesh`,
      );
    }
  }
}
