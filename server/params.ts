/**
 * A request's or notification's params, checked field by field before use (a client may send
 * `null`, a number for a URI, a negative line): `BadParams` when they are not what the method
 * takes (the edge answers InvalidParams), `Cancelled` where a cancelled request stops (the edge
 * answers RequestCancelled), `Stale` where a newer version of its document arrived while it
 * waited (ContentModified). Plain JSON shapes, no LSP types.
 */

export class BadParams extends Error {}
export class Cancelled extends Error {}
/** The document changed while a request waited: its answer would point into old text (the edge answers ContentModified). */
export class Stale extends Error {}

export interface Pos {
  line: number;
  character: number;
}
export interface PosRange {
  start: Pos;
  end: Pos;
}
export type Params = Record<string, unknown>;

/** A URI longer than this is refused (no document is named by 64 Ki characters). */
const MAX_URI_CHARS = 64 * 1024;

export const isObject = (x: unknown): x is Params => typeof x === 'object' && x !== null && !Array.isArray(x);
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 0x7fffffff;

/** The params object itself. */
export function paramsOf(method: string, p: unknown): Params {
  if (!isObject(p)) throw new BadParams(`${method} takes an object of params`);
  return p;
}

export function objectParam(p: Params, name: string): Params {
  const v = p[name];
  if (!isObject(v)) throw new BadParams(`params.${name} must be an object`);
  return v;
}

/** `params.textDocument.uri`. */
export function uriParam(p: Params): string {
  const uri = objectParam(p, 'textDocument').uri;
  if (typeof uri !== 'string' || uri.length > MAX_URI_CHARS)
    throw new BadParams(`params.textDocument.uri must be a string of at most ${MAX_URI_CHARS} characters`);
  return uri;
}

export function positionParam(x: unknown, name = 'position'): Pos {
  if (!isObject(x) || !isCount(x.line) || !isCount(x.character)) throw new BadParams(`${name} must be { line, character }, two counts`);
  return { line: x.line, character: x.character };
}

export function rangeParam(x: unknown, name = 'range'): PosRange {
  if (!isObject(x)) throw new BadParams(`${name} must be an object`);
  return { start: positionParam(x.start, `${name}.start`), end: positionParam(x.end, `${name}.end`) };
}

/** `didOpen`'s document. */
export function openedParam(p: Params): { uri: string; languageId: string; version: number; text: string } {
  const td = objectParam(p, 'textDocument');
  const uri = uriParam(p);
  const { languageId, version, text } = td;
  if (typeof text !== 'string' || typeof languageId !== 'string' || typeof version !== 'number')
    throw new BadParams('didOpen: textDocument needs uri, languageId, version and text');
  return { uri, languageId, version, text };
}

/** `didChange`'s version and changes; a change that is not `{ text, range? }` with a well-formed range is dropped. */
export function changesParam(p: Params): { uri: string; version: number; changes: { text: string; range?: PosRange }[] } {
  const uri = uriParam(p);
  const version = objectParam(p, 'textDocument').version;
  if (typeof version !== 'number' || !Array.isArray(p.contentChanges)) throw new BadParams('didChange needs textDocument.version and contentChanges');
  const changes: { text: string; range?: PosRange }[] = [];
  for (const c of p.contentChanges) {
    if (!isObject(c) || typeof c.text !== 'string') continue;
    if (c.range === undefined) changes.push({ text: c.text });
    else
      try {
        changes.push({ text: c.text, range: rangeParam(c.range) });
      } catch {
        // a change with a broken range: dropped, the rest applied
      }
  }
  return { uri, version, changes };
}

/** True when the request has been cancelled: the caller stops. */
export interface CancelCheck {
  isCancellationRequested: boolean;
}

export function checkCancelled(token: CancelCheck): void {
  if (token.isCancellationRequested) throw new Cancelled('cancelled');
}

/** Paths taken from one `arch06/modFilesChanged` (the client sends a burst's worth; the rest are dropped). */
const MAX_CHANGED_FILES = 10_000;

/** `arch06/modFilesChanged`'s `changes`: `{ path, kind }` each, malformed ones dropped. */
export function modChangesParam(p: Params): { path: string; kind: 'created' | 'changed' | 'deleted' }[] {
  if (!Array.isArray(p.changes)) throw new BadParams('arch06/modFilesChanged needs changes, a list of { path, kind }');
  const out: { path: string; kind: 'created' | 'changed' | 'deleted' }[] = [];
  for (const c of p.changes.slice(0, MAX_CHANGED_FILES)) {
    if (!isObject(c) || typeof c.path !== 'string' || c.path.length === 0 || c.path.length > MAX_URI_CHARS || c.path.includes('\0')) continue;
    if (c.kind === 'created' || c.kind === 'changed' || c.kind === 'deleted') out.push({ path: c.path, kind: c.kind });
  }
  return out;
}
