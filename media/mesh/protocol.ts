/**
 * The 3D viewer's message protocol, shared by the webview (media/mesh/meshView.ts) and the
 * extension host that opens it. No DOM, no three.js, no vscode: the host imports this file too.
 *
 * Sequence:
 *
 *   webview → host   { type: 'ready' }                       once the script has loaded
 *   host → webview   { type: 'model', model, title }          the model to show (WireModel, below)
 *                 or { type: 'failed', message, hex, size? }   the file did not parse
 *   webview → host   { type: 'firstFrame', ms, sinceModelMs }  once, after the first frame of a model
 *   webview → host   { type: 'stats', lod, triangles, visibleParts }   after every change of view
 *   webview → host   { type: 'error', message }               the webview could not show the model
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
 * `stats`: `lod` is the index into `model.lods` being shown (-1 when the model has no LODs),
 * `triangles` the triangles of the parts currently visible in that LOD, `visibleParts` how many
 * of its parts are ticked visible. Sent when a model is shown and after every change of view
 * (LOD, part visibility, an overlay toggle, selection), so consecutive messages may repeat.
 *
 * The webview also mirrors its state on `document.body.dataset` for tests: `state`
 * ('waiting' | 'model' | 'failed' | 'error'), `lod`, `triangles`, `visibleParts`.
 */
import type { WireModel } from '../../core/model/wire';

export { WIRE_VERSION, fromWireModel, toWireModel, wireTransferables } from '../../core/model/wire';
export type { WireLod, WireModel, WirePart } from '../../core/model/wire';

export interface ModelMessage {
  type: 'model';
  model: WireModel;
  /** Shown above the picture (usually the file name). */
  title: string;
}

export interface FailedMessage {
  type: 'failed';
  /** The error's message (an Arch06Error's `message` names file, offset and expectation). */
  message: string;
  /** A hex dump of the first bytes, shown in a <pre>. */
  hex: string;
  /** The file's size in bytes, when known. */
  size?: number;
}

export type HostToView = ModelMessage | FailedMessage;

export interface ReadyMessage {
  type: 'ready';
}

export interface FirstFrameMessage {
  type: 'firstFrame';
  ms: number;
  /** From the `model` message's arrival to the end of the first render that drew it. */
  sinceModelMs: number;
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

export type ViewToHost = ReadyMessage | FirstFrameMessage | StatsMessage | ErrorMessage;
