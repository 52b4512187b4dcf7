/**
 * The bone hierarchy of a SKEL skeleton: the breadth-first order that is the skeleton's
 * name-table order on the real sample (./layout.ts gives the evidence), and bone names by
 * StringHash, as the MMSH bone list names them.
 */
import { StringHasher, defaultHasher } from '../../../hash/stringHash';
import { Skel } from './layout';

/**
 * Breadth-first order of a hierarchy given as parent indices (-1 = root): roots in index order,
 * then their children level by level, siblings in index order. On the real sample this is the
 * order of the bone names in the SKEL string blob, i.e. the name-table order palettes index.
 */
export function breadthFirstOrder(parents: readonly number[]): number[] {
  const children: number[][] = parents.map(() => []);
  const order: number[] = [];
  parents.forEach((p, i) => {
    if (p >= 0 && p < parents.length && p !== i) children[p]!.push(i);
    else order.push(i);
  });
  for (let k = 0; k < order.length; k++) for (const c of children[order[k]!]!) order.push(c);
  if (order.length === parents.length) return order;
  // A cycle: the bones no root reaches follow, in index order.
  const seen = new Uint8Array(parents.length);
  for (const i of order) seen[i] = 1;
  for (let i = 0; i < parents.length; i++) if (!seen[i]) order.push(i);
  return order;
}

/** StringHash of each bone name → bone index (names with a byte the hash table does not know are left out). */
export function skelBonesByHash(skel: Skel, hasher: StringHasher = defaultHasher): Map<number, number> {
  const out = new Map<number, number>();
  for (const b of skel.bones) {
    const h = hasher.tryHash(b.name);
    if (h.ok && !out.has(h.hash)) out.set(h.hash, b.index);
  }
  return out;
}
