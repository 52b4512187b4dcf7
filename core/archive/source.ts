/**
 * One interface for everything the engine searches: an LTAR archive or a directory on disk
 * (seed 000 "The file system": kind 0 archive tree, kind 1 directory source). The search order
 * (`Mount`) is a list of sources; nothing above this layer knows which kind answered.
 */
import type { FileChangeKind } from '../io/node/disk';
import { GamePath } from './gamePath';

export type SourceKind = 'archive' | 'directory';

/** How an entry's bytes are kept: in an archive (empty, plain range, chunk stream) or a loose file. */
export type StorageKind = 'empty' | 'plain' | 'chunked' | 'loose';

export interface SourceEntry {
  readonly source: Source;
  /** The path as this source spells it. */
  readonly path: string;
  /** Decoded size in bytes. */
  readonly size: number;
  /** Bytes on disk (chunk headers included for chunk streams). */
  readonly storedSize: number;
  readonly storage: StorageKind;
  /** Bytes [start, end) of the decoded entry (default: all of it). */
  /**
   * Which bytes this entry serves: its file on disk as opened or listed (device, inode, size,
   * mtime) and its place in it. Two reads of one path serve the same bytes exactly when their
   * identities are equal; the extension compares them to tell an open editor its copy changed.
   */
  readonly identity: string;
  readSync(start?: number, end?: number): Uint8Array;
  read(start?: number, end?: number): Promise<Uint8Array>;
}

export interface SourceListing {
  /** Names (one segment) of the child folders. */
  folders: string[];
  files: SourceEntry[];
}

export interface Source {
  /** `Patch_02.arch06`, or a directory's path relative to the install root (`Game`). */
  readonly name: string;
  readonly kind: SourceKind;
  /** Absolute path on disk. */
  readonly diskPath: string;
  readonly fileCount: number;
  /** The entry at `path`, found the way the engine finds it, or undefined. */
  lookup(path: GamePath): SourceEntry | undefined;
  /** One folder's children, or undefined when this source has no such folder. */
  list(folder: GamePath): SourceListing | undefined;
  /** Whether this source has the folder (cheaper than `list`). */
  hasFolder(folder: GamePath): boolean;
  /** Every file path in this source, in its own order. */
  allPaths(): string[];
  /** File `i` of `allPaths()`, without building the whole list. */
  pathAt(i: number): string;
  /** The entry of file `i` (same order as `allPaths`). */
  entryAt(i: number): SourceEntry;
  /**
   * A 32-bit key per file (same order as `allPaths`) over the case-folded, backslash-separated
   * path, for building the merged index without decoding every name. Equal paths give equal keys.
   */
  pathKeys(): Uint32Array;
  /** Case-folded path bytes of file `i` (same order), to settle key collisions exactly. */
  foldedPath(i: number): Uint8Array;
  /**
   * Why file `i` is left out of the view (its name cannot be a path: separators, `..`, control
   * characters, over-long), or undefined. Hidden files are in no listing, lookup or index.
   */
  hidden(i: number): string | undefined;
  /**
   * How this source's file differs on disk from the one opened (replaced, truncated, grown,
   * rewritten, deleted), or undefined. A folder answers undefined: its files are checked one by
   * one when read.
   */
  changedOnDisk(): { kind: FileChangeKind; detail: string } | undefined;
  close(): void;
}

/** A file stamp as part of an identity string. */
export function stampKey(s: { dev: number; ino: number; size: number; mtimeMs: number }): string {
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
}

/**
 * The merged index's key: FNV-1a over the path's bytes folded to lower case, with / read as \
 * (so every spelling of one game path has one key).
 */
export const FNV_OFFSET = 0x811c9dc5;
export const KEY_FOLD = (() => {
  const t = new Uint8Array(256);
  for (let i = 0; i < 256; i++) t[i] = i === 0x2f ? 0x5c : i >= 0x41 && i <= 0x5a ? i + 0x20 : i;
  return t;
})();
export function foldKeyStep(h: number, byte: number): number {
  return Math.imul(h ^ KEY_FOLD[byte], 0x01000193) >>> 0;
}
