/**
 * What text Find in Files searches in a file, decided once here for every front end:
 *
 * - a script (`.scripts`, `.hks`): its source after the SCRI header, exactly the text its text view
 *   shows (core/formats/script `parseScript`), so a match's line is the source's line; compiled
 *   Havok Script has no source and is skipped;
 * - a file of a binary format with a decoded text (`.objres`, `.strdb`, `.bndl`, `.embb`, `.skel`):
 *   that text (core/text) when decoded views are asked for, else skipped as binary;
 * - a file of a format known to be binary (textures, meshes, sound banks, the retail layers' other
 *   members): skipped by its type, unread;
 * - anything else: its bytes as UTF-8, unless a NUL byte in the first 8 KiB says it is binary.
 */
import { isArch06Error } from '../errors';
import { parseScript } from '../formats/script';
import { renderText, textKindOf } from '../text';

/** How the searched text was had: the bytes as they are, a script's source, or a decoded text view. */
export type TextView = 'text' | 'script' | 'decoded';

/** Bytes looked at for a NUL before a file of unknown type is called binary (as editors do). */
export const SNIFF_BYTES = 8192;

/**
 * Extensions of files that are binary whatever their bytes: the formats arch06 reads (textures,
 * meshes, skeletons, prefabs, effects) and those the retail world layers ship beside their script
 * (formats-public "Checked on a retail archive": `.veggrid`, `.terrain`, `.uiwd`, `.uis`,
 * `.wldclnt`, `.hkai`), sound banks and movies. A file whose type has a decoded text is not here.
 */
const BINARY_TYPES = new Set([
  'tex',
  'tex0',
  'texuhd',
  'texa',
  'texa0',
  'texauhd',
  'dds',
  'mesh',
  'inst',
  'wldmsh',
  'fxp',
  'veggrid',
  'terrain',
  'uiwd',
  'uis',
  'wldclnt',
  'hkai',
  'anix',
  'bnk',
  'wem',
  'vib',
  'gfx',
]);

/** The extension of a path's file name as spelled ('' without one): one backward scan to the last dot or separator. */
function extensionOf(path: string): string {
  for (let i = path.length - 1; i >= 0; i--) {
    const c = path.charCodeAt(i);
    if (c === DOT) return path.slice(i + 1);
    if (c === BACKSLASH || c === SLASH) return '';
  }
  return '';
}
const DOT = 46;
const BACKSLASH = 92;
const SLASH = 47;

/** What a path's file is to the search before any byte is read. */
export type FilePlan =
  { read: 'text' } | { read: 'script' } | { read: 'decoded'; kind: NonNullable<ReturnType<typeof textKindOf>> } | { read: 'no'; binary: string };

/** Plans by extension as spelled, one per (extension, decoded): a search asks for 431,226 paths of a few dozen types. */
const plans = [new Map<string, FilePlan>(), new Map<string, FilePlan>()];

/**
 * The plan for `path`: searched as text, as a script's source, as its decoded text, or skipped as
 * binary (and why). Decided by the extension alone; equal extensions get the same plan object.
 */
export function planFile(path: string, decoded: boolean): FilePlan {
  const ext = extensionOf(path);
  const cache = plans[decoded ? 1 : 0];
  let plan = cache.get(ext);
  if (!plan) {
    plan = planOf(ext.toLowerCase(), decoded);
    // Bounded: a crafted install may hold many extensions; past 4,096 they are planned each time.
    if (cache.size < 4096) cache.set(ext, plan);
  }
  return plan;
}

function planOf(ext: string, decoded: boolean): FilePlan {
  const kind = textKindOf(`x.${ext}`);
  if (kind === 'script') return { read: 'script' };
  if (kind) return decoded ? { read: 'decoded', kind } : { read: 'no', binary: `${DECODED_NOT_ASKED}: .${ext}` };
  if (BINARY_TYPES.has(ext)) return { read: 'no', binary: `${BINARY_TYPE}: .${ext}` };
  return { read: 'text' };
}

/**
 * Why a file is skipped as binary: a reason, or a reason and a detail after ": " (the file type,
 * an error code), so a summary can group the details under their reason.
 */
export const BINARY_TYPE = 'by file type';
export const DECODED_NOT_ASKED = 'with a decoded view, not asked for';

/** The reason a file of unknown type with a NUL byte in its first bytes is skipped. */
export const NUL_REASON = `with a NUL byte in the first ${SNIFF_BYTES / 1024} KiB`;

const utf8 = new TextDecoder('utf-8');

/** The text to search in a file's bytes, or why it has none (the reason counts the file as binary). */
export function textOf(path: string, plan: Exclude<FilePlan, { read: 'no' }>, bytes: Uint8Array): { text: string; view: TextView } | { binary: string } {
  if (plan.read === 'text') {
    if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return { binary: NUL_REASON };
    return { text: utf8.decode(bytes), view: 'text' };
  }
  try {
    if (plan.read === 'script') {
      const s = parseScript(bytes, path);
      if (s.source === undefined) return { binary: 'compiled scripts' };
      return { text: s.source, view: 'script' };
    }
    return { text: renderText(plan.kind, bytes, path).text, view: 'decoded' };
  } catch (e) {
    if (!isArch06Error(e)) throw e;
    return { binary: `${plan.read === 'script' ? 'scripts that do not parse' : 'that do not decode'}: ${e.code}` };
  }
}
