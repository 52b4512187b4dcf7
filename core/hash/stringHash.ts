/**
 * StringHash, the engine's 32-bit name hash (seed 000 "Hashing names", seed 004 "Hashing"):
 * `h = h * 919 + LUT[byte]` over the name's bytes, wrapping at 32 bits, starting from 0.
 *
 * The 256-entry table lives in the game executable and only part of it is known. The table
 * folds case but not separators, so `\` and `/` hash differently and a path hashes as written
 * with backslashes. Unknown entries are `undefined`: hashing a name that contains such a byte
 * is reported, never silently turned into a number. The table is replaceable as a whole
 * (`new StringHasher(table)`), so a later reader can load the real one from the executable.
 *
 * Characters above U+00FF are refused, never folded to their low byte: the engine's table has
 * 256 entries because it hashes a name's bytes (the narrow `char` string it stores), so an index
 * is one byte. A UTF-16 code unit above 0xFF is no byte of such a name; which bytes the engine
 * would see for it depends on an encoding the seeds do not state. Wrapping `U+0161` to `0x61`
 * would hash `ša` as `aa`, a wrong answer that looks like a right one.
 */
import { Arch06Error } from '../errors';

export type HashTable = ReadonlyArray<number | undefined>;

/** The entries the seeds establish. Every other byte is unknown. */
export function knownHashTable(): (number | undefined)[] {
  const t: (number | undefined)[] = new Array(256).fill(undefined);
  for (let i = 0; i < 26; i++) {
    t[0x61 + i] = i + 1; // a-z
    t[0x41 + i] = i + 1; // A-Z: folded
  }
  for (let i = 0; i < 10; i++) t[0x30 + i] = 27 + i; // 0-9
  t[0x20] = 37; // space
  t[0x5f] = 38; // _
  t[0x2d] = 39; // -
  t[0x5c] = 42; // backslash
  t[0x2f] = 52; // slash
  t[0x2e] = 55; // .
  return t;
}

export type HashResult = { ok: true; hash: number } | { ok: false; byte: number; index: number };

export class StringHasher {
  /** Table values, with -1 marking an unknown byte (a typed array keeps the hot loop monomorphic). */
  private readonly lut: Int32Array;

  constructor(table: HashTable = knownHashTable()) {
    if (table.length !== 256) {
      throw new Arch06Error('BAD_ARGUMENT', 'a StringHash table must have 256 entries', { expected: '256', actual: String(table.length) });
    }
    this.lut = new Int32Array(256);
    for (let i = 0; i < 256; i++) {
      const v = table[i];
      this.lut[i] = v === undefined ? -1 : v >>> 0;
    }
  }

  /** Whether the table knows this byte's value (a number outside 0..255 is no byte: false). */
  knows(byte: number): boolean {
    return Number.isInteger(byte) && byte >= 0 && byte < 256 && this.lut[byte] >= 0;
  }

  /** Hash a name, reporting the first byte the table does not know instead of throwing. */
  tryHash(name: string | Uint8Array): HashResult {
    return this.continueHash(0, name);
  }

  /**
   * Continue a hash from state `h` over more bytes. Because the hash is a running polynomial,
   * `hash(folder + "\\" + leaf)` can be computed from `hash(folder)` without building the string.
   */
  continueHash(h: number, name: string | Uint8Array, start = 0, end = name.length): HashResult {
    const lut = this.lut;
    const isString = typeof name === 'string';
    for (let i = start; i < end; i++) {
      const c = isString ? (name as string).charCodeAt(i) : (name as Uint8Array)[i];
      const v = c < 256 ? lut[c] : -1; // above U+00FF: no byte, refused (see the top comment)
      if (v < 0) return { ok: false, byte: c, index: i };
      h = (Math.imul(h, 919) + v) >>> 0;
    }
    return { ok: true, hash: h };
  }

  /** Hash a name; throws `UNKNOWN_HASH_BYTE` naming the byte and its position. */
  hash(name: string | Uint8Array): number {
    const r = this.tryHash(name);
    if (r.ok) return r.hash;
    const shown = typeof name === 'string' ? name : Array.from(name, (c) => String.fromCharCode(c)).join(''); // latin1, without Node's Buffer
    const why =
      r.byte > 0xff
        ? `character U+${r.byte.toString(16).toUpperCase().padStart(4, '0')} is above U+00FF, and StringHash hashes bytes`
        : `the StringHash table value of byte 0x${r.byte.toString(16).padStart(2, '0')} is not known`;
    throw new Arch06Error('UNKNOWN_HASH_BYTE', `cannot hash "${shown}": ${why}`, {
      offset: r.index,
      expected: 'letters, digits, space, _ - . \\ /',
      actual: JSON.stringify(String.fromCharCode(r.byte)),
    });
  }
}

export const defaultHasher = new StringHasher();

/** StringHash with the known table; throws on an unknown byte. */
export function stringHash(name: string | Uint8Array): number {
  return defaultHasher.hash(name);
}

/** `0x%08X`, the form the CLI and the UI print. */
export function formatHash(h: number): string {
  return '0x' + (h >>> 0).toString(16).toUpperCase().padStart(8, '0');
}

/** Parse `0xDCDB4713`, `DCDB4713` or a decimal number; throws `BAD_ARGUMENT` otherwise. */
export function parseHash(text: string): number {
  const t = text.trim();
  let v: number;
  if (/^0x[0-9a-f]{1,8}$/i.test(t)) v = parseInt(t.slice(2), 16);
  else if (/^[0-9a-f]{8}$/i.test(t)) v = parseInt(t, 16);
  else if (/^[0-9]{1,10}$/.test(t)) v = Number(t);
  else v = NaN;
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    throw new Arch06Error('BAD_ARGUMENT', `not a 32-bit hash: "${text}"`, { expected: '0x followed by up to 8 hex digits' });
  }
  return v >>> 0;
}
