/**
 * The string-table editor's message protocol, shared by the webview (media/strings/stringsView.ts)
 * and the extension host (extension/editors/stringTableEditor.ts, whose model is
 * stringTableModel.ts). No DOM, no vscode, no engine imports.
 *
 * The host keeps every row; the webview asks for what it shows. Sequence:
 *
 *   webview → host   { type: 'ready' }                          once the script has loaded (again after a
 *                                                               hidden webview is restored)
 *   host → webview   { type: 'init', view }                     the languages, counts and notes (no rows)
 *                 or { type: 'failed', message, hex, size }     the opened table did not parse
 *   webview → host   { type: 'query', seq, text, languages }    search and shown languages (sent at once after
 *                                                               `init`, then on every keystroke or toggle)
 *   host → webview   { type: 'result', seq, shown, total, languages, rows, start }
 *                                                               the count the query keeps and its first window
 *   webview → host   { type: 'rows', seq, start, count }        a window of the result of query `seq`
 *   host → webview   { type: 'rows', seq, start, rows }
 *   host → webview   { type: 'names', named }                   the key names changed (the hash dictionary
 *                                                               finished): the webview asks again for its rows
 *   webview → host   { type: 'firstRows', rows }                once, after the first rows were drawn
 *   webview → host   { type: 'export', format }                 export the current search ('csv' | 'json')
 *   webview → host   { type: 'editText', hash } / { type: 'addKey' } / { type: 'deleteKey', hash }
 *                                                               an edit of the opened language (hash a u32);
 *                                                               the host asks for the text or name, applies it
 *                                                               and sends `init` again to every view, which
 *                                                               queries again keeping its place
 *
 * `seq` numbers the webview's queries; rows of an older query are dropped. The webview mirrors its
 * state on `document.body.dataset` for tests: `state` ('waiting' | 'rows' | 'failed'), `total`
 * (keys), `shown` (keys the search keeps), `languages` (the shown ones, comma-separated), `named`
 * (keys with a name), `selected` (the selected row's hash, '' for none).
 */
import { type FailedMessage, type FirstRowsMessage, type ReadyMessage, checkTableMessage, uint32, unchecked } from '../shared/protocol';

export type { FailedMessage, ReadyMessage } from '../shared/protocol';

/** One row as the table shows it, texts in the order of the shown languages. */
export interface StringRowView {
  /** The key hash, `0x%08X`. */
  hash: string;
  /** The key name from the hash dictionary, null when no gathered name hashes to it. */
  key: string | null;
  /** Where the name came from ('script literal', 'path', 'object name', 'user file'). */
  origin: string | null;
  /** null: the language has no such key. */
  texts: (string | null)[];
}

export interface LanguageView {
  /** The language folder's name (enus, frfr…). */
  language: string;
  /** The file it was read from (a game path or a file name). */
  file: string;
  keys: number;
}

export interface StringTableView {
  /** The heading: the opened table's path. */
  title: string;
  /** Every language, the opened one first. */
  languages: LanguageView[];
  /** The languages shown before the webview says otherwise. */
  shown: string[];
  total: number;
  /** Keys with a name from the dictionary (so far). */
  named: number;
  /** What the dictionary holds, one line. */
  dictionary: string;
  notes: string[];
}

export interface InitMessage {
  type: 'init';
  view: StringTableView;
}

export interface ResultMessage {
  type: 'result';
  seq: number;
  shown: number;
  total: number;
  /** The languages the rows' texts are in. */
  languages: string[];
  start: number;
  rows: StringRowView[];
}

export interface RowsMessage {
  type: 'rows';
  seq: number;
  start: number;
  rows: StringRowView[];
}

export interface NamesMessage {
  type: 'names';
  named: number;
  dictionary: string;
}

export type HostToView = InitMessage | ResultMessage | RowsMessage | NamesMessage | FailedMessage;

export interface QueryMessage {
  type: 'query';
  seq: number;
  text: string;
  languages: string[];
}

export interface RowsRequest {
  type: 'rows';
  seq: number;
  start: number;
  count: number;
}

export interface ExportMessage {
  type: 'export';
  format: 'csv' | 'json';
}

/** Edit the opened language's text of a key (the host asks for it; a missing one is added). */
export interface EditTextRequest {
  type: 'editText';
  hash: number;
}

/** Add a key (the host asks for its name and text). */
export interface AddKeyRequest {
  type: 'addKey';
}

/** Delete a key from the opened language's table. */
export interface DeleteKeyRequest {
  type: 'deleteKey';
  hash: number;
}

export type ViewToHost = ReadyMessage | QueryMessage | RowsRequest | FirstRowsMessage | ExportMessage | EditTextRequest | AddKeyRequest | DeleteKeyRequest;

/** Longest query kept (a search box, not a document). */
export const MAX_QUERY = 256;
/** Language names per query (the game has 14 folders). */
const MAX_LANGUAGES = 64;

/** A message from the webview as the host may use it, or undefined for one outside the protocol. */
export function checkViewMessage(raw: unknown): ViewToHost | undefined {
  const m = unchecked(raw);
  switch (m?.type) {
    case 'ready':
      return checkTableMessage(m);
    case 'query': {
      const seq = uint32(m.seq);
      if (seq === undefined || typeof m.text !== 'string' || !Array.isArray(m.languages)) return undefined;
      const languages = m.languages.filter((l): l is string => typeof l === 'string' && l.length <= 64).slice(0, MAX_LANGUAGES);
      return { type: 'query', seq, text: m.text.slice(0, MAX_QUERY), languages };
    }
    case 'rows': {
      const seq = uint32(m.seq);
      const start = uint32(m.start);
      const n = uint32(m.count);
      return seq === undefined || start === undefined || n === undefined ? undefined : { type: 'rows', seq, start, count: n };
    }
    case 'firstRows':
      return checkTableMessage(m);
    case 'export':
      return m.format === 'csv' || m.format === 'json' ? { type: 'export', format: m.format } : undefined;
    case 'addKey':
      return { type: 'addKey' };
    case 'editText':
    case 'deleteKey': {
      const hash = uint32(m.hash);
      return hash === undefined ? undefined : { type: m.type, hash };
    }
    default:
      return undefined;
  }
}
