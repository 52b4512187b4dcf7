/**
 * The extension host's one worker pool for whole-game work (core/archive/workerPool.ts, entry
 * dist/poolWorker.js): Find in Files and folder extraction run on it, and the search texts are
 * prepared on it in the background once a mount is listed (a search or an extraction goes first). Sized by the setting
 * `arch06.workers` (0: the machine's cores); 1 means the host's own thread, no pool. Made on first
 * use, remade when the setting changes, stopped with the extension. The language server, a process
 * of its own, gets the same setting and keeps its own pool for its cold index (server/session.ts).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { WorkerPool } from '../core/archive';

/** Threads for whole-game work the setting asks for (0 or unset: the cores). */
export function workerCount(): number {
  const n = vscode.workspace.getConfiguration('arch06').get<number>('workers', 0);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 64) : os.availableParallelism();
}

export class WorkPool implements vscode.Disposable {
  private pool: WorkerPool | undefined;
  private readonly watch: vscode.Disposable;

  constructor(private readonly extensionPath: string) {
    this.watch = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('arch06.workers')) void this.drop();
    });
  }

  /** The pool, or undefined when the work should stay on this thread (one worker asked for). */
  get(): WorkerPool | undefined {
    const n = workerCount();
    if (n <= 1) return undefined;
    if (this.pool?.size !== n) {
      void this.pool?.terminate();
      this.pool = new WorkerPool(path.join(this.extensionPath, 'dist', 'poolWorker.js'), n);
    }
    return this.pool;
  }

  private async drop(): Promise<void> {
    const p = this.pool;
    this.pool = undefined;
    await p?.terminate();
  }

  dispose(): void {
    this.watch.dispose();
    void this.drop();
  }
}
