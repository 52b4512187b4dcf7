/**
 * What the table search found, in words (the CLI summary, the editor's message when there is no
 * model), and the header words PRFB and MESH report raw with the seed's labels.
 */
import { FieldReader, hex32 } from '../../../io/fieldReader';
import { HeaderWord, TableSearchResult, hexOff } from './layout';

/** Lines describing located tables and geometry (for the CLI summary and the editor message). */
export function tableSummary(r: TableSearchResult): string[] {
  const lines: string[] = [];
  const t = r.tables;
  if (!t) {
    lines.push('tables (vertex formats, draws, materials): not located');
  } else {
    lines.push(`draw table at ${hexOff(t.drawsOffset)}: ${t.draws.length} draws (uncertain: located by search)`);
    for (const d of t.draws.slice(0, 64)) {
      lines.push(
        `  draw ${d.index}: n ${d.vertexCount}, ${d.triangles} triangles, index start ${d.indexStart}, base ${d.base}, material ${d.material}${t.materials?.paths[d.material] ? ` (${t.materials.paths[d.material]!.path})` : ''}, format ${d.format}, vend ${d.vend}, f32 ${round(d.unknown44.asFloat)}, ${round(d.unknown48.asFloat)}`,
      );
    }
    if (t.draws.length > 64) lines.push(`  … ${t.draws.length - 64} more draws`);
    if (t.formats) {
      lines.push(`vertex formats at ${hexOff(t.formats.offset)} (${t.formats.framing} reading):`);
      for (const f of t.formats.formats) {
        lines.push(
          `  format ${f.index}: ${f.entries.map((e) => `s${e.stream} ${e.usageName}${e.index ? e.index : ''} ${e.typeName}`).join(', ')} (strides ${f.strides[0]} + ${f.strides[1]})`,
        );
      }
    } else lines.push('vertex formats: not located');
    if (t.materials) {
      lines.push(`materials at ${hexOff(t.materials.offset)} (${t.materials.encoding}):`);
      for (const [i, m] of t.materials.paths.entries()) lines.push(`  ${i}: ${m.path}`);
    }
  }
  if (r.buffers) {
    lines.push(
      `vertex buffer at ${hexOff(r.buffers.vertexOffset)} (${r.buffers.vertexBytes} bytes), index buffer at ${hexOff(r.buffers.indexOffset)} (${r.buffers.indexBytes} bytes)`,
    );
  }
  if (r.geometry) lines.push(r.geometry.checkable ? 'geometry: every draw fits its buffers' : 'geometry: not shown (see notes)');
  return lines;
}

const round = (x: number): string => (Number.isFinite(x) ? String(Math.round(x * 1000) / 1000) : String(x));

/** The first `count` u32 words of the file, raw, with the seed's labels. */
export function headerWords(r: FieldReader, count: number, labels: Readonly<Record<number, string>>): HeaderWord[] {
  const out: HeaderWord[] = [];
  for (let i = 0; i < count; i++) {
    const value = r.u32At(4 * i, `header[${i}]`);
    const label = labels[i];
    out.push({ index: i, offset: 4 * i, value, hex: hex32(value), label: label ?? 'unknown', labelled: label !== undefined });
  }
  return out;
}
