/**
 * MESH v5 world meshes (`.wldmsh`): a world part's own world-space mesh. The only description is
 * seed 001 ("World meshes, texture arrays, terrain and vegetation"): "laid out like the PRFB
 * tables with the vertex buffer at 0x2C (header [3] draws, [4] formats, [9] vertex bytes, [10]
 * index bytes); its materials index the part's WDSC list. Draws wider than 20 km are sky domes and
 * vista cards". There is no public layout and no sample file: `confidence: 'uncertain'`.
 *
 *   0x00  'MESH' | u32 5 | header words up to 0x2C, raw, with the seed's labels
 *   0x2C  vertex buffer ([9] bytes); the index buffer ([10] bytes) is read as following it
 *         (the seed does not say; "laid out like the PRFB tables", where indices follow vertices)
 *   then  the tables (vertex formats, 52-byte draw records), located by the shared search of
 *         ./tables/ with the formats required to start right after the index
 *         buffer (0-3 zero bytes of padding allowed). No material paths are looked for: the
 *         materials index the part's WDSC list.
 *
 * Hard errors (Arch06Error): a short header (TRUNCATED), the magic (BAD_MAGIC), the version
 * (UNSUPPORTED_VERSION), and vertex + index bytes that do not fit in the file (TRUNCATED).
 */
import { Arch06Error } from '../../errors';
import { FieldReader, ParseOptions } from '../../io/fieldReader';
import { expectMagicVersion } from '../../io/magic';
import { Buffers, Geometry, HeaderWord, Tables, hexOff } from './tables/layout';
import { locateTables } from './tables/search';
import { headerWords, tableSummary } from './tables/summary';

export const MESH_MAGIC = 0x4853454d; // "MESH"
export const WORLD_MESH_VERSION = 5;
/** The vertex buffer starts here (seed 001), so the header is 11 words. */
export const WORLD_MESH_VERTEX_OFFSET = 0x2c;
const WORLD_MESH_HEADER_WORDS = WORLD_MESH_VERTEX_OFFSET / 4;
/** Seed 001: draws wider than 20 km are sky domes and vista cards (in centimetres, taking positions as cm). */
export const SKY_DRAW_WIDTH = 20_000 * 100;

const WORLD_MESH_HEADER_LABELS: Readonly<Record<number, string>> = {
  0: 'magic "MESH"',
  1: 'version (5)',
  3: 'draws',
  4: 'vertex formats',
  9: 'vertex bytes',
  10: 'index bytes',
};

export interface WorldMesh {
  file: string;
  size: number;
  format: 'MESH';
  version: number;
  header: HeaderWord[];
  counts: { draws: number; vertexFormats: number; vertexBytes: number; indexBytes: number };
  buffers: Buffers;
  tables?: Tables;
  geometry?: Geometry;
  rest?: { offset: number; size: number; note: string };
  confidence: 'uncertain';
  notes: string[];
  readonly bytes: Uint8Array;
}

export function parseWorldMesh(bytes: Uint8Array, file: string, options: ParseOptions = {}): WorldMesh {
  const r = new FieldReader(bytes, file, { spans: options.spans });
  const version = expectMagicVersion(r, 'MESH', [WORLD_MESH_VERSION], 'MESH', { what: 'a MESH world mesh' });
  r.need(WORLD_MESH_VERTEX_OFFSET - 8, 'header.words');
  const header = headerWords(r, WORLD_MESH_HEADER_WORDS, WORLD_MESH_HEADER_LABELS);
  const w = (i: number): number => header[i]!.value;
  const counts = { draws: w(3), vertexFormats: w(4), vertexBytes: w(9), indexBytes: w(10) };
  const left = bytes.length - WORLD_MESH_VERTEX_OFFSET;
  if (counts.vertexBytes > left) {
    throw new Arch06Error('TRUNCATED', 'the vertex buffer runs past the end of the file', {
      file,
      offset: 0x24,
      field: 'header[9].vertexBytes',
      expected: `at most ${left} bytes after 0x2c`,
      actual: String(counts.vertexBytes),
    });
  }
  if (counts.indexBytes > left - counts.vertexBytes) {
    throw new Arch06Error('TRUNCATED', 'the index buffer runs past the end of the file', {
      file,
      offset: 0x28,
      field: 'header[10].indexBytes',
      expected: `at most ${left - counts.vertexBytes} bytes after the vertex buffer`,
      actual: String(counts.indexBytes),
    });
  }
  const notes: string[] = [];
  const buffers: Buffers = {
    vertexOffset: WORLD_MESH_VERTEX_OFFSET,
    vertexBytes: counts.vertexBytes,
    indexOffset: WORLD_MESH_VERTEX_OFFSET + counts.vertexBytes,
    indexBytes: counts.indexBytes,
    padding: 0,
  };
  if (counts.indexBytes % 2) notes.push(`header [10] = ${counts.indexBytes} index bytes is odd (u16 indices expected)`);
  const tablesAt = buffers.indexOffset + buffers.indexBytes;
  const search = locateTables({
    reader: r,
    from: tablesAt,
    formatsAt: tablesAt,
    drawCount: counts.draws,
    formatCount: counts.vertexFormats,
    buffers,
    labels: { draws: 'header [3]', formats: 'header [4]' },
  });
  notes.push(...search.notes);
  const { tables, geometry } = search;
  if (tables?.formats) buffers.padding = tables.formats.offset - tablesAt;
  let rest: WorldMesh['rest'];
  const after = tables ? tables.end : tablesAt;
  if (after < bytes.length)
    rest = {
      offset: after,
      size: bytes.length - after,
      note: tables ? 'after the draw records: not described by the seed, kept raw' : 'not located: kept raw',
    };
  const mesh = { file, size: bytes.length, format: 'MESH', version, header, counts, buffers, tables, geometry, rest, confidence: 'uncertain', notes } as Omit<
    WorldMesh,
    'bytes'
  >;
  Object.defineProperty(mesh, 'bytes', { value: bytes, enumerable: false });
  return mesh as WorldMesh;
}

export function worldMeshSummary(m: WorldMesh): string[] {
  const lines: string[] = [`MESH v${m.version}, ${m.size} bytes; confidence uncertain (no sample file; layout from seed 001)`];
  lines.push('header words:');
  for (const h of m.header) lines.push(`  [${h.index}] ${hexOff(h.offset)} = ${h.value} (${h.hex}): ${h.label}`);
  // A loop, not push(...): the summary has a line per vertex format, a count the file sets.
  for (const l of tableSummary({ tables: m.tables, buffers: m.buffers, geometry: m.geometry, notes: [] })) lines.push(l);
  if (m.rest) lines.push(`${m.rest.size} bytes at ${hexOff(m.rest.offset)}: ${m.rest.note}`);
  return lines;
}

export function worldMeshNotes(m: WorldMesh): string[] {
  return [...(m.tables?.notes ?? []), ...m.notes, ...(m.geometry?.notes ?? [])];
}
