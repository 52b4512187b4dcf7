// Architecture rules that conventions alone do not keep.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { repoRoot } from '../support/shared';

function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

const importsOf = (file: string): string[] =>
  [...fs.readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]);

test('core/ never imports vscode, LSP, the DOM side or the layers above it', () => {
  const root = repoRoot();
  for (const f of sources(path.join(root, 'core'))) {
    for (const spec of importsOf(f)) {
      assert.ok(!/^vscode/.test(spec), `${path.relative(root, f)} imports ${spec}`);
      if (spec.startsWith('.')) {
        const target = path.relative(root, path.resolve(path.dirname(f), spec));
        assert.ok(target.startsWith('core') || target.startsWith('test'), `${path.relative(root, f)} imports ${spec} outside core/`);
      }
    }
  }
});

test('only the node-specific io files, core/io/node/ (and tests), touch node:fs inside core/', () => {
  const root = repoRoot();
  for (const f of sources(path.join(root, 'core'))) {
    const rel = path.relative(root, f);
    if (rel.startsWith(path.join('core', 'io', 'node') + path.sep) || rel.includes(`${path.sep}tests${path.sep}`)) continue;
    // directorySource needs path manipulation only.
    for (const spec of importsOf(f)) assert.ok(!/^(node:)?fs(\/promises)?$/.test(spec), `${rel} imports ${spec}`);
  }
});

/**
 * The read-only promise (issue 23 item 7): every write to disk the engine and the front ends make
 * goes through the one write primitive, core/io/node/outputFolder.ts (exclusive temp file, rename,
 * real paths checked against the install), so install/uninstall, pack and Copy to Mod included.
 * The primitive is split in two files for size: ./folderAccess.ts is how it reaches (and creates)
 * the folders it writes into, so a swapped link cannot redirect a write (issue 21 item 1); it is
 * part of the primitive only while nothing but outputFolder.ts imports it (checked below).
 * Writes that stand outside it on purpose: standard output; the language server clearing its own
 * stale cache files in the extension's storage folder; and two writes through VS Code's file system
 * to places the user chose that are not on the local disk (the workspace file, an export to a
 * remote target; the export refuses the install first; an editor's hot-exit backup when VS Code's
 * backup folder is not on the local disk).
 */
test('every file-system write goes through the one write primitive (core/io/node/outputFolder.ts)', () => {
  const root = repoRoot();
  const allowed: Record<string, RegExp> = {
    'cli/output.ts': /fs\.writeSync\(1,/,
    'server/indexCache.ts': /fs\.rmSync\(path\.join\(place\.folder, f\)/,
    'extension/commands/openGameFolder.ts': /vscode\.workspace\.fs\.writeFile\(file,/,
    'extension/mountService.ts': /else await vscode\.workspace\.fs\.writeFile\(target, bytes\)/,
    'extension/editors/editableEditor.ts': /else await vscode\.workspace\.fs\.writeFile\(dest, /,
  };
  const primitive = ['core/io/node/outputFolder.ts', 'core/io/node/folderAccess.ts'];
  const write =
    /\bfs\.(?:promises\.)?(?:writeFile|writeSync|appendFile|rename|unlink|rm|rmdir|mkdir|copyFile|cp|symlink|link|truncate|createWriteStream|chmod|utimes)(?:Sync)?\(/g;
  for (const dir of ['core', 'cli', 'extension', 'server']) {
    for (const f of sources(path.join(root, dir))) {
      const rel = path.relative(root, f).split(path.sep).join('/');
      if (rel.includes('/tests/')) continue;
      for (const spec of importsOf(f))
        if (/(^|\/)folderAccess$/.test(spec)) assert.equal(rel, primitive[0], `${rel} imports ${spec}, the write primitive's own half`);
      if (primitive.includes(rel)) continue;
      for (const line of fs.readFileSync(f, 'utf8').split('\n')) {
        if (!write.test(line)) continue;
        write.lastIndex = 0;
        assert.ok(allowed[rel]?.test(line), `${rel} writes without the write primitive: ${line.trim()}`);
      }
    }
  }
});

test('a format family (core/formats/<family>/) imports no other family: shared primitives live in core/io/', () => {
  const root = repoRoot();
  const formats = path.join(root, 'core', 'formats');
  for (const f of sources(formats)) {
    const rel = path.relative(formats, f);
    if (rel.split(path.sep).includes('tests')) continue;
    const family = rel.split(path.sep)[0];
    for (const spec of importsOf(f)) {
      if (!spec.startsWith('.')) continue;
      const target = path.relative(root, path.resolve(path.dirname(f), spec));
      const inFormats = path.relative(formats, path.resolve(path.dirname(f), spec));
      if (!inFormats.startsWith('..')) {
        assert.equal(inFormats.split(path.sep)[0], family, `${path.relative(root, f)} imports ${spec}, a module of another format family`);
      } else {
        assert.ok(
          /^core[\\/](io|hash|oodle|math)([\\/]|$)|^core[\\/]errors$/.test(target),
          `${path.relative(root, f)} imports ${spec} (${target}); formats use core/io, core/errors, core/hash, core/oodle, core/math`,
        );
      }
    }
  }
});

test('only server/server.ts speaks LSP: server/analysis/ (and everything else) never imports vscode-languageserver', () => {
  const root = repoRoot();
  for (const dir of ['core', 'cli', 'server', 'extension', 'media']) {
    for (const f of sources(path.join(root, dir))) {
      const rel = path.relative(root, f);
      if (rel === path.join('server', 'server.ts')) continue;
      for (const spec of importsOf(f)) assert.ok(!/^vscode-languageserver/.test(spec), `${rel} imports ${spec}`);
    }
  }
});

test('cli/ and server/ never import vscode', () => {
  const root = repoRoot();
  for (const dir of ['cli', 'server']) {
    for (const f of sources(path.join(root, dir))) for (const spec of importsOf(f)) assert.ok(spec !== 'vscode', `${path.relative(root, f)} imports vscode`);
  }
});

/**
 * The API boundary (ARCHITECTURE.md "API boundary"): code outside core/ reaches the engine only
 * through these faces, each a layer's index (core/errors.ts is its own). The tests/ folders inside
 * core/ may import internals; cli/, extension/, server/, media/, bench/ and test/ may not.
 */
function coreFaces(root: string): string[] {
  const families = fs
    .readdirSync(path.join(root, 'core', 'formats'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'tests')
    .map((e) => `core/formats/${e.name}`);
  return [
    'core/errors',
    'core/io',
    'core/io/node',
    'core/hash',
    'core/oodle',
    'core/archive',
    ...families,
    'core/image',
    'core/image/node',
    'core/model',
    'core/search',
    'core/texture',
    'core/sample',
    'core/text',
    'core/havokScript',
    'core/scriptIndex',
    'core/nameSources',
    'core/mod',
    'core/math',
  ];
}

test('every core/ face exists: core/errors.ts and an index.ts per layer, per format family and per node-only part', () => {
  const root = repoRoot();
  for (const face of coreFaces(root)) {
    const file = face === 'core/errors' ? `${face}.ts` : `${face}/index.ts`;
    assert.ok(fs.existsSync(path.join(root, file)), `${file} is missing`);
  }
  assert.ok(!fs.existsSync(path.join(root, 'core', 'index.ts')), "core/index.ts is gone: each layer's index is its face");
});

test('code outside core/ imports core/ only through the faces (layer indexes), never a module behind them', () => {
  const root = repoRoot();
  const faces = new Set(coreFaces(root));
  for (const dir of ['cli', 'extension', 'server', 'media', 'bench', 'test']) {
    for (const f of sources(path.join(root, dir))) {
      for (const spec of importsOf(f)) {
        if (!spec.startsWith('.')) continue;
        const target = path
          .relative(root, path.resolve(path.dirname(f), spec))
          .split(path.sep)
          .join('/')
          .replace(/\.ts$/, '')
          .replace(/\/index$/, '');
        if (!target.startsWith('core/')) continue;
        assert.ok(faces.has(target), `${path.relative(root, f)} imports ${spec} (${target}); outside core/, import a face: ${[...faces].join(', ')}`);
      }
    }
  }
});

test("fuzz/ (the fuzz harness, which like core/'s tests/ folders may reach internals) is imported by no shipped code", () => {
  const root = repoRoot();
  for (const dir of ['core', 'cli', 'extension', 'server', 'media', 'bench']) {
    for (const f of sources(path.join(root, dir))) {
      for (const spec of importsOf(f)) {
        if (!spec.startsWith('.')) continue;
        const target = path
          .relative(root, path.resolve(path.dirname(f), spec))
          .split(path.sep)
          .join('/');
        assert.ok(!target.startsWith('fuzz/'), `${path.relative(root, f)} imports ${spec}: fuzz/ is a test harness`);
      }
    }
  }
});

/** Value imports of a file (type-only imports and re-exports are erased, so they pull in nothing at run time). */
const valueImportsOf = (file: string): string[] =>
  [
    ...fs
      .readFileSync(file, 'utf8')
      .matchAll(/^\s*(?:import|export)\s+(type\s+)?[^;'"]*?from\s+['"]([^'"]+)['"]|(?:import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/gm),
  ]
    .filter((m) => !m[1])
    .map((m) => m[2] ?? m[3]);

const resolveTs = (from: string, spec: string): string | undefined => {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((p) => fs.existsSync(p));
};

test('webviews (media/) never pull in node-only code: nothing they reach imports a Node module or a core/**/node/ part', () => {
  const root = repoRoot();
  const seen = new Set<string>();
  const stack = sources(path.join(root, 'media'));
  while (stack.length) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    const rel = path.relative(root, f).split(path.sep).join('/');
    assert.ok(!/^core\/(.+\/)?node\//.test(rel), `a webview reaches ${rel}, a node-only part`);
    for (const spec of valueImportsOf(f)) {
      if (spec.startsWith('.')) {
        const t = resolveTs(f, spec);
        if (t) stack.push(t);
        continue;
      }
      const builtin = spec.startsWith('node:') || ['fs', 'path', 'os', 'zlib', 'worker_threads', 'child_process', 'crypto', 'util', 'buffer'].includes(spec);
      assert.ok(!builtin, `${rel} imports ${spec}, and a webview reaches it`);
    }
  }
  // The walk did reach the engine: the texture webview's decoders and the mesh webview's model helpers.
  for (const reached of ['core/image/bcn.ts', 'core/model/wire.ts']) assert.ok(seen.has(path.join(root, reached)), `${reached} reached from media/`);
});

/** Every import of a file, type-only ones and re-exports included (a circle of types is still a circle for a reader). */
const allImportsOf = (file: string): string[] =>
  [
    ...fs.readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\s+[^;'"]*?from\s+['"]([^'"]+)['"]|(?:import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/gm),
  ].map((m) => m[1] ?? m[2]);

/** The strongly connected components of more than one module (or a module importing itself), by Tarjan's algorithm. */
function importCircles(files: readonly string[], importedBy: (file: string) => string[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const f of files) edges.set(f, importedBy(f));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let next = 0;
  // Iterative, so a long import chain cannot overflow the call stack.
  for (const start of files) {
    if (index.has(start)) continue;
    const work: { node: string; child: number }[] = [{ node: start, child: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const out = edges.get(top.node) ?? [];
      if (top.child < out.length) {
        const to = out[top.child++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, child: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let n: string;
      do {
        n = stack.pop()!;
        onStack.delete(n);
        component.push(n);
      } while (n !== top.node);
      if (component.length > 1 || out.includes(top.node)) circles.push(component.sort());
    }
  }
  return circles;
}

test('importCircles finds a circle of three, a module importing itself, and nothing in a chain', () => {
  const graph: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a', 'd'], d: ['e'], e: [], s: ['s'], t: ['d', 'u'], u: ['t'] };
  assert.deepEqual(
    importCircles(Object.keys(graph), (f) => graph[f]),
    [['a', 'b', 'c'], ['s'], ['t', 'u']],
  );
  assert.deepEqual(
    importCircles(['d', 'e'], (f) => graph[f]),
    [],
  );
});

/**
 * No import circles (issue 22 item 7): a circle makes load order matter (a module sees another's
 * exports undefined while both load) and ties modules that should be read one at a time. Type-only
 * imports count too.
 */
test('no import circles among the TypeScript sources (core, cli, extension, server, media, scripts, test, fuzz)', () => {
  const root = repoRoot();
  const files = ['core', 'cli', 'extension', 'server', 'media', 'test', 'fuzz', 'bench']
    .filter((d) => fs.existsSync(path.join(root, d)))
    .flatMap((d) => sources(path.join(root, d)));
  const resolved = (f: string): string[] => allImportsOf(f).flatMap((spec) => (spec.startsWith('.') ? (resolveTs(f, spec) ?? []) : []));
  const circles = importCircles(files, resolved).map((c) => c.map((f) => path.relative(root, f).split(path.sep).join('/')));
  assert.deepEqual(circles, []);
});

/** Lines of a file as an editor numbers them. */
const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** Every function-like node with a body (declarations, methods, accessors, constructors, arrows) and its length in lines, start to end. */
function functionLengths(file: string, text: string): { name: string; lines: number }[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: { name: string; lines: number }[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const first = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(n.end).line;
      const name = n.name && !ts.isComputedPropertyName(n.name) ? n.name.getText(sf) : '(anonymous)';
      out.push({ name, lines: last - first + 1 });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 150;

/**
 * Files and functions over the limits, each with why it stands. Entries that no longer exceed the
 * limit fail the test, so the list only shrinks.
 */
const OVER_LIMIT: Record<string, string> = {};

test('function lengths are measured with the compiler: declarations, methods, arrows, start line to end line', () => {
  const text = ['function a() {', '  const f = () => {', '    return 1;', '  };', '  return f();', '}', 'class C {', '  m(): void {}', '}', ''].join('\n');
  assert.deepEqual(functionLengths('x.ts', text), [
    { name: 'a', lines: 6 },
    { name: '(anonymous)', lines: 3 },
    { name: 'm', lines: 1 },
  ]);
  assert.equal(lineCount(text), 9);
});

/** The size rule (README standards, issue 22 item 7): production files under 500 lines, functions under 150. */
test(`every production file is under ${MAX_FILE_LINES} lines and every function under ${MAX_FUNCTION_LINES}`, () => {
  const root = repoRoot();
  const over: string[] = [];
  for (const d of ['core', 'cli', 'extension', 'server', 'media']) {
    for (const f of sources(path.join(root, d))) {
      const rel = path.relative(root, f).split(path.sep).join('/');
      if (rel.includes('/tests/') || /\.(test|bench)\.ts$/.test(rel)) continue;
      const text = fs.readFileSync(f, 'utf8');
      if (lineCount(text) >= MAX_FILE_LINES) over.push(rel);
      for (const fn of functionLengths(f, text)) if (fn.lines >= MAX_FUNCTION_LINES) over.push(`${rel} ${fn.name}`);
    }
  }
  const unexplained = over.filter((o) => !(o in OVER_LIMIT));
  assert.deepEqual(unexplained, [], `over the limits: ${unexplained.join(', ')}`);
  const stale = Object.keys(OVER_LIMIT).filter((k) => !over.includes(k));
  assert.deepEqual(stale, [], 'listed as over the limits but no longer over: take them off the list');
});
