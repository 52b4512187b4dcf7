/**
 * Where each draw's vertices and indices lie in the buffers (the reading of ./layout.ts: blocks
 * from the previous draw's vend, streams stride-aligned, indices rebased), checked: every range
 * inside its buffer, every index below its draw's vertex count. Never throws for data that does
 * not fit; the result says why it is not checkable.
 */
import { FieldReader } from '../../../io/fieldReader';
import { Buffers, DrawPlacement, Geometry, Tables, hexOff } from './layout';

/** Block size of the index maxima used to check index ranges. */
const INDEX_BLOCK = 512;

const alignUp = (v: number, a: number): number => (a > 0 ? Math.ceil(v / a) * a : v);

/**
 * Place every draw in the buffers (the reading of ./layout.ts) and check that each vertex
 * block and index range lies inside its buffer and every index is < n. The result says why when
 * it is not checkable; it never throws for data that does not fit.
 */
export function placeDraws(r: FieldReader, tables: Tables, buffers: Buffers): Geometry {
  const { bytes, view: v } = r;
  const notes: string[] = [];
  const placements: DrawPlacement[] = [];
  const fail = (why: string): Geometry => {
    notes.push(`geometry not shown: ${why}`);
    return { checkable: false, placements: [], confidence: 'uncertain', notes };
  };
  const { formats } = tables;
  if (!formats) return fail('the vertex formats were not located');
  if (formats.framing !== 'counted') return fail("the formats read only as a flat list of entries, which does not say which entries a draw's format uses");
  if (buffers.vertexOffset + buffers.vertexBytes > bytes.length || buffers.indexOffset + buffers.indexBytes > bytes.length) {
    return fail('the buffers run past the end of the file');
  }
  const indexTotal = Math.floor(buffers.indexBytes / 2);
  // Draws may share index ranges (a shadow caster may reuse a visible draw's), so the largest
  // index of a range comes from block maxima: linear in the buffer plus the draws, whatever overlaps.
  const blockMax = new Uint16Array(Math.ceil(indexTotal / INDEX_BLOCK));
  for (let i = 0; i < indexTotal; i++) {
    const x = v.getUint16(buffers.indexOffset + 2 * i, true);
    const b = (i / INDEX_BLOCK) | 0;
    if (x > blockMax[b]!) blockMax[b] = x;
  }
  const maxIndex = (from: number, to: number): number => {
    let m = 0;
    let i = from;
    while (i < to && i % INDEX_BLOCK) m = Math.max(m, v.getUint16(buffers.indexOffset + 2 * i++, true));
    while (i + INDEX_BLOCK <= to) {
      m = Math.max(m, blockMax[i / INDEX_BLOCK]!);
      i += INDEX_BLOCK;
    }
    while (i < to) m = Math.max(m, v.getUint16(buffers.indexOffset + 2 * i++, true));
    return m;
  };
  let prevVend = 0;
  let baseAgrees = 0;
  let slack = 0;
  let coveredIndices = 0;
  let maxIndexEnd = 0;
  for (const d of tables.draws) {
    const f = `draw ${d.index} (record at ${hexOff(d.offset)})`;
    const fmt = formats.formats[d.format];
    if (!fmt) return fail(`${f} names format ${d.format}, there are ${formats.formats.length}`);
    const [s0, s1] = fmt.strides;
    if (d.vend < prevVend) return fail(`${f}: vend ${d.vend} is before the previous draw's vend ${prevVend} (blocks are read as consecutive)`);
    if (d.vend > buffers.vertexBytes) return fail(`${f}: vend ${d.vend} is past the vertex buffer's ${buffers.vertexBytes} bytes`);
    const n = d.vertexCount;
    const start0 = alignUp(prevVend, s0);
    const end0 = start0 + n * s0;
    const start1 = alignUp(end0, s1);
    const end1 = start1 + n * s1;
    if (end1 > d.vend) {
      return fail(`${f}: ${n} vertices of ${s0} + ${s1} bytes (streams 0 and 1, each stride-aligned) from ${prevVend} end at ${end1}, past its vend ${d.vend}`);
    }
    slack += d.vend - end1;
    if (s0 > 0 && d.base * s0 === start0) baseAgrees++;
    const indexCount = d.triangles * 3;
    if (d.indexStart + indexCount > indexTotal)
      return fail(`${f}: indices ${d.indexStart} .. ${d.indexStart + indexCount} run past the index buffer's ${indexTotal} indices`);
    const iAt = buffers.indexOffset + d.indexStart * 2;
    if (indexCount && maxIndex(d.indexStart, d.indexStart + indexCount) >= n) {
      for (let i = 0; i < indexCount; i++) {
        const x = v.getUint16(iAt + 2 * i, true);
        if (x >= n)
          return fail(`${f}: index ${i} (at ${hexOff(iAt + 2 * i)}) is ${x}, not below the draw's ${n} vertices (indices are read as rebased by idx_min)`);
      }
    }
    coveredIndices += indexCount;
    maxIndexEnd = Math.max(maxIndexEnd, d.indexStart + indexCount);
    placements.push({
      draw: d.index,
      vertexCount: n,
      blockStart: prevVend,
      blockEnd: d.vend,
      streams: [
        { offset: buffers.vertexOffset + start0, stride: s0 },
        { offset: buffers.vertexOffset + start1, stride: s1 },
      ],
      indexOffset: iAt,
      indexCount,
    });
    prevVend = d.vend;
  }
  notes.push(
    `every draw's vertex block (from the previous vend, streams stride-aligned) and index range lie inside the buffers, and every index is below its draw's n`,
  );
  notes.push(
    prevVend === buffers.vertexBytes
      ? 'the last vend closes the vertex buffer exactly'
      : `the last vend is ${prevVend}, the vertex buffer has ${buffers.vertexBytes} bytes`,
  );
  notes.push(
    maxIndexEnd === indexTotal && coveredIndices === indexTotal
      ? "the draws' index ranges cover the index buffer exactly"
      : `the draws use ${coveredIndices} indices, ending at ${maxIndexEnd}; the index buffer holds ${indexTotal}`,
  );
  if (slack) notes.push(`${slack} bytes of the vertex blocks lie after their stream data (padding before vend)`);
  const withStride = tables.draws.filter((d) => (formats.formats[d.format]?.strides[0] ?? 0) > 0).length;
  notes.push(`base = (stream 0 start) / stride (base-vertex addressing) on ${baseAgrees} of ${withStride} draws`);
  return { checkable: true, placements, confidence: 'uncertain', notes };
}
