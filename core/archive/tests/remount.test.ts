/**
 * A changing disk under a mount (issue 21 item 2): a source compares its file's stamp with the
 * disk after every read and fails with CHANGED_ON_DISK instead of serving stale bytes; the
 * remount model names what changed, keeps the sources that did not (the same objects) and opens
 * the rest; identities tell an open copy changed or vanished; verify and extract stop reading a
 * changed archive and say how much they left. The oracle is what the test did to the disk.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isArch06Error } from '../../errors';
import { LtarWriter } from '../../formats/archive/ltar/writer';
import { Mount } from '../mount';
import { copyStatus, describeChanges, looseChange, mountChanges, needsRemount, remount } from '../remount';
import { verifyMount } from '../verify';
import { collectEntries, extractEntries } from '../extract';
import { tempDir, writeTree } from '../../../test/support/fixtures';

const archive = (files: Record<string, string>): Uint8Array => {
  const w = new LtarWriter();
  for (const [p, t] of Object.entries(files)) w.addBytes(p, Buffer.from(t));
  return w.toBytes();
};

const text = (b: Uint8Array): string => Buffer.from(b).toString();

/** A small install: Game (loose) on top, then A, B, C, a line naming nothing, a broken file. */
function install(): string {
  const root = tempDir('arch06-remount-');
  writeTree(root, {
    'x64/default.archcfg': ['..\\Game', '..\\A.arch06', '..\\B.arch06', '..\\C.arch06', '..\\Later.arch06', '..\\Broken.arch06', ''].join('\r\n'),
    'A.arch06': archive({ 'config\\game.cfg': 'A copy', 'a.txt': 'only in A' }),
    'B.arch06': archive({ 'config\\game.cfg': 'B copy', 'b.txt': 'only in B' }),
    'C.arch06': archive({ 'config\\game.cfg': 'C copy', 'c.txt': 'only in C' }),
    'Broken.arch06': 'not an archive',
    'Game/loose.txt': 'loose v1',
  });
  return root;
}

/** Replace a file the way a mod manager does: write beside it, rename over it. */
function replaceFile(p: string, bytes: Uint8Array | string): void {
  fs.writeFileSync(p + '.new', bytes);
  fs.renameSync(p + '.new', p);
}

const changedError = (e: unknown, how: RegExp): boolean => isArch06Error(e) && e.code === 'CHANGED_ON_DISK' && how.test(e.message);

test('an archive replaced, truncated, rewritten in place or deleted after mounting: every read fails with CHANGED_ON_DISK, sync and async', async () => {
  const cases: [string, (p: string) => void, RegExp][] = [
    ['replaced', (p) => replaceFile(p, archive({ 'config\\game.cfg': 'new copy' })), /replaced by another file/],
    ['truncated', (p) => fs.truncateSync(p, 100), /truncated from \d+ to 100 bytes/],
    ['grown', (p) => fs.appendFileSync(p, 'tail'), /grown from/],
    ['rewritten', (p) => fs.utimesSync(p, new Date(), new Date(Date.now() + 5000)), /rewritten in place/],
    ['deleted', (p) => fs.rmSync(p), /deleted/],
  ];
  for (const [what, change, how] of cases) {
    const root = install();
    const m = Mount.open({ root });
    try {
      const e = m.entry('c.txt');
      assert.equal(text(e.readSync()), 'only in C');
      change(path.join(root, 'C.arch06'));
      assert.throws(
        () => e.readSync(),
        (err) => changedError(err, how),
        what,
      );
      await assert.rejects(e.read(), (err) => changedError(err, how), what);
      assert.match(m.source('C.arch06')!.changedOnDisk()!.detail, how);
      // The other archives are untouched and still serve.
      assert.equal(text(m.entry('a.txt').readSync()), 'only in A');
    } finally {
      m.close();
    }
  }
});

test('a loose file changed after it was listed or looked up: its read fails with CHANGED_ON_DISK; a new lookup serves the new file', () => {
  const root = install();
  const m = Mount.open({ root });
  try {
    const listed = m.list('')!.files.find((f) => f.name === 'loose.txt')!.winner;
    const looked = m.entry('loose.txt');
    assert.equal(listed.identity, looked.identity);
    fs.writeFileSync(path.join(root, 'Game', 'loose.txt'), 'loose v2, longer');
    assert.throws(
      () => listed.readSync(),
      (e) => changedError(e, /listed as 8/),
    );
    assert.throws(
      () => looked.readSync(),
      (e) => changedError(e, /listed as 8/),
    );
    const fresh = m.entry('loose.txt');
    assert.notEqual(fresh.identity, looked.identity);
    assert.equal(copyStatus(looked.identity, fresh.identity), 'changed');
    assert.equal(text(fresh.readSync()), 'loose v2, longer');
  } finally {
    m.close();
  }
});

test('mountChanges names every kind of change, without reading any archive; nothing changed, nothing named', () => {
  const root = install();
  const m = Mount.open({ root });
  try {
    assert.deepEqual(mountChanges(m), []);
    assert.deepEqual(
      m.broken.map((b) => path.basename(b.path)),
      ['Broken.arch06'],
    );
    replaceFile(path.join(root, 'A.arch06'), archive({ 'config\\game.cfg': 'A v2' }));
    fs.truncateSync(path.join(root, 'B.arch06'), 10);
    fs.rmSync(path.join(root, 'C.arch06'));
    fs.writeFileSync(path.join(root, 'Later.arch06'), archive({ 'later.txt': 'installed later' }));
    replaceFile(path.join(root, 'Broken.arch06'), archive({ 'fixed.txt': 'fixed' }));
    fs.writeFileSync(path.join(root, 'Extra.arch06'), archive({ 'extra.txt': 'x' }));
    const changes = mountChanges(m);
    const summary = changes.map((c) => `${c.role} ${c.name} ${c.kind}`).sort();
    assert.deepEqual(summary, [
      'broken Broken.arch06 replaced',
      'missing ..\\Later.arch06 added',
      'source A.arch06 replaced',
      'source B.arch06 truncated',
      'source C.arch06 deleted',
      'unlisted Extra.arch06 added',
    ]);
    assert.ok(needsRemount(changes));
    assert.ok(!needsRemount(changes.filter((c) => c.role === 'unlisted')));
    const line = describeChanges(changes, 3);
    assert.match(line, /A\.arch06 replaced by another file/);
    assert.match(line, /; and 3 more$/);
    // The cfg rewritten counts too.
    fs.appendFileSync(path.join(root, 'x64', 'default.archcfg'), '..\\Extra.arch06\r\n');
    assert.ok(mountChanges(m).some((c) => c.role === 'cfg' && /default\.archcfg/.test(c.name)));
  } finally {
    m.close();
  }
});

test('remount keeps every unchanged source (the same object, not opened again), opens the changed ones, and serves the new bytes', () => {
  const root = install();
  const old = Mount.open({ root });
  const [game, a, b, c] = ['Game', 'A.arch06', 'B.arch06', 'C.arch06'].map((n) => old.source(n)!);
  const before = {
    cfg: old.entry('config\\game.cfg').identity,
    b: old.entry('b.txt').identity,
    c: old.entry('c.txt').identity,
    a: old.entry('a.txt').identity,
  };
  assert.equal(text(old.entry('config\\game.cfg').readSync()), 'C copy');
  replaceFile(path.join(root, 'B.arch06'), archive({ 'config\\game.cfg': 'B v2', 'b.txt': 'B v2 only' }));
  fs.rmSync(path.join(root, 'C.arch06'));
  fs.writeFileSync(path.join(root, 'Later.arch06'), archive({ 'later.txt': 'installed later' }));
  const changes = mountChanges(old);
  const r = remount(old, changes);
  const m = r.mount;
  try {
    assert.deepEqual(
      m.sources.map((s) => s.name),
      ['Later.arch06', 'B.arch06', 'A.arch06', 'Game'],
    );
    assert.equal(m.source('A.arch06'), a, 'A is carried over as it was');
    assert.equal(m.source('Game'), game, 'no loose change: the folder is carried over');
    assert.notEqual(m.source('B.arch06'), b, 'B is opened anew');
    assert.equal(r.kept, 2);
    assert.equal(r.opened, 2);
    // The old copies: B's closed, C's gone; A still open and serving.
    assert.throws(() => b.entryAt(0).readSync());
    assert.throws(() => c.entryAt(0).readSync());
    assert.equal(text(m.entry('a.txt').readSync()), 'only in A');
    assert.equal(text(m.entry('later.txt').readSync()), 'installed later');
    assert.equal(text(m.entry('config\\game.cfg').readSync()), 'B v2');
    // What an editor showing each copy is told.
    assert.equal(copyStatus(before.a, m.winner('a.txt')?.identity), 'same');
    assert.equal(copyStatus(before.cfg, m.winner('config\\game.cfg')?.identity), 'changed');
    assert.equal(copyStatus(before.b, m.winner('b.txt')?.identity), 'changed');
    assert.equal(copyStatus(before.c, m.winner('c.txt')?.identity), 'vanished');
    assert.deepEqual(mountChanges(m), []);
  } finally {
    m.close();
  }
});

test('remount after a loose change opens the folder again; looseChange places a disk path in its folder', () => {
  const root = install();
  const old = Mount.open({ root });
  const game = old.source('Game')!;
  assert.equal(old.index().size, 5);
  fs.writeFileSync(path.join(root, 'Game', 'new.txt'), 'new loose');
  const change = looseChange(old, path.join(root, 'Game', 'new.txt'), 'added');
  assert.deepEqual(change && { role: change.role, name: change.name, kind: change.kind, detail: change.detail }, {
    role: 'loose',
    name: 'Game',
    kind: 'added',
    detail: 'new.txt added',
  });
  assert.equal(looseChange(old, path.join(root, 'A.arch06'), 'modified'), undefined);
  const r = remount(old, [change!]);
  try {
    assert.notEqual(r.mount.source('Game'), game);
    assert.equal(r.mount.index().size, 6);
    assert.equal(text(r.mount.entry('new.txt').readSync()), 'new loose');
    assert.equal(describeChanges([change!, { ...change!, detail: 'x.txt deleted' }]), 'Game: 2 loose files changed');
  } finally {
    r.mount.close();
  }
});

test('verify: an archive replaced during the run is given up at once, with the entries left unchecked counted; the others are verified', () => {
  const root = install();
  const files: Record<string, string> = {};
  for (let i = 0; i < 50; i++) files[`many\\f${i}.txt`] = `file ${i}`;
  fs.writeFileSync(path.join(root, 'B.arch06'), archive(files));
  const m = Mount.open({ root });
  try {
    let swapped = false;
    const report = verifyMount(m, {
      onProgress: (_done, _total, current) => {
        if (!swapped && current.startsWith('B.arch06:')) {
          swapped = true;
          replaceFile(path.join(root, 'B.arch06'), archive({ 'other.txt': 'other' }));
        }
      },
    });
    assert.deepEqual(report.changed, [{ source: 'B.arch06', detail: report.changed[0]?.detail, unchecked: 49 }]);
    assert.match(report.changed[0]!.detail, /replaced by another file/);
    const failures = report.failures.filter((f) => f.code === 'CHANGED_ON_DISK');
    assert.equal(failures.length, 1, 'one failure for the archive, not one per entry');
    assert.match(failures[0]!.message, /49 of its 50 entries not checked; run verify again/);
    // Game 1 + A 2 + B 1 (before the swap) + C 2 read; B's other 49 not.
    assert.equal(report.entries, 6);
  } finally {
    m.close();
  }
});

test('extract: an archive deleted during the run stops being read; its remaining files fail without a read and the change is reported once', async () => {
  const root = install();
  const files: Record<string, string> = {};
  for (let i = 0; i < 20; i++) files[`many\\f${String(i).padStart(2, '0')}.txt`] = `file ${i}`;
  fs.writeFileSync(path.join(root, 'B.arch06'), archive(files));
  const m = Mount.open({ root });
  try {
    const out = tempDir('arch06-remount-out-');
    let n = 0;
    const r = await extractEntries(m, collectEntries(m, 'many', 'B.arch06'), out, {
      onProgress: () => {
        if (++n === 5) fs.rmSync(path.join(root, 'B.arch06'));
      },
    });
    assert.equal(r.files, 5);
    assert.equal(r.failures.length, 15);
    assert.ok(r.failures.every((f) => f.code === 'CHANGED_ON_DISK'));
    assert.deepEqual(r.changed, [{ source: 'B.arch06', detail: 'deleted', files: 15 }]);
    assert.deepEqual(fs.readdirSync(path.join(out, 'many')).length, 5);
  } finally {
    m.close();
  }
});
