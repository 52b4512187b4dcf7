/** Commands that read a mounted install: mount, which, cat, ls, unhash, verify (with a progress line on a terminal: cli/progress.ts). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../../core/errors';
import { formatHash, parseHash } from '../../core/hash';
import { BundleFolder, Mount, bundleFolderPath, memberName, verifyMount } from '../../core/archive';
import type { BundleFolderPath } from '../../core/archive';
import { ParsedArgs, flagList, flagString, need } from '../args';
import { escapeName, formatSize, printJson, writeOut } from '../output';
import { ProgressLine } from '../progress';
import { RAISE_CAP_HINT, maxEntryBytes } from '../limits';

/** The mount a command reads, with the per-entry cap (ARCH06_MAX_ENTRY_BYTES) every whole-entry read keeps. */
export function openMount(args: ParsedArgs): Mount {
  const root = need(args, 0, '<root> (the install folder)');
  return Mount.open({
    root,
    cfg: cfgOption(root, flagString(args, 'cfg')),
    extraArchives: flagList(args, 'arch'),
    maxEntryBytes: maxEntryBytes(),
    maxEntryHint: RAISE_CAP_HINT,
  });
}

const json = (args: ParsedArgs): boolean => args.flags.has('json');

/**
 * `--cfg FILE`: as given, or, when a relative FILE is not there but is under the install root,
 * that one (`arch06 mount <root> --cfg x64/arch06-mods.archcfg` from any folder).
 */
export function cfgOption(root: string, cfg: string | undefined): string | undefined {
  if (cfg === undefined || path.isAbsolute(cfg) || fs.existsSync(cfg)) return cfg;
  const underRoot = path.join(root, cfg);
  return fs.existsSync(underRoot) ? underRoot : cfg;
}

/** Failure and warning lines printed before "… and N more" (text output; --json has them all). */
const MAX_FAILURE_LINES = 50;

export function mountCommand(args: ParsedArgs): number {
  const m = openMount(args);
  const result = {
    cfg: m.cfgPath,
    sources: m.sources.map((s) => ({ name: s.name, kind: s.kind, path: s.diskPath, files: s.fileCount })),
    skipped: m.skipped,
    broken: m.broken.map((b) => ({ line: b.line, path: b.path, reason: b.reason, code: b.code })),
    unlisted: m.unlisted,
    paths: m.index().size,
    shadowed: m.index().shadowedCount(),
    maxCopies: m.index().maxCopies(),
  };
  if (json(args)) printJson(result);
  else {
    const lines = [`${m.cfgPath}`, `search order (consulted first = first):`];
    result.sources.forEach((s, i) =>
      lines.push(`  ${String(i + 1).padStart(3)}. ${s.name.padEnd(28)} ${s.kind.padEnd(9)} ${String(s.files).padStart(8)} ${s.files === 1 ? 'file' : 'files'}`),
    );
    for (const s of m.skipped) lines.push(`skipped line ${s.line}: ${escapeName(s.text)} (${s.reason})`);
    if (m.unlisted.length) lines.push(`not in the cfg, not mounted: ${m.unlisted.map(escapeName).join(', ')}`);
    lines.push(`${result.paths} distinct ${result.paths === 1 ? 'path' : 'paths'}, ${result.shadowed} with more than one copy (up to ${result.maxCopies})`);
    writeOut(lines.join('\n') + '\n');
  }
  m.close();
  // A broken source makes the mount incomplete: say so on stderr and fail, the rest is listed above.
  for (const b of m.broken) process.stderr.write(`arch06: broken source (cfg line ${b.line}) ${escapeName(b.path)}: ${escapeName(b.reason)}\n`);
  return m.broken.length ? 2 : 0;
}

export function whichCommand(args: ParsedArgs): number {
  const m = openMount(args);
  const p = need(args, 1, '<path>');
  const w = m.which(p);
  if (!w) throw new Arch06Error('NOT_FOUND', 'path not found in any mounted source', { file: p });
  const result = { path: w.path, winner: w.winner.source.name, size: w.winner.size, copies: w.copies.map((c) => c.source.name) };
  if (json(args))
    printJson({
      ...result,
      details: w.copies.map((c) => ({ source: c.source.name, kind: c.source.kind, size: c.size, storedSize: c.storedSize, storage: c.storage })),
    });
  else {
    const lines = [
      `${escapeName(w.path)}`,
      ...w.copies.map(
        (c, i) => `  ${i === 0 ? 'wins   ' : 'shadowed'} ${escapeName(c.source.name).padEnd(28)} ${formatSize(c.size).padStart(10)}  ${c.storage}`,
      ),
    ];
    writeOut(lines.join('\n') + '\n');
  }
  m.close();
  return 0;
}

export function catCommand(args: ParsedArgs): number {
  const m = openMount(args);
  const e = m.entry(need(args, 1, '<path>'), flagString(args, 'source'));
  const block = 16 << 20;
  for (let at = 0; at < e.size; at += block) writeOut(e.readSync(at, Math.min(e.size, at + block)));
  m.close();
  return 0;
}

export function lsCommand(args: ParsedArgs): number {
  const m = openMount(args);
  const folder = args.positionals[1] ?? '';
  const inBundle = bundleFolderPath(folder);
  if (inBundle) return lsBundleFolder(args, m, folder, inBundle);
  const l = m.list(folder);
  if (!l) throw new Arch06Error('NOT_FOUND', 'folder not found in any mounted source', { file: folder || '(root)' });
  if (json(args)) {
    printJson({
      folder,
      folders: l.folders.map((f) => ({ name: f.name, sources: f.sources.map((s) => s.name) })),
      files: l.files.map((f) => ({ name: f.name, size: f.winner.size, winner: f.winner.source.name, copies: f.copies })),
    });
  } else {
    const lines = [
      ...l.folders.map((f) => `${escapeName(f.name)}\\`),
      ...l.files.map(
        (f) =>
          `${escapeName(f.name).padEnd(48)} ${formatSize(f.winner.size).padStart(10)}  ${escapeName(f.winner.source.name)}${f.copies > 1 ? ` (+${f.copies - 1} shadowed)` : ''}`,
      ),
    ];
    writeOut(lines.join('\n') + (lines.length ? '\n' : ''));
  }
  m.close();
  return 0;
}

/**
 * `ls <root> "<dir>\x.bndl [bundle]\<folder>"`: one folder of a bundle's members, as the
 * extension shows it, each file with where the engine serves it from (container, loose, missing).
 */
function lsBundleFolder(args: ParsedArgs, m: Mount, folder: string, at: BundleFolderPath): number {
  const b = BundleFolder.open(m, at.bundle);
  const l = b.list(at.member);
  if (!l) throw new Arch06Error('NOT_FOUND', 'folder not found in the bundle', { file: `${at.bundle}: ${at.member || '(root)'}` });
  const { manifest, container } = b.bundle;
  if (json(args)) {
    printJson({
      folder,
      bundle: { manifest: { path: manifest.path, source: manifest.source }, container: container && { path: container.path, source: container.source } },
      folders: l.folders.map((name) => ({ name })),
      files: l.files.map((f) => ({
        name: memberName(f),
        path: f.path,
        servedFrom: f.servedFrom,
        source: f.source,
        size: f.size,
        declaredSize: f.declaredSize,
        sizeMatchesDeclared: f.sizeMatchesDeclared,
        note: f.note,
      })),
    });
  } else {
    const served = (f: (typeof l.files)[number]): string => {
      if (f.servedFrom === 'missing') return 'missing (declared by the manifest, shipped nowhere)';
      if (f.servedFrom === 'empty') return 'empty (declared with 0 bytes: a container stores no zero-size member)';
      const size = f.sizeMatchesDeclared ? '' : ` (the manifest declares ${formatSize(f.declaredSize)})`;
      return `${f.servedFrom === 'loose' ? 'loose' : 'container'} ${escapeName(f.source ?? '')}${size}`;
    };
    const lines = [
      ...l.folders.map((f) => `${escapeName(f)}\\`),
      ...l.files.map((f) => `${escapeName(memberName(f)).padEnd(48)} ${(f.size === undefined ? '-' : formatSize(f.size)).padStart(10)}  ${served(f)}`),
    ];
    writeOut(lines.join('\n') + (lines.length ? '\n' : ''));
  }
  m.close();
  return 0;
}

export function unhashCommand(args: ParsedArgs): number {
  const m = openMount(args);
  const h = parseHash(need(args, 1, '<0xHASH>'));
  const hits = m.unhash(h);
  m.close();
  if (hits.length === 0) throw new Arch06Error('NOT_FOUND', `no known path hashes to ${formatHash(h)}`);
  if (json(args)) printJson({ hash: formatHash(h), paths: hits });
  else writeOut(hits.map((x) => `${escapeName(x.path)}\t(${x.from})`).join('\n') + '\n');
  return 0;
}

export function verifyCommand(args: ParsedArgs): number {
  const m = openMount(args);
  // On a terminal only (and not with --quiet): stdout keeps the report, --json included.
  const progress = new ProgressLine(process.stderr, 'verifying', { quiet: args.flags.has('quiet') });
  let report;
  try {
    progress.start(m.sources.reduce((n, s) => n + s.fileCount, 0));
    report = verifyMount(m, { onProgress: progress.enabled ? (done, total, _current, bytes) => progress.update(done, total, bytes) : undefined });
  } finally {
    progress.end();
  }
  m.close();
  if (json(args)) printJson(report);
  else {
    const lines = [`${report.sources} sources, ${report.entries} entries, ${formatSize(report.bytes)} decoded, ${report.failures.length} failures`];
    // Every failure in --json; here the first ones, so a crafted archive cannot flood the terminal.
    for (const f of report.failures.slice(0, MAX_FAILURE_LINES))
      lines.push(`FAIL ${escapeName(f.source)}${f.path ? ':' + escapeName(f.path) : ''}: ${escapeName(f.message)}`);
    if (report.failures.length > MAX_FAILURE_LINES) lines.push(`… and ${report.failures.length - MAX_FAILURE_LINES} more failures (--json lists all)`);
    const { stored = 0, ...decoded } = report.chunksByCodec;
    const codecs = Object.entries(decoded);
    if (codecs.length || stored)
      lines.push(
        `${codecs.reduce((t, [, n]) => t + n, 0)} chunks decoded (${codecs.map(([codec, n]) => `${codec} ${n}`).join(', ') || 'none'}), ${stored} stored`,
      );
    for (const [codec, n] of Object.entries(report.unsupportedChunks)) lines.push(`unsupported codec ${codec}: ${n} chunks`);
    for (const [codec, n] of Object.entries(report.unsupportedForms)) lines.push(`unsupported ${codec} form: ${n} chunks`);
    for (const w of report.warnings.slice(0, MAX_FAILURE_LINES)) lines.push(`warning ${escapeName(w.source)}: ${escapeName(w.message)}`);
    if (report.warnings.length > MAX_FAILURE_LINES) lines.push(`… and ${report.warnings.length - MAX_FAILURE_LINES} more warnings (--json lists all)`);
    writeOut(lines.join('\n') + '\n');
  }
  const n = report.failures.length;
  if (n) process.stderr.write(`arch06: verify: ${n} failure${n === 1 ? '' : 's'} in ${report.entries} entries of ${report.sources} sources\n`);
  // The disk changed under the run: say so apart from the failures, with what to do.
  for (const c of report.changed)
    process.stderr.write(
      `arch06: verify: ${escapeName(c.source)} changed on disk during the run (${escapeName(c.detail)}); ${c.unchecked} of its entries were not checked: run verify again\n`,
    );
  return report.failures.length === 0 ? 0 : 2;
}
