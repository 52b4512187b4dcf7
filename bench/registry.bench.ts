/**
 * The object-registry editor's host side on a registry of 100,000 OBJL objects (written by
 * core/formats/registry's writers, with retail-style names, 40 classes, groups and bindings):
 * parse + model + the first window of rows (what happens before the editor's first rows), against
 * the decoded text view of the same registry (core/text, the other way to look at one); search as
 * you type, per keystroke, against a plain scan that lower-cases every name on every keystroke;
 * and the memory the model holds, in a child process after GC. Median of 5 after a warm-up.
 */
import { spawnSync } from 'node:child_process';
import { parseObjr, writeRegistry } from '../core/formats/registry';
import type { ObjlWriterObject, OnlsWriterGroup, ScrbWriterObject } from '../core/formats/registry';
import { renderText } from '../core/text';
import { buildRegistryModel } from '../extension/editors/registryModel';

const OBJECTS = 100_000;
const WINDOW = 60;
const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(0)) + ' ms';
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const time = (f: () => void): number => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
const timeMedian = (f: () => void): number => {
  f();
  return median([...Array(5)].map(() => time(f)));
};

/** A layer of `n` objects shaped like Lithlad's: prefab-instance names with roles, a few dozen classes. */
function bigRegistry(n: number): Uint8Array {
  const classes = Array.from({ length: 40 }, (_, i) =>
    i < 9
      ? [
          'AINavMeshObstacle',
          'AINodeMenacePlace',
          'FireVolume',
          'DynamicObjectGroupState',
          'ScriptRelay',
          'AISpawnerAmbientNormal',
          'Group',
          'FireProp',
          'VolumeController',
        ][i]
      : `Class${i}`,
  );
  const prefixes = ['Barre', 'MesaE', 'HideS', 'pGCarags', 'LightHangOrc', 'WaspN', 'GateCon', 'Tower'];
  let seed = 12345;
  const rnd = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  const objects: ObjlWriterObject[] = [];
  const bindings: ScrbWriterObject[] = [];
  const groups: OnlsWriterGroup[] = [];
  for (let i = 0; i < n; i++) {
    // Skewed class counts, as in the retail parts.
    const c = classes[Math.min(classes.length - 1, Math.floor(-Math.log(1 - rnd()) * 6))];
    const name = `${prefixes[i % prefixes.length]}_${i >> 3}.${c.slice(0, 4)}${i & 7}`;
    const yaw = rnd() * Math.PI;
    objects.push({
      className: c,
      name,
      // Group names are u16 offsets into their table: a few thousand distinct ones, as the table allows.
      group: i % 10 === 0 ? `${prefixes[i % prefixes.length]}_${(i >> 3) % 4000}` : null,
      propertyIndex: i % 2000,
      position: [rnd() * 1e5, rnd() * 1e3, rnd() * 1e5],
      rotation: [0, Math.sin(yaw), 0, Math.cos(yaw)],
      templateId: Math.floor(rnd() * 2 ** 32),
    });
    if (c === 'ScriptRelay' && bindings.length < 2000) bindings.push({ name, bindings: [{ event: 'Script1', function: `_fn_${bindings.length % 300}` }] });
    if (i % 50 === 0) groups.push({ owner: name, members: [objects[Math.max(0, i - 1)].name, name] });
  }
  return writeRegistry({ scriptPath: 'worlds\\retail\\bench\\big.scripts', objects, bindings, groups });
}

function memoryProbe(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const bytes = bigRegistry(OBJECTS);
  gc();
  const before = process.memoryUsage();
  const model = buildRegistryModel({ bytes, path: 'big.objres', patch: { state: 'unresolved', text: '' } });
  model.objects.window('', '', 0, WINDOW);
  gc();
  const opened = process.memoryUsage();
  // Search keys and hash strings are built on the first search of each kind.
  model.objects.filter('gate', '');
  model.objects.filter('0x1', '');
  gc();
  const searched = process.memoryUsage();
  const mb = (n: number): number => Math.round((n / 1048576) * 10) / 10;
  process.stdout.write(
    JSON.stringify({
      fileMB: mb(bytes.length),
      openedMB: mb(opened.heapUsed - before.heapUsed),
      searchedMB: mb(searched.heapUsed - before.heapUsed),
      objects: model.objects.total,
    }),
  );
}

function main(): void {
  const bytes = bigRegistry(OBJECTS);
  const rows: string[][] = [];
  const patch = { state: 'unresolved' as const, text: '' };

  let first = 0;
  const open = timeMedian(() => {
    const model = buildRegistryModel({ bytes, path: 'big.objres', patch });
    first = model.objects.window('', '', 0, WINDOW).rows.length;
  });
  const text = timeMedian(() => void renderText('registry', bytes, 'big.objres'));
  rows.push([
    `open: parse + model + first window (${first} rows) of ${OBJECTS.toLocaleString('en')} objects (${(bytes.length / 1048576).toFixed(1)} MB)`,
    ms(open),
    `decoded text view ${ms(text)}`,
    (open / text).toFixed(2) + '×',
    '≤ 500 ms',
  ]);

  const parse = timeMedian(() => void parseObjr(bytes, 'big.objres'));
  rows.push(['  of which parse (parseObjr: chain, OBJL validated, SCRB, ONLS)', ms(parse), '', '', '']);

  // Search as you type: each keystroke filters and takes the first window, as the webview asks.
  for (const [word, className] of [
    ['gatecon_12', ''],
    ['firevolume', ''],
    ['0x1a2', ''],
    ['barre_4', 'ScriptRelay'],
  ] as const) {
    const model = buildRegistryModel({ bytes, path: 'big.objres', patch });
    const objects = model.registry.objectList!.objects;
    const perKey: number[] = [];
    const base: number[] = [];
    let kept = 0;
    for (let k = 1; k <= word.length; k++) {
      const q = word.slice(0, k);
      perKey.push(time(() => (kept = model.objects.window(q, className, 0, WINDOW).shown)));
      base.push(
        time(() => {
          const hits = objects.filter(
            (o) => (className === '' || o.className === className) && (o.name.toLowerCase().includes(q) || o.className.toLowerCase().includes(q)),
          );
          void hits.slice(0, WINDOW);
        }),
      );
    }
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    rows.push([
      `search "${word}"${className ? ` in class ${className}` : ''}, per keystroke (first / max / mean; ${kept.toLocaleString('en')} kept at the end)`,
      `${ms(perKey[0])} / ${ms(Math.max(...perKey))} / ${ms(mean(perKey))}`,
      `plain scan ${ms(mean(base))} mean`,
      (mean(perKey) / mean(base)).toFixed(2) + '×',
      '≤ 50 ms',
    ]);
  }

  const probe = spawnSync(process.execPath, ['--expose-gc', __filename, '--memory-probe'], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (probe.status !== 0) throw new Error(`memory probe failed: ${probe.stderr}`);
  const mem = JSON.parse(probe.stdout) as { fileMB: number; openedMB: number; searchedMB: number };
  rows.push([
    'memory held by the model after GC (opened / after a text and a 0x search)',
    `${mem.openedMB} / ${mem.searchedMB} MB`,
    `file ${mem.fileMB} MB`,
    (mem.openedMB / mem.fileMB).toFixed(1) + '×',
    '',
  ]);

  process.stdout.write(
    [
      `### Object-registry editor (host side), ${OBJECTS.toLocaleString('en')} OBJL objects`,
      '',
      '| measure | arch06 | baseline (same run) | ratio | target |',
      '|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
    ].join('\n') + '\n',
  );
}

if (process.argv.includes('--memory-probe')) memoryProbe();
else main();
