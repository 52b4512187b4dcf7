/**
 * The `arch06:` workspace's hot paths on the full-scale synthetic install, measured on the engine
 * calls the extension makes (the FileSystemProvider and Go to File are thin over them): time
 * from the mount command to a browsable root, readDirectory of the root and of a 10,000-entry
 * folder, and Go to File filtering per keystroke over every path.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount } from '../core/archive';
import { FuzzyIndex } from '../core/search';
import { WIDE_FOLDER } from './synthInstall';

const dataDir = path.resolve(__dirname, '..', '..', 'bench-data', 'full');
const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(0)) + ' ms';
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const time = (f: () => void): number => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

function main(): void {
  if (!fs.existsSync(path.join(dataDir, '.version'))) {
    process.stdout.write('workspace bench: run archive.bench first (it generates bench-data/full)\n');
    return;
  }
  const rows: string[][] = [];
  // Command to browsable tree: mount, distinct-path index (status bar), root listing — a fresh process's first time.
  let m!: Mount;
  const toTree = time(() => {
    m = Mount.open({ root: dataDir });
    m.index();
    m.list('');
  });
  rows.push(['mount command → browsable root (first time in this process)', ms(toTree), '≤ 2 s']);
  rows.push(['readDirectory(root), median of 9', ms(median([...Array(9)].map(() => time(() => m.list(''))))), '']);
  rows.push([
    `readDirectory(${WIDE_FOLDER.files.toLocaleString('en')}-entry folder), median of 9`,
    ms(median([...Array(9)].map(() => time(() => m.list(WIDE_FOLDER.path))))),
    '',
  ]);

  let fuzzy!: FuzzyIndex;
  const build = time(() => {
    fuzzy = new FuzzyIndex(m.distinctPaths());
  });
  rows.push([`Go to File: build the index over ${fuzzy.size.toLocaleString('en')} paths (once per mount)`, ms(build), '']);
  for (const word of ['layer_0012', 'orc_set', 'gamedb', 'xq']) {
    const perKey: number[] = [];
    fuzzy.match(''); // a fresh query, as when the picker opens
    for (let i = 1; i <= word.length; i++) perKey.push(time(() => fuzzy.match(word.slice(0, i), 200)));
    rows.push([
      `Go to File: typing "${word}", per keystroke (first / max / mean)`,
      `${ms(perKey[0])} / ${ms(Math.max(...perKey))} / ${ms(perKey.reduce((a, b) => a + b, 0) / perKey.length)}`,
      '≤ 50 ms',
    ]);
  }
  m.close();
  process.stdout.write(
    [
      '### The arch06: workspace (engine side) on the full-scale synthetic install',
      '',
      '| measure | time | target |',
      '|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
    ].join('\n') + '\n',
  );
}

main();
