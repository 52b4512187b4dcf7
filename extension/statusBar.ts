/** The status bar item: what is mounted, at a glance; click for the search order. */
import * as vscode from 'vscode';
import { MountService } from './mountService';

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
    item.text = `$(archive) SoW: ${m.sources.length} sources · ${m.index().size.toLocaleString('en')} paths`;
    item.tooltip = `Mounted ${m.root}\nsearch order from ${m.cfgPath}${m.skipped.length ? `\n${m.skipped.length} cfg line(s) skipped` : ''}`;
    item.show();
  };
  const sub = service.onDidChange(update);
  update();
  return vscode.Disposable.from(item, sub);
}
