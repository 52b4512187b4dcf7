/**
 * The text views of `arch06:` files, without vscode (./textView.ts serves them as documents;
 * unit-tested in plain node). A text view is named by an `arch06-text:` URI whose path is the
 * `arch06:` URI path of the file it shows, and whose query `copy=embedded` asks for the copy a
 * bundle's container embeds rather than the one the path serves (seed 001's patch rule: a
 * standalone `.objres` replaces the one in the part's container; the container still holds its
 * own, and "Compare with Next Copy" diffs the two).
 *
 * What the text is (core/text): a script's source exactly (the document's line numbers are the
 * source's; the SCRI header goes to a CodeLens and the status bar), or the decoded text of a
 * bundle, string table, registry or skeleton, or, for any other file, its bytes as UTF-8. A
 * file that does not decode gives a text saying why, with the first bytes in hex, never an error.
 */
import { Arch06Error, isArch06Error } from '../../core/errors';
import {
  EntryByteSource,
  declaredMember,
  headerCheckFor,
  locateBundleMember,
  locatePartScript,
  parseUriPath,
  partBundlePath,
  partScriptNames,
  readEntryCheckedAsync,
  resolveBundle,
  servedFromText,
} from '../../core/archive';
import type { ArchUri, BundleMember, EntryReadOptions, Mount, ResolvedBundle } from '../../core/archive';
import { readEmbb } from '../../core/formats/bundle';
import { bindableNames } from '../../core/havokScript';
import { ownScriptPath } from '../../core/formats/registry';
import { renderContainer, renderScript, renderText, textKindOf } from '../../core/text';
import type { RenderOptions, TextKind } from '../../core/text';

export { TEXT_SCHEME } from '../../core/archive';
/** The language of decoded texts (syntaxes/arch06text.tmLanguage.json). */
export const DECODED_LANGUAGE = 'arch06-text';
export const SCRIPT_LANGUAGE = 'havokscript';

export type CopyKind = 'served' | 'embedded';

/** The query of a text view's URI for a copy. */
export const copyQuery = (copy: CopyKind): string => (copy === 'embedded' ? 'copy=embedded' : '');
export const copyOfQuery = (query: string): CopyKind => (/(^|&)copy=embedded(&|$)/.test(query) ? 'embedded' : 'served');

export interface TextView {
  text: string;
  /** The language the document is in: Havok Script source, decoded text, or as the file is (undefined). */
  language?: string;
  kind?: TextKind;
  /** One line about the file (a script's SCRI header, what a decoded text is, where the copy came from). */
  summary: string;
  /** A script's header fields, for a hover or a details list. */
  fields?: { label: string; value: string }[];
}

interface Read {
  bytes: Uint8Array;
  /** The game path the bytes are of. */
  path: string;
  /** Where they came from, in words. */
  from: string;
}

const MAX_TEXT_BYTES = 512 * 1024 * 1024;

function bundleOf(m: Mount, path: string): ResolvedBundle {
  return resolveBundle(m, partBundlePath(path));
}

/** The container's own copy of `path` (the bundle of the path's stem), whether or not a loose copy wins. */
async function readEmbedded(m: Mount, path: string, bundle?: string): Promise<Read> {
  const b = bundle ? resolveBundle(m, bundle) : bundleOf(m, path);
  const member = declaredAt(b, path);
  if (!member?.embedded || !b.container) throw notFound(`${path}: no container of ${b.stem} embeds it`);
  const entry = m.entry(b.container.path, b.container.source);
  return {
    bytes: await readEntryCheckedAsync(entry, textReadOptions(member.path), member.embedded.offset, member.embedded.offset + member.embedded.size),
    path: member.path,
    from: `embedded in ${b.container.path} (${b.container.source})`,
  };
}

const notFound = (message: string): Error => new Arch06Error('NOT_FOUND', message);

/** The member a bundle declares at `path` (core/archive's one comparison of member paths). */
const declaredAt = declaredMember;

/** A member's bytes for a text view: its header checked first (core/archive/entryRead.ts), at most `MAX_TEXT_BYTES`. */
const textReadOptions = (path: string): EntryReadOptions => ({ name: path, checkHeader: headerCheckFor(path) ?? null, maxBytes: MAX_TEXT_BYTES });

/** The copy of a bundle member that the bundle serves (loose entry, else the container's). */
async function readMember(m: Mount, bundle: string, member: string): Promise<Read> {
  const b = resolveBundle(m, bundle);
  const { entry, start, end } = locateBundleMember(m, b, member);
  const declared = declaredAt(b, member);
  const from = declared?.servedFrom === 'loose' ? `loose in ${entry.source.name}` : `in ${b.container?.path} (${entry.source.name})`;
  return { bytes: await readEntryCheckedAsync(entry, textReadOptions(member), start, end), path: declared?.path ?? member, from };
}

async function readView(m: Mount, u: ArchUri, copy: CopyKind): Promise<Read> {
  if (u.view === 'sources') throw notFound('the sources folder is no file');
  if (copy === 'embedded') return readEmbedded(m, u.view === 'bundle' ? u.member : u.path, u.view === 'bundle' ? u.bundle : undefined);
  if (u.view === 'bundle') return readMember(m, u.bundle, u.member);
  const entry = u.view === 'merged' ? m.entry(u.path) : m.entry(u.path, u.source);
  if (entry.size > MAX_TEXT_BYTES) throw new Error(`${entry.path}: ${entry.size} bytes is more than a text view reads (${MAX_TEXT_BYTES})`);
  return { bytes: await entry.read(), path: entry.path, from: `${u.view === 'merged' ? 'served from' : 'the copy in'} ${entry.source.name}` };
}

/**
 * The names a registry's bindings are checked against: its own script (`x.scripts` for
 * `x.objres`) as the engine serves it, read from the same place as the registry when it is there
 * (core/archive `locatePartScript`, the one served-part rule); for the container's copy of a
 * registry, the container's copy of the script first.
 */
async function ownScriptNames(m: Mount, u: ArchUri, copy: CopyKind, registryPath: string): Promise<{ functions?: Set<string>; note: string }> {
  const scriptPath = ownScriptPath(registryPath);
  const attempts: (() => Promise<Read>)[] = [];
  if (copy === 'embedded') {
    if (u.view === 'bundle') attempts.push(() => readEmbedded(m, scriptPath, u.bundle));
    attempts.push(() => readEmbedded(m, scriptPath));
  }
  attempts.push(async () => {
    const near = copy === 'embedded' ? {} : u.view === 'bundle' ? { bundle: resolveBundle(m, u.bundle) } : u.view === 'source' ? { source: u.source } : {};
    const at = locatePartScript(m, registryPath, near);
    return { bytes: await readEntryCheckedAsync(at.entry, textReadOptions(at.entry.path)), path: at.entry.path, from: servedFromText(at) };
  });
  let why = 'not found';
  for (const attempt of attempts) {
    try {
      const s = await attempt();
      const names = partScriptNames(s.bytes, s.path);
      if (!names) return { note: `the part's script ${s.path} (${s.from}) is compiled: bound names are not checked` };
      return { functions: bindableNames(names.functions), note: `bound names checked against ${s.path} (${s.from})` };
    } catch (e) {
      if (!isArch06Error(e)) throw e;
      why = e.message;
    }
  }
  return { note: `the part's script ${scriptPath} could not be read: ${why}` };
}

function hexHead(bytes: Uint8Array, max = 256): string[] {
  const lines: string[] = [];
  for (let o = 0; o < Math.min(bytes.length, max); o += 16) {
    const row = bytes.subarray(o, Math.min(o + 16, bytes.length, max));
    lines.push(`# ${o.toString(16).padStart(6, '0')}  ${[...row].map((b) => b.toString(16).padStart(2, '0')).join(' ')}`);
  }
  return lines;
}

/** The text view of the file an `arch06:` URI path names (its `copy`). Never throws for bytes that do not decode. */
export async function loadTextView(m: Mount, uriPath: string, copy: CopyKind = 'served'): Promise<TextView> {
  const u = parseUriPath(uriPath);
  const read = await readView(m, u, copy);
  const kind = textKindOf(read.path);
  const where = copy === 'embedded' ? `the container's copy, ${read.from}` : read.from;
  if (!kind) return { text: new TextDecoder('utf-8').decode(read.bytes), summary: `${read.path}: ${where}` };
  try {
    const options: RenderOptions = {};
    if (kind === 'registry') {
      const own = await ownScriptNames(m, u, copy, read.path);
      options.functions = own.functions;
      options.scriptNote = own.note;
    }
    if (kind === 'manifest' && u.view === 'merged' && copy === 'served') {
      try {
        options.resolved = resolveBundle(m, read.path);
      } catch (e) {
        if (!isArch06Error(e)) throw e;
      }
    }
    if (kind === 'container' && (u.view === 'merged' || u.view === 'source') && copy === 'served') {
      // A container is walked through the entry (its header, path table and size words), never read whole.
      const entry = u.view === 'merged' ? m.entry(u.path) : m.entry(u.path, u.source);
      const text = renderContainer(readEmbb(new EntryByteSource(entry)), read.path).replace('\n', `\n# ${where}\n`);
      return { text, language: DECODED_LANGUAGE, kind, summary: `bundle container (EMBB) · ${where}` };
    }
    if (kind === 'script') {
      // The source as it is (line numbers kept); the header goes to the summary and fields.
      const s = renderScript(read.bytes, read.path);
      return { text: s.text, language: s.language === 'havokscript' ? SCRIPT_LANGUAGE : DECODED_LANGUAGE, kind, summary: s.summary, fields: s.fields };
    }
    const r = renderText(kind, read.bytes, read.path, options);
    // Line 2 says which copy this is, on every view, so a diff of two copies shows it as one changed line.
    const text = r.text.replace('\n', `\n# ${where}\n`);
    return { text, language: DECODED_LANGUAGE, kind, summary: `${r.summary.replace(/^arch06 decoded text · /, '')} · ${where}` };
  } catch (e) {
    if (!isArch06Error(e)) throw e;
    const text = [`# arch06: ${read.path} (${where}) does not decode as ${kind}:`, `# ${e.message}`, '# its first bytes:', ...hexHead(read.bytes), ''].join(
      '\n',
    );
    return { text, language: DECODED_LANGUAGE, kind, summary: `does not decode: ${e.message}` };
  }
}

/**
 * The copy of `path` a bundle's container embeds: the bundle given (a bundle folder's manifest),
 * else the bundle of the path's stem; with whether the engine serves it (no loose copy wins).
 * Undefined when no such bundle declares the path or its container does not hold it.
 */
export function bundleCopyOf(
  m: Mount,
  path: string,
  bundle?: string,
): { bundle: ResolvedBundle; member: BundleMember; container: string; source: string; served: boolean } | undefined {
  let b: ResolvedBundle;
  try {
    b = bundle ? resolveBundle(m, bundle) : bundleOf(m, path);
  } catch (e) {
    if (isArch06Error(e)) return undefined;
    throw e;
  }
  const member = declaredAt(b, path);
  if (!member?.embedded || !b.container) return undefined;
  return { bundle: b, member, container: b.container.path, source: b.container.source, served: member.servedFrom === 'container' };
}
