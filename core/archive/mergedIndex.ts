/**
 * The merged view's path table: every distinct path over all sources (case-insensitive, either
 * separator), with the number of copies and the highest-ranked copy. Built from each source's
 * 32-bit path keys in one pass with an open-addressing table of typed arrays; equal keys are
 * settled by comparing the folded path bytes, so the count is exact, not a hash estimate.
 */
import { KEY_FOLD, Source } from './source';
import { LtarSource } from './ltarSource';

export class MergedIndex {
  /** Distinct path d: the source (index in search order) and file index of its winning copy. */
  readonly winnerSource: Uint16Array;
  readonly winnerFile: Int32Array;
  /** How many sources hold distinct path d. */
  readonly copies: Uint16Array;
  readonly keys: Uint32Array;
  readonly size: number;
  /**
   * Paths one source holds twice (an archive with two records of one path, or a case-sensitive
   * disk with two spellings): not extra copies. `served` is the record the source's own lookup
   * finds, which is the one the view and the index use.
   */
  readonly duplicates: { source: number; path: string; files: number[]; served: number }[];

  private constructor(
    n: number,
    winnerSource: Uint16Array,
    winnerFile: Int32Array,
    copies: Uint16Array,
    keys: Uint32Array,
    duplicates: MergedIndex['duplicates'],
  ) {
    this.size = n;
    this.winnerSource = winnerSource;
    this.winnerFile = winnerFile;
    this.copies = copies;
    this.keys = keys;
    this.duplicates = duplicates;
  }

  /** An index read back from the mount cache (core/archive/mountCacheFile.ts checked every field against the mount). */
  static fromParts(p: Pick<MergedIndex, 'size' | 'winnerSource' | 'winnerFile' | 'copies' | 'keys' | 'duplicates'>): MergedIndex {
    return new MergedIndex(p.size, p.winnerSource, p.winnerFile, p.copies, p.keys, p.duplicates);
  }

  /** `sources` in search order (the first one wins). */
  static build(sources: readonly Source[]): MergedIndex {
    let total = 0;
    const allKeys = sources.map((s) => {
      const k = s.pathKeys();
      total += k.length;
      return k;
    });
    let cap = 16;
    while (cap < total * 2) cap *= 2;
    const mask = cap - 1;
    // Each slot holds {key, distinct index + 1} side by side, so a probe touches one cache line.
    const slots = new Uint32Array(cap * 2);
    const winnerSource = new Uint16Array(total);
    const winnerFile = new Int32Array(total);
    const copies = new Uint16Array(total);
    const keys = new Uint32Array(total);
    let n = 0;

    const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
      return true;
    };

    // The last source that gave distinct path d, and its record: a second record from the same
    // source is a duplicate inside it. Twins: key d * 65536 + source -> every record of that path.
    const lastSource = new Uint16Array(total);
    const lastFile = new Int32Array(total);
    const twins = new Map<number, number[]>();
    for (let s = 0; s < sources.length; s++) {
      const ks = allKeys[s];
      const src = sources[s];
      for (let i = 0; i < ks.length; i++) {
        if (src.hidden(i) !== undefined) continue;
        const k = ks[i];
        // Fibonacci hashing spreads FNV keys over the power-of-two table.
        let slot = (Math.imul(k, 0x9e3779b1) >>> 0) & mask;
        let mine: Uint8Array | undefined;
        for (;;) {
          const d1 = slots[slot * 2 + 1];
          if (d1 === 0) {
            slots[slot * 2] = k;
            slots[slot * 2 + 1] = n + 1;
            winnerSource[n] = s;
            winnerFile[n] = i;
            copies[n] = 1;
            keys[n] = k;
            lastSource[n] = s;
            lastFile[n] = i;
            n++;
            break;
          }
          const d = d1 - 1;
          if (slots[slot * 2] === k) {
            const other = sources[winnerSource[d]];
            // Two archives compare straight from their name pools; anything else through bytes.
            const same =
              src instanceof LtarSource && other instanceof LtarSource
                ? src.archive.samePath(i, other.archive, winnerFile[d], KEY_FOLD)
                : sameBytes((mine ??= src.foldedPath(i)), other.foldedPath(winnerFile[d]));
            if (same) {
              // A path this source already gave is a duplicate inside it, not another copy:
              // each duplicate stops at its first equal slot, so many of them stay linear.
              if (lastSource[d] === s) {
                const list = twins.get(d * 65536 + s);
                if (list) list.push(i);
                else twins.set(d * 65536 + s, [lastFile[d], i]);
              } else {
                copies[d]++;
                lastSource[d] = s;
                lastFile[d] = i;
              }
              break;
            }
          }
          slot = (slot + 1) & mask;
        }
      }
    }
    const duplicates: MergedIndex['duplicates'] = [];
    for (const [key, files] of twins) {
      const d = Math.floor(key / 65536);
      const source = key % 65536;
      const src = sources[source];
      const path = src.pathAt(files[0]);
      // The source's own lookup decides which record is served (the engine's binary search for an archive).
      const found = src instanceof LtarSource ? src.archive.find(path) : files[0];
      const served = files.includes(found) ? found : files[0];
      if (winnerSource[d] === source) winnerFile[d] = served;
      duplicates.push({ source, path, files, served });
    }
    return new MergedIndex(n, winnerSource, winnerFile, copies, keys, duplicates);
  }

  /** The largest number of copies any path has. */
  maxCopies(): number {
    let m = 0;
    for (let d = 0; d < this.size; d++) if (this.copies[d] > m) m = this.copies[d];
    return m;
  }

  /** Distinct paths held by more than one source. */
  shadowedCount(): number {
    let c = 0;
    for (let d = 0; d < this.size; d++) if (this.copies[d] > 1) c++;
    return c;
  }
}
