/** `extract <root> <path|folder> <outdir>`: copy files out of the mount onto disk. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../../core/errors';
import { toGamePath } from '../../core/archive/gamePath';
import { SourceEntry } from '../../core/archive/source';
import { ParsedArgs, flagString, need } from '../args';
import { openMount } from './mountCommands';
import { printJson, writeOut } from '../output';

export function extractCommand(args: ParsedArgs): number {
  const m = openMount(args);
  const target = toGamePath(need(args, 1, '<path|folder>'));
  const outDir = path.resolve(need(args, 2, '<outdir>'));
  // The install is read-only to this tool: never extract into it.
  const rel = path.relative(m.root, outDir);
  if (!rel.startsWith('..') && !path.isAbsolute(rel)) {
    throw new Arch06Error('BAD_ARGUMENT', 'refusing to extract into the install folder (it is read-only to arch06); choose another folder', { file: outDir });
  }
  const sourceName = flagString(args, 'source');
  const entries: SourceEntry[] = [];
  let single: SourceEntry | undefined;
  try {
    single = target ? m.entry(target, sourceName) : undefined;
  } catch (e) {
    if (!(e instanceof Arch06Error && e.code === 'NOT_FOUND')) throw e;
  }
  if (single) entries.push(single);
  else if (sourceName) {
    const s = m.source(sourceName);
    if (!s) throw new Arch06Error('NOT_FOUND', `no mounted source named ${sourceName}`);
    const walk = (folder: string): void => {
      const l = s.list(toGamePath(folder));
      if (!l) return;
      entries.push(...l.files);
      for (const d of l.folders) walk(folder ? `${folder}\\${d}` : d);
    };
    walk(target);
  } else entries.push(...m.walk(target));
  if (entries.length === 0) throw new Arch06Error('NOT_FOUND', 'no file or folder at this path', { file: target || '(root)' });

  let bytes = 0;
  const failures: { path: string; source: string; message: string }[] = [];
  const block = 16 << 20;
  for (const e of entries) {
    const dest = path.join(outDir, ...e.path.split('\\'));
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    // Written beside the target and renamed, so a failed entry never leaves a partial file.
    const tmp = `${dest}.part`;
    const fd = fs.openSync(tmp, 'w');
    let open = true;
    try {
      for (let at = 0; at < e.size; at += block) fs.writeSync(fd, e.readSync(at, Math.min(e.size, at + block)));
      fs.closeSync(fd);
      open = false;
      fs.renameSync(tmp, dest);
      bytes += e.size;
    } catch (err) {
      if (open) fs.closeSync(fd);
      fs.rmSync(tmp, { force: true });
      if (!(err instanceof Arch06Error)) throw err;
      failures.push({ path: e.path, source: e.source.name, message: err.message });
      process.stderr.write(`arch06: ${err.message}\n`);
    }
  }
  m.close();
  const written = entries.length - failures.length;
  if (args.flags.has('json')) printJson({ files: written, bytes, outDir, failures });
  else writeOut(`extracted ${written} files (${bytes} bytes) to ${outDir}${failures.length ? `; ${failures.length} failed` : ''}\n`);
  return failures.length ? 2 : 0;
}
