/**
 * What the Search Order view shows, as plain data: no `vscode` import, so it can be unit-tested in
 * plain node (searchOrderView.ts turns these nodes into TreeItems).
 *
 * Top to bottom: one summary line (`7 sources · 1 broken · 0 skipped · 2 not in the cfg`: the state
 * at a glance, however short the pane), the broken sources (cfg lines naming a file that is not a valid archive: the
 * mount is incomplete, so they come first), then the mounted sources in the order the engine
 * consults them (first wins), then the cfg lines that were skipped and why, then the archives the
 * cfg does not name. Broken sources are grouped at the top rather than placed at their cfg line:
 * the mount does not record which line each mounted source came from.
 */

import { sourceFolderName } from '../../core/archive';
import { mdText } from '../../core/io';

/** The parts of a `Mount` (core/archive/mount.ts) the view reads. */
export interface SearchOrderMount {
  readonly cfgPath: string;
  readonly sources: readonly { readonly name: string; readonly kind: 'archive' | 'directory'; readonly diskPath: string; readonly fileCount: number }[];
  readonly skipped: readonly { readonly line: number; readonly text: string; readonly reason: string }[];
  readonly unlisted: readonly string[];
  readonly broken: readonly BrokenSourceInfo[];
}

/** Mirrors `BrokenSource` of core/archive/mount.ts. */
export interface BrokenSourceInfo {
  /** 1-based cfg line, 0 for an -arch archive. */
  readonly line: number;
  readonly text: string;
  readonly path: string;
  readonly reason: string;
  readonly code: string;
}

/** A codicon, optionally tinted with a theme colour id. */
export interface NodeIcon {
  id: string;
  color?: string;
}

/** What clicking a node does. */
export type NodeAction =
  /** Reveal the source's folder (`arch06:/@sources/<folder>`, `folder` numbered as listed there) in the Explorer. */
  | { kind: 'revealSource'; source: string; folder: string }
  /** Open the cfg at a 1-based line. */
  | { kind: 'openCfg'; line: number };

export interface SearchOrderNode {
  /** Stable within one mount, for the tree's identity. */
  id: string;
  kind: 'summary' | 'source' | 'broken' | 'skipped' | 'unlisted' | 'group';
  label: string;
  description?: string;
  /** Markdown when `tooltipIsMarkdown`, else plain text. */
  tooltip?: string;
  tooltipIsMarkdown?: boolean;
  icon?: NodeIcon;
  /** For a source: its name, so the view can give it the source's URI (Explorer decorations). */
  source?: string;
  /** For a source: its `@sources` folder name (`01 Patch_02.arch06`, core/archive/viewPaths.ts). */
  folder?: string;
  contextValue?: string;
  action?: NodeAction;
  /** Groups only; shown expanded. */
  children?: SearchOrderNode[];
}

const ERROR_ICON: NodeIcon = { id: 'error', color: 'errorForeground' };

/** The view's top-level nodes for a mount (groups carry their children). */
export function searchOrderNodes(m: SearchOrderMount): SearchOrderNode[] {
  const out: SearchOrderNode[] = [summaryNode(m)];
  if (m.broken.length) {
    out.push({
      id: 'group:broken',
      kind: 'group',
      label: `Broken sources (${m.broken.length})`,
      description: 'not mounted: the mount is incomplete',
      icon: ERROR_ICON,
      tooltip: 'Files the archive config list names that are not valid archives. The game would not load their files; every other source is mounted.',
      children: m.broken.map((b, i) => brokenNode(m, b, i)),
    });
  }
  m.sources.forEach((s, index) => {
    const folder = sourceFolderName(index + 1, m.sources.length, s.name);
    out.push({
      id: `source:${index}:${s.name}`,
      kind: 'source',
      label: `${index + 1}. ${s.name}`,
      description: `${s.kind} · ${count(s.fileCount, 'file')}`,
      tooltip: `**${mdText(s.name)}** (${s.kind})\n\n${mdText(s.diskPath)}\n\nConsulted ${ordinal(index + 1)} of ${m.sources.length}: a path it holds is shadowed only by the sources above it.`,
      tooltipIsMarkdown: true,
      icon: { id: s.kind === 'archive' ? 'archive' : 'folder-library' },
      source: s.name,
      folder,
      contextValue: 'arch06.source',
      action: { kind: 'revealSource', source: s.name, folder },
    });
  });
  if (m.skipped.length) {
    out.push({
      id: 'group:skipped',
      kind: 'group',
      label: `Skipped cfg lines (${m.skipped.length})`,
      icon: { id: 'warning' },
      tooltip: 'Lines of the archive config list that name nothing on disk, or a source mounted again at a later line.',
      children: m.skipped.map((s, i) => ({
        id: `skipped:${i}`,
        kind: 'skipped' as const,
        label: s.text,
        description: s.line ? `line ${s.line}: ${s.reason}` : s.reason,
        tooltip: `${m.cfgPath}${s.line ? `:${s.line}` : ''}\n${s.reason}`,
        action: s.line ? { kind: 'openCfg' as const, line: s.line } : undefined,
      })),
    });
  }
  if (m.unlisted.length) {
    out.push({
      id: 'group:unlisted',
      kind: 'group',
      label: `Not in the cfg (${m.unlisted.length})`,
      icon: { id: 'circle-slash' },
      tooltip: 'Archives in the install folder that the config list does not name: the game does not mount them.',
      children: m.unlisted.map((name) => ({ id: `unlisted:${name}`, kind: 'unlisted' as const, label: name, description: 'not mounted' })),
    });
  }
  return out;
}

/** `n thing` / `n things`. */
const count = (n: number, one: string, many = one + 's'): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** The one-line summary at the top: mounted sources, broken ones, skipped cfg lines, archives the cfg does not name. */
export function summaryText(m: SearchOrderMount): string {
  return `${count(m.sources.length, 'source')} · ${m.broken.length} broken · ${m.skipped.length} skipped · ${m.unlisted.length} not in the cfg`;
}

function summaryNode(m: SearchOrderMount): SearchOrderNode {
  const lines = [
    `${count(m.sources.length, 'source')} mounted, in search order below (the first that holds a path wins).`,
    `${count(m.broken.length, 'broken source')}: files the cfg names that are not valid archives${m.broken.length ? ' (the mount is incomplete)' : ''}.`,
    `${count(m.skipped.length, 'skipped cfg line')}: naming nothing on disk, or a source mounted again.`,
    `${count(m.unlisted.length, 'archive')} in the install folder not in the cfg (the game does not mount them).`,
    '',
    `Click to open ${m.cfgPath}.`,
  ];
  return {
    id: 'summary',
    kind: 'summary',
    label: summaryText(m),
    tooltip: lines.join('\n'),
    icon: m.broken.length ? ERROR_ICON : m.skipped.length || m.unlisted.length ? { id: 'warning' } : { id: 'pass' },
    action: { kind: 'openCfg', line: 1 },
  };
}

function brokenNode(m: SearchOrderMount, b: BrokenSourceInfo, i: number): SearchOrderNode {
  const where = b.line ? `cfg line ${b.line}` : '-arch archive';
  return {
    id: `broken:${i}:${b.path}`,
    kind: 'broken',
    label: baseName(b.path) || b.text,
    description: `${b.line ? `line ${b.line}: ` : ''}${b.reason}`,
    tooltip: `Not mounted: ${b.reason} (${b.code})\n${b.path}\n${b.line ? `${m.cfgPath}:${b.line}: ${b.text}` : `${where}: ${b.text}`}`,
    icon: ERROR_ICON,
    contextValue: 'arch06.brokenSource',
    action: b.line ? { kind: 'openCfg', line: b.line } : undefined,
  };
}

/** The last segment of a Windows or POSIX path. */
export function baseName(p: string): string {
  const trimmed = p.replace(/[\\/]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1);
}

export function ordinal(n: number): string {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}
