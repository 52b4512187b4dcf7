/**
 * A hash dictionary: StringHash → the name it was computed from, and where that name came from.
 * The engine stores only hashes (string-table keys, bone names, registry names), so names have to
 * be gathered from places that spell them out (script literals, mounted paths, OBJL object names,
 * a user's word lists) and hashed the way the engine does (./stringHash.ts, with its known table).
 *
 * The first name seen for a hash is kept; a later, different name with the same hash is a
 * collision, counted and kept aside (a few per hash). Names that differ only in case are the same
 * name: the table folds case, so they always share a hash. A name holding a byte the table does
 * not know is skipped and counted, never guessed.
 *
 * The same names answer `0x…hi` literals too (./hiHash.ts, another function): identifier-like
 * names (what events and functions are called) are also kept by their hi hash, case kept, with
 * their own collisions.
 */
import { hiHash } from './hiHash';
import { StringHasher, defaultHasher } from './stringHash';

/**
 * Where a name came from: a mounted path or bundle member path, a row of an archive's path index,
 * a script's string literal or top-level definition, an OBJL string (objects, classes, groups), a
 * SCRB event or function, a skeleton's bone, socket, mask or part name, a user's file.
 */
export const NAME_ORIGINS = ['path', 'path index', 'script literal', 'script name', 'object name', 'binding name', 'skeleton name', 'user file'] as const;
export type NameOrigin = (typeof NAME_ORIGINS)[number];

export interface DictionaryEntry {
  /** The first name seen with this hash, as it was spelled. */
  name: string;
  origin: NameOrigin;
  /** Other names with the same hash (collisions), at most `MAX_OTHERS`. */
  others?: { name: string; origin: NameOrigin }[];
}

export interface DictionaryStats {
  /** Names hashed and looked at (duplicates included). */
  added: number;
  /** Names skipped because the table does not know one of their bytes. */
  unhashable: number;
  /** Distinct names with a hash another name already had. */
  collisions: number;
  /** Names per origin that gave a new hash. */
  byOrigin: Record<NameOrigin, number>;
  /** Distinct hi hashes with a name (identifier-like names only). */
  hiNames: number;
}

export type AddResult = 'new' | 'same' | 'collision' | 'unhashable';

/** Collisions kept per hash (all are counted). */
const MAX_OTHERS = 4;

/** Names also kept by their hi hash: identifiers, as events and functions are named (paths and sentences are not). */
const HI_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,255}$/;

export class HashDictionary {
  private readonly byHash = new Map<number, DictionaryEntry>();
  private readonly byHi = new Map<number, DictionaryEntry>();
  readonly stats: DictionaryStats = {
    added: 0,
    unhashable: 0,
    collisions: 0,
    byOrigin: Object.fromEntries(NAME_ORIGINS.map((o) => [o, 0])) as Record<NameOrigin, number>,
    hiNames: 0,
  };

  constructor(private readonly hasher: StringHasher = defaultHasher) {}

  /** Distinct hashes with a name. */
  get size(): number {
    return this.byHash.size;
  }

  /** Hash `name` and record it; says whether the hash was new, already had this name, or another one. */
  add(name: string, origin: NameOrigin): AddResult {
    this.stats.added++;
    if (HI_NAME.test(name)) this.addHi(name, origin);
    const r = this.hasher.tryHash(name);
    if (!r.ok) {
      this.stats.unhashable++;
      return 'unhashable';
    }
    const e = this.byHash.get(r.hash);
    if (!e) {
      this.byHash.set(r.hash, { name, origin });
      this.stats.byOrigin[origin]++;
      return 'new';
    }
    const folded = name.toLowerCase();
    if (e.name.toLowerCase() === folded || e.others?.some((o) => o.name.toLowerCase() === folded)) return 'same';
    this.stats.collisions++;
    if ((e.others ??= []).length < MAX_OTHERS) e.others.push({ name, origin });
    return 'collision';
  }

  /** Every name of `names` (see `add`); returns how many gave a new hash. */
  addAll(names: Iterable<string>, origin: NameOrigin): number {
    let added = 0;
    for (const n of names) if (this.add(n, origin) === 'new') added++;
    return added;
  }

  /** The name of a hash, or undefined when no name gathered so far hashes to it. */
  name(hash: number): string | undefined {
    return this.byHash.get(hash >>> 0)?.name;
  }

  entry(hash: number): DictionaryEntry | undefined {
    return this.byHash.get(hash >>> 0);
  }

  /** The names whose hi hash (an `0x…hi` literal's function, ./hiHash.ts) is `hash`: the first seen, then collisions. */
  hiEntry(hash: number): DictionaryEntry | undefined {
    return this.byHi.get(hash >>> 0);
  }

  private addHi(name: string, origin: NameOrigin): void {
    const h = hiHash(name)!; // identifiers are ASCII
    const e = this.byHi.get(h);
    if (!e) {
      this.byHi.set(h, { name, origin });
      this.stats.hiNames++;
    } else if (e.name !== name && !e.others?.some((o) => o.name === name) && (e.others ??= []).length < MAX_OTHERS) e.others.push({ name, origin });
  }
}

export interface LiteralOptions {
  /** Longer literals are skipped (key names and paths are short). Default 512. */
  maxLength?: number;
  /** Stop after this many literals. Default 100,000. */
  maxCount?: number;
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '\\': '\\', '"': '"', "'": "'", '\n': '\n' };

/** At `i` (a `[`), the level of a long bracket `[==[` (number of `=`), or -1 when none opens there. */
function longBracketLevel(s: string, i: number): number {
  let j = i + 1;
  while (s.charCodeAt(j) === 0x3d) j++; // '='
  return s.charCodeAt(j) === 0x5b ? j - i - 1 : -1; // '['
}

/**
 * The string literals of a Lua 5.1 / Havok Script source, decoded: "…" and '…' with their escapes
 * (\n \t \\ \" \' \ddd \xHH, backslash-newline), long brackets [[…]] and [=[…]=] (a first newline
 * dropped, as Lua does). Comments (`--` to the end of the line, `--[[ … ]]`, `--[=[ … ]=]`) are
 * skipped. An unterminated quoted literal ends at the end of its line and is dropped. One pass,
 * so the work is bounded by the source's length; the output by `maxCount` × `maxLength`.
 */
export function scriptStringLiterals(source: string, options: LiteralOptions = {}): string[] {
  const maxLength = options.maxLength ?? 512;
  const maxCount = options.maxCount ?? 100_000;
  const out: string[] = [];
  const n = source.length;
  let i = 0;
  /** Skip a long bracket of `level` whose body starts at `from`; returns the body end (or n) and moves `i` past the close. */
  const longBody = (from: number, level: number): number => {
    const close = ']' + '='.repeat(level) + ']';
    const end = source.indexOf(close, from);
    i = end < 0 ? n : end + close.length;
    return end < 0 ? n : end;
  };
  while (i < n && out.length < maxCount) {
    const c = source[i];
    if (c === '-' && source[i + 1] === '-') {
      const level = source[i + 2] === '[' ? longBracketLevel(source, i + 2) : -1;
      if (level >= 0) longBody(i + 4 + level, level);
      else {
        const eol = source.indexOf('\n', i);
        i = eol < 0 ? n : eol + 1;
      }
    } else if (c === '[') {
      const level = longBracketLevel(source, i);
      if (level < 0) {
        i++;
        continue;
      }
      let from = i + 2 + level;
      if (source[from] === '\r') from++;
      if (source[from] === '\n') from++;
      const end = longBody(from, level);
      if (end - from <= maxLength) out.push(source.slice(from, end));
    } else if (c === '"' || c === "'") {
      let text = '';
      let j = i + 1;
      let closed = false;
      while (j < n) {
        const d = source[j];
        if (d === c) {
          closed = true;
          j++;
          break;
        }
        if (d === '\n') break;
        if (d !== '\\') {
          text += d;
          j++;
        } else {
          const e = source[j + 1] ?? '';
          if (e in SIMPLE_ESCAPES) {
            text += SIMPLE_ESCAPES[e];
            j += 2;
          } else if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(source.slice(j + 2, j + 4))) {
            text += String.fromCharCode(parseInt(source.slice(j + 2, j + 4), 16));
            j += 4;
          } else if (e >= '0' && e <= '9') {
            const digits = /^[0-9]{1,3}/.exec(source.slice(j + 1, j + 4))![0];
            text += String.fromCharCode(Number(digits) & 0xff);
            j += 1 + digits.length;
          } else {
            text += e; // Lua 5.1 keeps an unknown escape's character
            j += 2;
          }
        }
        if (text.length > maxLength) {
          // Too long to be a name: skip to its end without collecting more.
          while (j < n && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
          closed = false;
          if (source[j] === c) j++;
          break;
        }
      }
      if (closed) out.push(text);
      i = j;
    } else i++;
  }
  return out;
}

/** A user dictionary file: one name a line, trimmed; blank lines and lines starting with `#` skipped. */
export function parseDictionaryFile(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    if (t && !t.startsWith('#')) out.push(t);
  }
  return out;
}
