// npm test's reporter: node's own `spec` output unchanged (the summary lines CI reads included),
// then a coverage table per production module, from node's built-in --experimental-test-coverage.
//
// Node 20 reports coverage per generated JS file, cannot exclude test files, and fails ("Could not
// report code coverage ... reading 'line'", nodejs/node#54240) when it tries to apply tsc's or
// esbuild's source maps itself. So scripts/test.mjs keeps the .map files but removes their
// `sourceMappingURL` comments, node reports plain JS lines, and this reporter maps them back to
// TypeScript lines through the .map files: for out/**/*.js (the modules the tests import) and for
// dist/*.js (the bundles the tests run as a user does: the CLI, and the language server, whose
// child process writes its coverage at a clean exit into the NODE_V8_COVERAGE folder node's runner
// gives every test process and their children, so it is merged here). A TypeScript line counts when
// some code is mapped to it; it is covered when a JS line holding that code ran, in any of them.
// After a full run it writes the README's table of modules only E2E reaches (scripts/e2eOnly.mjs).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { spec as Spec } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';
import { E2E_ONLY_BELOW, e2eOnlyTable, writeE2eOnlyTable } from './e2eOnly.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Top-level folders of production code (ARCHITECTURE.md); tests/, *.test.ts and bench/ are not. */
const PRODUCTION = ['core', 'cli', 'extension', 'server', 'media'];

export default async function* coverageReporter(source) {
  let summary;
  async function* events() {
    for await (const e of source) {
      if (e.type === 'test:coverage') summary = e.data.summary;
      else yield e;
    }
  }
  yield* Readable.from(events()).pipe(new Spec());
  try {
    yield* report(summary);
  } catch (e) {
    yield `coverage: no report (${e instanceof Error ? e.message : e})\n`;
  }
}

const toPosix = (p) => p.split(path.sep).join('/');

function walk(dir, keep, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'tests') walk(p, keep, out);
    } else if (keep(p)) out.push(p);
  }
  return out;
}

const isModule = (p) => p.endsWith('.ts') && !p.endsWith('.d.ts') && !p.endsWith('.test.ts');

const B64 = new Map([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]));

/** Calls `each(generatedLine, sourceIndex, sourceLine)` (0-based) for every mapped segment. */
function eachMapping(mappings, each) {
  let src = 0;
  let srcLine = 0;
  let genLine = 0;
  let i = 0;
  const vlq = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const d = B64.get(mappings[i++]);
      v += (d & 31) << shift;
      if (!(d & 32)) break;
      shift += 5;
    }
    return v & 1 ? -(v >>> 1) : v >>> 1;
  };
  while (i < mappings.length) {
    const c = mappings[i];
    if (c === ';') {
      genLine++;
      i++;
      continue;
    }
    if (c === ',') {
      i++;
      continue;
    }
    vlq(); // generated column
    if (i < mappings.length && mappings[i] !== ',' && mappings[i] !== ';') {
      src += vlq();
      srcLine += vlq();
      vlq(); // source column
      if (i < mappings.length && mappings[i] !== ',' && mappings[i] !== ';') vlq(); // name
      each(genLine, src, srcLine);
    }
  }
}

function* report(summary) {
  if (!summary) {
    yield '\ncoverage: no report from node (see any warning above)\n';
    return;
  }
  /** Production module (posix path from the root) → TS lines with code, TS lines run, how reached. */
  const modules = new Map();
  for (const top of PRODUCTION) {
    for (const f of walk(path.join(root, top), isModule))
      modules.set(toPosix(path.relative(root, f)), { lines: new Set(), run: new Set(), via: new Set(), compiled: false });
  }
  // media/**/*.js: webview scripts shipped as they are (no TypeScript, no map).
  for (const f of walk(path.join(root, 'media'), (p) => p.endsWith('.js'))) {
    modules.set(toPosix(path.relative(root, f)), { lines: new Set(), run: new Set(), via: new Set(), compiled: false });
  }
  const ran = new Map(summary.files.map((f) => [f.path, new Map(f.lines.map((l) => [l.line, l.count]))]));
  // Every compiled module (loaded or not: its map says which TS lines hold code), and every
  // bundle in dist/ that ran.
  const generated = walk(path.join(root, 'out'), (p) => p.endsWith('.js') && !p.endsWith('.test.js'));
  for (const f of fs.existsSync(path.join(root, 'dist')) ? fs.readdirSync(path.join(root, 'dist')) : []) {
    const p = path.join(root, 'dist', f);
    if (f.endsWith('.js') && ran.has(p)) generated.push(p);
  }
  for (const js of generated) {
    if (!fs.existsSync(`${js}.map`)) continue;
    const map = JSON.parse(fs.readFileSync(`${js}.map`, 'utf8'));
    const counts = ran.get(js);
    const via = js.startsWith(path.join(root, 'dist')) ? toPosix(path.relative(root, js)) : 'in process';
    const dir = path.resolve(path.dirname(js), map.sourceRoot || '');
    const targets = map.sources.map((s) => modules.get(toPosix(path.relative(root, path.resolve(dir, s)))));
    for (const m of targets) if (m) m.compiled = true;
    eachMapping(map.mappings, (genLine, src, srcLine) => {
      const m = targets[src];
      if (!m) return;
      m.lines.add(srcLine);
      if (counts && counts.get(genLine + 1) > 0) {
        m.run.add(srcLine);
        m.via.add(via);
      }
    });
  }
  // Type-only modules compile to no code: nothing to run. Modules in no map are not built for the
  // tests at all (the webview scripts: tsconfig.webview.json emits nothing, esbuild bundles them).
  const rows = [...modules].filter(([, m]) => m.lines.size > 0).sort(([a], [b]) => a.localeCompare(b));
  const notBuilt = [...modules]
    .filter(([, m]) => !m.compiled)
    .map(([p]) => p)
    .sort();
  const width = Math.max(...rows.map(([p]) => p.length));
  const pct = (a, b) => (b ? ((100 * a) / b).toFixed(1) : '-').padStart(5);
  let lines = 0;
  let run = 0;
  const unreached = [];
  yield '\ncoverage without E2E: TypeScript lines run by npm test, per production module\n';
  yield `${'module'.padEnd(width)} | line % | lines | reached through\n`;
  for (const [p, m] of rows) {
    lines += m.lines.size;
    run += m.run.size;
    if (m.run.size === 0) unreached.push(p);
    yield `${p.padEnd(width)} |  ${pct(m.run.size, m.lines.size)} | ${String(m.lines.size).padStart(5)} | ${[...m.via].sort().join(', ') || 'nothing'}\n`;
  }
  yield `all production modules: ${pct(run, lines).trim()} % of ${lines} lines; ${rows.length - unreached.length} of ${rows.length} modules reached\n`;
  if (unreached.length) yield `not reached by npm test (${unreached.length}; README.md "Tests" says why): ${unreached.join(', ')}\n`;
  if (notBuilt.length) yield `not built for npm test (webview code, only E2E runs it): ${notBuilt.join(', ')}\n`;
  // The README's table of what only E2E reaches, from this report (a full run only: a filtered one
  // runs a fraction of the tests). scripts/test.mjs names the README when nothing is filtered.
  const readme = process.env.ARCH06_COVERAGE_README;
  if (readme) {
    const low = rows
      .filter(([, m]) => (100 * m.run.size) / m.lines.size < E2E_ONLY_BELOW)
      .map(([p, m]) => ({ path: p, percent: (100 * m.run.size) / m.lines.size }));
    const table = e2eOnlyTable([...low, ...notBuilt.map((p) => ({ path: p, percent: null }))]);
    const written = writeE2eOnlyTable(readme, table.markdown);
    yield written
      ? `README.md: the E2E-only table lists ${low.length + notBuilt.length} modules (run below ${E2E_ONLY_BELOW} % by npm test, or not built for it)\n`
      : 'README.md: no E2E-only table markers, table not written\n';
    if (table.unexplained.length) yield `no reason in scripts/e2eOnly.mjs for: ${table.unexplained.join(', ')}\n`;
  }
}
