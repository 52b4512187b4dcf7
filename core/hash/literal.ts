/**
 * What a hash literal is and which names answer it, for every front end (the language server's
 * hovers and inlay hints, `arch06 unhash`, the Reverse Hash Lookup command). Havok Script writes
 * three kinds: `0x…hi` literals (./hiHash.ts, not StringHash), 64-bit `0x…hl` literals (function
 * unknown: no real script holds one), and raw 8-digit values, which the engine's data holds as
 * StringHashes (seed 000).
 */
import { Arch06Error } from '../errors';
import type { DictionaryEntry, HashDictionary } from './dictionary';
import { parseHash } from './stringHash';

export type HashKind = 'string' | 'hi' | 'hl';

export interface HashValue {
  hash: number;
  kind: HashKind;
}

/** A literal in source: `0x` + 1-16 hex digits + optional `hi`/`hl` (group 1 the digits, group 2 the suffix). */
export const HASH_LITERAL_PATTERN = '0[xX]([0-9a-fA-F]{1,16})(hi|hl)?\\b';

/**
 * The value of a literal found in source by HASH_LITERAL_PATTERN, or undefined when it is not a
 * hash: without a suffix only exactly 8 digits are (shorter ones are ordinary numbers).
 */
export function sourceHashLiteral(digits: string, suffix: string | undefined): HashValue | undefined {
  if (suffix === 'hl') return { hash: 0, kind: 'hl' };
  if (digits.length > 8 || (!suffix && digits.length !== 8)) return undefined;
  return { hash: parseInt(digits, 16) >>> 0, kind: suffix === 'hi' ? 'hi' : 'string' };
}

/**
 * A hash a user typed: a script's literal as written (`0xad5130eahi` is a hi hash) or a value
 * (`0x7D6FB0AA`, `7D6FB0AA`, decimal), which is a StringHash. Throws BAD_ARGUMENT otherwise.
 */
export function parseHashQuery(text: string): HashValue {
  const t = text.trim();
  const m = /^0x([0-9a-f]{1,16})(hi|hl)$/i.exec(t);
  if (!m) return { hash: parseHash(t), kind: 'string' };
  const suffix = m[2].toLowerCase();
  if (suffix === 'hl') return { hash: 0, kind: 'hl' };
  if (m[1].length > 8) throw new Arch06Error('BAD_ARGUMENT', `not a 32-bit hi hash: "${text}"`, { expected: '0x followed by up to 8 hex digits and hi' });
  return { hash: parseInt(m[1], 16) >>> 0, kind: 'hi' };
}

/** The dictionary's names for a hash of that kind: none for `hl`, whose function is unknown. */
export function namesOfHash(dict: HashDictionary, value: HashValue): DictionaryEntry | undefined {
  if (value.kind === 'hl') return undefined;
  return value.kind === 'hi' ? dict.hiEntry(value.hash) : dict.entry(value.hash);
}

/** Why a kind has no answer at all, whatever the dictionary holds. */
export const HL_UNKNOWN = 'a 64-bit `hl` hash literal; its hash function is unknown (no real script holds one to work it out from)';
