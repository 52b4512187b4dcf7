// Arguments as `arch06` reads them: Node's util.parseArgs over each command's option table
// (cli/options.ts). In process: values, switches, repeated --arch, `--`, and the errors (each a
// BAD_ARGUMENT naming the option and the command). Through the bundled CLI: an unknown option
// exits 2 naming it, for every command; a missing value and a value given to a switch exit 2;
// every option a command's usage line names is one its --help lists (the table the parser reads).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isArch06Error } from '../../core/errors';
import { formatHash, stringHash } from '../../core/hash';
import { parseArgs, flagList, flagString } from '../../cli/args';
import { COMMAND_OPTIONS } from '../../cli/options';
import { cliJson, runCli } from '../support/cli';
import { tempDir } from '../support/fixtures';

/** The commands the general usage lists (`  name  <…` lines). */
function commands(): string[] {
  return [...runCli('--help').stdout.matchAll(/^ {2}([a-z][a-z-]*) +</gm)].map((m) => m[1]);
}

const root = path.join(tempDir('arch06-cli-args-'), 'game');
const made = runCli('make-sample', root);

test('options are read by the table: values, switches, repeated --arch, -q, and -- ending the options', () => {
  const a = parseArgs(
    ['game', '--arch', 'a.arch06', '--cfg=my.archcfg', '--json', '--arch=b.arch06', '-q', 'extra', '--', '--bogus', '-x'],
    'verify',
    COMMAND_OPTIONS.verify,
  );
  assert.deepEqual(a.positionals, ['game', 'extra', '--bogus', '-x']);
  assert.deepEqual(flagList(a, 'arch'), ['a.arch06', 'b.arch06']);
  assert.equal(flagString(a, 'cfg'), 'my.archcfg');
  assert.equal(a.flags.get('json'), true);
  assert.equal(a.flags.get('quiet'), true);
  assert.equal(a.command, 'verify');
  // A value may start with a dash; an option given twice keeps the last value.
  const c = parseArgs(['game', 'p', '--source', '-odd.arch06', '--source', 'Base.arch06'], 'cat', COMMAND_OPTIONS.cat);
  assert.equal(flagString(c, 'source'), 'Base.arch06');
  assert.deepEqual(flagList(c, 'arch'), []);
  assert.equal(flagString(parseArgs(['x', '--source', '-odd'], 'cat', COMMAND_OPTIONS.cat), 'source'), '-odd');
});

test('an option outside the table, a missing value or a value on a switch is a BAD_ARGUMENT naming it and the command', () => {
  const cases: [string, string[], RegExp][] = [
    ['verify', ['game', '--bogus'], /^verify: unknown option --bogus \(arch06 verify --help/],
    ['verify', ['game', '--bogus=1'], /^verify: unknown option --bogus /],
    ['mount', ['game', '-x'], /^mount: unknown option -x /],
    ['cat', ['game', 'p', '--json'], /^cat: unknown option --json /],
    ['ls', ['game', '--source', 'Base.arch06'], /^ls: unknown option --source /],
    ['hash', ['abc', '--table-from'], /^hash: --table-from needs a value/],
    ['mount', ['game', '--json=yes'], /^mount: --json takes no value/],
    ['verify', ['game', '--toString'], /^verify: unknown option --toString /],
    ['verify', ['game', '--__proto__'], /^verify: unknown option --__proto__ /],
  ];
  for (const [command, argv, message] of cases) {
    assert.throws(
      () => parseArgs(argv, command, COMMAND_OPTIONS[command]),
      (e: unknown) => isArch06Error(e) && e.code === 'BAD_ARGUMENT' && message.test(e.message),
      `${command} ${argv.join(' ')}`,
    );
  }
});

test('arch06 <command> --bogus exits 2 naming --bogus and the command, for every command, writing nothing to stdout', () => {
  const list = commands();
  assert.ok(list.length >= 17, list.join(', '));
  for (const c of list) {
    assert.ok(COMMAND_OPTIONS[c], `${c} has an option table`);
    const r = runCli(c, '--bogus');
    assert.equal(r.code, 2, `${c}: ${r.stderr}`);
    assert.equal(r.stdout, '', c);
    assert.equal(r.stderr, `arch06: ${c}: unknown option --bogus (arch06 ${c} --help lists its options)\n`);
  }
});

test('an unknown option is refused by name with valid arguments around it, before any work', () => {
  assert.equal(made.code, 0, made.stderr);
  const out = path.join(tempDir('arch06-cli-args-out-'), 'out');
  for (const argv of [
    ['verify', root, '--bogus'],
    ['verify', root, '--json', '--verbose'],
    ['extract', root, 'config', out, '--overwrite'],
    ['texture', root, 'textures\\sample\\sample_banner_d.tex', '--png-out', 'x.png'],
    ['mesh', root, 'characters\\sample\\sample_sword.mesh', '--gltf', 'x.glb'],
    ['dump', root, 'config\\game.cfg', '-v'],
    ['hash', 'abc', '--tabel-from', 'x.exe'],
  ]) {
    const r = runCli(...argv);
    const bad = [...argv].reverse().find((a) => a.startsWith('-'))!; // the one option not in the table
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`^arch06: ${argv[0]}: unknown option ${bad} `));
  }
  // extract stopped before writing anything.
  assert.equal(fs.existsSync(out), false);
});

test('a missing value and a value given to a switch exit 2 through the CLI; --help wins over a bad option', () => {
  const missing = runCli('mount', root, '--cfg');
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^arch06: mount: --cfg needs a value/);
  const valued = runCli('verify', root, '--quiet=no');
  assert.equal(valued.code, 2);
  assert.match(valued.stderr, /^arch06: verify: --quiet takes no value/);
  const help = runCli('verify', '--bogus', '--help');
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^usage: arch06 verify /);
});

test('the options still do what they did: --arch repeats, -- passes a dash-led string through', () => {
  assert.equal(made.code, 0, made.stderr);
  // A list of one archive and two --arch: each --arch is mounted, both below the list.
  const cfg = path.join(tempDir('arch06-cli-args-cfg-'), 'one.archcfg');
  fs.writeFileSync(cfg, `${path.join(root, 'Base.arch06')}\r\n`);
  const m = cliJson('mount', root, '--cfg', cfg, '--arch', path.join(root, 'Blade.arch06'), '--arch', path.join(root, 'Patch_01.arch06'));
  const names: string[] = m.sources.map((s: any) => s.name);
  assert.equal(names[0], 'Base.arch06');
  assert.deepEqual([...names.slice(1)].sort(), ['Blade.arch06', 'Patch_01.arch06']);
  // After --, "--json" is the string to hash, not the switch.
  const r = runCli('hash', '--', '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), formatHash(stringHash('--json')));
});

test("every option a command's usage line names is one its --help lists, with -h, --help", () => {
  for (const c of commands()) {
    const help = runCli(c, '--help').stdout;
    const [usage, options] = help.split('\noptions:\n');
    assert.ok(options, `${c} --help has an options section`);
    const listed = new Set([...options.split('\nexample:')[0].matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]));
    for (const [, name] of usage.matchAll(/--([a-z][a-z-]*)/g)) assert.ok(listed.has(name), `${c}: usage names --${name}, --help does not list it`);
    assert.deepEqual([...listed].sort(), [...Object.keys(COMMAND_OPTIONS[c]), 'help'].sort(), c);
    assert.match(options, /-h, --help/);
  }
});
