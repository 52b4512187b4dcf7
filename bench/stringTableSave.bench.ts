/**
 * Saving a string table the size of the game's English one (seed 004: 68,547 keys; generated with
 * writeSkdb) after one edit (issue 24), beside writing the same bytes with node's own fs in the
 * same run:
 *
 * - the editor's save (extension/editors/editableEditor.ts through mods/editorSaveTarget.ts): change
 *   one key's text in the open `StringTableDocument`, serialise it (offsets recomputed; the
 *   unedited text stays views of the bytes read) and write it into a mod folder at its game path
 *   with core/mod `writeModFile` (the path checked against the engine's rules, the install
 *   forbidden, then the one write primitive: checked folder, exclusive temp file, fsync, rename),
 *   also against a plain write followed by `fsync` (what the primitive's durability costs alone);
 * - `writeFileAtomic` of the same (the primitive without the mod's checks);
 * - baselines: `fs.writeFileSync` of the same bytes (no temp file, no flush), and the same
 *   followed by `fsync`;
 * - the engine alone: the same edit and serialise, the parts written with `fs.writevSync`.
 *
 * Target (issue 24): save ≤ 3× the plain fs.writeFile.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StringTableDocument, writeSkdb } from '../core/formats/strings';
import { stringHash } from '../core/hash';
import { writeFileAtomic } from '../core/io/node';
import { writeModFile } from '../core/mod';
import { prng } from './prng';

const KEYS = 68_547;
const RUNS = 15;
const WORDS = 'the of and to ranger wraith uruk olog fortress shelob nemesis captain warchief overlord follower betrayal ambush blade arrow shadow'.split(' ');

/** About 7.8 MB, as the shipped English table (seed 004: 7,797,584 bytes): ~53 UTF-16 units a key. */
function generate(): { bytes: Uint8Array; names: string[] } {
  const rnd = prng(0x5a7e);
  const names: string[] = [];
  const entries = [];
  for (let i = 0; i < KEYS; i++) {
    const name = `UI_Save_${i.toString(36)}`;
    names.push(name);
    const words = 2 + Math.floor(rnd() * rnd() * 18);
    entries.push({ hash: stringHash(name), text: Array.from({ length: words }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ') + '.' });
  }
  return { bytes: writeSkdb(entries), names };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(0)) + ' ms';
const ratio = (a: number, b: number): string => (a / b).toFixed(2) + '×';

function main(): void {
  const { bytes, names } = generate();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arch06-bench-save-'));
  try {
    const t0 = performance.now();
    const doc = StringTableDocument.read(bytes, 'string.strdb');
    const tOpen = performance.now() - t0;
    const target = path.join(dir, 'string.strdb');
    const plain = path.join(dir, 'plain.strdb');
    const synced = path.join(dir, 'synced.strdb');
    const modSave: number[] = [];
    const atomic: number[] = [];
    const serialise: number[] = [];
    const writeFile: number[] = [];
    const writeFileSynced: number[] = [];
    const engineOnly: number[] = [];
    const bare = path.join(dir, 'bare.strdb');
    const mod = path.join(dir, 'MyMod');
    const install = path.join(dir, 'game');
    const gamePath = 'database\\string\\enus\\string.strdb';
    let out = bytes;
    for (let i = 0; i <= RUNS; i++) {
      const keep = i > 0; // the first round warms up
      // The editor's save: a key in the middle gets a longer text, so every later offset moves.
      const s = performance.now();
      doc.setText(stringHash(names[(KEYS >> 1) + i]), `An edited line of dialogue, number ${i}, longer than before.`);
      const parts = doc.toParts();
      const m = performance.now();
      writeModFile(mod, gamePath, parts, { overwrite: true, forbid: [install] });
      const e = performance.now();
      out = Buffer.concat(parts); // the baselines write the same bytes, already in one buffer
      const p = performance.now();
      fs.writeFileSync(plain, out);
      const q = performance.now();
      const fd = fs.openSync(synced, 'w');
      fs.writeSync(fd, out);
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      const r = performance.now();
      // The primitive alone.
      doc.setText(stringHash(names[(KEYS >> 2) + i]), `Another edited line, number ${i}.`);
      writeFileAtomic(target, doc.toParts());
      const t = performance.now();
      // The engine's part alone: the same edit and serialise, the parts written by fs.writevSync.
      doc.setText(stringHash(names[(KEYS >> 3) + i]), `A third edited line, number ${i}.`);
      const fdBare = fs.openSync(bare, 'w');
      fs.writevSync(fdBare, doc.toParts());
      fs.closeSync(fdBare);
      const u = performance.now();
      if (!keep) continue;
      serialise.push(m - s);
      modSave.push(e - s);
      writeFile.push(q - p);
      writeFileSynced.push(r - q);
      atomic.push(t - r);
      engineOnly.push(u - t);
    }
    if (!Buffer.from(fs.readFileSync(path.join(mod, ...gamePath.split('\\')))).equals(Buffer.from(out)))
      throw new Error('the saved file is not what was serialised');
    const plainMs = `fs.writeFileSync ${ms(median(writeFile))}`;
    const rows = [
      [
        "**the editor's save into a mod after one edit**: edit + serialise + writeModFile (target ≤ 3× fs.writeFile)",
        ms(median(modSave)),
        plainMs,
        ratio(median(modSave), median(writeFile)),
      ],
      [
        '  the same, against a write that is flushed too',
        ms(median(modSave)),
        `fs.writeSync + fsync ${ms(median(writeFileSynced))}`,
        ratio(median(modSave), median(writeFileSynced)),
      ],
      ['  of which edit + serialise', ms(median(serialise)), '', ''],
      ['edit + serialise + writeFileAtomic (the primitive without the mod path checks)', ms(median(atomic)), plainMs, ratio(median(atomic), median(writeFile))],
      [
        'edit + serialise + fs.writevSync of the parts (the engine without the primitive)',
        ms(median(engineOnly)),
        plainMs,
        ratio(median(engineOnly), median(writeFile)),
      ],
      ['open: read and cut into strings (once per editor)', ms(tOpen), '', ''],
    ];
    const lines = [
      `### String-table save (${KEYS.toLocaleString('en')} keys, ${(bytes.length / 1048576).toFixed(1)} MB, median of ${RUNS}; node ${process.version})`,
      '',
      '| measure | arch06 | baseline (same run) | ratio |',
      '|---|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
