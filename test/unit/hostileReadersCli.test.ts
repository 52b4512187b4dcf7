// Issue 21 items 2, 3, 9 and 10 through the built CLI, as a user runs it, in a child with a
// 128 MiB heap and a watchdog, its reads counted (test/support/adversarial.ts): the amplification inputs end with a
// result bounded by their size (never exit 70, never "Invalid string length"); manifests and
// registries that decode to gigabytes are refused after their header; one loose name that cannot be
// a path costs that file only; game strings reach the terminal escaped.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeBndl, writeEmbb } from '../../core/formats/bundle';
import { ownScriptPath, writeRegistry } from '../../core/formats/registry';
import { writeScri } from '../../core/formats/script';
import { writeSkdb } from '../../core/formats/strings';
import { stringHash } from '../../core/hash';
import { SAMPLE_LAYER_SCRIPT } from '../../core/sample';
import { Arena, type BoundedRun, assertContract, craftArchive, memsetEntry, runBounded } from '../support/adversarial';
import { type CraftedFile, craftedRegistries, sharedPathBundle, sharedTextTable } from '../support/sharedRecords';

const HEAP_MB = 128;
/** What an output about a file may hold (cli/output.ts: 8 characters per byte + 8 Mi), and the JSON's indentation. */
const outputBound = (bytes: number): number => 3 * (8 * bytes + (8 << 20));

/** Write `files` into arena/mods/Mod.arch06 and return the `--arch` arguments that mount it. */
function mod(arena: Arena, files: Record<string, Uint8Array | ReturnType<typeof memsetEntry>>): string[] {
  fs.mkdirSync(arena.at('mods'), { recursive: true });
  fs.writeFileSync(arena.at('mods', 'Mod.arch06'), craftArchive(files));
  return ['--arch', arena.at('mods', 'Mod.arch06')];
}

function ran(r: BoundedRun, what: string, bytes: number): string {
  assertContract(r, { code: 0, lines: 0 }, what);
  assert.ok(r.stdout.length <= outputBound(bytes), `${what}: ${r.stdout.length} bytes of output`);
  return r.stdout.toString();
}

// ---- item 2: the amplification inputs ------------------------------------------------------------

test('dump, scripts and ls on the amplification inputs: exit 0 with output bounded by the file, in a 128 MiB heap', () => {
  const arena = new Arena();
  const registries = craftedRegistries();
  const table = sharedTextTable();
  const long = sharedPathBundle(50_000, 200_000);
  const short = sharedPathBundle(50_000, 1000);
  const files: CraftedFile[] = [...registries, table, long.manifest, long.container, short.manifest, short.container];
  const args = mod(arena, Object.fromEntries(files.map((f) => [f.path, f.bytes])));
  arena.seal();
  const run = (a: string[]): BoundedRun => runBounded([...a, ...args], { heapMb: HEAP_MB, timeoutMs: 90_000 });
  for (const f of [...registries, table]) {
    const text = ran(run(['dump', arena.game, f.path]), `dump ${f.name}`, f.bytes.length);
    assert.doesNotMatch(text, /Invalid string length/);
    const json = JSON.parse(ran(run(['dump', arena.game, f.path, '--json']), `dump --json ${f.name}`, f.bytes.length));
    assert.equal(json.path, f.path);
  }
  // The 3,000 x 3,000 run: the true row count, the rows capped.
  const runJson = JSON.parse(run(['dump', arena.game, registries[0].path, '--json']).stdout.toString());
  assert.equal(runJson.bindingRows, 9_000_000);
  assert.equal(runJson.bindings.length, 20_000);
  // The script index reads every registry of the mount (here the four crafted ones too).
  // On one thread and on two workers (whose readings cross threads as messages: one that would
  // copy a shared name per record is read on the calling thread instead).
  for (const jobs of ['1', '2']) {
    const scripts = ran(run(['scripts', arena.game, SAMPLE_LAYER_SCRIPT, '--jobs', jobs]), `scripts --jobs ${jobs}`, 1 << 20);
    assert.match(scripts, /_gatealarm_SR_Script1_0c1d2e3f/);
  }
  for (const b of [long, short]) {
    const size = b.manifest.bytes.length + b.container.bytes.length;
    const dumped = ran(run(['dump', arena.game, b.manifest.path]), `dump ${b.manifest.name}`, size);
    assert.match(dumped, /50000 members/);
    ran(run(['dump', arena.game, b.manifest.path, '--json']), `dump --json ${b.manifest.name}`, size);
    // A declared path no game path can be is in no listing (the folder is not there); a valid one is listed once.
    const ls = run(['ls', arena.game, `${b.manifest.path} [bundle]\\worlds\\crafted`]);
    if (b === long) {
      assertContract(ls, { code: 1, lines: 1 }, `ls ${b.manifest.name}`);
      assert.match(ls.stderr, /folder not found in the bundle/);
    } else assert.equal(ran(ls, `ls ${b.manifest.name}`, size).split('\n').filter(Boolean).length, 1);
  }
  arena.check();
});

// ---- item 3: manifests and registries are read header first, within the cap ----------------------

/** A format's tag followed by u32 words: the valid header a crafted entry starts with. */
function header(tag: string, words: number[]): Uint8Array {
  const b = Buffer.alloc(4 + 4 * words.length);
  b.write(tag, 0, 'latin1');
  words.forEach((w, i) => b.writeUInt32LE(w, 4 + 4 * i));
  return b;
}

test('a .bndl that decodes to 2 GiB of zeros: "not a BNDL file" after 64 KiB; 8 GiB behind a BNDL header: the cap, never exit 70', () => {
  const arena = new Arena();
  const args = mod(arena, { 'bundles\\zeros.bndl': memsetEntry(32768), 'bundles\\huge.bndl': memsetEntry(131072, header('BNDL', [6, 0, 0, 1])) });
  assert.ok(fs.statSync(arena.at('mods', 'Mod.arch06')).size < 4 << 20);
  arena.seal();
  for (const cmd of [
    ['dump', arena.game, 'bundles\\zeros.bndl'],
    ['ls', arena.game, 'bundles\\zeros.bndl [bundle]'],
  ]) {
    const r = runBounded([...cmd, ...args], { heapMb: HEAP_MB });
    // 32,768 chunks: a walk of them all would be thousands of reads; the 64 KiB prefix needs a few.
    assertContract(r, { code: 2, lines: 1, maxReads: 64, maxRssMb: 300 }, cmd.join(' '));
    assert.match(r.stderr, /not a BNDL file/);
  }
  const huge = runBounded(['dump', arena.game, 'bundles\\huge.bndl', ...args], { heapMb: HEAP_MB });
  assertContract(huge, { code: 2, lines: 1, maxReads: 64 });
  assert.match(huge.stderr, /too large to read into memory.*ARCH06_MAX_ENTRY_BYTES/);
  arena.check();
});

test('a 2 GiB .objres (zeros, or behind an OBJR header) does not stop scripts: the rest is indexed', () => {
  const arena = new Arena();
  const args = mod(arena, { 'worlds\\bomb\\zeros.objres': memsetEntry(32768), 'worlds\\bomb\\huge.objres': memsetEntry(32768, header('OBJR', [13, 0, 0])) });
  arena.seal();
  const r = runBounded(['scripts', arena.game, SAMPLE_LAYER_SCRIPT, ...args], { heapMb: HEAP_MB });
  assertContract(r, { code: 0, lines: 0, maxReads: 200, maxRssMb: 300 });
  assert.match(r.stdout.toString(), /_gatealarm_SR_Script1_0c1d2e3f {2}bound by 3/);
  const dump = runBounded(['dump', arena.game, 'worlds\\bomb\\zeros.objres', ...args], { heapMb: HEAP_MB });
  assertContract(dump, { code: 2, lines: 1, maxReads: 64 });
  assert.match(dump.stderr, /not an OBJR object registry/);
  arena.check();
});

// ---- item 9: one bad loose name costs that file only ----------------------------------------------

test('a loose Game file named with a control character: scripts still indexes every script, verify counts it', () => {
  const arena = new Arena();
  fs.writeFileSync(path.join(arena.game, 'Game', 'bad\x01name.scripts'), writeScri('local x = 1\n'));
  arena.seal();
  const s = runBounded(['scripts', arena.game, SAMPLE_LAYER_SCRIPT, '--json']);
  assertContract(s, { code: 0, lines: 0 });
  const out = JSON.parse(s.stdout.toString());
  assert.ok(out.functions.some((f: { boundByCount: number }) => f.boundByCount === 3));
  const v = runBounded(['verify', arena.game, '--json']);
  assertContract(v, { code: 2, lines: 1 });
  const report = JSON.parse(v.stdout.toString());
  assert.deepEqual(
    report.failures.map((f: { code: string; path: string }) => [f.code, f.path]),
    [['UNSAFE_NAME', 'bad\x01name.scripts']],
  );
  arena.check();
});

// ---- item 10: game strings reach the terminal escaped ---------------------------------------------

/** Terminal escapes in every string field a command prints. */
const EVIL = { object: 'Obj\x1b[31mX.SR', cls: 'Cls\x1b]0;pwned\x07', event: 'Ev\x9b2J\x07', group: 'Grp\x1b[2J', member: 'Mem\x1b[H' };
/** The event is written as this placeholder and patched: the writer hashes event names, and StringHash knows no control character. */
const EVENT_PLACEHOLDER = 'EvQQQQ';

/** `bytes` with each placeholder (latin1) replaced by a string of the same length. */
function patchBytes(bytes: Uint8Array, patches: [string, string][]): Uint8Array {
  const buf = Buffer.from(bytes);
  for (const [from, to] of patches) {
    assert.equal(from.length, to.length);
    const at = buf.indexOf(from, 0, 'latin1');
    if (at >= 0) buf.write(to, at, 'latin1');
  }
  return buf;
}

/** A bundle whose type and member paths hold escapes (patched over placeholders: the writers refuse them). */
function evilBundle(): { manifest: Uint8Array; container: Uint8Array } {
  const patches: [string, string][] = [
    ['WorldQQQQ', 'World\x1b[5m'],
    ['worlds\\evil\\mQQQQx.objres', 'worlds\\evil\\m\x1b[2Jx.objres'], // no game path: in no listing, still dumped
    ['worlds\\evil\\nQQQx.objres', 'worlds\\evil\\n\x9b2Jx.objres'], // a C1 escape: a valid game path, listed
  ];
  const list = patches.slice(1).map(([p]) => ({ path: p, size: 1, bytes: new Uint8Array(1) }));
  return { manifest: patchBytes(writeBndl('WorldQQQQ', list), patches), container: patchBytes(writeEmbb(list), patches) };
}

test('escape sequences in OBJL classes, SCRB events, names, texts and member paths: no raw control character on stdout', () => {
  const arena = new Arena();
  const registry = 'worlds\\evil\\part.objres';
  const script = ownScriptPath(registry);
  const bundle = evilBundle();
  const args = mod(arena, {
    // Bound and owning objects are keyed by StringHash, which knows no control character: they keep
    // plain names; the escapes are in an unbound object's name, the class, the event, the group and a member.
    [registry]: patchBytes(
      writeRegistry({
        scriptPath: script,
        objects: [
          { className: EVIL.cls, name: 'Obj.SR', group: EVIL.group },
          { className: 'ScriptRelay', name: EVIL.object },
        ],
        bindings: [{ name: 'Obj.SR', bindings: [{ event: EVENT_PLACEHOLDER, function: 'f1' }] }],
        groups: [{ owner: 'Obj.SR', members: [EVIL.member] }],
      }),
      [[EVENT_PLACEHOLDER, EVIL.event]],
    ),
    [script]: writeScri('local s = {\nf1 = function (self) end,\n}\n_G.loadedresource = s\n'),
    'database\\string\\enus\\evil.strdb': writeSkdb([{ hash: stringHash('k'), text: 'Text\x1b[6n\x9b1m\x07' }]),
    'worlds\\evil\\pack.bndl': bundle.manifest,
    'worlds\\evil\\pack.embb': bundle.container,
  });
  arena.seal();
  const commands = [
    ['dump', arena.game, registry],
    ['dump', arena.game, 'database\\string\\enus\\evil.strdb'],
    ['dump', arena.game, 'worlds\\evil\\pack.bndl'],
    ['dump', arena.game, 'worlds\\evil\\pack.embb'],
    ['scripts', arena.game, script],
    ['ls', arena.game, 'worlds\\evil\\pack.bndl [bundle]\\worlds\\evil'],
  ];
  for (const cmd of commands) {
    for (const json of [false, true]) {
      const r = runBounded([...cmd, ...(json ? ['--json'] : []), ...args], { heapMb: HEAP_MB });
      const what = `${cmd[0]} ${cmd[2]}${json ? ' --json' : ''}`;
      assertContract(r, { code: 0, lines: 0 }, what);
      const out = r.stdout.toString('latin1');
      // C0 (but newline and tab), DEL and C1 (UTF-8 C2 80-9F) escaped, in text and JSON alike.
      assert.doesNotMatch(out, /[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]/, `${what}: a raw control character`);
    }
  }
  const scripts = runBounded(['scripts', arena.game, script, ...args]).stdout.toString();
  assert.match(scripts, /Obj\.SR \(Cls\\x1B\]0;pwned\\x07\) · Ev\\x9B2J\\x07/);
  const dumped = runBounded(['dump', arena.game, registry, ...args]).stdout.toString();
  assert.match(dumped, /Obj\\x1B\[31mX\.SR/);
  assert.match(dumped, /Mem\\x1B\[H/);
  arena.check();
});
