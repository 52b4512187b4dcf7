/**
 * What every webview protocol has in common (media/texture, mesh, bundle, strings, registry and hex protocol.ts):
 * the `ready` handshake, the table editors' `firstRows`, the `failed` page for a file that did not parse, and the checks the host
 * runs on every message a webview sends before using it (extension/editors/webviewEditor.ts).
 * No DOM, no vscode: the host and the webviews import this file.
 */

/** webview → host, once the script has loaded (again after a hidden webview is restored). */
export interface ReadyMessage {
  type: 'ready';
}

/** webview → host, once, after a table editor drew its first rows (the E2E tests and the log time a tab with it). */
export interface FirstRowsMessage {
  type: 'firstRows';
  /** How many rows the table holds. */
  rows: number;
}

/** host → webview: the file did not parse; the view shows the reason and its first bytes. */
export interface FailedMessage {
  type: 'failed';
  /** The error's message (an Arch06Error's `message` names file, offset and expectation). */
  message: string;
  /** A hex dump of the first bytes, shown in a <pre>. */
  hex: string;
  /** The file's size in bytes, when known. */
  size?: number;
}

/** A message as it arrives, once it is known to be an object with a string `type`. */
export type Unchecked = { readonly type: string } & { readonly [field: string]: unknown };

/** `raw` as an object with a string `type`, or undefined: the first check of every incoming message. */
export function unchecked(raw: unknown): Unchecked | undefined {
  return typeof raw === 'object' && raw !== null && typeof (raw as { type?: unknown }).type === 'string' ? (raw as Unchecked) : undefined;
}

/** The `ready` or `firstRows` message every table editor's webview sends, checked; undefined for any other message. */
export function checkTableMessage(m: Unchecked): ReadyMessage | FirstRowsMessage | undefined {
  if (m.type === 'ready') return { type: 'ready' };
  if (m.type === 'firstRows') return { type: 'firstRows', rows: uint32(m.rows) ?? 0 };
  return undefined;
}

/** An index a webview names (a mip, a slice, a LOD): a non-negative integer below 2^16, else 0. */
export function indexOr0(x: unknown): number {
  return Number.isInteger(x) && (x as number) >= 0 && (x as number) < 1 << 16 ? (x as number) : 0;
}

/** A row, count or sequence number a webview names: a non-negative integer below 2^32, else undefined. */
export function uint32(x: unknown): number | undefined {
  return Number.isInteger(x) && (x as number) >= 0 && (x as number) < 2 ** 32 ? (x as number) : undefined;
}

/** A finite number, else undefined. */
export function finite(x: unknown): number | undefined {
  return typeof x === 'number' && Number.isFinite(x) ? x : undefined;
}
