/**
 * The bundle editor's message protocol, shared by the webview (media/bundle/bundleView.ts) and the
 * extension host (extension/editors/bundleEditor.ts, which builds the view with bundleRows.ts).
 * No DOM, no vscode, no engine imports (the webview type-checks this file without Node types).
 *
 * Sequence:
 *
 *   webview → host   { type: 'ready' }                        once the script has loaded (again after
 *                                                             a hidden webview is restored)
 *   host → webview   { type: 'init', view }                   the whole table in one message: every
 *                                                             row, the summary and the notes
 *                 or { type: 'failed', message, hex, size }   the manifest or container did not parse
 *   webview → host   { type: 'firstRows', rows }              once, after the first rows were drawn
 *   webview → host   { type: 'open', row }                    open member `row` (an index into
 *                                                             `view.rows`) in its own editor
 *
 * The webview mirrors its state on `document.body.dataset` for tests: `state` ('waiting' | 'rows' |
 * 'failed'), `mode` (the view's mode), `total` (rows in the bundle), `shown` (rows the filter
 * keeps), `selected` (the path of the selected row, '' for none).
 */
import { type FailedMessage, type FirstRowsMessage, type ReadyMessage, checkTableMessage, uint32, unchecked } from '../shared/protocol';

export type { FailedMessage, ReadyMessage } from '../shared/protocol';

/**
 * Where the engine serves a member from (core/archive/bundles.ts): a loose entry of the same path,
 * else the container, else nowhere: `empty` when it is declared with 0 bytes (a container stores
 * no zero-size member, as the retail world layers show), `missing` otherwise. `unresolved`: the
 * file was opened outside the mounted install, so the search order is unknown.
 */
export type ServedFrom = 'container' | 'loose' | 'empty' | 'missing' | 'unresolved';

/** One member as the table shows it. */
export interface MemberRow {
  /** The path as the manifest (or, without one, the container) spells it. */
  path: string;
  /** The path's extension, lower case, without the dot ('' when it has none). */
  type: string;
  /** The size the manifest declares; null without a manifest. */
  declared: number | null;
  /** The container's size word for this path; null when the container does not hold it (or there is none). */
  container: number | null;
  /** Which EMBB block holds it, when the container has several blocks. */
  block?: number;
  served: ServedFrom;
  /** The source serving it: the loose entry's archive (or folder), or the container's. */
  source: string | null;
  /** Every mounted source holding a loose copy of this path, in search order. */
  copies: string[];
  /** Why the sizes disagree (the declared size against the container's payload or the loose copy served); absent when they agree. */
  mismatch?: string;
  /** What the resolution noted about this member (e.g. a loose copy ranking below the container). */
  note?: string;
  /** Whether opening it can show something (a missing member cannot). */
  openable: boolean;
}

/**
 * The container-size identity over the members a container stores (all but those declared with 0
 * bytes): header + pathTable + pathOffsets + members = predicted, against the container's size.
 */
export interface IdentityView {
  header: number;
  pathTable: number;
  pathOffsets: number;
  members: number;
  /** Members declared with 0 bytes, left out of the sum with their paths (`pathBytes` of the manifest's path area). */
  notStored: { count: number; pathBytes: number };
  predicted: number;
  actual: number | null;
  holds: boolean | null;
  /** False when u32 @0x08 may not be the path table's size (a member path ends after the type string). */
  certain: boolean;
}

/** A manifest or container file: its path, the source it comes from, every source that has a copy. */
export interface FileView {
  path: string;
  source: string;
  size: number;
  copies: string[];
}

/** Everything the editor shows: plain data, all of it serialisable. */
export interface BundleView {
  /**
   * `resolved`: the bundle as the engine resolves it in the mount (winning manifest, winning
   * container, each member loose / container / missing); `container`: an `.embb` without a
   * manifest, its own member list; `standalone`: a file outside the mount, read on its own.
   */
  mode: 'resolved' | 'container' | 'standalone';
  /** The heading: the manifest's path (or the container's). */
  title: string;
  /** The bundle type string from the manifest, when there is one. */
  type: string | null;
  manifest: FileView | null;
  container: (FileView & { members: number; blocks: number; confidence: string }) | null;
  counts: Record<ServedFrom, number>;
  identity: IdentityView | null;
  /** Whether the manifest mirrors the container byte for byte, and where it does not. */
  mirror: { mirrors: boolean; differences: string[] } | null;
  /** Rows whose sizes disagree. */
  mismatches: number;
  /** Container members the manifest does not declare (the engine never asks for them by this bundle). */
  undeclared: { path: string; size: number }[];
  notes: string[];
  /** A line above the table, e.g. that the copy opened is not the one the engine uses. */
  banner?: string;
  rows: MemberRow[];
}

export interface InitMessage {
  type: 'init';
  view: BundleView;
}

export type HostToView = InitMessage | FailedMessage;

export interface OpenMessage {
  type: 'open';
  /** An index into `view.rows` (the host checks it against its own rows). */
  row: number;
}

export type ViewToHost = ReadyMessage | FirstRowsMessage | OpenMessage;

/** A message from the webview as the host may use it, or undefined for one outside the protocol (an `open` without a row index included). */
export function checkViewMessage(raw: unknown): ViewToHost | undefined {
  const m = unchecked(raw);
  switch (m?.type) {
    case 'ready':
    case 'firstRows':
      return checkTableMessage(m);
    case 'open': {
      const row = uint32(m.row);
      return row === undefined ? undefined : { type: 'open', row };
    }
    default:
      return undefined;
  }
}
