/**
 * The hex view's message protocol, shared by the webview (media/hex/hexView.ts) and the extension
 * host (extension/editors/hexEditor.ts). No DOM, no vscode, no engine imports.
 *
 * The file is never sent whole: the webview asks for the windows of bytes it draws, so a 1 GB
 * entry costs the host one ranged read per window (an archive entry decodes only the chunks a
 * window touches) and the webview a few hundred KB of cached windows.
 *
 * Sequence:
 *
 *   webview → host   { type: 'ready' }                        once the script has loaded (again after
 *                                                             a hidden webview is restored)
 *   host → webview   { type: 'init', view }                   the summary: size, magic, what arch06
 *                                                             knows the format to be, which editor
 *                                                             would handle it
 *                 or { type: 'failed', message, hex, size }   the file could not be opened at all
 *   webview → host   { type: 'read', offset, length }         one window of bytes (at most MAX_READ)
 *   host → webview   { type: 'bytes', offset, data }          that window (shorter at the file's end)
 *                 or { type: 'readFailed', offset, length,    why the window could not be read (a
 *                      message }                             corrupt chunk, a file gone)
 *   webview → host   { type: 'firstRows', rows }              once, after the first rows were drawn
 *   webview → host   { type: 'openWith', target }             reopen the file in the arch06 editor the
 *                                                             header names ('editor') or in VS Code's
 *                                                             Hex Editor ('hexEditor')
 *
 * The webview mirrors its state on `document.body.dataset` for tests: `state` ('waiting' | 'rows' |
 * 'failed'), `size` (bytes), `rows` (rows in the file), `top` (the first row on screen), `drawn`
 * (rows in the DOM), `pending` (windows asked for and not answered), `selected` (the selected byte's
 * offset, '' for none).
 */
import { type FailedMessage, type FirstRowsMessage, type ReadyMessage, checkTableMessage, uint32, unchecked } from '../shared/protocol';

export type { FailedMessage, ReadyMessage } from '../shared/protocol';

/** The most bytes one `read` returns. */
export const MAX_READ = 1 << 16;

/** An editor that can open the file instead. */
export interface EditorOffer {
  /** Its name as the header prints it ("arch06 Texture"). */
  name: string;
  /** Why it fits: by the magic, by the name's extension, or both. */
  reason: string;
}

export interface HexViewInfo {
  /** The file's path (game path, or the file name outside the mount). */
  title: string;
  size: number;
  /** Where the bytes come from ("Patch_02.arch06, Oodle chunks decoded per window"). */
  from: string;
  /** How the view reads: windows on demand, or the file read once (a file system without ranged reads). */
  reading: string;
  magic: {
    /** The first bytes (up to 4) as text, non-printable bytes as \xNN. */
    text: string;
    /** The same bytes in hex pairs. */
    hex: string;
    /** What arch06 knows the magic to be, or null when it does not know it. */
    format: string | null;
    /** More about the format (where arch06 reads it, what it is). */
    note: string | null;
  };
  /** The arch06 editor that would handle the file, or null when none does. */
  editor: EditorOffer | null;
  /** When the magic and the name disagree, what each says. */
  mismatch: string | null;
  /** VS Code's Hex Editor (ms-vscode.hexeditor) is installed: offer to reopen the file in it. */
  hexEditor: boolean;
}

export interface InitMessage {
  type: 'init';
  view: HexViewInfo;
}

export interface BytesMessage {
  type: 'bytes';
  offset: number;
  data: ArrayBuffer;
}

export interface ReadFailedMessage {
  type: 'readFailed';
  offset: number;
  length: number;
  message: string;
}

export type HostToView = InitMessage | BytesMessage | ReadFailedMessage | FailedMessage;

export interface ReadMessage {
  type: 'read';
  offset: number;
  length: number;
}

export interface OpenWithMessage {
  type: 'openWith';
  target: 'editor' | 'hexEditor';
}

export type ViewToHost = ReadyMessage | ReadMessage | FirstRowsMessage | OpenWithMessage;

/** An offset a webview names: a non-negative safe integer (files may exceed 4 GiB), else undefined. */
function offset(x: unknown): number | undefined {
  return Number.isSafeInteger(x) && (x as number) >= 0 ? (x as number) : undefined;
}

/** A message from the webview as the host may use it, or undefined for one outside the protocol. */
export function checkViewMessage(raw: unknown): ViewToHost | undefined {
  const m = unchecked(raw);
  switch (m?.type) {
    case 'ready':
    case 'firstRows':
      return checkTableMessage(m);
    case 'read': {
      const at = offset(m.offset);
      const length = uint32(m.length);
      if (at === undefined || length === undefined) return undefined;
      return { type: 'read', offset: at, length: Math.min(length, MAX_READ) };
    }
    case 'openWith':
      return m.target === 'editor' || m.target === 'hexEditor' ? { type: 'openWith', target: m.target } : undefined;
    default:
      return undefined;
  }
}
