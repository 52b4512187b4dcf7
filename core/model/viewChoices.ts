/**
 * Choices the mesh viewer makes about what to show, as pure functions (the webview media/mesh/
 * and the extension host both use them; no DOM, no three.js):
 *
 * - `bonesToLabel`: which bones get a name label in the 3D view. A 142-bone head labelled all at
 *   once is an unreadable block, so by default only the bones in focus (hovered, selected) and the
 *   parent of each are labelled; a toggle labels all.
 * - `searchBones`: the bone list's search (every word of the query, case-insensitive, in the
 *   bone's shown name, its raw name or its index).
 * - `hashTokens` / `nameHashes`: names a file stores only as `0x%08X` StringHashes (part names from
 *   LOD group ids, bones from the mesh's own list), decoded through a hash dictionary when it
 *   knows them. The host finds the tokens and looks them up; the webview shows the names.
 * - `lodDisabledReason`: why the LOD select has nothing to choose (no mesh, or one level: a file
 *   may list several mesh levels that draw the same parts, or nothing, and those are dropped).
 */
import type { MeshModel } from './meshModel';

/**
 * Indices of the bones to label: every bone when `all`, else each bone of `focus` (hovered,
 * selected; undefined or out-of-range entries ignored) and its parent, in ascending order.
 */
export function bonesToLabel(parents: readonly number[], focus: readonly (number | undefined)[], all: boolean): number[] {
  if (all) return parents.map((_, i) => i);
  const out = new Set<number>();
  for (const b of focus) {
    if (b === undefined || !Number.isInteger(b) || b < 0 || b >= parents.length) continue;
    out.add(b);
    const p = parents[b]!;
    if (p >= 0 && p < parents.length) out.add(p);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * The bones matching `query`, in skeleton order: every whitespace-separated word must occur
 * (case-insensitively) in the bone's shown name (`shown[i]`), its raw name (`raw[i]`, e.g. its
 * hash) or its index as a number (a word of digits matches the index exactly). An empty query
 * matches every bone.
 */
export function searchBones(shown: readonly string[], query: string, raw: readonly string[] = shown): number[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const out: number[] = [];
  for (let i = 0; i < shown.length; i++) {
    const a = shown[i]!.toLowerCase();
    const b = (raw[i] ?? '').toLowerCase();
    if (words.every((w) => a.includes(w) || b.includes(w) || (/^\d+$/.test(w) && Number(w) === i))) out.push(i);
  }
  return out;
}

/** A `0x%08X` hash as the model prints it (eight hex digits), as a whole word. */
const HASH_TOKEN = /\b0x[0-9A-Fa-f]{8}\b/g;

/** The hashes printed in `0x%08X` form in a model's part, bone and socket names, each once, ascending. */
export function hashTokens(model: MeshModel): number[] {
  const out = new Set<number>();
  const scan = (s: string): void => {
    for (const m of s.matchAll(HASH_TOKEN)) out.add(Number.parseInt(m[0].slice(2), 16) >>> 0);
  };
  for (const lod of model.lods) for (const p of lod.parts) scan(p.name);
  for (const b of model.skeleton?.bones ?? []) scan(b.name);
  for (const s of model.skeleton?.sockets ?? []) scan(s.name);
  return [...out].sort((a, b) => a - b);
}

/** The key a decoded name travels under: the hash as the model prints it (`0x%08X`, upper case). */
export const hashKey = (hash: number): string => `0x${(hash >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;

/**
 * `label` with each `0x%08X` hash that `names` knows (keyed by `hashKey`) replaced by its name;
 * unknown hashes stay as they are.
 */
export function nameHashes(label: string, names: Readonly<Record<string, string>>): string {
  return label.replace(HASH_TOKEN, (t) => {
    const key = hashKey(Number.parseInt(t.slice(2), 16));
    return Object.prototype.hasOwnProperty.call(names, key) ? names[key]! : t;
  });
}

/**
 * Why the LOD select is disabled for `m`, or undefined when there are LODs to choose from: no
 * mesh, or one level to show, with the model's note on how the file's levels became LODs.
 */
export function lodDisabledReason(m: MeshModel): string | undefined {
  if (m.lods.length > 1) return undefined;
  if (m.lods.length === 0) return 'No level of detail: this file has no mesh, only a skeleton.';
  const note = m.notes.find((n) => /\bLODs?\b|mesh levels?|LOD groups?/i.test(n));
  return `Only one level of detail to show.${note ? ` ${note}.` : ''}`;
}
