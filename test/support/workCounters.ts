// Work counted instead of timed (issue 22): a string or a byte array wrapped so that every
// character or byte a function under test reads is counted. A test asserts the count against
// the input's size, so "one linear pass" is checked the same on a loaded machine as on an idle
// one. Any access the wrapper does not count throws, so nothing slips past the count.

/** `text` behaves as the string for indexing, `length`, `indexOf`, `charCodeAt` and `slice`; `visits()` is the characters they touched. */
export function countingString(s: string): { text: string; visits: () => number } {
  let visits = 0;
  const methods: Record<string, unknown> = {
    indexOf: (needle: string, from = 0): number => {
      const r = s.indexOf(needle, from);
      visits += Math.max(0, (r < 0 ? s.length : r + needle.length) - from);
      return r;
    },
    charCodeAt: (i: number): number => {
      visits++;
      return s.charCodeAt(i);
    },
    slice: (a?: number, b?: number): string => {
      const r = s.slice(a, b);
      visits += r.length;
      return r;
    },
  };
  const proxy = new Proxy(new String(s), {
    get(_target, prop) {
      if (typeof prop === 'string') {
        const c = prop.charCodeAt(0);
        if (c >= 48 && c <= 57) {
          visits++;
          return s[Number(prop)];
        }
        if (prop === 'length') return s.length;
        if (prop in methods) return methods[prop];
      }
      throw new Error(`countingString: ${String(prop)} is not counted`);
    },
  });
  return { text: proxy as unknown as string, visits: () => visits };
}

/** `bytes` reads as the array (index reads counted; `length`, `buffer`, `byteOffset`, `byteLength` passed through); `reads()` is the index reads. */
export function countingBytes(a: Uint8Array): { bytes: Uint8Array; reads: () => number } {
  let reads = 0;
  const passed = new Set(['length', 'buffer', 'byteOffset', 'byteLength']);
  const proxy = new Proxy(a, {
    get(target, prop) {
      if (typeof prop === 'string') {
        const c = prop.charCodeAt(0);
        if (c >= 48 && c <= 57) {
          reads++;
          return target[Number(prop)];
        }
        if (passed.has(prop)) return Reflect.get(target, prop);
      }
      throw new Error(`countingBytes: ${String(prop)} is not counted`);
    },
  });
  return { bytes: proxy, reads: () => reads };
}
