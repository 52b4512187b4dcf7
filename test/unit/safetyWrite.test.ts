/**
 * The write primitive and the read guards of core/io/node/ in-process (issue 10): names are
 * checked before anything is created, every folder's real path is checked as it is created,
 * temp files are exclusive with unpredictable names and never follow a link, the install is
 * compared by real path, and whole-file reads refuse devices and sizes over the cap. The CLI
 * side of the same promises is test/unit/safetyCli.test.ts.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../../core/errors';
import { escapeControls, escapeName, unsafeNameReason } from '../../core/io';
import {
  checkEntrySize,
  readFileBytes,
  readTextFile,
  isInside,
  isInsideReal,
  realPathOf,
  errnoSummary,
  isErrnoException,
  OutputFolder,
  writeFileAtomic,
} from '../../core/io/node';
import { expectArch06Error } from '../support/errors';
import { snapshotTree, treeChanges } from '../support/adversarial';
import { tempDir } from '../support/fixtures';

test('unsafeNameReason: one plain segment or a reason', () => {
  for (const ok of ['a', 'Base.arch06', 'x.tex0', '.hidden', 'caf\xe9', 'a b', 'con_x.txt', 'console.txt', '…'])
    assert.equal(unsafeNameReason(ok), undefined, ok);
  const bad: [string, RegExp][] = [
    ['', /empty/],
    ['.', /relative/],
    ['..', /relative/],
    ['a/b', /separator/],
    ['a\\b', /separator/],
    ['..\\game', /separator/],
    ['C:', /":"/],
    ['C:x', /":"/],
    ['a:stream', /":"/],
    ['a\0b', /control/],
    ['a\nb', /control/],
    ['a\x1bb', /control/],
    ['a\x7f', /control/],
    ['dot.', /dot or a space/],
    ['space ', /dot or a space/],
    ['CON', /device/],
    ['nul.txt', /device/],
    ['Com1.dds', /device/],
    ['LPT9', /device/],
  ];
  for (const [name, why] of bad) assert.match(unsafeNameReason(name) ?? 'accepted', why, JSON.stringify(name));
});

test('escapeName and escapeControls: one safe line, backslashes kept', () => {
  assert.equal(escapeName('plain\\path.txt'), 'plain\\path.txt');
  assert.equal(escapeName('a\x1b[31m\nb'), 'a\\x1B[31m\\x0Ab');
  assert.equal(escapeName('caf\xe9\x9b\x7f'), 'caf\\xE9\\x9B\\x7F');
  assert.equal(escapeName('\u2026'), '\\u{2026}');
  assert.equal(escapeControls('a\x1b\n\x9b b… é'), 'a\\x1B\\x0A\\x9B b… é');
});

test('OutputFolder: unsafe segments are refused before anything is created', () => {
  const root = tempDir();
  const out = OutputFolder.open(path.join(root, 'out'));
  for (const segs of [['..', 'x'], ['sub', '..', '..', 'x'], ['../../x'], ['sub', '..\\game\\Base.arch06'], ['C:', 'x'], ['a\0b'], ['ok', ''], []]) {
    const e = expectArch06Error(() => out.writeSync(segs, Buffer.from('x')), segs.length ? 'INVALID' : 'BAD_ARGUMENT');
    assert.doesNotMatch(e.message, /[\x00-\x1f]/);
  }
  assert.deepEqual(fs.readdirSync(path.join(root, 'out')), []);
  assert.deepEqual(fs.readdirSync(root), ['out']);
});

test('OutputFolder: writes through temp files with random names, leaves none behind, replaces a link at the destination', async () => {
  const root = tempDir();
  const victim = path.join(root, 'victim');
  fs.writeFileSync(victim, 'keep');
  const out = OutputFolder.open(path.join(root, 'out'));
  fs.mkdirSync(path.join(root, 'out', 'a'));
  fs.symlinkSync(victim, path.join(root, 'out', 'a', 'b.bin'));
  fs.symlinkSync(victim, path.join(root, 'out', 'a', 'b.bin.part'));
  out.writeSync(['a', 'b.bin'], [Buffer.from('he'), Buffer.from('llo')]);
  assert.equal(fs.readFileSync(victim, 'utf8'), 'keep');
  assert.ok(fs.lstatSync(path.join(root, 'out', 'a', 'b.bin')).isFile());
  assert.equal(fs.readFileSync(path.join(root, 'out', 'a', 'b.bin'), 'utf8'), 'hello');
  assert.deepEqual(fs.readdirSync(path.join(root, 'out', 'a')).sort(), ['b.bin', 'b.bin.part']);
  // A failing write removes its temp file.
  await assert.rejects(
    out.writeBlocks(['a', 'c.bin'], async () => {
      throw new Arch06Error('CORRUPT_STREAM', 'bad chunk');
    }),
    /bad chunk/,
  );
  assert.deepEqual(fs.readdirSync(path.join(root, 'out', 'a')).sort(), ['b.bin', 'b.bin.part']);
});

test('OutputFolder.writeBlocks: a failed read leaves no file and no temp file', async () => {
  const root = tempDir();
  const out = OutputFolder.open(root);
  let n = 0;
  await assert.rejects(
    out.writeBlocks(['x', 'y.bin'], async () => {
      if (n++ === 0) return Buffer.from('part');
      throw new Arch06Error('CORRUPT_STREAM', 'bad chunk');
    }),
    /bad chunk/,
  );
  assert.deepEqual(fs.readdirSync(path.join(root, 'x')), []);
  n = 0;
  await out.writeBlocks(['x', 'z.bin'], async () => (n++ < 3 ? Buffer.from('ab') : undefined));
  assert.equal(fs.readFileSync(path.join(root, 'x', 'z.bin'), 'utf8'), 'ababab');
});

test('OutputFolder: a folder link leading out of the output folder, into a forbidden place or anywhere is refused per file', () => {
  const root = tempDir();
  const install = path.join(root, 'install');
  fs.mkdirSync(path.join(install, 'Game'), { recursive: true });
  const elsewhere = path.join(root, 'elsewhere');
  fs.mkdirSync(elsewhere);
  fs.mkdirSync(path.join(root, 'out'));
  fs.symlinkSync(path.join(install, 'Game'), path.join(root, 'out', 'game'));
  fs.symlinkSync(elsewhere, path.join(root, 'out', 'away'));
  fs.mkdirSync(path.join(root, 'out', 'real'));
  fs.symlinkSync('real', path.join(root, 'out', 'inside'));
  const before = snapshotTree(root);
  const out = OutputFolder.open(path.join(root, 'out'), { forbid: [install] });
  expectArch06Error(() => out.writeSync(['game', 'x.bin'], Buffer.from('x')), 'INVALID', { message: /install/ });
  expectArch06Error(() => out.writeSync(['away', 'x.bin'], Buffer.from('x')), 'INVALID', { message: /outside the output folder/ });
  // A link that stays inside the output folder is refused too: it could be swapped while arch06 writes.
  expectArch06Error(() => out.writeSync(['inside', 'x.bin'], Buffer.from('x')), 'INVALID', { message: /symbolic link inside the output folder/ });
  out.close();
  assert.deepEqual(treeChanges(before, snapshotTree(root)), []);
});

test('OutputFolder: a folder swapped for a link between two writes is caught before anything is created through it', () => {
  const root = tempDir();
  const elsewhere = path.join(root, 'elsewhere');
  fs.mkdirSync(elsewhere);
  const out = OutputFolder.open(path.join(root, 'out'));
  out.writeSync(['a', 'b', 'x.bin'], Buffer.from('x'));
  fs.rmSync(path.join(root, 'out', 'a'), { recursive: true });
  fs.symlinkSync(elsewhere, path.join(root, 'out', 'a'));
  const mtime = fs.statSync(elsewhere).mtimeMs;
  expectArch06Error(() => out.writeSync(['a', 'b', 'y.bin'], Buffer.from('y')), 'INVALID', { message: /outside the output folder/ });
  assert.deepEqual(fs.readdirSync(elsewhere), []);
  assert.equal(fs.statSync(elsewhere).mtimeMs, mtime);
});

test('OutputFolder.open: refused inside the install by real path (link, link to the install, dangling link), refused when a file', () => {
  const root = tempDir();
  const install = path.join(root, 'install');
  fs.mkdirSync(install);
  fs.symlinkSync(install, path.join(root, 'install_link'));
  fs.symlinkSync(path.join(install, 'new'), path.join(root, 'dangling'));
  fs.writeFileSync(path.join(root, 'file'), 'x');
  const before = snapshotTree(root);
  for (const [dir, forbid] of [
    [path.join(root, 'install_link'), install],
    [path.join(root, 'install_link', 'deeper', 'still'), install],
    [path.join(install, 'out'), path.join(root, 'install_link')],
    [path.join(root, 'dangling', 'x'), install],
  ]) {
    expectArch06Error(() => OutputFolder.open(dir, { forbid: [forbid] }), 'BAD_ARGUMENT', { message: /read-only/ });
  }
  expectArch06Error(() => OutputFolder.open(path.join(root, 'file')), 'BAD_ARGUMENT', { message: /not a folder/ });
  assert.deepEqual(treeChanges(before, snapshotTree(root)), []);
  // The install's parent is fine; a file that would land in the install through it is not.
  const parent = OutputFolder.open(root, { forbid: [install] });
  expectArch06Error(() => parent.writeSync(['install', 'Base.arch06'], Buffer.from('x')), 'INVALID', { message: /install/ });
  assert.deepEqual(fs.readdirSync(install), []);
});

test('writeFileAtomic: the backup is kept from the first write, never written through a link', () => {
  const root = tempDir();
  const target = path.join(root, 'sub', 'f.txt');
  writeFileAtomic(target, Buffer.from('one'), { backup: true });
  assert.ok(!fs.existsSync(target + '.bak'));
  writeFileAtomic(target, Buffer.from('two'), { backup: true });
  writeFileAtomic(target, Buffer.from('three'), { backup: true });
  assert.equal(fs.readFileSync(target, 'utf8'), 'three');
  assert.equal(fs.readFileSync(target + '.bak', 'utf8'), 'one');
  const victim = path.join(root, 'victim');
  fs.writeFileSync(victim, 'keep');
  const t2 = path.join(root, 'g.txt');
  fs.writeFileSync(t2, 'old');
  fs.symlinkSync(victim, t2 + '.bak');
  writeFileAtomic(t2, Buffer.from('new'), { backup: true });
  assert.equal(fs.readFileSync(victim, 'utf8'), 'keep');
  assert.equal(fs.readFileSync(t2, 'utf8'), 'new');
  expectArch06Error(() => writeFileAtomic(path.join(root, 'x', 'y.png'), Buffer.from('x'), { forbid: [path.join(root, 'x')] }), 'BAD_ARGUMENT');
});

test('realPathOf / isInsideReal: links followed, missing tails kept, dangling links followed to their target', () => {
  const root = fs.realpathSync(tempDir());
  fs.mkdirSync(path.join(root, 'install'));
  fs.symlinkSync(path.join(root, 'install'), path.join(root, 'link'));
  fs.symlinkSync(path.join(root, 'install', 'later'), path.join(root, 'dangling'));
  assert.equal(realPathOf(path.join(root, 'link', 'a', 'b')), path.join(root, 'install', 'a', 'b'));
  assert.equal(realPathOf(path.join(root, 'dangling', 'x')), path.join(root, 'install', 'later', 'x'));
  assert.ok(isInsideReal(path.join(root, 'link', 'x.png'), path.join(root, 'install')));
  assert.ok(isInsideReal(path.join(root, 'install', 'x.png'), path.join(root, 'link')));
  assert.ok(isInsideReal(path.join(root, 'dangling'), path.join(root, 'install')));
  assert.ok(!isInsideReal(path.join(root, 'installer'), path.join(root, 'install')));
  assert.ok(!isInside(path.join(root, 'install..x'), path.join(root, 'install')));
  assert.ok(isInside(path.join(root, 'install', '..x'), path.join(root, 'install')));
});

test('readFileBytes: devices, folders and files over the cap are refused before anything is allocated; the prefix is checked first', () => {
  const root = tempDir();
  if (fs.existsSync('/dev/zero')) expectArch06Error(() => readFileBytes('/dev/zero'), 'BAD_ARGUMENT', { message: /not a regular file/ });
  expectArch06Error(() => readFileBytes(root), 'BAD_ARGUMENT', { message: /not a regular file/ });
  const f = path.join(root, 'f.bin');
  fs.writeFileSync(f, Buffer.alloc(5000, 7));
  expectArch06Error(() => readFileBytes(f, 4999, 'raise it'), 'OUT_OF_RANGE', { message: /cap for one file is 4999 bytes; raise it/ });
  assert.equal(readFileBytes(f, 5000).length, 5000);
  let seen = -1;
  expectArch06Error(
    () =>
      readFileBytes(
        f,
        10,
        undefined,
        (p) => {
          seen = p.length;
          throw new Arch06Error('BAD_MAGIC', 'nope');
        },
        64,
      ),
    'BAD_MAGIC',
  );
  assert.equal(seen, 64);
  const whole = readFileBytes(f, 5000, undefined, (p) => assert.equal(p.length, 64), 64);
  assert.deepEqual(whole, Buffer.alloc(5000, 7));
  assert.equal(readTextFile(f).length, 5000);
  expectArch06Error(() => checkEntrySize(2 ** 31, 'e', 2 ** 40), 'OUT_OF_RANGE', { message: /2147483647/ });
});

test('errnoSummary: what failed, the path, a short reason', () => {
  let err: unknown;
  try {
    fs.mkdirSync(path.join(tempDir(), 'a', 'b'));
  } catch (e) {
    err = e;
  }
  assert.ok(isErrnoException(err));
  assert.match(errnoSummary(err), /^cannot create folder: .*[\\/]a[\\/]b: no such file or folder \(ENOENT\)$/);
  assert.ok(!isErrnoException(new TypeError('x')));
  assert.ok(!isErrnoException(Object.assign(new Error('x'), { code: 'ERR_INVALID_ARG_TYPE' })));
});
