/**
 * The 3D viewer's message protocol, shared by the webview (media/mesh/main.ts) and the
 * extension host that opens it. No DOM, no three.js, no vscode: the host imports this file too.
 *
 * Sequence:
 *
 *   (the page's own markup shows a header and a progress line before any script runs)
 *   webview → host   { type: 'ready' }                       once the script has loaded
 *   webview → host   { type: 'painted', pageMs, firstPaintMs, scriptMs, readyMs }   right after
 *                                                              `ready`: when the page was written,
 *                                                              first painted, the script started
 *                                                              and `ready` was sent
 *   host → webview   { type: 'model', model, title }          the model to show (WireModel, below)
 *                 or { type: 'failed', message, hex, size? }   the file did not parse
 *   host → webview   { type: 'names', names }                 decoded hash names, after `model`
 *   webview → host   { type: 'firstFrame', ms, sinceModelMs }  once, after the first frame of a model
 *   webview → host   { type: 'stats', lod, triangles, visibleParts }   after every change of view
 *   webview → host   { type: 'error', message }               the webview could not show the model
 *   webview → host   { type: 'pickTexture', slot }            the user asks to choose a texture for a slot
 *   host → webview   { type: 'texture', slot, width, height, rgba, path }   show this texture on a slot
 *   webview → host   { type: 'clearTexture', slot }           the user removed a slot's texture
 *   host → webview   { type: 'clearTexture', slot }           a slot's texture was removed (in another
 *                                                              view of the same document)
 *
 * A host sends `model` (or `failed`) in answer to each `ready` (a webview that was hidden and
 * restored sends `ready` again). Sending `model` again replaces the model.
 *
 * `model.model` is a `WireModel` (core/model/wire.ts): a `MeshModel` whose per-part arrays are
 * exact-size ArrayBuffers — positions/normals/tangents/uvs/weights Float32, colors Uint8 rgba,
 * joints Uint16, indices Uint16 or Uint32 as `indexType` says. Build it with `toWireModel(model)`;
 * VS Code's `webview.postMessage` carries ArrayBuffers natively (no JSON, no base64).
 *
 * `firstFrame.ms`: milliseconds from the start of the webview script (performance.now() taken
 * when the bundle starts) to the end of the first render call that drew the model.
 *
 * `painted`: milliseconds from the webview document's time origin (its navigation start, which in
 * VS Code's browser build comes well before the host writes the page into it) to the page's
 * markup having been read (`pageMs`: the host page's loader marks it; -1 without the mark), to its
 * first paint (the header and progress line: the browser's first-contentful-paint entry, -1 when
 * the browser has none), to the start of this script, and to `ready`. The first paint the user
 * waits for is `firstPaintMs - pageMs`.
 *
 * `names`: the model prints names it knows only as hashes `0x%08X` (a part's LOD group id, bones from
 * the mesh's own list). The host looks those hashes up in the mount's hash dictionary (built once
 * per mount, so it may come well after the model) and sends the ones it knows, keyed by the hash
 * as printed (upper-case hex, `hashKey` in core/model). The webview shows the names, the hash on
 * hover. Sent once per `model` at most, and only when at least one hash is named.
 *
 * `stats`: `lod` is the index into `model.lods` being shown (-1 when the model has no LODs),
 * `triangles` the triangles of the parts currently visible in that LOD, `visibleParts` how many
 * of its parts are ticked visible. Sent when a model is shown and after every change of view
 * (LOD, part visibility, an overlay toggle, selection), so consecutive messages may repeat.
 *
 * Textures by material slot. A mesh names its materials only as slots; which texture fills a slot
 * is decided by the game's design records, so the modder assigns one by hand. `slot` is the
 * material name the viewer lists and the glTF export names materials by: `part.material`, else
 * `material <materialIndex>` (the viewer's `slotKey`). `pickTexture` asks the host to let the user
 * choose a texture file; the host answers with `texture` (or, on an error, a warning of its own
 * and no message). `texture.rgba` is an exact-size ArrayBuffer of width × height RGBA8 pixels,
 * rows top first (the image's top row is v = 0: the game's UVs, like glTF's, have their origin at
 * the top left), not premultiplied; `path` is the game path it came from, shown beside the slot.
 * The webview uses it as the slot's base-colour map (sRGB) on parts that have UVs. A host sends
 * the slot textures it holds again after each `model`, and `texture` for a slot that has one
 * replaces it. The host keeps the assignment per document (for the glTF export), never on disk.
 *
 * The webview also mirrors its state on `document.body.dataset` for tests: `state`
 * ('waiting' | 'model' | 'failed' | 'error'), `lod`, `triangles`, `visibleParts`, and `textures`
 * (how many slots of the LOD on screen currently draw a texture: 0 with the Textures toggle off).
 */
import type { WireModel } from '../../core/model';
import { type FailedMessage, type ReadyMessage, finite, unchecked } from '../shared/protocol';

export { WIRE_VERSION, fromWireModel, toWireModel, wireTransferables } from '../../core/model';
export type { WireLod, WireModel, WirePart } from '../../core/model';
export type { FailedMessage, ReadyMessage } from '../shared/protocol';

export interface ModelMessage {
  type: 'model';
  model: WireModel;
  /** Shown above the picture (usually the file name). */
  title: string;
}

/** A decoded texture to show on a material slot (see the header). */
export interface TextureMessage {
  type: 'texture';
  /** The material name, as `slotKey` gives it ('slot 0', 'material 3'). */
  slot: string;
  width: number;
  height: number;
  /** width × height × 4 bytes, RGBA8, rows top first. */
  rgba: ArrayBuffer;
  /** The game path of the texture file, for the panel. */
  path: string;
  /**
   * Data, not colour (a `_n`, `_s` or `_m` map by its name: seed 004 counts the sRGB flag on
   * almost none of them): shown without the sRGB decode a colour map gets.
   */
  linear?: boolean;
}

/** Forget the texture of a slot (webview → host: the user removed it; host → webview: another view did). */
export interface ClearTextureMessage {
  type: 'clearTexture';
  slot: string;
}

/** Names for hashes the model prints as `0x%08X` (see the header). */
export interface NamesMessage {
  type: 'names';
  /** Name by hash as printed (`0xEE02AA64`). */
  names: Record<string, string>;
}

export type HostToView = ModelMessage | FailedMessage | TextureMessage | ClearTextureMessage | NamesMessage;

export interface FirstFrameMessage {
  type: 'firstFrame';
  ms: number;
  /** From the `model` message's arrival to the end of the first render that drew it. */
  sinceModelMs: number;
}

/** When the page painted first, the script started and `ready` went, in ms from the document's time origin. */
export interface PaintedMessage {
  type: 'painted';
  /** The page's markup read (the host page's loader marks it), -1 without the mark. */
  pageMs: number;
  /** First contentful paint (the header and progress line), -1 when the browser reports none. */
  firstPaintMs: number;
  scriptMs: number;
  readyMs: number;
}

export interface StatsMessage {
  type: 'stats';
  lod: number;
  triangles: number;
  visibleParts: number;
}

export interface ErrorMessage {
  type: 'error';
  /** Why the view could not show the model (bad wire data, no WebGL). */
  message: string;
}

/** The user asks to choose a texture for a material slot. */
export interface PickTextureMessage {
  type: 'pickTexture';
  slot: string;
}

export type ViewToHost = ReadyMessage | PaintedMessage | FirstFrameMessage | StatsMessage | ErrorMessage | PickTextureMessage | ClearTextureMessage;

/** The longest slot name the host accepts (a material name; the viewer's `slotKey`). */
const MAX_SLOT = 256;
const slotOf = (x: unknown): string | undefined => (typeof x === 'string' && x.length > 0 && x.length <= MAX_SLOT ? x : undefined);

/**
 * A message from the webview as the host may use it, or undefined for one outside the protocol
 * (a slot that is not a short string, timings that are not numbers). A `stats.lod` that is not an
 * integer reads as -1 (no LOD).
 */
export function checkViewMessage(raw: unknown): ViewToHost | undefined {
  const m = unchecked(raw);
  switch (m?.type) {
    case 'ready':
      return { type: 'ready' };
    case 'firstFrame': {
      const ms = finite(m.ms);
      const sinceModelMs = finite(m.sinceModelMs);
      return ms === undefined || sinceModelMs === undefined ? undefined : { type: 'firstFrame', ms, sinceModelMs };
    }
    case 'painted': {
      const pageMs = finite(m.pageMs);
      const firstPaintMs = finite(m.firstPaintMs);
      const scriptMs = finite(m.scriptMs);
      const readyMs = finite(m.readyMs);
      return pageMs === undefined || firstPaintMs === undefined || scriptMs === undefined || readyMs === undefined
        ? undefined
        : { type: 'painted', pageMs, firstPaintMs, scriptMs, readyMs };
    }
    case 'stats':
      return {
        type: 'stats',
        lod: Number.isInteger(m.lod) ? (m.lod as number) : -1,
        triangles: finite(m.triangles) ?? 0,
        visibleParts: finite(m.visibleParts) ?? 0,
      };
    case 'error':
      return { type: 'error', message: String(m.message) };
    case 'pickTexture':
    case 'clearTexture': {
      const slot = slotOf(m.slot);
      return slot === undefined ? undefined : { type: m.type, slot };
    }
    default:
      return undefined;
  }
}
