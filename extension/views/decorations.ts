/**
 * Explorer decorations for `arch06:` files. What to show is decided in decorationModel.ts (no
 * vscode, unit-tested in plain node); this provider only maps it to a `FileDecoration`.
 */
import * as vscode from 'vscode';
import { MountService } from '../mountService';
import { SCHEME, parseUri } from '../fs/uris';
import { BundleFolders } from '../../core/archive';
import { DecorationColour, decorationFor } from './decorationModel';

const THEME_COLOUR: Record<DecorationColour, string> = {
  warning: 'list.warningForeground',
  error: 'list.errorForeground',
  disabled: 'disabledForeground',
};

export class ShadowDecorations implements vscode.FileDecorationProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri | vscode.Uri[] | undefined>();
  readonly onDidChangeFileDecorations = this.changed.event;

  constructor(
    private readonly service: MountService,
    private readonly bundles: BundleFolders,
  ) {
    service.onDidChange(() => this.changed.fire(undefined));
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const m = this.service.mount;
    if (uri.scheme !== SCHEME || !m) return undefined;
    let d;
    try {
      d = decorationFor(m, this.bundles, parseUri(uri));
    } catch {
      return undefined; // a path no game path can be
    }
    if (!d) return undefined;
    return { badge: d.badge, tooltip: d.tooltip, color: d.colour ? new vscode.ThemeColor(THEME_COLOUR[d.colour]) : undefined };
  }
}
