/**
 * Names are data, not paths. A name read from an archive (a leaf, or one segment of a folder
 * path) may become a file or folder name on disk only when it is one plain segment that every
 * file system the tool runs on takes literally. `unsafeNameReason` says why a segment is not;
 * `escapeName` shows any name safely in one line of text. Pure: the writers (core/io/node/outputFolder.ts),
 * the archive reader and the front ends share them. In core/io, the lowest layer, so that the
 * format readers can use it too.
 */

/**
 * Longest full game path (folder + `\` + leaf) the tool accepts, in bytes. A safety bound of
 * ours, not an engine fact: four times Windows' MAX_PATH (260), far above any path the research
 * saw, and small enough that per-record work stays proportional to the archive's size.
 */
export const MAX_GAME_PATH_BYTES = 1024;

/** Windows device names, which open a device instead of a file (with any extension, spaces before it ignored). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$) *(\..*)?$/i;

/** Whether Windows opens a device for `segment` (`CON`, `nul.txt`, `COM1 .dds`), whatever the folder. */
export const isWindowsDeviceName = (segment: string): boolean => WINDOWS_DEVICE.test(segment);

/** Characters no Windows file name may hold, beyond separators, `:` and controls. */
const WINDOWS_FORBIDDEN = /[<>"|?*]/;

/**
 * Why `segment` can be no segment of a game path at all, or undefined: empty, `.` or `..`, a
 * separator (`/` or `\`), a drive, root or stream prefix (any `:`), NUL or another control
 * character (0x00-0x1F, 0x7F). The archive reader hides records whose names break this.
 */
export function badSegmentReason(segment: string): string | undefined {
  if (segment.length === 0) return 'empty name';
  if (segment === '.' || segment === '..') return `"${segment}" names a folder relative to this one`;
  if (/[\\/]/.test(segment)) return 'contains a path separator (/ or \\)';
  if (segment.includes(':')) return 'contains ":" (a drive, root or stream prefix)';

  if (/[\x00-\x1f\x7f]/.test(segment)) return 'contains a control character';
  return undefined;
}

/**
 * Why `segment` cannot be one file or folder name on disk, or undefined when it can: a bad
 * segment (above), a trailing dot or space (Windows drops them, so two names would meet), a
 * Windows device name (`CON`, `NUL`, `COM1.txt`, …) or a character Windows forbids (`< > " | ? *`).
 * Checked before every write.
 */
export function unsafeNameReason(segment: string): string | undefined {
  const bad = badSegmentReason(segment);
  if (bad) return bad;
  if (/[. ]$/.test(segment)) return 'ends in a dot or a space (Windows drops them)';
  if (WINDOWS_DEVICE.test(segment)) return 'is a Windows device name';
  if (WINDOWS_FORBIDDEN.test(segment)) return 'contains a character Windows forbids in names (< > " | ? *)';
  return undefined;
}

/**
 * A name as one line of text: control characters and characters from 0x7F up shown as `\xNN`
 * (above 0xFF as `\u{…}`), everything else (the backslash included) as is.
 */
export function escapeName(name: string): string {
  let out = '';
  let plainFrom = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) continue;
    out += name.slice(plainFrom, i);
    if (c <= 0xff) out += '\\x' + c.toString(16).toUpperCase().padStart(2, '0');
    else {
      const cp = name.codePointAt(i)!;
      out += `\\u{${cp.toString(16).toUpperCase()}}`;
      if (cp > 0xffff) i++;
    }
    plainFrom = i + 1;
  }
  return plainFrom === 0 ? name : out + name.slice(plainFrom);
}

/** The first bad segment of a `\`-separated game path (or its excess length), with the reason, or undefined. */
export function badGamePathReason(path: string): string | undefined {
  if (path.length > MAX_GAME_PATH_BYTES) return `longer than ${MAX_GAME_PATH_BYTES} bytes (${path.length})`;
  for (const seg of path.split('\\')) {
    const r = badSegmentReason(seg);
    if (r) return `${JSON.stringify(seg.length > 40 ? seg.slice(0, 40) + '…' : seg)}: ${r}`;
  }
  return undefined;
}

/**
 * A line of text that may hold names (an error message, a report line) made safe for a
 * terminal: C0 control characters, DEL and the C1 range (0x80-0x9F, which some terminals obey)
 * as `\xNN`; every other character, the backslash included, as is. For a bare name use
 * `escapeName`, which also escapes everything from 0x7F up.
 */
export function escapeControls(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => '\\x' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
}
