/**
 * The one magic-and-version check every format reader starts with. The rules are the same for
 * every format, so they live here once:
 *
 *   - a file shorter than the magic is TRUNCATED when its bytes begin the magic (a cut file), and
 *     BAD_MAGIC otherwise (a short file that is no such file at all is called that);
 *   - the byte-swapped magic of a console file is refused as UNSUPPORTED_VERSION, when the format
 *     has one (`bigEndian`);
 *   - any other magic is BAD_MAGIC, "not <what>", with the bytes found as text;
 *   - the fixed header must be there (`headerSize`, for formats that check it first);
 *   - the u32 after the magic must be one of `versions` (UNSUPPORTED_VERSION otherwise).
 *
 * Both are read through the reader at its position, so the fields are recorded as spans.
 */
import { Arch06Error } from '../errors';
import { FieldReader } from './fieldReader';

export interface MagicOptions {
  /** Completes "not …" in the BAD_MAGIC message (default "a <format> file"). */
  what?: string;
  /** Field names (default `header.magic` and `header.version`). */
  magicField?: string;
  versionField?: string;
  /** The plural noun of a byte-swapped console file ("EMBB containers"): refused as UNSUPPORTED_VERSION. */
  bigEndian?: string;
  /** Added to the BAD_MAGIC message for a magic found (e.g. which reader to use instead). */
  hint?: (found: number) => string;
  /** Added to the UNSUPPORTED_VERSION message for a version found. */
  versionHint?: (version: number) => string;
  /** The accepted versions as errors write them (default the list joined with " or "). */
  expectedVersion?: string;
  /**
   * Bytes of fixed header (counted from the magic) that must be present before the version is
   * judged: a cut file is then TRUNCATED naming `headerField` (default "header"), not refused for
   * the version its cut left.
   */
  headerSize?: number;
  headerField?: string;
}

/** The u32 a 4-character tag reads as (little-endian). */
export function tagValue(tag: string): number {
  return (tag.charCodeAt(0) | (tag.charCodeAt(1) << 8) | (tag.charCodeAt(2) << 16) | (tag.charCodeAt(3) << 24)) >>> 0;
}

/**
 * Whether the bytes at `at` are `tag`, or, when fewer than four remain, the start of it (a cut
 * file of that format): for readers that choose a format by its magic.
 */
export function startsWithTag(r: FieldReader, tag: string, at = r.pos): boolean {
  const n = Math.min(4, Math.max(0, r.end - at));
  for (let i = 0; i < n; i++) if (r.bytes[at - r.base + i] !== tag.charCodeAt(i)) return false;
  return true;
}

/** A tag as errors write it: bare when it is four letters or digits, else quoted. */
const shown = (tag: string): string => (/^[A-Za-z0-9]{4}$/.test(tag) ? tag : JSON.stringify(tag));

const latin1 = new TextDecoder('latin1');

/**
 * Check the 4-byte `magic` (a tag such as "MMSH") at the reader's position and, unless `versions`
 * is null, the u32 version after it; returns the version (0 when none is read). Throws
 * TRUNCATED, BAD_MAGIC or UNSUPPORTED_VERSION naming the file, offset and field.
 */
export function expectMagicVersion(r: FieldReader, magic: string, versions: readonly number[] | null, format: string, options: MagicOptions = {}): number {
  const magicField = options.magicField ?? 'header.magic';
  const at = r.pos;
  const have = Math.min(4, r.left);
  const head = r.bytes.subarray(at - r.base, at - r.base + have);
  if (have < 4) {
    let prefix = true;
    for (let i = 0; i < have; i++) if (head[i] !== magic.charCodeAt(i)) prefix = false;
    if (prefix) r.need(4, magicField);
  }
  const found = have < 4 ? -1 : r.u32At(at, magicField);
  const expected = tagValue(magic);
  if (found !== expected) {
    const swapped = tagValue(magic.split('').reverse().join(''));
    if (options.bigEndian !== undefined && found === swapped) {
      throw new Arch06Error('UNSUPPORTED_VERSION', `big-endian (console) ${options.bigEndian} are not supported`, {
        file: r.file,
        offset: at,
        field: magicField,
        expected: shown(magic),
        actual: shown(magic.split('').reverse().join('')),
      });
    }
    throw new Arch06Error('BAD_MAGIC', `not ${options.what ?? `a ${format} file`}${found >= 0 && options.hint ? options.hint(found) : ''}`, {
      file: r.file,
      offset: at,
      field: magicField,
      expected: shown(magic),
      actual: JSON.stringify(latin1.decode(head)),
    });
  }
  r.pos = at + 4;
  if (options.headerSize !== undefined) r.need(options.headerSize - 4, options.headerField ?? 'header');
  if (versions === null) return 0;
  const versionField = options.versionField ?? 'header.version';
  const vAt = r.pos;
  const version = r.u32(versionField);
  if (!versions.includes(version)) {
    throw new Arch06Error('UNSUPPORTED_VERSION', `unsupported ${format} version ${version}${options.versionHint?.(version) ?? ''}`, {
      file: r.file,
      offset: vAt,
      field: versionField,
      expected: options.expectedVersion ?? versions.join(' or '),
      actual: String(version),
    });
  }
  return version;
}
