/**
 * The texture editor for `.tex`, `.tex0`, `.texuhd` and `.dds` (read-only custom editor). The
 * document owns the bytes and the parsed TEXR/DDS; the webview (media/texture/) asks for one level
 * at a time and gets RGBA8 pixels. A file that does not parse opens as a clear message plus a hex
 * view of its first bytes, never as a crash.
 *
 * Levels are offered as the tier chain: with `.tex0` / `.texuhd` siblings in the mount (for an
 * array, `.texa0` / `.texauhd` with the same slice count), the full-resolution levels come first,
 * each labelled with the file it comes from.
 *
 * Levels are decoded in a Web Worker inside the webview from their encoded bytes (see
 * `levelMessage`); the host decodes only BC6H, exports, and levels the webview could not decode,
 * through a `DecodePool` (inline when small, on a worker thread when large), so the extension
 * host (shared by every extension) is not blocked by a big BC7 level.
 *
 * Messages, webview → host: `ready`, `level {slice, mip, exposure, host?}`, `exportPng {slice, mip}`,
 * `exportDds`, `firstPixels`, `copied {ok, message}`.
 * Host → webview: `init {info, first?}` (first: the message for level 0 of slice 0) or
 * `failed {message, hex}`; `levelData {slice, mip, width, height, decoder, data}` (encoded, for
 * the webview's worker) or `level {slice, mip, width, height, rgba}`; `levelFailed {slice, mip, message, hex}`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isArch06Error } from '../../core/errors';
import { TextureFile, parseTextureFile } from '../../core/formats/texr';
import { ddsLevel, isHdrDecoder } from '../../core/formats/dds';
import { decodeDdsLevelFloat } from '../../core/image/bcn';
import { toneMapRgba8 } from '../../core/image/bc6h';
import { DecodePool } from '../../core/image/decodePool';
import { textureRole } from '../../core/formats/textureRole';
import { encodePng } from '../../core/image/png';
import { MountService } from '../mountService';
import { hexDump } from './hexDump';
import { webviewNonce } from './webviewNonce';
import { exactCopy } from '../../core/io/byteSource';

/** One level of the full-resolution chain, and the tier file it comes from. */
interface ChainLevel {
  texture: TextureFile;
  mip: number;
  width: number;
  height: number;
  size: number;
  /** The file's name, e.g. `x_d.tex0`. */
  from: string;
}

/** The most float values a document keeps for re-tone-mapping BC6H (48 MB). */
const HDR_CACHE_FLOATS = 2048 * 2048 * 3;

/** What the webview may send (see the file comment); every field is checked before use. */
interface ViewMessage {
  type: string;
  slice?: number;
  mip?: number;
  exposure?: number;
  host?: boolean;
  ok?: boolean;
  message?: string;
}

/** Higher tiers win a size that several tiers carry (seed 004 "Tiers": their ranges can overlap). */
const TIER_RANK: Record<string, number> = { texuhd: 3, tex0: 2, tex: 1, texauhd: 3, texa0: 2, texa: 1 };
/** The tier files of one stem: plain textures and texture arrays each have three. */
const TIER_FAMILIES = [['tex', 'tex0', 'texuhd'], ['texa', 'texa0', 'texauhd']];

class TextureDocument implements vscode.CustomDocument {
  constructor(
    readonly uri: vscode.Uri,
    readonly bytes: Uint8Array,
    readonly texture: TextureFile | undefined,
    readonly error: string | undefined,
    /** The level chain (sizes as slice 0 has them) over this file and its tier siblings, largest first. */
    readonly chain: ChainLevel[],
    /** performance.now() when the editor started opening this file (for the first-pixels figure). */
    readonly openedAt: number,
  ) {}
  /** The last BC6H level decoded to float, so exposure changes only re-tone-map. */
  hdr?: { key: string; width: number; height: number; rgb: Float32Array };
  /** When the webview said it was ready, ms after `openedAt` (for the output channel). */
  readyMs = 0;
  dispose(): void {
    this.hdr = undefined;
  }
}

const nameOf = (uri: vscode.Uri): string => uri.path.split('/').pop() ?? uri.path;

/**
 * The tier chain: this texture plus its `.tex` / `.tex0` / `.texuhd` siblings that exist (read
 * through the same file system, so the mount's winning copies), merged by size, each size taken
 * from the highest tier that has it.
 */
async function tierChain(uri: vscode.Uri, own: TextureFile): Promise<ChainLevel[]> {
  const ownLevels = (t: TextureFile, from: string): ChainLevel[] =>
    t.dds.levels.filter((l) => l.slice === 0).map((l) => ({ texture: t, mip: l.mip, width: l.width, height: l.height, size: l.size, from }));
  const m = /\.(tex|tex0|texuhd|texa|texa0|texauhd)$/i.exec(uri.path);
  if (!m) return ownLevels(own, nameOf(uri));
  const ownExt = m[1].toLowerCase();
  const family = TIER_FAMILIES.find((f) => f.includes(ownExt))!;
  const stem = uri.path.slice(0, -m[0].length);
  const tiers: { rank: number; levels: ChainLevel[] }[] = [{ rank: TIER_RANK[ownExt], levels: ownLevels(own, nameOf(uri)) }];
  for (const ext of family) {
    if (ext === ownExt) continue;
    const sibling = uri.with({ path: `${stem}.${ext}` });
    try {
      const t = parseTextureFile(await vscode.workspace.fs.readFile(sibling), sibling.path);
      // A tier joins the chain when its slices line up with this file's (arrays: same slice count).
      if (t.dds.surfaces === own.dds.surfaces && t.dds.format.decodable) tiers.push({ rank: TIER_RANK[ext], levels: ownLevels(t, nameOf(sibling)) });
    } catch {
      // No such tier, or one that does not parse: the chain is built from what reads.
    }
  }
  const bySize = new Map<string, { rank: number; level: ChainLevel }>();
  for (const t of tiers) {
    for (const l of t.levels) {
      const key = `${l.width}x${l.height}`;
      const had = bySize.get(key);
      if (!had || t.rank > had.rank) bySize.set(key, { rank: t.rank, level: l });
    }
  }
  return [...bySize.values()].map((x) => x.level).sort((a, b) => b.width * b.height - a.width * a.height);
}

/** What the webview shows beside the image: plain data, all of it serialisable. */
function describe(doc: TextureDocument): Record<string, unknown> {
  const t = doc.texture!;
  const d = t.dds;
  return {
    file: doc.uri.path.split('/').pop(),
    container: t.texr ? t.texr.container : t.texa ? 'TEXA' : 'DDS',
    format: d.format.name,
    decodable: d.format.decodable,
    reason: d.format.reason,
    srgb: d.format.srgb,
    width: d.width,
    height: d.height,
    mipCount: d.mipCount,
    surfaces: d.surfaces,
    dimension: d.dimension,
    levels: doc.chain.map((l, i) => ({ mip: i, width: l.width, height: l.height, size: l.size, from: l.from })),
    own: nameOf(doc.uri),
    tierName: t.texr?.tierName,
    texrSize: t.texr ? { width: t.texr.width, height: t.texr.height } : undefined,
    fields: t.texr?.fields.map((f) => ({ name: f.name, offset: f.offset, raw: f.raw, value: f.value === undefined ? undefined : String(f.value), certainty: f.certainty, note: f.note })),
    confidence: t.texr?.confidence ?? t.texa?.confidence ?? 'high',
    notes: [...(t.texr?.notes ?? []), ...(t.texa?.notes ?? []), ...d.notes],
    role: textureRole(doc.uri.path),
    hdr: isHdrDecoder(d.format.decoder),
    texa: t.texa ? { ownPath: t.texa.ownPath, slicePaths: t.texa.slicePaths, paths: t.texa.paths, headerHex: t.texa.headerHex, headerBytes: t.texa.headerBytes } : undefined,
  };
}

export class TextureEditorProvider implements vscode.CustomReadonlyEditorProvider<TextureDocument> {
  static readonly viewType = 'arch06.texture';

  static register(context: vscode.ExtensionContext, service: MountService, pool: DecodePool): vscode.Disposable {
    const provider = new TextureEditorProvider(context, service, pool);
    return vscode.Disposable.from(
      vscode.window.registerCustomEditorProvider(TextureEditorProvider.viewType, provider, {
        supportsMultipleEditorsPerDocument: true,
        webviewOptions: { retainContextWhenHidden: false },
      }),
    );
  }

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly service: MountService,
    /** The extension's one decode pool (large levels off the host's thread). */
    private readonly pool: DecodePool,
  ) {}

  async openCustomDocument(uri: vscode.Uri): Promise<TextureDocument> {
    const openedAt = performance.now();
    const bytes = await vscode.workspace.fs.readFile(uri);
    let texture: TextureFile;
    try {
      texture = parseTextureFile(bytes, uri.path);
    } catch (e) {
      const message = isArch06Error(e) ? e.message : e instanceof Error ? e.message : String(e);
      this.service.log(`texture ${uri.toString()}: ${message}`);
      return new TextureDocument(uri, bytes, undefined, message, [], openedAt);
    }
    return new TextureDocument(uri, bytes, texture, undefined, await tierChain(uri, texture), openedAt);
  }

  async resolveCustomEditor(doc: TextureDocument, panel: vscode.WebviewPanel): Promise<void> {
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media', 'texture');
    panel.webview.options = { enableScripts: true, localResourceRoots: [media] };
    panel.webview.html = this.html(panel.webview, media);
    // A webview message is input like any other: indices are checked, and a handler that throws reports, never escapes.
    panel.webview.onDidReceiveMessage(async (msg: ViewMessage) => {
      try {
        await this.onMessage(doc, panel, msg);
      } catch (e) {
        this.service.reportError(`texture ${nameOf(doc.uri)}`, e);
      }
    });
  }

  private async onMessage(doc: TextureDocument, panel: vscode.WebviewPanel, raw: ViewMessage): Promise<void> {
    const index = (x: unknown): number => (Number.isInteger(x) && (x as number) >= 0 && (x as number) < 1 << 16 ? (x as number) : 0);
    const msg = { ...raw, slice: index(raw?.slice), mip: index(raw?.mip), exposure: typeof raw?.exposure === 'number' && Number.isFinite(raw.exposure) ? Math.max(-16, Math.min(16, raw.exposure)) : 0 };
    switch (msg.type) {
      case 'ready':
        doc.readyMs = performance.now() - doc.openedAt;
        if (doc.texture) {
          // The first level rides along with init: one message instead of three.
          const first = doc.texture.dds.format.decodable ? await this.levelMessage(doc, 0, 0, 0, false) : undefined;
          void panel.webview.postMessage({ type: 'init', info: describe(doc), first });
        } else void panel.webview.postMessage({ type: 'failed', message: doc.error, hex: hexDump(doc.bytes), size: doc.bytes.length });
        return;
      case 'level':
        void panel.webview.postMessage(await this.levelMessage(doc, msg.slice, msg.mip, msg.exposure, msg.host === true));
        return;
      case 'firstPixels':
        this.service.log(`texture ${nameOf(doc.uri)}: first pixels ${Math.round(performance.now() - doc.openedAt)} ms after the editor started opening it (webview ready at ${Math.round(doc.readyMs)} ms)`);
        return;
      case 'copied':
        if (msg.ok) void vscode.window.showInformationMessage('Copied the level as PNG.');
        else void vscode.window.showWarningMessage(`Copy as PNG failed: ${msg.message ?? 'the clipboard refused the image'}. Use Export PNG instead.`);
        return;
      case 'exportPng':
        await this.exportPng(doc, msg.slice, msg.mip);
        return;
      case 'exportDds':
        await this.exportDds(doc);
        return;
    }
  }

  /** The tier file and its own mip for a chain index the webview names (the slice is the same in every tier). */
  private locate(doc: TextureDocument, mip: number): { texture: TextureFile; mip: number } | undefined {
    if (!doc.texture) return undefined;
    // Every slice follows the chain: tiers join it only with the same slice count.
    if (doc.chain[mip]) return { texture: doc.chain[mip].texture, mip: doc.chain[mip].mip };
    return { texture: doc.texture, mip };
  }

  /**
   * The message that shows one level. Where it is decoded: in the webview's worker, from the
   * level's encoded bytes (BCn is 4-8x smaller than RGBA, so less crosses to the webview, and the
   * host does no work), except where decoding here pays: BC6H (the float decode is cached and
   * only re-tone-mapped when the exposure moves) or when the webview asks (`host`: its worker
   * failed or could not start). A level that fails comes back as `levelFailed` with a hex dump.
   */
  private async levelMessage(doc: TextureDocument, slice: number, chainMip: number, exposure: number, host: boolean): Promise<Record<string, unknown>> {
    const where = this.locate(doc, chainMip);
    if (!where) return { type: 'levelFailed', slice, mip: chainMip, message: 'no texture', hex: '' };
    const t = where.texture;
    const mip = where.mip;
    try {
      const decoder = t.dds.format.decoder;
      const hdr = isHdrDecoder(decoder);
      if (!host && !hdr && decoder && t.dds.format.decodable) {
        const l = ddsLevel(t.dds, slice, mip);
        const data = exactCopy(t.bytes, l.offset, l.offset + l.size).buffer;
        return { type: 'levelData', slice, mip: chainMip, width: l.width, height: l.height, decoder, data, file: t.dds.file };
      }
      const level = await this.decode(doc, t, slice, mip, exposure);
      return { type: 'level', slice, mip: chainMip, width: level.width, height: level.height, rgba: exactCopy(level.rgba).buffer };
    } catch (e) {
      const message = isArch06Error(e) ? e.message : e instanceof Error ? e.message : String(e);
      const dump = (() => {
        try {
          const l = ddsLevel(t.dds, slice, mip);
          return hexDump(t.bytes.subarray(l.offset, l.offset + Math.min(l.size, 256)));
        } catch {
          return '';
        }
      })();
      return { type: 'levelFailed', slice, mip: chainMip, message, hex: dump };
    }
  }

  /** RGBA8 of one level: BC6H tone-mapped at `exposure` (float decode cached), else through the pool. */
  private async decode(doc: TextureDocument, t: TextureFile, slice: number, mip: number, exposure: number): Promise<{ width: number; height: number; rgba: Uint8Array }> {
    const d = t.dds.format.decoder;
    if (isHdrDecoder(d)) {
      // The float level is kept for exposure changes, up to HDR_CACHE_FLOATS (a 2048x2048 level);
      // a larger one is decoded again for each exposure rather than held.
      const key = `${t.dds.file}:${slice}:${mip}`;
      const f = doc.hdr?.key === key ? doc.hdr : { key, ...decodeDdsLevelFloat(t.dds, t.bytes, slice, mip) };
      doc.hdr = f.rgb.length <= HDR_CACHE_FLOATS ? { key, width: f.width, height: f.height, rgb: f.rgb } : undefined;
      return { width: f.width, height: f.height, rgba: toneMapRgba8(f.rgb, exposure) };
    }
    return this.pool.decode(t.dds, t.bytes, slice, mip);
  }

  private async exportPng(doc: TextureDocument, slice: number, chainMip: number): Promise<void> {
    const where = this.locate(doc, chainMip);
    if (!where) return;
    const t = where.texture;
    const mip = where.mip;
    const base = (doc.uri.path.split('/').pop() ?? 'texture').replace(/\.[^.]+$/, '');
    const target = await this.service.exportTarget({ title: 'Export this level as PNG', saveLabel: 'Export PNG', filters: { PNG: ['png'] }, fileName: `${base}_mip${mip}${t.dds.surfaces > 1 ? `_slice${slice}` : ''}.png` });
    if (!target) return;
    try {
      const level = await this.pool.decode(t.dds, t.bytes, slice, mip);
      await this.service.writeExport(target, encodePng(level.rgba, level.width, level.height));
      void vscode.window.showInformationMessage(`Exported ${level.width}×${level.height} PNG to ${target.fsPath}`);
    } catch (e) {
      this.service.reportError('PNG export failed', e);
    }
  }

  /** The whole texture as a plain .dds (a TEXR's embedded DDS, byte for byte), for other tools. */
  private async exportDds(doc: TextureDocument): Promise<void> {
    const t = doc.texture;
    if (!t) return;
    const base = nameOf(doc.uri).replace(/\.[^.]+$/, '');
    const target = await this.service.exportTarget({ title: 'Export the texture as a plain DDS file', saveLabel: 'Export DDS', filters: { DDS: ['dds'] }, fileName: `${base}.dds` });
    if (!target) return;
    try {
      await this.service.writeExport(target, t.ddsBytes);
      void vscode.window.showInformationMessage(`Exported ${t.dds.format.name} ${t.dds.width}×${t.dds.height} (${t.dds.mipCount} mips) to ${target.fsPath}`);
    } catch (e) {
      this.service.reportError('DDS export failed', e);
    }
  }

  /** The webview's script and style, read once and inlined: each separate resource is a round trip through the host before the first pixel. */
  private inlined: { script: string; style: string; worker: string } | undefined;

  private html(webview: vscode.Webview, media: vscode.Uri): string {
    const nonce = webviewNonce();
    this.inlined ??= {
      script: fs.readFileSync(path.join(media.fsPath, 'textureView.js'), 'utf8'),
      style: fs.readFileSync(path.join(media.fsPath, 'textureView.css'), 'utf8'),
      // Started by the page from a blob URL; "</script" cannot end this block early.
      worker: fs.readFileSync(path.join(this.context.extensionPath, 'dist', 'webview', 'textureDecodeWorker.js'), 'utf8').replace(/<\/script/gi, '<\\/script'),
    };
    return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${webview.cspSource} data: blob:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; worker-src blob:;">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">${this.inlined.style}</style><title>Texture</title></head>
<body>
<div id="toolbar" role="toolbar" aria-label="Texture view controls">
  <label>Mip <select id="mip" aria-label="Mip level"></select></label>
  <label id="sliceLabel">Slice <select id="slice" aria-label="Array slice"></select></label>
  <span class="group" role="group" aria-label="Channels">
    <button data-channel="rgb" class="on" title="Colour (RGB)">RGB</button><button data-channel="r" title="Red only (R)">R</button><button data-channel="g" title="Green only (G)">G</button><button data-channel="b" title="Blue only (B)">B</button><button data-channel="a" title="Alpha only (A)">A</button><button data-channel="normal" title="Normal map: X from green, Y from alpha, Z rebuilt">N</button>
  </span>
  <label title="Show alpha over a checkerboard"><input type="checkbox" id="alpha" checked> alpha</label>
  <label id="exposureLabel" title="HDR exposure in stops (BC6H)">Exposure <input type="range" id="exposure" min="-8" max="8" step="0.5" value="0" aria-label="Exposure in stops"> <span id="exposureText">0</span></label>
  <span class="group"><button id="fit" title="Fit to window (F)">Fit</button><button id="actual" title="Actual size (1)">1:1</button></span>
  <button id="export" title="Export this level as PNG">Export PNG</button>
  <button id="exportDds" title="Export the whole texture (every mip) as a plain .dds">Export DDS</button>
  <button id="copyPng" title="Copy this level as PNG (Ctrl+C)">Copy as PNG</button>
  <span id="zoomText" aria-live="polite"></span>
</div>
<div id="main"><div id="stage" tabindex="0" aria-label="Texture"><canvas id="view"></canvas></div><aside id="info"></aside></div>
<script type="text/plain" id="decoderSource">${this.inlined.worker}</script>
<script nonce="${nonce}">${this.inlined.script}</script>
</body></html>`;
  }
}
