// The mutation check (issue 22): each mutant below is one deliberate bug (a search text replaced
// in one file, or in two files where one place alone would be caught by another check and so
// would not express the wrong rule), applied to a temporary copy of the tree, never to this one.
// For each: the copy is compiled (tsc, incremental) and the tests that should catch it run (the
// named test files only, to stay fast). A mutant is killed when a test fails, survived when all
// pass. The result is printed as a markdown table (the README's "Mutation check").
// Usage: node scripts/mutants.mjs [name-substring ...]   (npm run mutants)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * name: short id; rule: the wrong rule the mutant expresses; edits: [file, search, replace] (the
 * search text must occur exactly once); tests: substrings of the compiled test files to run.
 */
const MUTANTS = [
  {
    name: 'chunk-async-copy',
    rule: 'the asynchronous read path (the VS Code file system) copies a stored chunk from 8 bytes early (its header)',
    edits: [['core/formats/archive/ltar/chunks.ts', 'into.set(inSpan(at, length), intoAt)', 'into.set(inSpan(at - 8, length), intoAt)']],
    tests: ['core/formats/archive/tests/chunkRule.test.js'],
  },
  {
    name: 'chunk-rule-stored-when-longer',
    rule: 'the chunk rule as some public readers write it: storedLen >= rawLen is stored bytes',
    edits: [['core/formats/archive/ltar/chunks.ts', 'return storedLen === rawLen;', 'return storedLen >= rawLen;']],
    tests: ['core/formats/archive/tests/chunkRule.test.js'],
  },
  {
    name: 'stringhash-low-byte',
    rule: 'StringHash folds a character above U+00FF to its low byte instead of refusing it',
    edits: [['core/hash/stringHash.ts', 'const v = c < 256 ? lut[c] : -1;', 'const v = lut[c & 0xff];']],
    tests: ['core/hash/tests/stringHash.test.js'],
  },
  {
    name: 'scrb-first-binding',
    rule: "every SCRB row of an object carries that object's first binding",
    edits: [['core/formats/registry/resolve.ts', 'res.records[o.firstBinding + k]', 'res.records[o.firstBinding]']],
    tests: ['core/formats/registry/tests/realLayers.test.js'],
  },
  {
    name: 'index-sites-first-binding',
    rule: "the script index (the language server's binding sites of a function) gives an object only its run's first binding",
    edits: [
      [
        'core/scriptIndex/scriptIndex.ts',
        'if (record < o.firstBinding || record >= o.firstBinding + o.count) continue;',
        'if (record < o.firstBinding || record >= o.firstBinding + 1) continue;',
      ],
    ],
    tests: ['core/scriptIndex/tests/scriptIndex.test.js'],
  },
  {
    name: 'lzb16-short-length-mask',
    rule: "LZB16's short-form match length masked with & 7 instead of & 15",
    edits: [['core/oodle/lzb16/decode.ts', 'length = ((e >> 3) & 15) + MIN_MATCH;', 'length = ((e >> 3) & 7) + MIN_MATCH;']],
    tests: ['core/oodle/tests/lzb16.test.js'],
  },
  {
    name: 'part-loose-below-container',
    rule: "a bundle member's loose copy ranks below the container's payload (the patch rule reversed)",
    edits: [['core/archive/bundles.ts', '    if (loose) {', '    if (loose && !e) {']],
    tests: ['core/archive/tests/partScript.test.js'],
  },
  {
    name: 'part-objres-below-embedded',
    rule: 'the served-file walk serves the embedded copy of a path a standalone loose entry replaces',
    edits: [
      [
        'core/archive/servedFiles.ts',
        "if (m.servedFrom !== 'container' || !this.accept(m.path) || this.seen.has(servedKey(m.path))) continue;",
        'if (!m.embedded || !this.accept(m.path)) continue;',
      ],
    ],
    tests: ['core/archive/tests/servedFiles.test.js'],
  },
  {
    name: 'part-missing-script',
    rule: 'a script the bundle declares but nothing ships is served as an empty member instead of NOT_FOUND',
    edits: [['core/archive/bundles.ts', '} else if (m.declaredSize === 0) {', '} else if (m.declaredSize >= 0) {']],
    tests: ['core/archive/tests/partScript.test.js'],
  },
  {
    name: 'part-script-other-bundle',
    rule: "a registry read through a bundle takes its script from that bundle only, never from the bundle of the script's own stem",
    edits: [
      [
        'core/archive/partScript.ts',
        'if (member) return { path, ...locateAddress(mount, `${near.bundle!.manifest.path}${BUNDLE_SUFFIX}\\\\${member.path}`) };',
        'if (member || near.bundle) return { path, ...locateAddress(mount, `${near.bundle!.manifest.path}${BUNDLE_SUFFIX}\\\\${member?.path ?? path}`) };',
      ],
    ],
    tests: ['core/archive/tests/partScript.test.js'],
  },
];

const run = (cmd, args, cwd, env = process.env) => spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** The ground truth (real samples) the copy's tests read: the copy has no ../shared beside it, and a missing sample must fail, not skip. */
function testEnv() {
  const shared = [process.env.ARCH06_SHARED, path.resolve(root, '..', 'shared')].find((c) => c && fs.existsSync(c));
  if (!shared) throw new Error('../shared (the real samples) is absent: set ARCH06_SHARED');
  return { ...process.env, ARCH06_SHARED: shared, ARCH06_REQUIRE_SHARED: '1' };
}

/** A copy of the tree's tracked and untracked (not ignored) files, node_modules linked. */
function copyTree() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arch06-mutants-'));
  const listed = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], root);
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const f of listed.stdout.split('\0')) {
    if (!f || !fs.existsSync(path.join(root, f)) || fs.lstatSync(path.join(root, f)).isSymbolicLink()) continue;
    fs.mkdirSync(path.join(dir, path.dirname(f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(dir, f));
  }
  fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(dir, 'node_modules'));
  return dir;
}

function compile(dir) {
  const tsc = path.join(dir, 'node_modules/typescript/bin/tsc');
  return run(process.execPath, [tsc, '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', path.join(dir, '.mutants.tsbuildinfo')], dir);
}

function testFiles(dir, wanted) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.test.js') && wanted.some((w) => p.includes(w))) out.push(p);
    }
  };
  walk(path.join(dir, 'out'));
  return out.sort();
}

/** The failing tests' names, from the TAP output. */
function failures(output) {
  return [...output.matchAll(/^\s*not ok \d+ - (.*)$/gm)].map((m) => m[1]).filter((n) => !/\.test\.js$/.test(n));
}

function main() {
  const filters = process.argv.slice(2);
  const chosen = MUTANTS.filter((m) => filters.length === 0 || filters.some((f) => m.name.includes(f)));
  if (chosen.length === 0) {
    console.error(`no mutant matches ${filters.join(' ')}; names: ${MUTANTS.map((m) => m.name).join(', ')}`);
    process.exit(2);
  }
  const env = testEnv();
  const dir = copyTree();
  console.error(`copy of the tree: ${dir}`);
  const results = [];
  try {
    const base = compile(dir);
    if (base.status !== 0) throw new Error(`the unmutated copy does not compile:\n${base.stdout}${base.stderr}`);
    for (const m of chosen) {
      const saved = new Map();
      for (const [file, search, replace] of m.edits) {
        const p = path.join(dir, file);
        const text = saved.get(p) ?? fs.readFileSync(p, 'utf8');
        if (!saved.has(p)) saved.set(p, text);
        const current = fs.readFileSync(p, 'utf8');
        const count = current.split(search).length - 1;
        if (count !== 1) throw new Error(`mutant ${m.name}: the search text occurs ${count} times in ${file} (expected once): ${JSON.stringify(search)}`);
        fs.writeFileSync(
          p,
          current.replace(search, () => replace),
        );
      }
      try {
        const c = compile(dir);
        if (c.status !== 0) throw new Error(`mutant ${m.name} does not compile:\n${c.stdout}${c.stderr}`);
        const files = testFiles(dir, m.tests);
        if (files.length !== m.tests.length) throw new Error(`mutant ${m.name}: tests ${m.tests.join(', ')} matched ${files.length} files`);
        console.error(`${m.name}: running ${m.tests.join(', ')}`);
        const t = run(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=tap', ...files], dir, env);
        const failed = failures(t.stdout);
        const tally = (what) => Number((t.stdout.match(new RegExp(`^# ${what} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
        if (tally('pass') + tally('fail') === 0 || tally('skipped') > 0)
          throw new Error(
            `mutant ${m.name}: ${tally('pass')} passed, ${tally('fail')} failed, ${tally('skipped')} skipped: a survivor must have run every test\n${t.stdout.slice(-2000)}`,
          );
        const killed = t.status !== 0;
        results.push({ m, killed, by: failed });
        console.error(`${m.name}: ${killed ? `killed (${failed.length} failing: ${failed.slice(0, 3).join('; ')})` : 'SURVIVED'}`);
      } finally {
        for (const [p, text] of saved) fs.writeFileSync(p, text);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const cell = (s) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = ['| Mutant | Wrong rule | Where | Tests run | Result |', '| --- | --- | --- | --- | --- |'];
  for (const { m, killed, by } of results) {
    const where = [...new Set(m.edits.map((e) => `\`${e[0]}\``))].join(', ');
    const tests = m.tests.map((t) => `\`${t.replace(/\.js$/, '.ts')}\``).join(', ');
    const result = killed ? `killed (${by.length} failing${by.length ? `: ${cell(by[0])}` : ''})` : '**survived**';
    lines.push(`| \`${m.name}\` | ${cell(m.rule)} | ${where} | ${tests} | ${result} |`);
  }
  console.log(lines.join('\n'));
  const survived = results.filter((r) => !r.killed).length;
  console.log(`\n${results.length - survived} of ${results.length} killed.`);
  process.exit(survived === 0 ? 0 : 1);
}

main();
