/**
 * Mutations of JSON documents (the language server's cache snapshots): the document is parsed,
 * one to three of its values are replaced by lies of another shape or size (a number out of
 * range or of the wrong kind, a string where an array was, an array repeated a hundred times, a
 * key removed), and it is written out again; sometimes the text itself is cut or garbled.
 */
import { mutateBytes, type Mutated, type Seed } from './mutate';
import type { Rng } from './random';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every place a value sits: its container and key, found without recursion, at most `max` of them. */
function places(root: Json, max: number): { parent: Json[] | { [k: string]: Json }; key: string | number; path: string }[] {
  const out: { parent: Json[] | { [k: string]: Json }; key: string | number; path: string }[] = [];
  const stack: { value: Json; path: string }[] = [{ value: root, path: '' }];
  while (stack.length > 0 && out.length < max) {
    const { value, path } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
    for (const k of keys) {
      const child = (value as Record<string | number, Json>)[k];
      out.push({ parent: value, key: k, path: `${path}.${k}` });
      if (child !== null && typeof child === 'object') stack.push({ value: child, path: `${path}.${k}` });
    }
  }
  return out;
}

/** A value of another shape or size than `v`. */
function lieAbout(v: Json, rnd: Rng): Json {
  if (typeof v === 'number') return rnd.pick([-1, 0, 1.5, 2 ** 31, 2 ** 32, 1e300, -(2 ** 53), v + 1, v * 1000, 0x7fffffff]);
  if (typeof v === 'string') return rnd.pick(['', '..\\..\\x', 'x'.repeat(5000), '\u0000', '@sources/99 Nowhere/x', v + v, 7]);
  if (Array.isArray(v)) {
    const k = rnd.int(4);
    if (k === 0) return [];
    if (k === 1 && v.length > 0) return Array.from({ length: Math.min(20_000, v.length * 100) }, (_, i) => v[i % v.length]);
    if (k === 2) return rnd.pick(['a string', 5, null, { a: 1 }]);
    return [...v, ...v.slice(0, 3).map((x) => lieAbout(x, rnd))];
  }
  if (v !== null && typeof v === 'object') return rnd.pick([null, [], 'an object', {}]);
  return rnd.pick([null, 0, 'true', []]);
}

/** Mutate a JSON seed: value lies mostly, the blind byte mutations of its text sometimes. */
export function mutateJson(seed: Seed, rnd: Rng, others: readonly Seed[]): Mutated {
  if (rnd.chance(0.1)) return mutateBytes(seed, rnd, others);
  const doc = JSON.parse(new TextDecoder().decode(seed.bytes)) as Json;
  const all = places(doc, 200_000);
  const labels: string[] = [];
  const n = 1 + (rnd.chance(0.3) ? rnd.int(3) : 0);
  for (let i = 0; i < n && all.length > 0; i++) {
    const p = rnd.pick(all);
    const parent = p.parent as Record<string | number, Json>;
    if (!Array.isArray(p.parent) && rnd.chance(0.1)) {
      delete parent[p.key];
      labels.push(`${p.path} removed`);
    } else {
      parent[p.key] = lieAbout(parent[p.key], rnd);
      labels.push(`${p.path} = ${JSON.stringify(parent[p.key])?.slice(0, 40)}`);
    }
  }
  return { bytes: Buffer.from(JSON.stringify(doc), 'utf8'), label: `${labels.join(' + ')} of ${seed.name}` };
}
