/**
 * Explorer decorations for `arch06:` files: in the merged view, a badge with the number of copies
 * when a path ships in several sources; in a source's own view, "S" on a copy another source shadows.
 */
import * as vscode from 'vscode';
import { MountService } from '../mountService';
import { SCHEME, parseUri } from '../fs/uris';
import { BundleFolders } from '../fs/bundleFolders';
import { GamePath } from '../../core/archive/gamePath';

export class ShadowDecorations implements vscode.FileDecorationProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri | vscode.Uri[] | undefined>();
  readonly onDidChangeFileDecorations = this.changed.event;

  constructor(private readonly service: MountService, private readonly bundles: BundleFolders) {
    service.onDidChange(() => this.changed.fire(undefined));
  }

  /** A bundle member: where its bytes come from (L loose, C container, ! missing). */
  private memberDecoration(bundle: GamePath, member: GamePath): vscode.FileDecoration | undefined {
    const m = this.service.mount!;
    const b = this.bundles.resolve(m, bundle);
    const x = member ? this.bundles.member(b, member) : undefined;
    if (!x) return undefined;
    const sizeNote = x.sizeMatchesDeclared ? '' : ` (the manifest declares ${x.declaredSize} bytes${x.size !== undefined ? `, the copy has ${x.size}` : ''})`;
    if (x.servedFrom === 'missing') return { badge: '!', tooltip: `Declared by the manifest, but neither in the container nor shipped loose`, color: new vscode.ThemeColor('list.errorForeground') };
    if (x.servedFrom === 'loose') return { badge: 'L', tooltip: `Served from a loose entry in ${x.source}${sizeNote}${x.note ? `\n${x.note}` : ''}`, color: new vscode.ThemeColor('list.warningForeground') };
    return { badge: 'C', tooltip: `Served from the container ${b.container?.path} in ${x.source}${sizeNote}` };
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const m = this.service.mount;
    if (uri.scheme !== SCHEME || !m) return undefined;
    try {
      const u = parseUri(uri);
      if (u.view === 'bundle') return this.memberDecoration(u.bundle, u.member);
      if (u.view === 'sources' || !u.path) return undefined;
      const w = m.which(u.path);
      if (!w || w.copies.length < 2) return undefined;
      if (u.view === 'merged') {
        const below = w.copies.slice(1).map((c) => c.source.name);
        return { badge: String(Math.min(w.copies.length, 99)), tooltip: `${w.copies.length} copies: ${w.winner.source.name} wins, shadowing ${below.join(', ')}`, color: new vscode.ThemeColor('list.warningForeground') };
      }
      if (w.winner.source.name.toLowerCase() !== u.source.toLowerCase()) {
        return { badge: 'S', tooltip: `Shadowed: the game loads the copy in ${w.winner.source.name}`, color: new vscode.ThemeColor('disabledForeground') };
      }
      return { badge: 'W', tooltip: `Wins over ${w.copies.length - 1} other cop${w.copies.length === 2 ? 'y' : 'ies'}` };
    } catch {
      return undefined;
    }
  }
}
