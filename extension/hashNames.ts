/**
 * The hash dictionary of the mounted install, built once per mount and shared (the string-table
 * and registry editors name hashes with it): every name the install spells out (core/nameSources:
 * paths, bundle members, path indexes, scripts, registries, skeletons) and the user's dictionary
 * files (setting `arch06.hashDictionaries`, one name a line). The language server builds its own
 * with the same core function. Building shows in the window's progress area and yields between steps; a remount
 * or a settings change starts over on the next request.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Mount } from '../core/archive';
import { HashDictionary } from '../core/hash';
import { readTextFile } from '../core/io/node';
import { addUserNames, collectInstallNames, dictionarySummary } from '../core/nameSources';
import { MountService } from './mountService';

/** A user dictionary file larger than this is refused (a word list, not a data file). */
const MAX_USER_FILE = 64 << 20;

export class HashNames implements vscode.Disposable {
  private cached: { mount: Mount; dict: Promise<HashDictionary> } | undefined;
  private userCache: Promise<HashDictionary> | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly service: MountService) {
    this.subscriptions = [
      service.onDidChange(() => (this.cached = undefined)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('arch06.hashDictionaries')) {
          this.cached = undefined;
          this.userCache = undefined;
        }
      }),
    ];
  }

  /** The mount's dictionary (with the user's files), built on the first request after a mount. */
  forMount(mount: Mount): Promise<HashDictionary> {
    if (this.cached?.mount !== mount) this.cached = { mount, dict: this.build(mount) };
    return this.cached.dict;
  }

  /** The user's dictionary files alone (a table opened from disk). */
  userOnly(): Promise<HashDictionary> {
    this.userCache ??= Promise.resolve(this.withUserFiles(new HashDictionary(), undefined));
    return this.userCache;
  }

  private build(mount: Mount): Promise<HashDictionary> {
    return Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'arch06: gathering hash names' }, async (progress) => {
        const started = performance.now();
        const dict = new HashDictionary();
        const report = await collectInstallNames(mount, dict, {
          pause: () => new Promise((r) => setImmediate(r)),
          progress: (message) => progress.report({ message }),
        });
        this.withUserFiles(dict, mount);
        this.service.log(
          `hash names: ${dictionarySummary(dict)} from ${report.paths} paths, ${report.members} bundle members, ${report.pathIndexRows} path-index rows, ` +
            `${report.scripts} scripts, ${report.registries} registries, ${report.skeletons} skeletons ` +
            `(${report.bytesRead} bytes read, ${report.failures} files skipped) in ${Math.round(performance.now() - started)} ms` +
            (report.truncated ? `; ${report.truncated}` : ''),
        );
        return dict;
      }),
    );
  }

  /** The setting's files: absolute, or relative to the install root. A file that cannot be read is logged and skipped. */
  private withUserFiles(dict: HashDictionary, mount: Mount | undefined): HashDictionary {
    const files = vscode.workspace.getConfiguration('arch06').get<unknown>('hashDictionaries', []);
    if (!Array.isArray(files)) return dict;
    for (const f of files) {
      if (typeof f !== 'string' || !f.trim()) continue;
      const p = path.isAbsolute(f) ? f : mount ? path.join(mount.root, f) : undefined;
      if (!p) {
        this.service.log(`hash names: ${f}: a relative path needs a mounted install (it starts at the install root)`);
        continue;
      }
      try {
        const added = addUserNames(dict, readTextFile(p, MAX_USER_FILE));
        this.service.log(`hash names: ${added} new names from ${p}`);
      } catch (e) {
        this.service.log(`hash names: cannot read ${p}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return dict;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
