/**
 * The string-table editor's model (extension/editors/stringTableModel.ts) on a table the size of
 * the game's English one (seed 004: 68,547 keys), in two languages, generated with writeSkdb from
 * a seeded word list. Each figure is printed beside a baseline measured in the same run:
 *
 * - open: parse both SKDB tables + build the model + the first window of rows, against
 *   JSON.parse of the same keys and texts as JSON (what a tool keeping its tables as JSON pays
 *   just to read them);
 * - search as you type: a word typed letter by letter, each keystroke a search plus the first
 *   window, against the naive filter (lower-case every text and test it, on every keystroke);
 * - memory: heap after GC in a child process (--expose-gc), the model over the parsed tables.
 *
 * Targets (issue 14): open ≤ 500 ms, ≤ 50 ms per keystroke.
 */
import { spawnSync } from 'node:child_process';
import { parseSkdb, writeSkdb } from '../core/formats/strings';
import { HashDictionary, stringHash } from '../core/hash';
import { type LanguageTable, StringTableModel } from '../extension/editors/stringTableModel';
import { prng } from './prng';

const KEYS = 68_547;
const WINDOW = 120;
/** Typed letter by letter; a word of the generated vocabulary that many texts hold. */
const TYPED = 'orthanc';

const EN = (
  'the of and to a in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said ' +
  'there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see ' +
  'number no way could people my than first water been call who oil its now find long down day did get come made may part orthanc mordor ranger wraith uruk olog ' +
  'fortress shelob nemesis captain warchief overlord follower betrayal ambush blade arrow shadow memory ring gondor rohan minas ithil morgul'
).split(' ');
const FR = EN.map((w) => [...w].reverse().join('') + 'é');

interface Data {
  names: string[];
  en: Uint8Array;
  fr: Uint8Array;
  json: string;
}

function generate(): Data {
  const rnd = prng(0x5eed);
  const names: string[] = [];
  const enTexts: string[] = [];
  const frTexts: string[] = [];
  for (let i = 0; i < KEYS; i++) {
    names.push(`UI_Bench_${i.toString(36)}_${EN[Math.floor(rnd() * EN.length)]}`);
    const words = 2 + Math.floor(rnd() * rnd() * 40);
    const picks = Array.from({ length: words }, () => Math.floor(rnd() * EN.length));
    // Every 8th text repeats an earlier one, as shared strings do in the shipped tables.
    const shared = i > 0 && i % 8 === 0;
    enTexts.push(shared ? enTexts[i - 1] : picks.map((p) => EN[p]).join(' ') + '.');
    frTexts.push(shared ? frTexts[i - 1] : picks.map((p) => FR[p]).join(' ') + '.');
  }
  const hashes = names.map((n) => stringHash(n));
  const en = writeSkdb(hashes.map((hash, i) => ({ hash, text: enTexts[i] })));
  const fr = writeSkdb(hashes.map((hash, i) => ({ hash, text: frTexts[i] })));
  const json = JSON.stringify({ enus: hashes.map((h, i) => ({ hash: h, text: enTexts[i] })), frfr: hashes.map((h, i) => ({ hash: h, text: frTexts[i] })) });
  return { names, en, fr, json };
}

/** Names for two keys in three, as a dictionary gathered from an install would give. */
function dictionaryOf(names: string[]): HashDictionary {
  const d = new HashDictionary();
  names.forEach((n, i) => {
    if (i % 3) d.add(n, 'script literal');
  });
  return d;
}

function open(data: Data, dict: HashDictionary): StringTableModel {
  const tables: LanguageTable[] = [
    { language: 'enus', table: parseSkdb(data.en, 'enus\\string.strdb') },
    { language: 'frfr', table: parseSkdb(data.fr, 'frfr\\string.strdb') },
  ];
  const m = new StringTableModel(tables, dict);
  m.rows(0, WINDOW);
  return m;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(0)) + ' ms';
const ratio = (a: number, b: number): string => (a / b).toFixed(2) + '×';

function time(runs: number, f: () => void): number {
  f(); // warm-up
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    f();
    t.push(performance.now() - s);
  }
  return median(t);
}

/** Per keystroke times of typing TYPED into a fresh model (the first keystroke scans every row, the next ones its result). */
function typeWord(data: Data, dict: HashDictionary): { first: number; median: number; max: number; shown: number } {
  const m = open(data, dict);
  const t: number[] = [];
  for (let n = 1; n <= TYPED.length; n++) {
    const s = performance.now();
    m.search(TYPED.slice(0, n));
    m.rows(0, WINDOW);
    t.push(performance.now() - s);
  }
  return { first: t[0], median: median(t), max: Math.max(...t), shown: m.shown };
}

/** The naive filter: every keystroke lower-cases every key name and text of both languages and tests it. */
function typeWordNaive(data: Data, dict: HashDictionary): { median: number; max: number; shown: number } {
  const en = parseSkdb(data.en, 'en').entries;
  const fr = parseSkdb(data.fr, 'fr').entries;
  const t: number[] = [];
  let shown = 0;
  for (let n = 1; n <= TYPED.length; n++) {
    const q = TYPED.slice(0, n);
    const s = performance.now();
    const hits = en.filter(
      (e, i) => (dict.name(e.hash) ?? '').toLowerCase().includes(q) || e.text.toLowerCase().includes(q) || fr[i].text.toLowerCase().includes(q),
    );
    hits.slice(0, WINDOW);
    shown = hits.length;
    t.push(performance.now() - s);
  }
  return { median: median(t), max: Math.max(...t), shown };
}

/** Child process: heap after GC with the parsed tables, then with the model over them (after a search). */
function memoryProbe(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const data = generate();
  const dict = dictionaryOf(data.names);
  gc();
  const base = process.memoryUsage().heapUsed;
  const tables: LanguageTable[] = [
    { language: 'enus', table: parseSkdb(data.en, 'en') },
    { language: 'frfr', table: parseSkdb(data.fr, 'fr') },
  ];
  gc();
  const parsed = process.memoryUsage().heapUsed;
  const m = new StringTableModel(tables, dict);
  m.search('o');
  gc();
  const model = process.memoryUsage().heapUsed;
  const json = JSON.parse(data.json) as unknown;
  gc();
  const jsonHeap = process.memoryUsage().heapUsed;
  const mb = (n: number): number => Math.round((n / 1048576) * 10) / 10;
  process.stdout.write(JSON.stringify({ tablesMB: mb(parsed - base), modelMB: mb(model - parsed), jsonMB: mb(jsonHeap - model), keep: [m.total, !!json] }));
}

function main(): void {
  const data = generate();
  const dict = dictionaryOf(data.names);
  const rows: string[][] = [];
  const tOpen = time(5, () => open(data, dict));
  const tJson = time(5, () => JSON.parse(data.json));
  rows.push([
    `open: parse 2 × ${KEYS.toLocaleString('en')} keys + model + first ${WINDOW} rows (target ≤ 500 ms)`,
    ms(tOpen),
    `JSON.parse of the same data ${ms(tJson)}`,
    ratio(tOpen, tJson),
  ]);
  const runs = Array.from({ length: 5 }, () => typeWord(data, dict));
  const naive = Array.from({ length: 5 }, () => typeWordNaive(data, dict));
  const med = (f: (r: { median: number; max: number }) => number, xs: { median: number; max: number }[]): number => median(xs.map(f));
  if (runs[0].shown !== naive[0].shown) throw new Error(`the searches disagree: ${runs[0].shown} against ${naive[0].shown} keys`);
  rows.push([
    `search as you type "${TYPED}", per keystroke, median (target ≤ 50 ms)`,
    ms(med((r) => r.median, runs)),
    `naive filter ${ms(med((r) => r.median, naive))}`,
    ratio(
      med((r) => r.median, runs),
      med((r) => r.median, naive),
    ),
  ]);
  rows.push([
    '  slowest keystroke (the first: a scan of every row)',
    ms(med((r) => r.max, runs)),
    `naive filter ${ms(med((r) => r.max, naive))}`,
    ratio(
      med((r) => r.max, runs),
      med((r) => r.max, naive),
    ),
  ]);
  rows.push([`  keys "${TYPED}" keeps`, runs[0].shown.toLocaleString('en'), naive[0].shown.toLocaleString('en'), '']);
  const probe = spawnSync(process.execPath, ['--expose-gc', __filename, '--memory-probe'], { maxBuffer: 1 << 20 });
  if (probe.status !== 0) throw new Error(`memory probe failed: ${probe.stderr}`);
  const mem = JSON.parse(probe.stdout.toString()) as { tablesMB: number; modelMB: number; jsonMB: number };
  rows.push([
    'memory: the model over the parsed tables (heap after GC)',
    `+${mem.modelMB} MB`,
    `parsed tables ${mem.tablesMB} MB; JSON.parse ${mem.jsonMB} MB`,
    '',
  ]);
  const out = [
    '### String-table editor model (68,547 keys, 2 languages)',
    '',
    `${(data.en.length / 1048576).toFixed(1)} MB + ${(data.fr.length / 1048576).toFixed(1)} MB of SKDB, ${dict.size.toLocaleString('en')} key names (node ${process.version})`,
    '',
    '| measure | arch06 | baseline (same run) | ratio |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
  ];
  process.stdout.write(out.join('\n') + '\n');
}

if (process.argv[2] === '--memory-probe') memoryProbe();
else main();
