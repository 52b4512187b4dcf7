// The bundle editor's table (bundleRows.ts) in plain node: rows from a bundle resolved in a mount
// (the sample install's orc bundle: three members from Base's container, one loose in Patch_02,
// one shipped nowhere), a container without a manifest, concatenated EMBB blocks, size
// mismatches, a copy the engine does not use, files read on their own, the real world layers of
// Patch_00.arch06, and the protocol's message check.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount, resolveBundle } from '../../../core/archive';
import { Arch06Error } from '../../../core/errors';
import { LtarWriter } from '../../../core/formats/archive';
import { readEmbb, writeBndl, writeEmbb } from '../../../core/formats/bundle';
import { MemoryByteSource } from '../../../core/io';
import { SAMPLE_BUNDLE, sampleGame } from '../../../core/sample';
import { checkViewMessage } from '../../../media/bundle/protocol';
import { scrollAfterReorder } from '../../../media/bundle/tableScroll';
import { tempDir, writeTree } from '../../../test/support/fixtures';
import { sharedPath } from '../../../test/support/shared';
import { bundleMemberUriPath, containerModel, copyBanner, memberType, mountLooseCopies, resolvedModel, standaloneModel, summaryLine } from '../bundleRows';

const text = (s: string): Uint8Array => Buffer.from(s, 'latin1');
const ORC = 'characters\\orcs\\orc_sample';

function sampleMount(): Mount {
  const root = tempDir('arch06-bundle-rows-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  return Mount.open({ root });
}

test('memberType: the last segment’s extension, lower case; none without a dot', () => {
  assert.equal(memberType('characters\\orcs\\Body.TEX'), 'tex');
  assert.equal(memberType('a/b.c/readme'), '');
  assert.equal(memberType('x\\.hidden'), '');
  assert.equal(memberType('sound\\hit.bnk'), 'bnk');
});

test('a member opens through its bundle folder: /<dir>/x.bndl [bundle]/<member path>', () => {
  assert.equal(
    bundleMemberUriPath('bundles\\characters\\orc_sample.bndl', `${ORC}\\body.txt`),
    '/bundles/characters/orc_sample.bndl [bundle]/characters/orcs/orc_sample/body.txt',
  );
});

test('the sample bundle: container, loose and missing members, sizes, copies, the identity and what opening does', () => {
  const m = sampleMount();
  try {
    const b = resolveBundle(m, `${SAMPLE_BUNDLE}.bndl`);
    const { view, targets } = resolvedModel(b, mountLooseCopies(m));
    assert.equal(view.mode, 'resolved');
    assert.equal(view.title, `${SAMPLE_BUNDLE}.bndl`);
    assert.equal(view.type, 'Presentation');
    assert.deepEqual(view.manifest, {
      path: `${SAMPLE_BUNDLE}.bndl`,
      source: 'Patch_02.arch06',
      size: b.manifest.size,
      copies: ['Patch_02.arch06', 'Base.arch06'],
    });
    assert.equal(view.container!.source, 'Base.arch06');
    assert.equal(view.container!.members, 3);
    assert.equal(view.container!.blocks, 1);
    // Manifest order; where each is served from, by which source; the loose copies of each path.
    assert.deepEqual(
      view.rows.map((r) => [r.path.split('\\').pop(), r.type, r.served, r.source, r.copies, r.openable]),
      [
        ['body.txt', 'txt', 'container', 'Base.arch06', [], true],
        ['head.txt', 'txt', 'container', 'Base.arch06', [], true],
        ['weapon.txt', 'txt', 'container', 'Base.arch06', [], true],
        ['banner.txt', 'txt', 'loose', 'Patch_02.arch06', ['Patch_02.arch06'], true],
        ['voice.txt', 'txt', 'missing', null, [], false],
      ],
    );
    // Declared sizes from the manifest, container sizes from the size words (none for members the container lacks).
    for (const [i, r] of view.rows.entries()) assert.equal(r.declared, b.members[i].declaredSize);
    assert.deepEqual(
      view.rows.map((r) => r.container === null),
      [false, false, false, true, true],
    );
    assert.equal(view.rows[0].container, view.rows[0].declared);
    assert.equal(view.mismatches, 0);
    assert.deepEqual(view.counts, { container: 3, loose: 1, empty: 0, missing: 1, unresolved: 0 });
    // The manifest declares two members its container lacks: the identity does not hold, and the sum is shown term by term.
    const i = view.identity!;
    assert.equal(i.holds, false);
    assert.equal(i.actual, b.container!.size);
    assert.equal(i.header + i.pathTable + i.pathOffsets + i.members, i.predicted);
    assert.equal(i.pathOffsets, 4 * 5);
    assert.equal(
      i.members,
      view.rows.reduce((s, r) => s + 4 + r.declared!, 0),
    );
    assert.equal(view.mirror!.mirrors, false);
    assert.match(view.notes.join('\n'), /ranks above its container/);
    // Opening: the member in its bundle folder; the missing one says why.
    assert.deepEqual(targets[0], { uriPath: `/bundles/characters/orc_sample.bndl [bundle]/characters/orcs/orc_sample/body.txt` });
    assert.deepEqual(targets[3], { uriPath: `/bundles/characters/orc_sample.bndl [bundle]/characters/orcs/orc_sample/banner.txt` });
    assert.match((targets[4] as { reason: string }).reason, /voice\.txt is declared by the manifest, but no source ships it/);
    assert.equal(summaryLine(view), '5 members: 3 container, 1 loose, 1 missing');
    // Plain data: the whole view survives the webview's structured clone (JSON here).
    assert.deepEqual(JSON.parse(JSON.stringify(view)), view);
    // Opened from Base's own view: the copy the engine does not use says so.
    assert.match(
      copyBanner(b, { source: 'Base.arch06', path: `${SAMPLE_BUNDLE}.bndl` })!,
      /manifest in Base\.arch06; the engine uses the one in Patch_02\.arch06/,
    );
    assert.equal(copyBanner(b, { source: 'Patch_02.arch06', path: `${SAMPLE_BUNDLE}.bndl` }), undefined);
    assert.equal(copyBanner(b, { source: 'Base.arch06', path: `${SAMPLE_BUNDLE}.embb` }), undefined);
  } finally {
    m.close();
  }
});

/**
 * Base: `sizes` (a manifest whose declared sizes disagree with its container; one member also
 * loose in Patch_01 with yet another size), `orphan.embb` (no manifest; one member loose in
 * Patch_01), `two` (a manifest over a container of two concatenated EMBB blocks).
 */
function craftedMount(): Mount {
  const root = tempDir('arch06-bundle-rows-crafted-');
  const members = [
    { path: 'ui\\a.txt', bytes: text('AAAA') },
    { path: 'ui\\b.txt', bytes: text('BB') },
  ];
  const base = new LtarWriter();
  base.addBytes(
    'bundles\\sizes.bndl',
    writeBndl('Flair_1MB', [
      { path: 'ui\\a.txt', size: 5 },
      { path: 'ui\\b.txt', size: 3 },
    ]),
  );
  base.addBytes('bundles\\sizes.embb', writeEmbb(members));
  base.addBytes(
    'bundles\\orphan.embb',
    writeEmbb([
      { path: 'ui\\c.txt', bytes: text('C') },
      { path: 'ui\\d.txt', bytes: text('DD') },
    ]),
  );
  const first = [{ path: 'ui\\one.txt', bytes: text('1') }];
  const second = [{ path: 'ui\\two.txt', bytes: text('22') }];
  base.addBytes(
    'bundles\\two.bndl',
    writeBndl(
      'Flair_1MB',
      [...first, ...second].map((x) => ({ path: x.path, size: x.bytes.length })),
    ),
  );
  base.addBytes('bundles\\two.embb', Buffer.concat([writeEmbb(first), writeEmbb(second)]));
  const patch = new LtarWriter();
  patch.addBytes('ui\\b.txt', text('loose b, seven'));
  patch.addBytes('ui\\d.txt', text('loose d'));
  writeTree(root, {
    'x64/default.archcfg': '..\\Base.arch06\n..\\Patch_01.arch06\n',
    'Base.arch06': base.toBytes(),
    'Patch_01.arch06': patch.toBytes(),
  });
  return Mount.open({ root });
}

test('declared sizes that disagree with the container or the loose copy served are flagged, row by row', () => {
  const m = craftedMount();
  try {
    const { view } = resolvedModel(resolveBundle(m, 'bundles\\sizes.bndl'), mountLooseCopies(m));
    assert.equal(view.mismatches, 2);
    assert.equal(view.rows[0].mismatch, 'declared 5 bytes, the container holds 4 bytes');
    assert.equal(view.rows[1].served, 'loose');
    assert.equal(
      view.rows[1].mismatch,
      "declared 3 bytes, the loose copy served (Patch_01.arch06) is 14 bytes; the container's own copy (not served) is 2 bytes",
    );
    assert.deepEqual(view.rows[1].copies, ['Patch_01.arch06']);
    // Declared sizes differ, so the identity (which sums them) does not hold either.
    assert.equal(view.identity!.holds, false);
    assert.equal(view.identity!.actual! - view.identity!.predicted, -2);
  } finally {
    m.close();
  }
});

test('a container without a manifest lists its own members: loose where the mount ships them, else this container', () => {
  const m = craftedMount();
  try {
    assert.throws(
      () => resolveBundle(m, 'bundles\\orphan.embb'),
      (e: unknown) => e instanceof Arch06Error && e.code === 'NOT_FOUND',
    );
    const entry = m.entry('bundles\\orphan.embb');
    const embb = readEmbb(new MemoryByteSource(entry.path, entry.readSync()));
    const { view, targets } = containerModel({ path: entry.path, source: 'Base.arch06', size: entry.size, copies: ['Base.arch06'] }, embb, mountLooseCopies(m));
    assert.equal(view.mode, 'container');
    assert.equal(view.manifest, null);
    assert.equal(view.identity, null);
    assert.deepEqual(
      view.rows.map((r) => [r.path, r.declared, r.container, r.served, r.source]),
      [
        ['ui\\c.txt', null, 1, 'container', 'Base.arch06'],
        ['ui\\d.txt', null, 2, 'loose', 'Patch_01.arch06'],
      ],
    );
    assert.match(view.notes[0], /no manifest/);
    // Only the loose one opens (a container without a manifest has no bundle folder).
    assert.match((targets[0] as { reason: string }).reason, /no bundle folder/);
    assert.deepEqual(targets[1], { uriPath: '/ui/d.txt' });
  } finally {
    m.close();
  }
});

test('concatenated EMBB blocks: every block’s members, each row with its block, the container marked uncertain', () => {
  const m = craftedMount();
  try {
    const { view } = resolvedModel(resolveBundle(m, 'bundles\\two'), mountLooseCopies(m));
    assert.equal(view.container!.blocks, 2);
    assert.equal(view.container!.confidence, 'uncertain');
    assert.deepEqual(
      view.rows.map((r) => [r.path, r.served, r.block]),
      [
        ['ui\\one.txt', 'container', 0],
        ['ui\\two.txt', 'container', 1],
      ],
    );
    assert.match(view.notes.join('\n'), /container: 2 concatenated EMBB blocks/);
  } finally {
    m.close();
  }
});

test('a file read on its own: a manifest’s declared members and predicted size, a container’s members; bad bytes throw typed errors', () => {
  const members = [
    { path: 'ui\\a.txt', bytes: text('AAAA') },
    { path: 'ui\\b.txt', bytes: text('BB') },
  ];
  const manifest = standaloneModel('x.bndl', writeBndl('Sound_1', [{ path: 'sound\\hit.bnk', size: 3 }]));
  assert.equal(manifest.view.mode, 'standalone');
  assert.equal(manifest.view.type, 'Sound_1');
  assert.deepEqual(
    manifest.view.rows.map((r) => [r.path, r.declared, r.container, r.served]),
    [['sound\\hit.bnk', 3, null, 'unresolved']],
  );
  assert.equal(manifest.view.identity!.actual, null);
  assert.equal(manifest.view.identity!.predicted, 16 + manifest.view.identity!.pathTable + 4 + 4 + 3);
  assert.ok('reason' in manifest.targets[0]);
  const container = standaloneModel('x.EMBB', writeEmbb(members));
  assert.deepEqual(
    container.view.rows.map((r) => [r.path, r.declared, r.container, r.served]),
    [
      ['ui\\a.txt', null, 4, 'unresolved'],
      ['ui\\b.txt', null, 2, 'unresolved'],
    ],
  );
  assert.equal(container.view.counts.unresolved, 2);
  for (const [name, bytes] of [
    ['x.bndl', text('NOTABNDL')],
    ['x.embb', writeEmbb(members).subarray(0, 30)],
    ['x.embb', text('BNDL\u0006\u0000\u0000\u0000')],
  ] as const) {
    assert.throws(
      () => standaloneModel(name, bytes),
      (e: unknown) => e instanceof Arch06Error,
      name,
    );
  }
});

test('thousands of members: one row each, built in one pass', () => {
  const root = tempDir('arch06-bundle-rows-big-');
  const members = Array.from({ length: 5000 }, (_, i) => ({ path: `big\\m${String(i).padStart(5, '0')}.tex`, bytes: text(String(i)) }));
  const base = new LtarWriter();
  base.addBytes(
    'bundles\\big.bndl',
    writeBndl(
      'Presentation',
      members.map((x) => ({ path: x.path, size: x.bytes.length })),
    ),
  );
  base.addBytes('bundles\\big.embb', writeEmbb(members));
  writeTree(root, { 'x64/default.archcfg': '..\\Base.arch06\n', 'Base.arch06': base.toBytes() });
  const m = Mount.open({ root });
  try {
    const { view, targets } = resolvedModel(resolveBundle(m, 'bundles\\big.bndl'), mountLooseCopies(m));
    assert.equal(view.rows.length, 5000);
    assert.equal(targets.length, 5000);
    assert.equal(view.identity!.holds, true);
    assert.equal(view.mirror!.mirrors, true);
    assert.equal(view.counts.container, 5000);
  } finally {
    m.close();
  }
});

const patch = sharedPath('samples/real/Patch_00.arch06');

test('the real world layers of Patch_00.arch06: nine members from the container, the 0-byte .wldmsh empty, nothing flagged', { skip: patch.skip }, () => {
  const root = tempDir('arch06-bundle-rows-real-');
  fs.mkdirSync(path.join(root, 'x64'));
  fs.writeFileSync(path.join(root, 'x64', 'default.archcfg'), '..\\Patch_00.arch06\n');
  fs.copyFileSync(patch.path, path.join(root, 'Patch_00.arch06'));
  const m = Mount.open({ root });
  try {
    for (const layer of ['island', 'mtnpass', 'snowmtn', 'volcano']) {
      const stem = `worlds\\retail\\${layer}\\sectionsandlayers\\fortwallgameplay`;
      const { view, targets } = resolvedModel(resolveBundle(m, `${stem}.bndl`), mountLooseCopies(m));
      assert.equal(view.rows.length, 10, layer);
      assert.deepEqual(view.counts, { container: 9, loose: 0, empty: 1, missing: 0, unresolved: 0 }, layer);
      const empty = view.rows.find((r) => r.served === 'empty')!;
      assert.equal(empty.type, 'wldmsh', layer);
      assert.equal(empty.declared, 0, layer);
      assert.equal(empty.container, null, layer);
      assert.equal(view.mismatches, 0, layer);
      assert.ok(
        view.rows.some((r) => r.type === 'objres'),
        layer,
      );
      // What the editor would flag: a failing identity, a mirror difference, a size mismatch, a note. None.
      assert.equal(view.identity!.holds, true, layer);
      assert.equal(view.identity!.actual, view.identity!.predicted, layer);
      assert.deepEqual(view.identity!.notStored, { count: 1, pathBytes: 64 }, layer);
      assert.equal(view.identity!.pathOffsets, 4 * 9, layer);
      assert.deepEqual(view.mirror, { mirrors: true, differences: [] }, layer);
      assert.deepEqual(view.undeclared, [], layer);
      assert.deepEqual(view.notes, [], layer);
      assert.ok(
        view.rows.every((r) => r.mismatch === undefined),
        layer,
      );
      assert.equal(targets.filter((t) => 'uriPath' in t).length, 9, layer);
      assert.match((targets[view.rows.indexOf(empty)] as { reason: string }).reason, /declared with 0 bytes/);
      assert.equal(summaryLine(view), '10 members: 9 container, 1 empty', layer);
    }
  } finally {
    m.close();
  }
});

test('the protocol check: ready, firstRows and open with a row index pass; anything else is dropped', () => {
  assert.deepEqual(checkViewMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(checkViewMessage({ type: 'open', row: 4 }), { type: 'open', row: 4 });
  assert.deepEqual(checkViewMessage({ type: 'firstRows', rows: 12, extra: 1 }), { type: 'firstRows', rows: 12 });
  assert.deepEqual(checkViewMessage({ type: 'firstRows', rows: 'many' }), { type: 'firstRows', rows: 0 });
  for (const bad of [{ type: 'open' }, { type: 'open', row: -1 }, { type: 'open', row: 1.5 }, { type: 'open', row: '3' }, { type: 'save' }, null, 'open', 42]) {
    assert.equal(checkViewMessage(bad), undefined, JSON.stringify(bad));
  }
});

test('after a sort or a filter: the user’s row kept in view with the least scroll; the default selection scrolls to the top', () => {
  const f = { chosen: true, selectedPos: 100, scrollTop: 5000, viewHeight: 440, rowHeight: 22 };
  // Chosen and already in view: no scroll.
  assert.equal(scrollAfterReorder({ ...f, scrollTop: 2100 }), 2100);
  // Chosen, above the view: its top at the top; below it: its bottom at the bottom.
  assert.equal(scrollAfterReorder(f), 2200);
  assert.equal(scrollAfterReorder({ ...f, scrollTop: 0 }), 100 * 22 + 22 - 440);
  // Not chosen (the first row picked by default), or no selection: the top of the new order.
  assert.equal(scrollAfterReorder({ ...f, chosen: false }), 0);
  assert.equal(scrollAfterReorder({ ...f, selectedPos: -1 }), 0);
  // A chosen first row in a short view: never negative.
  assert.equal(scrollAfterReorder({ ...f, selectedPos: 0, scrollTop: 300, viewHeight: 10 }), 0);
});
