/**
 * The texture editor for `.tex`, `.tex0`, `.texuhd`, `.texa*` and `.dds` (read-only custom
 * editor, built on webviewEditor.ts). The document owns the bytes and the parsed TEXR/TEXA/DDS;
 * the webview (media/texture/, bundled to dist/webview/textureView.js) asks for one level at a
 * time. A file that does not parse opens as a clear message plus a hex view of its first bytes.
 *
 * Levels are offered as the tier chain (core/texture/tierChain.ts): with `.tex0` / `.texuhd`
 * siblings in the mount (for an array, `.texa0` / `.texauhd` with the same slice count), the
 * full-resolution levels come first, each labelled with the file it comes from. The view lists
 * every tier file of the stem, present (and from which archive or loose folder) or missing (and
 * the game path looked up), and says at the top when the header's full size is not in the mount.
 * Siblings are read from the same view as the texture (the merged view, or one source's own); a
 * bundle member's from the merged view, where the higher tiers ship (seed 004: loose only).
 *
 * Levels are decoded in a Web Worker inside the webview from their encoded bytes (see
 * `levelMessage`); the host decodes only BC6H, exports, and levels the webview could not decode,
 * through a `DecodePool` (inline when small, on a worker thread when large), so the extension
 * host (shared by every extension) is not blocked by a big BC7 level.
 *
 * Protocol: media/texture/protocol.ts.
 */
import * as vscode from 'vscode';
import { TextureFile, parseTextureFile, ddsLevel, isHdrDecoder, textureRole } from '../../core/formats/texture';
import { decodeDdsLevelFloat, toneMapRgba8 } from '../../core/image';
import { DecodePool, encodePng } from '../../core/image/node';
import { exactCopy } from '../../core/io';
import { SCHEME, gamePathOf, mergedUriPath, parseUriPath } from '../../core/archive';
import type { ArchUri, Mount } from '../../core/archive';
import { locate } from '../fs/uris';
import { Arch06Error } from '../../core/errors';
import { ChainLevel, TierChain, TierSource, tierChain } from '../../core/texture';
import { type HostToView, type LevelReply, type TextureInfo, type ViewToHost, checkViewMessage } from '../../media/texture/protocol';
import { MountService } from '../mountService';
import { hexDump } from './hexDump';
import { EditorDocument, PageSpec, WebviewEditor, errorText, inlineScript } from './webviewEditor';
import { showInformation, showWarning } from '../notify';

/** The most float values a document keeps for re-tone-mapping BC6H (48 MB). */
const HDR_CACHE_FLOATS = 2048 * 2048 * 3;

class TextureDocument extends EditorDocument {
  constructor(
    uri: vscode.Uri,
    bytes: Uint8Array,
    openedAt: number,
    readonly texture: TextureFile | undefined,
    readonly error: string | undefined,
    /** The tier chain over this file and its tier siblings: the tiers, and the levels (slice 0's sizes) largest first. */
    readonly tierChain: TierChain | undefined,
  ) {
    super(uri, bytes, openedAt);
  }
  /** The merged levels, largest first. */
  get chain(): ChainLevel[] {
    return this.tierChain?.levels ?? [];
  }
  /** The last BC6H level decoded to float, so exposure changes only re-tone-map. */
  hdr?: { key: string; width: number; height: number; rgb: Float32Array };
  override dispose(): void {
    this.hdr = undefined;
  }
}

const leafOf = (p: string): string => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
const sourceOf = (s: { name: string; kind: 'archive' | 'directory' }): TierSource => ({ name: s.name, kind: s.kind === 'archive' ? 'archive' : 'folder' });

/**
 * The tier chain of a texture opened at `uri`: its tiers named by game path (an `arch06:` file)
 * or disk path, each sibling read through the same file system (so the mount's winning copies,
 * or one source's own in `@sources/<source>/`), with the source that serves it.
 */
async function chainOf(uri: vscode.Uri, texture: TextureFile, mount: Mount | undefined): Promise<TierChain> {
  let u: ArchUri | undefined;
  try {
    u = uri.scheme === SCHEME ? parseUriPath(uri.path) : undefined;
  } catch {
    u = undefined;
  }
  const game = u ? gamePathOf(u) : undefined;
  const folder = uri.path.slice(0, uri.path.lastIndexOf('/') + 1);
  // A bundle member's higher tiers are loose entries of the merged view, never members (seed 004).
  const siblingUri = (p: string): vscode.Uri => uri.with({ path: u?.view === 'bundle' ? mergedUriPath(p) : folder + leafOf(p) });
  const sourceFor = (p: string): TierSource | undefined => {
    if (!u) return uri.scheme === 'file' ? { name: folder.replace(/\/$/, '') || '/', kind: 'folder' } : undefined;
    try {
      // The copy the sibling's own URI serves (fs/uris.ts `locate`, as the file system reads it).
      const f = locate(mount, siblingUri(p));
      return f && f.view !== 'bundle' ? sourceOf(f.entry.source) : undefined;
    } catch {
      return undefined;
    }
  };
  const read = async (p: string): Promise<{ bytes: Uint8Array; source?: TierSource } | undefined> => {
    try {
      return { bytes: await vscode.workspace.fs.readFile(siblingUri(p)), source: sourceFor(p) };
    } catch (e) {
      if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return undefined;
      // There but unreadable (over a cap, a chunk that does not decode): the tier's reason.
      throw new Arch06Error('INVALID', e instanceof Error ? e.message : String(e), { file: p });
    }
  };
  // Where the siblings were looked for: one source's own view names it; a file outside the mount, its folder.
  const scope = u?.view === 'source' ? (mount?.source(u.source)?.name ?? u.source) : u ? undefined : 'its folder';
  return tierChain(game ?? uri.path, texture, read, { source: u?.view === 'bundle' ? undefined : sourceFor(game ?? uri.path), scope });
}

/** What the webview shows beside the image. */
function describe(doc: TextureDocument, t: TextureFile): TextureInfo {
  const d = t.dds;
  return {
    file: doc.name,
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
    own: doc.name,
    tiers: (doc.tierChain?.tiers ?? []).map((x) => ({
      file: x.file,
      path: x.path,
      ext: x.ext,
      own: x.own,
      named: x.named,
      present: x.present,
      joined: x.joined,
      size: x.size,
      reason: x.reason,
      source: x.source,
    })),
    header: doc.tierChain?.header,
    shortfall: doc.tierChain?.shortfall
      ? {
          width: doc.tierChain.shortfall.width,
          height: doc.tierChain.shortfall.height,
          tier: doc.tierChain.shortfall.tier?.file,
          message: doc.tierChain.shortfall.message,
        }
      : undefined,
    tierName: t.texr?.tierName,
    texrSize: t.texr ? { width: t.texr.width, height: t.texr.height } : undefined,
    fields: t.texr?.fields.map((f) => ({
      name: f.name,
      offset: f.offset,
      raw: f.raw,
      value: f.value === undefined ? undefined : String(f.value),
      certainty: f.certainty,
      note: f.note,
    })),
    confidence: t.texr?.confidence ?? t.texa?.confidence ?? 'confirmed',
    notes: [...(t.texr?.notes ?? []), ...(t.texa?.notes ?? []), ...d.notes],
    role: textureRole(doc.uri.path),
    hdr: isHdrDecoder(d.format.decoder),
    texa: t.texa
      ? { ownPath: t.texa.ownPath, slicePaths: t.texa.slicePaths, paths: t.texa.paths, headerHex: t.texa.headerHex, headerBytes: t.texa.headerBytes }
      : undefined,
  };
}

export class TextureEditorProvider extends WebviewEditor<TextureDocument, ViewToHost, HostToView> {
  static readonly viewType = 'arch06.texture';

  static register(context: vscode.ExtensionContext, service: MountService, pool: DecodePool): vscode.Disposable {
    return new TextureEditorProvider(context, service, pool).registration();
  }

  private constructor(
    context: vscode.ExtensionContext,
    service: MountService,
    /** The extension's one decode pool (large levels off the host's thread). */
    private readonly pool: DecodePool,
  ) {
    super(context, service, {
      viewType: TextureEditorProvider.viewType,
      kind: 'texture',
      retainContextWhenHidden: false,
      resourceRoots: ['media/texture'],
      check: checkViewMessage,
    });
  }

  async openCustomDocument(uri: vscode.Uri): Promise<TextureDocument> {
    // A tab restored with the window opens before activation's mount has settled.
    await this.service.settled();
    const openedAt = performance.now();
    const bytes = await vscode.workspace.fs.readFile(uri);
    let texture: TextureFile;
    try {
      texture = parseTextureFile(bytes, uri.path);
    } catch (e) {
      this.service.log(`texture ${uri.toString()}: ${errorText(e)}`);
      return new TextureDocument(uri, bytes, openedAt, undefined, errorText(e), undefined);
    }
    const chain = await chainOf(uri, texture, this.service.mount);
    return new TextureDocument(uri, bytes, openedAt, texture, undefined, chain);
  }

  protected async onMessage(doc: TextureDocument, panel: vscode.WebviewPanel, msg: ViewToHost): Promise<void> {
    switch (msg.type) {
      case 'ready':
        if (doc.texture) {
          // The first level rides along with init: one message instead of three.
          const first = doc.texture.dds.format.decodable ? await this.levelMessage(doc, 0, 0, 0, false) : undefined;
          this.post(panel, { type: 'init', info: describe(doc, doc.texture), first });
        } else this.post(panel, this.failed(doc, doc.error ?? 'unknown error'));
        return;
      case 'level':
        this.post(panel, await this.levelMessage(doc, msg.slice, msg.mip, msg.exposure, msg.host === true));
        return;
      case 'firstPixels':
        this.logTiming(doc, 'first pixels', `webview ready at ${Math.round(doc.readyMs)} ms`);
        return;
      case 'copied':
        if (msg.ok) void showInformation('Copied the level as PNG.');
        else void showWarning(`Copy as PNG failed: ${msg.message ?? 'the clipboard refused the image'}. Use Export PNG instead.`);
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
  private async levelMessage(doc: TextureDocument, slice: number, chainMip: number, exposure: number, host: boolean): Promise<LevelReply> {
    const where = this.locate(doc, chainMip);
    if (!where) return { type: 'levelFailed', slice, mip: chainMip, message: 'no texture', hex: '' };
    const t = where.texture;
    const mip = where.mip;
    try {
      const decoder = t.dds.format.decoder;
      if (!host && !isHdrDecoder(decoder) && decoder && t.dds.format.decodable) {
        const l = ddsLevel(t.dds, slice, mip);
        const data = exactCopy(t.bytes, l.offset, l.offset + l.size).buffer as ArrayBuffer;
        return { type: 'levelData', slice, mip: chainMip, width: l.width, height: l.height, decoder, data, file: t.dds.file };
      }
      const level = await this.decode(doc, t, slice, mip, exposure);
      return { type: 'level', slice, mip: chainMip, width: level.width, height: level.height, rgba: exactCopy(level.rgba).buffer as ArrayBuffer };
    } catch (e) {
      const dump = (() => {
        try {
          const l = ddsLevel(t.dds, slice, mip);
          return hexDump(t.bytes.subarray(l.offset, l.offset + Math.min(l.size, 256)));
        } catch {
          return '';
        }
      })();
      return { type: 'levelFailed', slice, mip: chainMip, message: errorText(e), hex: dump };
    }
  }

  /** RGBA8 of one level: BC6H tone-mapped at `exposure` (float decode cached), else through the pool. */
  private async decode(
    doc: TextureDocument,
    t: TextureFile,
    slice: number,
    mip: number,
    exposure: number,
  ): Promise<{ width: number; height: number; rgba: Uint8Array }> {
    if (isHdrDecoder(t.dds.format.decoder)) {
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
    // Named by the tier file the level comes from: mip 0 of the .tex0 is not mip 0 of the .tex.
    const from = leafOf(t.dds.file);
    const base = from.replace(/\.([^.]+)$/, (_, ext: string) => (/^tex(a)?$/i.test(ext) ? '' : '_' + ext.toLowerCase()));
    const target = await this.service.exportTarget({
      title: 'Export this level as PNG',
      saveLabel: 'Export PNG',
      filters: { PNG: ['png'] },
      fileName: `${base}_mip${mip}${t.dds.surfaces > 1 ? `_slice${slice}` : ''}.png`,
    });
    if (!target) return;
    try {
      const level = await this.pool.decode(t.dds, t.bytes, slice, mip);
      await this.service.writeExport(target, encodePng(level.rgba, level.width, level.height));
      void showInformation(`Exported ${level.width}×${level.height} PNG to ${target.fsPath}`);
    } catch (e) {
      this.service.reportError('PNG export failed', e);
    }
  }

  /** The whole texture as a plain .dds (a TEXR's embedded DDS, byte for byte), for other tools. */
  private async exportDds(doc: TextureDocument): Promise<void> {
    const t = doc.texture;
    if (!t) return;
    const base = doc.name.replace(/\.[^.]+$/, '');
    const target = await this.service.exportTarget({
      title: 'Export the texture as a plain DDS file',
      saveLabel: 'Export DDS',
      filters: { DDS: ['dds'] },
      fileName: `${base}.dds`,
    });
    if (!target) return;
    try {
      await this.service.writeExport(target, t.ddsBytes);
      void showInformation(`Exported ${t.dds.format.name} ${t.dds.width}×${t.dds.height} (${t.dds.mipCount} mips) to ${target.fsPath}`);
    } catch (e) {
      this.service.reportError('DDS export failed', e);
    }
  }

  /**
   * Script, style and decoder inlined: each separate resource is a round trip through the host
   * before the first pixel. The decoder's source sits in a text block the page starts a Web
   * Worker from (a blob URL: webview resources cannot be fetched as workers).
   */
  protected page(): PageSpec {
    return {
      title: 'Texture',
      style: { inline: this.extensionText('media/texture/textureView.css') },
      script: { inline: this.extensionText('dist/webview/textureView.js') },
      blobWorkers: true,
      body: `<div id="toolbar" role="toolbar" aria-label="Texture view controls">
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
<div id="tierBanner" role="status" hidden></div>
<div id="main"><div id="stage" tabindex="0" aria-label="Texture"><canvas id="view"></canvas></div><aside id="info"></aside></div>
<script type="text/plain" id="decoderSource">${inlineScript(this.extensionText('dist/webview/textureDecodeWorker.js'))}</script>
`,
    };
  }
}
