/** Commands that read a mounted install: mount, which, cat, ls, unhash, verify (with a progress line on a terminal: cli/progress.ts). */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Arch06Error } from '../../core/errors';
import { HL_UNKNOWN, HashDictionary, formatHash, namesOfHash, parseHashQuery } from '../../core/hash';
import { addUserNames, collectInstallNames } from '../../core/nameSources';
import type { CollectReport } from '../../core/nameSources';
import { readTextFile } from '../../core/io/node';
import { BundleFolder, Mount, bundleFolderPath, locateAddress, memberName, verifyMountParallel } from '../../core/archive';
import type { BundleFolderPath, Located } from '../../core/archive';
import { ParsedArgs, flagList, flagString, need } from '../args';
import { escapeName, formatSize, printJson, writeOut } from '../output';
import { ProgressLine } from '../progress';
import { RAISE_CAP_HINT, maxEntryBytes } from '../limits';
import { cliCacheFolder, cliMountCache } from '../cache';

/**
 * The mount a command reads, with the per-entry cap (ARCH06_MAX_ENTRY_BYTES) every whole-entry read keeps.
 * `cached`: the command hands it to the mount cache at once (cli/cache.ts), so the archives' tables
 * wait until used when the cache has the index (core/archive/mountCache.ts).
 */
export function openMount(args: ParsedArgs, options: { cached?: boolean } = {}): Mount {
  const root = need(args, 0, '<root> (the install folder)');
  return Mount.open({
    root,
    cfg: cfgOption(root, flagString(args, 'cfg')),
    extraArchives: flagList(args, 'arch'),
    maxEntryBytes: maxEntryBytes(),
    maxEntryHint: RAISE_CAP_HINT,
    deferTables: options.cached === true && cliCacheFolder() !== undefined,
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
  const m = openMount(args, { cached: true });
  cliMountCache(m);
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
  // A bundle member (a bundle folder's, or the part file of a bundle of its stem) is served from its bundle.
  const at = locateAddress(m, p);
  if (at.member && at.bundle) return whichMember(args, m, at);
  const w = m.which(at.entry.path);
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

/** `which` of a bundle member: the copy served (loose, else the container's) and the copy the container embeds below it. */
function whichMember(args: ParsedArgs, m: Mount, at: Located): number {
  const b = at.bundle!;
  const member = at.member!;
  const container = b.container && member.embedded ? { path: b.container.path, source: b.container.source, size: member.embedded.size } : undefined;
  const result = {
    path: member.path,
    winner: at.entry.source.name,
    size: at.entry.size,
    servedFrom: at.servedFrom,
    bundle: b.manifest.path,
    copies: [...(at.servedFrom === 'loose' ? (m.which(at.entry.path)?.copies.map((c) => c.source.name) ?? []) : []), ...(container ? [container.source] : [])],
    container: container ?? null,
  };
  if (json(args)) printJson(result);
  else {
    const lines = [`${escapeName(member.path)}  (a member of ${escapeName(b.manifest.path)})`];
    const looseCopies = at.servedFrom === 'loose' ? (m.which(at.entry.path)?.copies ?? []) : [];
    looseCopies.forEach((c, i) =>
      lines.push(`  ${i === 0 ? 'wins   ' : 'shadowed'} ${escapeName(c.source.name).padEnd(28)} ${formatSize(c.size).padStart(10)}  loose`),
    );
    if (container)
      lines.push(
        `  ${looseCopies.length ? 'shadowed' : 'wins   '} ${escapeName(container.source).padEnd(28)} ${formatSize(container.size).padStart(10)}  in the container ${escapeName(container.path)}`,
      );
    writeOut(lines.join('\n') + '\n');
  }
  m.close();
  return 0;
}

export function catCommand(args: ParsedArgs): number {
  const m = openMount(args);
  // A mount path, a bundle folder's member, or a world part's file served from its bundle's container.
  const e = locateAddress(m, need(args, 1, '<path>'), { source: flagString(args, 'source') }).entry;
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

/** A user's word list read by `unhash --dict` at most (as the extension's `arch06.hashDictionaries`). */
const MAX_DICT_FILE = 64 << 20;

/**
 * `unhash <root> <0xHASH> [--dict FILE]…`: the name a hash stands for, from the dictionary the
 * editors and the language server use (core/nameSources `collectInstallNames`: every path and
 * bundle member, the path indexes, every script's literals and definitions, every registry's
 * names, every skeleton's) plus the user's word lists, each name with where it came from.
 */
export async function unhashCommand(args: ParsedArgs): Promise<number> {
  const m = openMount(args);
  // `0x…hi` as a script writes it is a hi hash (core/hash/literal.ts); any other value a StringHash.
  const query = parseHashQuery(need(args, 1, '<0xHASH>'));
  if (query.kind === 'hl') throw new Arch06Error('BAD_ARGUMENT', `${need(args, 1, '<0xHASH>')}: ${HL_UNKNOWN.replace(/`/g, '')}`);
  const h = query.hash;
  const label = query.kind === 'hi' ? `hi hash ${formatHash(h)}` : formatHash(h);
  // The word lists first: a file that cannot be read fails before the install is walked.
  const userLists = flagList(args, 'dict').map((file) => readTextFile(file, MAX_DICT_FILE));
  const dict = new HashDictionary();
  let report: CollectReport;
  try {
    report = await collectInstallNames(m, dict);
  } finally {
    m.close();
  }
  for (const text of userLists) addUserNames(dict, text);
  const e = namesOfHash(dict, query);
  const names = e ? [{ name: e.name, origin: e.origin }, ...(e.others ?? [])] : [];
  if (names.length === 0) {
    const where = `${report.paths} paths, ${report.members} bundle members, ${report.scripts} scripts, ${report.registries} registries, ${report.skeletons} skeletons`;
    throw new Arch06Error(
      'NOT_FOUND',
      `no known name hashes to ${label} (looked through the names of ${where}${report.truncated ? `; ${report.truncated}` : ''})`,
    );
  }
  if (json(args)) printJson({ hash: formatHash(h), function: query.kind === 'hi' ? 'hi' : 'StringHash', names });
  else writeOut(names.map((x) => `${escapeName(x.name)}\t(${x.origin})`).join('\n') + '\n');
  return 0;
}

/** `--jobs N`: threads for whole-game work (default: the machine's cores). */
export function jobsOption(args: ParsedArgs): number {
  const given = flagString(args, 'jobs');
  if (given === undefined) return os.availableParallelism();
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new Arch06Error('BAD_ARGUMENT', `--jobs takes a whole number from 1 to 256, not ${JSON.stringify(given)}`);
  return n;
}

/** The worker pool's entry, bundled beside the CLI (dist/poolWorker.js). */
export function poolWorkerFile(): string {
  return path.join(path.dirname(path.resolve(process.argv[1])), 'poolWorker.js');
}

export async function verifyCommand(args: ParsedArgs): Promise<number> {
  const jobs = jobsOption(args);
  const m = openMount(args);
  // On a terminal only (and not with --quiet): stdout keeps the report, --json included.
  const progress = new ProgressLine(process.stderr, 'verifying', { quiet: args.flags.has('quiet') });
  let report;
  try {
    progress.start(m.sources.reduce((n, s) => n + s.fileCount, 0));
    const onProgress = progress.enabled ? (done: number, total: number, _current: string, bytes: number) => progress.update(done, total, bytes) : undefined;
    // The pool's entry beside the CLI's bundle (dist/poolWorker.js): each worker opens the archives it checks itself.
    const { units: _units, jobs: _jobs, ...r } = await verifyMountParallel(m, { jobs, workerFile: poolWorkerFile(), onProgress });
    report = r;
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
