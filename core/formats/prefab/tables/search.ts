/**
 * The search that locates the PRFB / MESH tables: draw tables first (runs of exactly `draws`
 * records with the signature), then the framings of the vertex formats that end where each
 * begins, then (PRFB) the {draws, vertex bytes, index bytes} words whose buffers end exactly at a
 * framing; a placement is taken only when it is the one that passes. The rules, the checks and
 * why each is there: ./layout.ts. Both scans are linear in the bytes they cover.
 */
import { Buffers, DRAW_RECORD_SIZE, FormatTable, MaterialTable, TableSearch, TableSearchResult, Tables, hexOff } from './layout';
import { placeDraws } from './placement';
import { MAX_CANDIDATES, drawMatches, formatCandidates, materialsAt, readDraws } from './records';

interface Candidate {
  drawsOffset: number;
  materials: MaterialTable[];
}

/** A draw table with one framing of the formats before it and the buffers that end at that framing, as far as they were found. */
interface Combo {
  c: Candidate;
  formats?: FormatTable;
  buffers?: Buffers;
}

/** The draw tables found (step 1), with the counts of near misses the note names when there are none. */
interface DrawSearch {
  found: Candidate[];
  scanFrom: number;
  signatureOnly: number;
  longer: number;
}

/** The placement taken (step 2): a draw table and, when they are located, its formats and buffers. */
interface Choice {
  chosen: Combo;
  found: Candidate[];
  /** Every framing of the formats before a draw table. */
  framings: Combo[];
  /** Why the formats are missing from the chosen tables, when they are. */
  formatsWhy: string;
}

/**
 * Locate the formats, draw records and (PRFB) material paths, then the buffers and the draws'
 * placement in them, as the file comment describes. Never throws for data that does not fit:
 * what could not be located is said in `notes`.
 */
export function locateTables(s: TableSearch): TableSearchResult {
  const notes: string[] = [];
  const unsearchable = whyNotSearched(s);
  if (unsearchable) {
    notes.push(unsearchable);
    return { notes };
  }
  const search = findDrawTables(s);
  if (!search.found.length) {
    notes.push(noDrawTableNote(s, search));
    return { notes };
  }
  const choice = chooseTables(s, search.found, frameFormats(s, search.found), notes);
  if (!choice) return { notes };
  const tables = describeTables(s, choice);
  const { formats, buffers } = choice.chosen;
  const { drawCount: D } = s;

  // 4. Buffers and placement.
  if (s.findCounts && !buffers) {
    notes.push(
      `geometry not located: no {u32 draws = ${D}, u32 vertex bytes, u32 index bytes} words after ${hexOff(s.from)} whose buffers end exactly where a framing of the formats begins (0-3 zero bytes of padding allowed)`,
    );
  } else if (!formats) {
    notes.push('geometry not shown: the vertex formats were not located, so strides are unknown');
  }
  if (buffers && s.findCounts) {
    tables.notes.push(
      `{draws, vertex bytes, index bytes} = {${D}, ${buffers.vertexBytes}, ${buffers.indexBytes}} at ${hexOff(buffers.countsOffset!)}: the only such words whose buffers end exactly at the formats` +
        (buffers.padding ? ` (after ${buffers.padding} zero byte(s) of padding)` : ''),
    );
  }
  const geometry = buffers && formats ? placeDraws(s.reader, tables, buffers) : undefined;
  return { tables, buffers, geometry, notes };
}

/** Why no search is made (a count that rules every draw table out), or undefined. */
function whyNotSearched(s: TableSearch): string | undefined {
  const { drawCount: D, formatCount: F, materialCount: M, labels } = s;
  const size = s.reader.bytes.length;
  if (D === 0) return `${labels.draws} = 0 draws: there is no draw table to look for`;
  if (F === 0) return `${labels.formats} = 0 vertex formats: no draw can name a format, so the draw table was not looked for`;
  if (D * DRAW_RECORD_SIZE > size - s.from)
    return `${labels.draws} = ${D} draws of ${DRAW_RECORD_SIZE} bytes do not fit in the ${Math.max(0, size - s.from)} bytes after ${hexOff(s.from)}: draw table not located`;
  if (M !== undefined && M === 0) return `${labels.materials} = 0 materials: no draw can name a material, so the draw table was not looked for`;
  return undefined;
}

/** 1. Draw tables: D consecutive records with the signature (+ the paths after them). */
function findDrawTables(s: TableSearch): DrawSearch {
  const { reader: r, drawCount: D, formatCount: F, materialCount: M } = s;
  const { view: v } = r;
  const size = r.bytes.length;
  const found: Candidate[] = [];
  let signatureOnly = 0;
  let longer = 0;
  const scanFrom = s.formatsAt !== undefined ? s.formatsAt : s.from;
  // Each offset is tested once: per residue class modulo the record size, the run of matching
  // records the current offset lies in is walked once, forward, and remembered (its start and
  // the first offset after it), so a long run costs its length, not its length times D.
  const runStart = new Array<number>(DRAW_RECORD_SIZE).fill(-1);
  const runEnd = new Array<number>(DRAW_RECORD_SIZE).fill(-1);
  for (let o = scanFrom; o + D * DRAW_RECORD_SIZE <= size && found.length < MAX_CANDIDATES; o++) {
    const k = (o - scanFrom) % DRAW_RECORD_SIZE;
    // runEnd[k] is a record that does not match (or past the last whole record); after it, a new run.
    if (o === runEnd[k]) continue;
    if (o > runEnd[k]!) {
      let e = o;
      while (e + DRAW_RECORD_SIZE <= size && drawMatches(v, e, F, M)) e += DRAW_RECORD_SIZE;
      runStart[k] = o;
      runEnd[k] = e;
    }
    const run = (runEnd[k]! - o) / DRAW_RECORD_SIZE;
    if (run < D) continue;
    const end = o + D * DRAW_RECORD_SIZE;
    // Exactly D records: a matching record just before (the run started earlier) or just after
    // (the run is longer than D from here) means a longer run.
    if (o > runStart[k]! || run > D) {
      longer++;
      continue;
    }
    const materials = M === undefined ? [] : materialsAt(r, end, M);
    if (M !== undefined && !materials.length) {
      signatureOnly++;
      continue;
    }
    found.push({ drawsOffset: o, materials });
  }
  return { found, scanFrom, signatureOnly, longer };
}

/** The note when no draw table was found: every rule a run had to pass, and the near misses. */
function noDrawTableNote(s: TableSearch, d: DrawSearch): string {
  const { drawCount: D, formatCount: F, materialCount: M, labels } = s;
  return (
    `draw table not located: no run of ${D} (${labels.draws}) 52-byte records after ${hexOff(d.scanFrom)} with the seed's fixed words (+0 = 0, +4 = +8 = n, +28 = +32 = 0) and our checks ` +
    `(1 <= n <= 65536, triangles >= 1, format < ${F} (${labels.formats})${M !== undefined ? `, material < ${M} (${labels.materials})` : ''}, finite f32 at +44/+48)` +
    (M !== undefined ? ` followed by ${M} printable material paths (NUL-terminated, u16- or u32-length-prefixed)` : '') +
    (d.signatureOnly ? `; ${d.signatureOnly} position(s) had the draw records but no such paths after them` : '') +
    (d.longer ? `; ${d.longer} position(s) lie inside a longer run of such records than ${labels.draws} says` : '')
  );
}

/** 2. For each draw table: framings of the formats that end where it begins, and (PRFB) the buffers ending at each. */
function frameFormats(s: TableSearch, found: Candidate[]): Combo[] {
  const { bytes, view: v } = s.reader;
  const { drawCount: D, formatCount: F } = s;
  const combos: Combo[] = [];
  const formatFloor = s.formatsAt ?? s.from;
  const countsAt = new Map<number, Buffers[]>();
  for (const c of found) {
    let fcs = formatCandidates(v, formatFloor, c.drawsOffset, F, s.formatsAt === undefined ? undefined : s.formatsAt + 3);
    if (s.formatsAt !== undefined) {
      // The formats must start at formatsAt (after 0-3 zero bytes of padding).
      fcs = fcs.filter((f) => zeros(bytes, s.formatsAt!, f.offset));
    }
    if (!fcs.length) {
      combos.push({ c });
      continue;
    }
    for (const f of fcs) {
      if (s.findCounts) {
        let counts = countsAt.get(f.offset);
        if (!counts) countsAt.set(f.offset, (counts = findCounts(v, s.from, f.offset, D)));
        if (counts.length) for (const b of counts) combos.push({ c, formats: f, buffers: b });
        else combos.push({ c, formats: f });
      } else combos.push({ c, formats: f, buffers: s.buffers });
    }
  }
  return combos;
}

/** The one placement that passes, or undefined (with the note why) when several do. */
function chooseTables(s: TableSearch, found: Candidate[], combos: Combo[], notes: string[]): Choice | undefined {
  const { formatCount: F } = s;
  const complete = combos.filter((x) => x.formats && x.buffers);
  // With findCounts (PRFB) a framing of the formats is taken only when buffers end exactly at it:
  // a flat reading of the last few entries of a format list would otherwise pass on its own.
  const withFormats = s.findCounts ? complete : combos.filter((x) => x.formats);
  const framings = combos.filter((x) => x.formats);
  if (complete.length === 1) return { chosen: complete[0]!, found, framings, formatsWhy: '' };
  if (complete.length === 0 && withFormats.length === 1) return { chosen: withFormats[0]!, found, framings, formatsWhy: '' };
  if (found.length === 1) {
    const formatsWhy =
      complete.length > 1
        ? `${complete.length} framings of the formats each meet a set of buffers exactly (formats at ${complete.map((x) => hexOff(x.formats!.offset)).join(', ')}): ambiguous, none taken`
        : framings.length > 1 || (s.findCounts && framings.length)
          ? `the formats frame ${framings.length} way(s) before the draw table (${framings.map((x) => `${x.formats!.framing} at ${hexOff(x.formats!.offset)}`).join(', ')}) and no {draws, vertex bytes, index bytes} words end exactly at ${framings.length > 1 ? 'just one of them' : 'it'}: not taken`
          : `no framing (counted {u32 n, entries} or ${F} flat entries, seed codes only${s.formatsAt !== undefined ? `, starting at ${hexOff(s.formatsAt)} after 0-3 zero bytes` : ''}) ends exactly at the draw table`;
    return { chosen: { c: found[0]! }, found, framings, formatsWhy };
  }
  notes.push(
    `tables not located: draw tables match at ${found.length}${found.length >= MAX_CANDIDATES ? ' or more' : ''} positions (${found.map((c) => hexOff(c.drawsOffset)).join(', ')}) and ` +
      `${complete.length + (s.findCounts ? 0 : withFormats.length - complete.length)} placement(s) pass every further check: ambiguous, none taken`,
  );
  return undefined;
}

/** 3. The tables chosen: the draws read, and a note on how each table was located. */
function describeTables(s: TableSearch, choice: Choice): Tables {
  const { reader: r, drawCount: D, formatCount: F, materialCount: M, labels } = s;
  const { chosen, found, framings, formatsWhy } = choice;
  const { c, formats } = chosen;
  const draws = readDraws(r, c.drawsOffset, D);
  const tableNotes: string[] = [];
  tableNotes.push(
    `draw table located by search at ${hexOff(c.drawsOffset)}: ${D} records (${labels.draws}) with the seed's fixed words and our checks` +
      (found.length === 1 ? ', the only such position' : ''),
  );
  let materials: MaterialTable | undefined;
  if (M !== undefined) {
    materials = c.materials[0]!;
    tableNotes.push(
      `material paths: ${M} (${labels.materials}) printable paths right after the draws, ${materials.encoding === 'nul' ? 'NUL-terminated' : `${materials.encoding}-length-prefixed`}` +
        (c.materials.length > 1
          ? ` (they also read as ${c.materials
              .slice(1)
              .map((m) => m.encoding)
              .join(', ')}: the first reading is kept)`
          : ''),
    );
  }
  if (formats) {
    tableNotes.push(
      formats.framing === 'counted'
        ? `vertex formats at ${hexOff(formats.offset)}: ${F} formats (${labels.formats}) framed as {u32 n, n x 4-byte entries} (our reading; the seed gives the entries only), ending exactly at the draw table`
        : `vertex formats at ${hexOff(formats.offset)}: ${F} 4-byte entries (${labels.formats} read as an entry count; our reading), ending exactly at the draw table; this reading does not say which entries a draw's format uses`,
    );
    if (framings.length > 1 && chosen.buffers)
      tableNotes.push(
        `the bytes before the draw table also frame as formats ${framings.length - 1} other way(s); the framing the buffers end at exactly was kept`,
      );
  } else {
    tableNotes.push(`vertex formats not located: ${formatsWhy}`);
  }
  if (s.formatsAt !== undefined && formats)
    tableNotes.push(`the formats start ${formats.offset === s.formatsAt ? 'right' : `${formats.offset - s.formatsAt} zero byte(s)`} after the index buffer`);
  const end = materials ? materials.offset + materials.size : c.drawsOffset + D * DRAW_RECORD_SIZE;
  return { formats, drawsOffset: c.drawsOffset, draws, materials, end, confidence: 'uncertain', notes: tableNotes };
}

function zeros(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** PRFB: {u32 D, u32 vb, u32 ib} words at p >= from whose buffers end at fs (0-3 zero bytes of padding). */
function findCounts(v: DataView, from: number, fs: number, D: number): Buffers[] {
  const out: Buffers[] = [];
  const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  for (let p = from; p + 12 <= fs && out.length < MAX_CANDIDATES; p++) {
    if (v.getUint32(p, true) !== D) continue;
    const vb = v.getUint32(p + 4, true);
    const ib = v.getUint32(p + 8, true);
    const end = p + 12 + vb + ib;
    if (end > fs || fs - end > 3 || ib % 2 !== 0 || !zeros(bytes, end, fs)) continue;
    out.push({ countsOffset: p, vertexOffset: p + 12, vertexBytes: vb, indexOffset: p + 12 + vb, indexBytes: ib, padding: fs - end });
  }
  return out;
}
