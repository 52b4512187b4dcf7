/**
 * What a mod's file may be called and which of its files a path index must name: the rules the
 * packer refuses by, the checker reports by and the overlay shows. Pure.
 *
 * The engine's names are single-byte strings looked up case-insensitively (seed 004 "Lookup"),
 * StringHash knows only part of its table (core/hash), and a directory source answers through
 * GetFileAttributesW(directory + path) (seed 000), which a plain Win32 path limits to 259
 * characters. The engine's own limit on an archive path is not measured: `MOD_MAX_PATH` is a
 * bound of ours (UNCERTAIN), below that Windows limit and far above the longest retail path the
 * samples hold (71 bytes in the real path index).
 */
import { defaultHasher, StringHasher } from '../hash/stringHash';
import { unsafeNameReason } from '../io/safeName';
import { PATH_INDEX_NAME } from '../formats/archive';
import type { ModProblem } from './problems';

/** Longest game path a mod may hold (UNCERTAIN: ours, see above). */
export const MOD_MAX_PATH = 255;
/** A Win32 path without the `\\?\` prefix: MAX_PATH (260) less the terminating NUL. */
export const WINDOWS_MAX_PATH = 259;
/** Files a mod folder may hold; one more stops the scan (bounded work, and a likely wrong folder). */
export const MOD_MAX_FILES = 100_000;

/** Where the packer puts a copy of the manifest inside the archive (a subfolder, so the path index stays record 0). */
export const ARCHIVE_MANIFEST_PATH = 'arch06\\arch06-mod.json';

/** The kinds every shipped path index lists when they ship loose (seed 004 "The path index"). */
const INDEXED_KINDS = /\.(anix|bnk|objres|scripts|mesh|skel)$/i;

/**
 * Whether a path index must name `path`: a loose `.anix`, `.bnk`, `.objres`, `.scripts`, `.mesh`,
 * `.skel`, or a `.bndl` whose container (`<stem>.embb`) is not in the same archive.
 */
export function needsIndexRow(path: string, hasInSameArchive: (path: string) => boolean): boolean {
  if (INDEXED_KINDS.test(path)) return true;
  if (/\.bndl$/i.test(path)) return !hasInSameArchive(path.slice(0, -5) + '.embb');
  return false;
}

/** Windows refuses these in a name (beyond what `unsafeNameReason` covers). */
const WINDOWS_FORBIDDEN = /[<>"|?*]/;

/**
 * Why `path` (a `\`-separated game path) cannot be a file of a mod, as a problem, or undefined.
 * `indexed`: the path index must name it, so StringHash must know every byte.
 */
export function modPathProblem(path: string, indexed: boolean, hasher: StringHasher = defaultHasher): ModProblem | undefined {
  const bad = (message: string): ModProblem => ({ code: 'INVALID_GAME_PATH', severity: 'error', path, message });
  const odd = /[^\x20-\x7e]/.exec(path);
  if (odd) {
    const c = odd[0].codePointAt(0)!;
    return bad(`holds U+${c.toString(16).toUpperCase().padStart(4, '0')}: game paths are single-byte ASCII names`);
  }
  for (const seg of path.split('\\')) {
    const why = unsafeNameReason(seg);
    if (why) return bad(`"${seg}" ${why.startsWith('is ') || why.startsWith('ends') || why.startsWith('contains') ? why : `is not a name: ${why}`}`);
    const w = WINDOWS_FORBIDDEN.exec(seg);
    if (w) return bad(`"${seg}" holds ${w[0]}, which Windows refuses in a name`);
  }
  if (path.length > MOD_MAX_PATH) return { code: 'PATH_TOO_LONG', severity: 'error', path, message: `${path.length} characters: longer than ${MOD_MAX_PATH}` };
  if (path.toLowerCase() === PATH_INDEX_NAME)
    return { code: 'RESERVED_NAME', severity: 'error', path, message: "the path index is written by the packer from the mod's files, not taken from the mod" };
  if (path.toLowerCase() === ARCHIVE_MANIFEST_PATH) return { code: 'RESERVED_NAME', severity: 'error', path, message: 'the packer puts the mod manifest here' };
  if (indexed) {
    const h = hasher.tryHash(path);
    if (!h.ok) {
      return bad(
        `the path index must name it, and arch06 does not know StringHash's value for ${JSON.stringify(String.fromCharCode(h.byte))} (known: letters, digits, space, _ - . \\ /)`,
      );
    }
  }
  return undefined;
}
