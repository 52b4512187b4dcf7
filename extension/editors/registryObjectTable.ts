/**
 * The registry editor's object table (media/registry/objectTable.ts shows it), without vscode: the
 * OBJL objects (or raw records) of one registry, their classes with counts, search by name, class,
 * group or `0x` hash as you type (each keystroke that extends the last query filters the last
 * result), and windows of rows, so a 100,000-object registry never crosses to the webview at once.
 * Split from ./registryModel.ts, which builds the rest of the editor's model.
 */
import { defaultHasher, formatHash } from '../../core/hash';
import { type ObjectList, degreesFromQuaternion } from '../../core/formats/registry';
import { MAX_CELL_CHARS } from '../../media/registry/protocol';
import type { ObjectRow, RawRecordRow } from '../../media/registry/protocol';

/** A name as one table cell carries it: cut at `MAX_CELL_CHARS`, with its length. */
export function cell(s: string): string;
export function cell(s: string | null): string | null;
export function cell(s: string | null): string | null {
  return s === null || s.length <= MAX_CELL_CHARS ? s : `${s.slice(0, MAX_CELL_CHARS)}… (${s.length} characters)`;
}

const HEX_QUERY = /^0x[0-9a-f]{0,8}$/;
const hexBytes = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(' ');

/** The rows the search and the class filter keep: positions in the table, in list order. */
interface Filtered {
  text: string;
  className: string;
  hits: Uint32Array;
}

/**
 * OBJL objects (or raw records) for the table: class counts, search as you type, windows of rows.
 * Search keys and hashes are built on first use, so opening a registry costs only the class count.
 */
export class ObjectTable {
  readonly kind: 'objects' | 'raw' | 'none';
  readonly total: number;
  /** Classes with their counts, most numerous first (ties by name). */
  readonly classes: { name: string; count: number }[];
  private readonly classOf: Uint32Array;
  private readonly classIds = new Map<string, number>();
  private keys?: string[];
  /** Each object's group (an index into `names`, -1 for none): a group name matches for all its objects at once. */
  private groups?: { of: Int32Array; names: string[] };
  private hashes?: { hash: Uint32Array; hashOk: Uint8Array; template: Uint32Array };
  private last?: Filtered;

  constructor(private readonly list: ObjectList | undefined) {
    this.kind = !list ? 'none' : list.recordLayout.validated ? 'objects' : 'raw';
    this.total = !list ? 0 : this.kind === 'objects' ? list.objects.length : list.rawRecords.length;
    this.classOf = new Uint32Array(this.kind === 'objects' ? this.total : 0);
    const counts: number[] = [];
    const names: string[] = [];
    if (list && this.kind === 'objects')
      list.objects.forEach((o, i) => {
        let id = this.classIds.get(o.className);
        if (id === undefined) {
          id = names.length;
          this.classIds.set(o.className, id);
          names.push(o.className);
          counts.push(0);
        }
        counts[id]++;
        this.classOf[i] = id;
      });
    this.classes = names.map((name, i) => ({ name, count: counts[i] })).sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Lower-case names (objects) or the hex bytes (raw records): what a text search matches. */
  private searchKeys(): string[] {
    if (!this.keys) {
      const l = this.list!;
      // Objects sharing a name string share its key (20,000 records may name one 500 KB string).
      const lowered = new Map<string, string>();
      const lower = (n: string): string => {
        let k = lowered.get(n);
        if (k === undefined) lowered.set(n, (k = n.toLowerCase()));
        return k;
      };
      this.keys = this.kind === 'objects' ? l.objects.map((o) => lower(o.name)) : l.rawRecords.map((r) => hexBytes(r.bytes));
    }
    return this.keys;
  }

  /** Each object's group by id, and the distinct group names lower-cased (built once). */
  private groupKeys(): { of: Int32Array; names: string[] } {
    if (!this.groups) {
      const objects = this.list!.objects;
      const of = new Int32Array(objects.length).fill(-1);
      const ids = new Map<string, number>();
      const names: string[] = [];
      objects.forEach((o, i) => {
        if (o.group === null) return;
        let id = ids.get(o.group);
        if (id === undefined) {
          ids.set(o.group, (id = names.length));
          names.push(o.group.toLowerCase());
        }
        of[i] = id;
      });
      this.groups = { of, names };
    }
    return this.groups;
  }

  /** StringHash of each name (what SCRB and ONLS key objects by; 0 with `hashOk` 0 where a byte has no known value) and each template id. */
  private hashKeys(): { hash: Uint32Array; hashOk: Uint8Array; template: Uint32Array } {
    if (!this.hashes) {
      const objects = this.list!.objects;
      const hash = new Uint32Array(objects.length);
      const hashOk = new Uint8Array(objects.length);
      const template = new Uint32Array(objects.length);
      const byName = new Map<string, ReturnType<typeof defaultHasher.tryHash>>(); // each name string hashed once
      objects.forEach((o, i) => {
        let h = byName.get(o.name);
        if (h === undefined) byName.set(o.name, (h = defaultHasher.tryHash(o.name)));
        if (h.ok) {
          hash[i] = h.hash;
          hashOk[i] = 1;
        }
        template[i] = o.templateId;
      });
      this.hashes = { hash, hashOk, template };
    }
    return this.hashes;
  }

  /**
   * The positions the search and the class filter keep. `text`: a substring of the name, class or
   * group (any case), or `0x` and up to eight hex digits: a name hash or template id starting with them
   * (or a name holding the text). `className` '' keeps every class.
   */
  filter(text: string, className: string): Uint32Array {
    const q = text.trim().toLowerCase();
    if (this.kind === 'none') return new Uint32Array(0);
    if (this.last && this.last.text === q && this.last.className === className) return this.last.hits;
    const classId = className === '' ? -1 : (this.classIds.get(className) ?? -2);
    const hexMode = this.kind === 'objects' && HEX_QUERY.test(q);
    // Each keystroke that extends the last query (same mode, same class) narrows the last result.
    const prev = this.last;
    const narrowing = prev !== undefined && prev.className === className && q.startsWith(prev.text) && HEX_QUERY.test(prev.text) === hexMode;
    const n = narrowing ? prev.hits.length : this.total;
    const at = (k: number): number => (narrowing ? prev.hits[k] : k);
    const out = new Uint32Array(n);
    let kept = 0;
    if (classId === -2) kept = 0;
    else if (q === '' && classId === -1) {
      for (let k = 0; k < n; k++) out[kept++] = at(k);
    } else {
      const keys = q === '' ? undefined : this.searchKeys();
      // A class name matches for all its objects at once: one test per class, not per object.
      const classHit = this.classes.length ? new Uint8Array(this.classIds.size) : undefined;
      if (classHit && q !== '') for (const [name, id] of this.classIds) classHit[id] = name.toLowerCase().includes(q) ? 1 : 0;
      // So does a group name (ONLS groups of the registry, as the objects name them).
      const groups = q !== '' && this.kind === 'objects' ? this.groupKeys() : undefined;
      const groupHit = groups && Uint8Array.from(groups.names, (g) => (g.includes(q) ? 1 : 0));
      const inGroup = (i: number): boolean => groups !== undefined && groups.of[i] >= 0 && groupHit![groups.of[i]] === 1;
      const hex = hexMode ? this.hashKeys() : undefined;
      // `0x` + k digits: the top 4k bits of a hash equal the digits' value.
      const digits = q.slice(2);
      const shift = 32 - 4 * digits.length;
      const want = digits ? parseInt(digits, 16) : 0;
      const prefix = (h: number): boolean => digits === '' || (shift === 0 ? h >>> 0 : h >>> shift) === want;
      // A long key shared by many objects is searched once per keystroke, not once per object.
      const longHits = new Map<string, boolean>();
      const holds = (key: string): boolean => {
        if (key.length < 256) return key.includes(q);
        let hit = longHits.get(key);
        if (hit === undefined) longHits.set(key, (hit = key.includes(q)));
        return hit;
      };
      for (let k = 0; k < n; k++) {
        const i = at(k);
        if (classId >= 0 && this.classOf[i] !== classId) continue;
        if (
          keys &&
          !holds(keys[i]) &&
          !classHit?.[this.classOf[i]] &&
          !inGroup(i) &&
          !(hex && ((hex.hashOk[i] && prefix(hex.hash[i])) || prefix(hex.template[i])))
        )
          continue;
        out[kept++] = i;
      }
    }
    this.last = { text: q, className, hits: out.subarray(0, kept) };
    return this.last.hits;
  }

  /** Rows `start` … `start + count` of those the search and class filter keep. */
  window(text: string, className: string, start: number, count: number): { shown: number; start: number; rows: ObjectRow[] | RawRecordRow[] } {
    const hits = this.filter(text, className);
    const from = Math.min(start, hits.length);
    const to = Math.min(hits.length, from + count);
    const l = this.list;
    if (!l || this.kind === 'none') return { shown: 0, start: 0, rows: [] };
    if (this.kind === 'raw') {
      const rows: RawRecordRow[] = [];
      for (let k = from; k < to; k++) {
        const r = l.rawRecords[hits[k]];
        rows.push({ index: r.index, offset: r.offset, set: formatHash(r.set), hex: this.keys?.[hits[k]] ?? hexBytes(r.bytes) });
      }
      return { shown: hits.length, start: from, rows };
    }
    const rows: ObjectRow[] = [];
    const hashes = this.hashKeys();
    for (let k = from; k < to; k++) {
      const o = l.objects[hits[k]];
      rows.push({
        index: o.index,
        name: cell(o.name),
        className: cell(o.className),
        group: cell(o.group),
        nameHash: hashes.hashOk[hits[k]] ? formatHash(hashes.hash[hits[k]]) : null,
        set: formatHash(o.set),
        position: o.position,
        rotation: o.rotation,
        rotationDegrees: degreesFromQuaternion(o.rotation),
        templateId: formatHash(o.templateId),
        propertyIndex: o.propertyIndex,
      });
    }
    return { shown: hits.length, start: from, rows };
  }
}
