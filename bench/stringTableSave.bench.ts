/**
 * Saving a string table the size of the game's English one (seed 004: 68,547 keys; generated with
 * writeSkdb) after one edit (issue 24), beside writing the same bytes with node's own fs in the
 * same run:
 *
 * - save: change one key's text in the open `StringTableDocument`, serialise it (offsets
 *   recomputed; the unedited text stays views of the bytes read) and write it through the one
 *   write primitive (`writeFileAtomic` with the parts: checked folder, exclusive temp file, fsync,
 *   rename);
 * - baselines: `fs.writeFileSync` of the same bytes (no temp file, no flush), and the same
 *   followed by `fsync` (what the primitive's durability costs on its own);
 * - the engine alone: the same edit and serialise, the parts written with `fs.writevSync`;
 * - the editor's save (extension/editors/editableEditor.ts through mods/editorSaveTarget.ts): the
 *   same edit, serialised, written into a mod folder at its game path with core/mod `writeModFile`
 *   (the path checked against the engine's rules, the install forbidden, then the primitive).
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
    const save: number[] = [];
    const serialise: number[] = [];
    const writeFile: number[] = [];
    const writeFileSync: number[] = [];
    const engineOnly: number[] = [];
    const bare = path.join(dir, 'bare.strdb');
    const modSave: number[] = [];
    const mod = path.join(dir, 'MyMod');
    const install = path.join(dir, 'game');
    let out = bytes;
    for (let i = 0; i <= RUNS; i++) {
      // The edit: a key in the middle gets a longer text, so every later offset moves.
      const key = stringHash(names[(KEYS >> 1) + i]);
      const s = performance.now();
      doc.setText(key, `An edited line of dialogue, number ${i}, longer than before.`);
      const parts = doc.toParts();
      const m = performance.now();
      writeFileAtomic(target, parts);
      out = Buffer.concat(parts);
      const e = performance.now();
      fs.writeFileSync(plain, out); // the baselines write the same bytes, already in one buffer
      const p = performance.now();
      const fd = fs.openSync(synced, 'w');
      fs.writeSync(fd, out);
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      const q = performance.now();
      // The engine's part alone: the same edit and serialise, the parts written by fs.writevSync.
      const key2 = stringHash(names[(KEYS >> 2) + i]);
      const r = performance.now();
      doc.setText(key2, `Another edited line, number ${i}.`);
      const fdBare = fs.openSync(bare, 'w');
      fs.writevSync(fdBare, doc.toParts());
      fs.closeSync(fdBare);
      const u = performance.now();
      // The editor's save: an edit, then the parts into the mod at the table's game path.
      const key3 = stringHash(names[(KEYS >> 3) + i]);
      const v = performance.now();
      doc.setText(key3, `A third edited line, number ${i}.`);
      writeModFile(mod, 'database\\string\\enus\\string.strdb', doc.toParts(), { overwrite: true, forbid: [install] });
      const w = performance.now();
      if (i === 0) continue; // warm-up
      modSave.push(w - v);
      engineOnly.push(u - r);
      serialise.push(m - s);
      save.push(e - s);
      writeFile.push(p - e);
      writeFileSync.push(q - p);
    }
    if (!Buffer.from(fs.readFileSync(target)).equals(Buffer.from(out))) throw new Error('the saved file is not what was serialised');
    const rows = [
      [
        `save after one edit: edit + serialise + writeFileAtomic (target ≤ 3× fs.writeFile)`,
        ms(median(save)),
        `fs.writeFileSync ${ms(median(writeFile))}`,
        ratio(median(save), median(writeFile)),
      ],
      [
        '  the same, against a write that is flushed too',
        ms(median(save)),
        `fs.writeSync + fsync ${ms(median(writeFileSync))}`,
        ratio(median(save), median(writeFileSync)),
      ],
      ['  of which edit + serialise', ms(median(serialise)), '', ''],
      [
        'edit + serialise + fs.writevSync of the parts (the engine without the primitive)',
        ms(median(engineOnly)),
        `fs.writeFileSync ${ms(median(writeFile))}`,
        ratio(median(engineOnly), median(writeFile)),
      ],
      [
        "the editor's save into a mod: edit + serialise + writeModFile at the game path",
        ms(median(modSave)),
        `fs.writeFileSync ${ms(median(writeFile))}`,
        ratio(median(modSave), median(writeFile)),
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
