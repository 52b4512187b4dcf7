/**
 * Hovering a texture path in any text (scripts, decoded views, lists of bundle members) shows a
 * thumbnail of the copy the mount would load, with its size and format. Paths are matched as
 * written in the game's data (backslashes or slashes, any case); nothing is shown when no
 * install is mounted or the path is not in it.
 */
import * as vscode from 'vscode';
import { textureThumbnail } from '../../core/image/node';
import { isArch06Error } from '../../core/errors';
import { MountService } from '../mountService';

/** A game path ending in a texture extension, as one token. */
const TEXTURE_PATH = /[A-Za-z0-9_\\/.:-]+\.(?:texuhd|texauhd|texa0|texa|tex0|tex|dds)\b/i;

export class TexturePathHover implements vscode.HoverProvider, vscode.Disposable {
  /** Thumbnails by game path, for the mount they were made from. */
  private cache = new Map<string, vscode.MarkdownString>();
  private readonly onMount: vscode.Disposable;

  constructor(private readonly service: MountService) {
    this.onMount = service.onDidChange(() => this.cache.clear());
  }

  static register(service: MountService): vscode.Disposable {
    const hover = new TexturePathHover(service);
    return vscode.Disposable.from(
      vscode.languages.registerHoverProvider([{ scheme: 'file' }, { scheme: 'arch06' }, { scheme: 'arch06-text' }, { scheme: 'untitled' }], hover),
      hover,
    );
  }

  dispose(): void {
    this.onMount.dispose();
    this.cache.clear();
  }

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const mount = this.service.mount;
    if (!mount) return undefined;
    const range = document.getWordRangeAtPosition(position, TEXTURE_PATH);
    if (!range) return undefined;
    // Lua strings double their backslashes ("textures\\x\\y_d.tex"); the game path has one.
    const path = document
      .getText(range)
      .replace(/\\\\/g, '\\')
      .replace(/^[\\/]+/, '');
    const cached = this.cache.get(path.toLowerCase());
    if (cached) return new vscode.Hover(cached, range);
    const entry = mount.winner(path);
    if (!entry) return undefined;
    const md = new vscode.MarkdownString();
    try {
      const t = textureThumbnail(await entry.read(), path);
      const uri = `data:image/png;base64,${Buffer.from(t.png).toString('base64')}`;
      md.appendMarkdown(`![${path}](${uri})\n\n`);
      md.appendText(
        `${t.fullWidth}×${t.fullHeight} ${t.format}${t.slices > 1 ? `, ${t.slices} slices` : ''} · from ${entry.source.name} · preview: mip ${t.mip} (${t.width}×${t.height})`,
      );
    } catch (e) {
      md.appendText(`${path} (${entry.source.name}): no preview: ${isArch06Error(e) ? e.message : String(e)}`);
    }
    if (this.cache.size > 200) this.cache.clear();
    this.cache.set(path.toLowerCase(), md);
    return new vscode.Hover(md, range);
  }
}
