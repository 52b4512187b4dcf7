/**
 * The status bar item: what is mounted, at a glance; a warning (and background) when the mount is
 * incomplete because a source the cfg names is broken. Click for the search order. The text is
 * decided in mountSummary.ts (no vscode there).
 */
import * as vscode from 'vscode';
import { MountService } from './mountService';
import { mountStatus } from './mountSummary';

export function mountStatusBar(service: MountService): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('arch06.mount', vscode.StatusBarAlignment.Left, 10);
  item.name = 'arch06 mount';
  item.command = 'arch06.searchOrder.focus';
  const update = (): void => {
    const m = service.mount;
    if (!m) {
      item.hide();
      return;
    }
    const s = mountStatus(m, m.index().size);
    item.text = s.text;
    item.tooltip = s.tooltip;
    item.backgroundColor = s.incomplete ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.show();
  };
  const sub = service.onDidChange(update);
  update();
  return vscode.Disposable.from(item, sub);
}
