/**
 * The texture editor's message protocol, shared by the webview (media/texture/textureView.ts, its
 * decoder worker webviewDecodeWorker.ts) and the extension host (extension/editors/textureEditor.ts).
 * No DOM, no vscode: the host imports this file too.
 *
 * Sequence:
 *
 *   webview → host   { type: 'ready' }                       once the script has loaded
 *   host → webview   { type: 'init', info, first? }          the header and the level chain; `first`
 *                                                            answers a `level` request for level 0 of
 *                                                            slice 0 ahead of time (one message, not two)
 *                 or { type: 'failed', message, hex, size }  the file did not parse
 *   webview → host   { type: 'level', slice, mip, exposure, host? }   show this level; `host`: decode it
 *                                                            on the host (the webview's worker failed)
 *   host → webview   a LevelReply: { type: 'levelData', … }  the level's encoded bytes, for the worker
 *                 or { type: 'level', …, rgba }              RGBA8 decoded by the host (BC6H, fallbacks)
 *                 or { type: 'levelFailed', …, message, hex }  the level could not be decoded
 *   webview → host   { type: 'firstPixels' }                 once, after the first level was drawn
 *   webview → host   { type: 'exportPng', slice, mip } | { type: 'exportDds' }   the toolbar's exports
 *   webview → host   { type: 'copied', ok, message? }        how "Copy as PNG" went
 *
 * `mip` is an index into `info.levels` (the tier chain, largest first), not into one file's mips.
 *
 * Page → worker (webviewDecodeWorker.ts): a DecodeRequest; the worker answers a DecodeReply.
 */
import type { DdsDecoder, TexrField, TexrTier, TexaPath, TextureRole } from '../../core/formats/texture';
import { type FailedMessage, type ReadyMessage, finite, indexOr0, unchecked } from '../shared/protocol';

export type { FailedMessage, ReadyMessage } from '../shared/protocol';

/** One level of the tier chain, as the mip list shows it. */
export interface LevelInfo {
  mip: number;
  width: number;
  height: number;
  /** Encoded bytes. */
  size: number;
  /** The tier file the level comes from (`x_d.tex0`). */
  from: string;
}

/** One tier file of the stem (core/texture/tierChain.ts), present or missing. */
export interface TierInfo {
  /** Its name, `x_d.tex0`. */
  file: string;
  /** The game path looked up (or the disk path, for a file outside the mount). */
  path: string;
  /** `tex`, `tex0`, `texuhd` (arrays `texa*`). */
  ext: string;
  /** The file this editor shows. */
  own: boolean;
  /** The header's name field names it. */
  named: boolean;
  present: boolean;
  joined: boolean;
  size?: number;
  /** Why a present tier did not join. */
  reason?: string;
  /** The archive or loose folder that served it. */
  source?: { name: string; kind: 'archive' | 'folder' };
}

/** One TEXR header field, raw, with its certainty (values as text). */
export interface FieldInfo {
  name: string;
  offset: number;
  raw: string;
  value?: string;
  certainty: TexrField['certainty'];
  note?: string;
}

/** What the view shows beside the picture: plain data, all of it serialisable. */
export interface TextureInfo {
  /** The file's name. */
  file: string;
  container: 'TEXR' | 'SLVT' | 'TEXA' | 'DDS';
  format: string;
  decodable: boolean;
  reason?: string;
  srgb: boolean;
  width: number;
  height: number;
  mipCount: number;
  surfaces: number;
  dimension: string;
  /** The tier chain over this file and its tier siblings (core/texture/tierChain.ts). */
  levels: LevelInfo[];
  /** This file's name, to tell its own levels from a sibling's. */
  own: string;
  /** The stem's tier files in ascending order, each present or missing (just this file for a `.dds`). */
  tiers: TierInfo[];
  /** The header's full size (TEXR dimension pair) and the tier its name field names. */
  header?: { width: number; height: number; nameField: string; names?: string };
  /** Set when no present level reaches the header's full size: shown plainly at the top of the view. */
  shortfall?: { width: number; height: number; tier?: string; message: string };
  tierName?: { path: string; tier: TexrTier };
  texrSize?: { width: number; height: number };
  fields?: FieldInfo[];
  confidence: string;
  notes: string[];
  role: TextureRole;
  /** BC6H: the host tone-maps each level for the exposure slider. */
  hdr: boolean;
  texa?: { ownPath?: string; slicePaths?: string[]; paths: TexaPath[]; headerHex: string; headerBytes: number };
}

export interface InitMessage {
  type: 'init';
  info: TextureInfo;
  /** The answer for level 0 of slice 0, when the format decodes. */
  first?: LevelReply;
}

/** A level's encoded bytes, decoded by the webview's worker. */
export interface LevelDataMessage {
  type: 'levelData';
  slice: number;
  mip: number;
  width: number;
  height: number;
  decoder: DdsDecoder;
  /** Exactly the level's bytes. */
  data: ArrayBuffer;
  /** The file, for the decoder's error messages. */
  file: string;
}

/** A level decoded on the host: width × height RGBA8, rows top first. */
export interface LevelMessage {
  type: 'level';
  slice: number;
  mip: number;
  width: number;
  height: number;
  rgba: ArrayBuffer;
}

export interface LevelFailedMessage {
  type: 'levelFailed';
  slice: number;
  mip: number;
  message: string;
  /** A hex dump of the level's first bytes ('' when there are none to show). */
  hex: string;
}

export type LevelReply = LevelDataMessage | LevelMessage | LevelFailedMessage;
export type HostToView = InitMessage | FailedMessage | LevelReply;

/** Ask for a level; the answer is a LevelReply. */
export interface LevelRequest {
  type: 'level';
  slice: number;
  mip: number;
  /** HDR exposure in stops, -16..16. */
  exposure: number;
  /** Decode on the host (the webview's worker failed or could not start). */
  host?: boolean;
}

export interface FirstPixelsMessage {
  type: 'firstPixels';
}

export interface ExportPngMessage {
  type: 'exportPng';
  slice: number;
  mip: number;
}

export interface ExportDdsMessage {
  type: 'exportDds';
}

export interface CopiedMessage {
  type: 'copied';
  ok: boolean;
  /** Why the clipboard refused, when it did. */
  message?: string;
}

export type ViewToHost = ReadyMessage | LevelRequest | FirstPixelsMessage | ExportPngMessage | ExportDdsMessage | CopiedMessage;

/**
 * A message from the webview as the host may use it, or undefined for one outside the protocol.
 * Indices that are not indices read as 0 and the exposure is clamped to ±16 stops.
 */
export function checkViewMessage(raw: unknown): ViewToHost | undefined {
  const m = unchecked(raw);
  switch (m?.type) {
    case 'ready':
    case 'firstPixels':
    case 'exportDds':
      return { type: m.type };
    case 'level':
      return {
        type: 'level',
        slice: indexOr0(m.slice),
        mip: indexOr0(m.mip),
        exposure: Math.max(-16, Math.min(16, finite(m.exposure) ?? 0)),
        host: m.host === true,
      };
    case 'exportPng':
      return { type: 'exportPng', slice: indexOr0(m.slice), mip: indexOr0(m.mip) };
    case 'copied':
      return { type: 'copied', ok: m.ok === true, message: typeof m.message === 'string' ? m.message : undefined };
    default:
      return undefined;
  }
}

/** Page → decoder worker: one level's encoded bytes. */
export interface DecodeRequest {
  id: number;
  decoder: DdsDecoder;
  width: number;
  height: number;
  src: ArrayBuffer;
  file: string;
}

/** Decoder worker → page: RGBA8 (width × height × 4 bytes), or why not. */
export type DecodeReply = { id: number; rgba: ArrayBuffer; error?: undefined } | { id: number; rgba?: undefined; error: string };
