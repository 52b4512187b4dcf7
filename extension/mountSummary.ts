/**
 * What the status bar item and the mount notification say about a mount, as plain strings: no
 * `vscode` import, so it can be unit-tested in plain node (statusBar.ts and mountService.ts show it).
 */
import { BrokenSourceInfo, baseName } from './views/searchOrderModel';

/** The parts of a `Mount` (core/archive/mount.ts) the summary reads. */
export interface SummaryMount {
  readonly root: string;
  readonly cfgPath: string;
  readonly sources: readonly unknown[];
  readonly skipped: readonly unknown[];
  readonly broken: readonly BrokenSourceInfo[];
}

export interface MountStatus {
  /** With a codicon, e.g. `$(warning) SoW: 6 sources · 1 broken · 56 paths`. */
  text: string;
  tooltip: string;
  /** Some source named by the cfg could not be mounted: show the item with a warning background. */
  incomplete: boolean;
}

const count = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export function mountStatus(m: SummaryMount, paths: number): MountStatus {
  const counts = `${count(m.sources.length, 'source')} · ${count(paths, 'path')}`;
  const lines = [`Mounted ${m.root}`, `search order from ${m.cfgPath}`];
  if (m.skipped.length) lines.push(`${count(m.skipped.length, 'cfg line')} skipped`);
  if (!m.broken.length) return { text: `$(archive) SoW: ${counts}`, tooltip: [...lines, 'Click for the search order.'].join('\n'), incomplete: false };
  const broken = m.broken.map((b) => `  ${describeBroken(b)}`);
  return {
    text: `$(warning) SoW: ${count(m.sources.length, 'source')} · ${m.broken.length} broken · ${count(paths, 'path')}`,
    tooltip: [
      `The mount is incomplete: ${m.broken.length === 1 ? 'a source the cfg names is not a valid archive' : `${m.broken.length} sources the cfg names are not valid archives`}; their files are not in the merged view.`,
      ...broken,
      '',
      ...lines,
      'Click for the search order.',
    ].join('\n'),
    incomplete: true,
  };
}

/** One line about one broken source: `Mod.arch06 (cfg line 12): not an LTAR archive`. */
export function describeBroken(b: BrokenSourceInfo): string {
  return `${baseName(b.path) || b.text} (${b.line ? `cfg line ${b.line}` : '-arch'}): ${b.reason}`;
}

/** The warning shown once when a mount has broken sources, or undefined when it has none. */
export function brokenNotice(broken: readonly BrokenSourceInfo[]): string | undefined {
  if (!broken.length) return undefined;
  const shown = broken.slice(0, 3).map(describeBroken);
  const more = broken.length > shown.length ? `; and ${broken.length - shown.length} more` : '';
  const what = broken.length === 1 ? 'a source the cfg names is not a valid archive' : `${broken.length} sources the cfg names are not valid archives`;
  return `arch06: the mount is incomplete: ${what} and ${broken.length === 1 ? 'was' : 'were'} not mounted: ${shown.join('; ')}${more}. The other sources are mounted.`;
}
