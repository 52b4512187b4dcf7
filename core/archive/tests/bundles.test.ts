import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { writeBndl } from '../../formats/bundle/bndlWriter';
import { writeEmbb } from '../../formats/bundle/embbWriter';
import { LtarWriter } from '../../formats/archive/ltar/writer';
import { bundleStem, readBundleMember, readBundleMemberAsync, resolveBundle } from '../bundles';
import { Mount } from '../mount';
import { SourceEntry } from '../source';
import { SAMPLE_BUNDLE, sampleGame } from '../../sample/sampleGame';
import { prng, randomBytes, tempDir, writeTree } from '../../../test/support/fixtures';

const text = (s: string): Uint8Array => Buffer.from(s, 'latin1');
const str = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

// The orc bundle: body, head and a large weapon payload in Base's container.
const body = text('orc body material');
const head = text('orc head material');
const weapon = randomBytes(5000, prng(77)); // spans many 512-byte chunks of the container entry
const orcMembers = [
  { path: 'characters\\orcs\\orc\\body.mat', bytes: body },
  { path: 'characters\\orcs\\orc\\head.mat', bytes: head },
  { path: 'characters\\orcs\\orc\\weapon.mesh', bytes: weapon },
];
const sizes = (ms: { path: string; bytes: Uint8Array }[]): { path: string; size: number }[] => ms.map((m) => ({ path: m.path, size: m.bytes.length }));

/** Patch_01's orc manifest: the container's members plus two more. */
const patchedOrcManifest = writeBndl('Presentation', [
  ...sizes(orcMembers),
  { path: 'characters\\orcs\\orc\\banner.tex', size: 6 },
  { path: 'characters\\orcs\\orc\\voice.bnk', size: 40 },
]);

/** Every read of an entry through `mount.entry`, logged: [entry path, start, end]. */
function countingMount(m: Mount): { mount: Mount; reads: [string, number, number][] } {
  const reads: [string, number, number][] = [];
  const counted = (e: SourceEntry): SourceEntry => ({
    source: e.source,
    path: e.path,
    size: e.size,
    storedSize: e.storedSize,
    storage: e.storage,
    identity: e.identity,
    readSync: (start = 0, end = e.size) => (reads.push([e.path, start, end]), e.readSync(start, end)),
    read: (start = 0, end = e.size) => (reads.push([e.path, start, end]), e.read(start, end)),
  });
  const mount = new Proxy(m, {
    get(target, key) {
      if (key === 'entry') return (p: string, source?: string) => counted(target.entry(p, source));
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { mount, reads };
}

/**
 * Base: the orc bundle (manifest mirroring its container, container stored in small chunks), a
 * mirrored "plain" bundle, a container-less sound bundle and one loose sound member.
 * Patch_01 (above Base): a patched orc manifest declaring two extra members (one ships loose in
 * Patch_01, one ships nowhere) and a loose head.mat that replaces the container's copy.
 * Game (consulted last): a loose body.mat below the container.
 */
function install(): string {
  const root = tempDir('arch06-bundles-');
  const base = new LtarWriter();
  base.addBytes('bundles\\orc.bndl', writeBndl('Presentation', sizes(orcMembers)));
  base.add('bundles\\orc.embb', { storage: 'chunked', bytes: writeEmbb(orcMembers), chunkSize: 512 });
  const plain = [
    { path: 'ui\\a.txt', bytes: text('A') },
    { path: 'ui\\b.txt', bytes: text('BB') },
  ];
  base.addBytes('bundles\\Plain.bndl', writeBndl('Flair_1MB', sizes(plain)));
  base.addBytes('bundles\\Plain.embb', writeEmbb(plain));
  base.addBytes(
    'sound\\sfx.bndl',
    writeBndl('Sound_1', [
      { path: 'sound\\sfx\\hit.bnk', size: 3 },
      { path: 'sound\\sfx\\gone.bnk', size: 9 },
    ]),
  );
  base.addBytes('sound\\sfx\\hit.bnk', text('BKH'));
  base.addBytes('bundles\\mordor.bndl', Buffer.concat([text('BNDL'), Buffer.from([4, 0, 0, 0]), Buffer.alloc(20)]));
  base.addBytes('bundles\\orphan.embb', writeEmbb([]));

  const patch = new LtarWriter();
  patch.addBytes('Bundles\\ORC.bndl', patchedOrcManifest);
  patch.addBytes('characters\\orcs\\orc\\banner.tex', text('banner'));
  patch.addBytes('characters\\orcs\\orc\\head.mat', text('patched head, longer than the embedded one'));

  writeTree(root, {
    'x64/default.archcfg': '..\\Game\n..\\Base.arch06\n..\\Patch_01.arch06\n',
    'Base.arch06': base.toBytes(),
    'Patch_01.arch06': patch.toBytes(),
    'Game/characters/orcs/orc/body.mat': 'loose body in Game',
  });
  return root;
}

test('bundle stems: .bndl, .embb or none, any case and separator', () => {
  assert.equal(bundleStem('Bundles/ORC.BNDL'), 'Bundles\\ORC');
  assert.equal(bundleStem('bundles\\orc.embb'), 'bundles\\orc');
  assert.equal(bundleStem('bundles\\orc'), 'bundles\\orc');
  assert.throws(
    () => bundleStem('/'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'BAD_ARGUMENT',
  );
});

test('a manifest patched above its container: the winning manifest lists the members, each served by its rule', () => {
  const m = Mount.open({ root: install() });
  const b = resolveBundle(m, 'BUNDLES/orc.BNDL');
  assert.deepEqual(b.manifest, {
    path: 'Bundles\\ORC.bndl',
    source: 'Patch_01.arch06',
    size: patchedOrcManifest.length,
    copies: ['Patch_01.arch06', 'Base.arch06'],
  });
  assert.equal(b.container!.source, 'Base.arch06');
  assert.equal(b.container!.path, 'bundles\\orc.embb');
  assert.equal(b.container!.memberCount, 3);
  assert.equal(b.type, 'Presentation');
  assert.equal(b.manifestAboveContainer, true);
  assert.equal(b.mirror!.mirrors, false);
  assert.equal(b.mirror!.identityHolds, false);
  const by = new Map(b.members.map((x) => [x.path.split('\\').pop()!, x]));
  // Only in the container.
  assert.deepEqual(
    { ...by.get('weapon.mesh')!, embedded: undefined },
    {
      path: 'characters\\orcs\\orc\\weapon.mesh',
      declaredSize: 5000,
      servedFrom: 'container',
      source: 'Base.arch06',
      size: 5000,
      sizeMatchesDeclared: true,
      embedded: undefined,
    },
  );
  // In the container and loose above it: the loose copy is served.
  const h = by.get('head.mat')!;
  assert.equal(h.servedFrom, 'loose');
  assert.equal(h.source, 'Patch_01.arch06');
  assert.equal(h.sizeMatchesDeclared, false);
  assert.equal(h.embedded!.size, head.length);
  assert.equal(h.note, undefined);
  // In the container and loose below it (Game is consulted last): served loose, with the open question noted.
  const bo = by.get('body.mat')!;
  assert.equal(bo.servedFrom, 'loose');
  assert.equal(bo.source, 'Game');
  assert.match(bo.note!, /ranks below the container/);
  // Declared beyond the container: loose in Patch_01, or nowhere.
  assert.deepEqual(
    [by.get('banner.tex')!.servedFrom, by.get('banner.tex')!.source, by.get('banner.tex')!.sizeMatchesDeclared],
    ['loose', 'Patch_01.arch06', true],
  );
  assert.deepEqual(by.get('voice.bnk'), { path: 'characters\\orcs\\orc\\voice.bnk', declaredSize: 40, servedFrom: 'missing', sizeMatchesDeclared: false });
  assert.deepEqual(b.counts, { loose: 3, container: 1, empty: 0, missing: 1 });
  assert.deepEqual(b.undeclared, []);
  // Plain data: survives JSON.
  assert.deepEqual(JSON.parse(JSON.stringify(b)).members.length, 5);
  m.close();
});

test('reading members: loose bytes, container payloads by one ranged read, missing ones refused', async () => {
  const m = Mount.open({ root: install() });
  const b = resolveBundle(m, 'bundles\\orc');
  // A container member: one read of the container entry, exactly the payload's range (not the whole container).
  // Where writeEmbb puts the weapon (bundle/embb.ts layout): header, paths padded to 4, 3 offsets, then size word + payload each.
  const pool = orcMembers.reduce((n, x) => n + Math.ceil((x.path.length + 1) / 4) * 4, 0);
  const at = 16 + pool + 4 * 3 + (4 + body.length) + (4 + head.length) + 4;
  assert.equal(b.members.find((x) => x.path.endsWith('weapon.mesh'))!.embedded!.offset, at);
  const range: [string, number, number] = ['bundles\\orc.embb', at, at + weapon.length];
  assert.ok(m.entry('bundles\\orc.embb').size > weapon.length + 4);
  const sync = countingMount(m);
  assert.deepEqual(Buffer.from(readBundleMember(sync.mount, b, 'characters\\orcs\\orc\\weapon.mesh')), Buffer.from(weapon));
  assert.deepEqual(sync.reads, [range]);
  const async = countingMount(m);
  assert.deepEqual(Buffer.from(await readBundleMemberAsync(async.mount, b, 'CHARACTERS/orcs/orc/WEAPON.mesh')), Buffer.from(weapon));
  assert.deepEqual(async.reads, [range]);
  assert.equal(str(readBundleMember(m, b, 'characters\\orcs\\orc\\head.mat')), 'patched head, longer than the embedded one');
  assert.equal(str(readBundleMember(m, b, 'characters\\orcs\\orc\\banner.tex')), 'banner');
  assert.equal(str(readBundleMember(m, b, 'characters\\orcs\\orc\\body.mat')), 'loose body in Game');
  assert.throws(
    () => readBundleMember(m, b, 'characters\\orcs\\orc\\voice.bnk'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'NOT_FOUND' && /neither in the container/.test(e.message),
  );
  assert.throws(
    () => readBundleMember(m, b, 'not\\declared.txt'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'NOT_FOUND',
  );
  // The embedded head is still reachable through its offset in the container entry.
  const h = b.members.find((x) => x.path.endsWith('head.mat'))!;
  const embb = m.entry(b.container!.path, b.container!.source);
  assert.equal(str(embb.readSync(h.embedded!.offset, h.embedded!.offset + h.embedded!.size)), str(head));
  m.close();
});

test('a manifest that mirrors its container: every member from the container, the identity holds', () => {
  const m = Mount.open({ root: install() });
  const b = resolveBundle(m, 'bundles\\plain.embb');
  assert.equal(b.manifest.source, 'Base.arch06');
  assert.equal(b.manifest.path, 'bundles\\Plain.bndl');
  assert.equal(b.type, 'Flair_1MB');
  assert.deepEqual(b.mirror, { mirrors: true, identityHolds: true, notStored: 0, differences: [] });
  assert.equal(b.manifestAboveContainer, false);
  assert.deepEqual(
    b.members.map((x) => [x.servedFrom, x.size, x.sizeMatchesDeclared]),
    [
      ['container', 1, true],
      ['container', 2, true],
    ],
  );
  assert.equal(str(readBundleMember(m, b, b.members[1])), 'BB');
  assert.equal(b.container!.confidence, 'confirmed');
  m.close();
});

test('the container-size identity: 16 + path table + 4n + Σ(4 + declared size), against the container', () => {
  const m = Mount.open({ root: install() });
  const plain = resolveBundle(m, 'bundles\\plain');
  // 'ui\\a.txt' and 'ui\\b.txt', each NUL-terminated and padded to 12; sizes 1 and 2.
  assert.deepEqual(plain.identity, {
    header: 16,
    pathTable: 24,
    pathOffsets: 8,
    members: 4 + 1 + 4 + 2,
    notStored: { count: 0, pathBytes: 0 },
    predicted: 59,
    actual: 59,
    holds: true,
    certain: true,
  });
  assert.equal(plain.container!.size, 59);
  assert.equal(plain.container!.blocks, 1);
  // The patched orc manifest declares two members more than its container holds: the identity fails.
  const orc = resolveBundle(m, 'bundles\\orc');
  assert.equal(orc.identity.holds, false);
  assert.equal(orc.identity.predicted, orc.identity.header + orc.identity.pathTable + orc.identity.pathOffsets + orc.identity.members);
  assert.equal(orc.identity.pathOffsets, 4 * 5);
  assert.equal(orc.identity.actual, orc.container!.size);
  // No container: the prediction alone.
  const sfx = resolveBundle(m, 'sound\\sfx');
  assert.equal(sfx.identity.actual, undefined);
  assert.equal(sfx.identity.holds, undefined);
  assert.equal(sfx.identity.members, 4 + 3 + 4 + 9);
  m.close();
});

test("concatenated EMBB blocks (S3): every block's members are served, each with its block, and noted", () => {
  const root = tempDir('arch06-bundle-blocks-');
  const first = [{ path: 'ui\\one.txt', bytes: text('1') }];
  const second = [
    { path: 'ui\\two.txt', bytes: text('22') },
    { path: 'ui\\three.txt', bytes: text('333') },
  ];
  const base = new LtarWriter();
  base.addBytes('bundles\\two.bndl', writeBndl('Flair_1MB', sizes([...first, ...second])));
  base.addBytes('bundles\\two.embb', Buffer.concat([writeEmbb(first), writeEmbb(second)]));
  writeTree(root, { 'x64/default.archcfg': '..\\Base.arch06\n', 'Base.arch06': base.toBytes() });
  const m = Mount.open({ root });
  const b = resolveBundle(m, 'bundles\\two.bndl');
  assert.equal(b.container!.blocks, 2);
  assert.equal(b.container!.confidence, 'uncertain');
  assert.deepEqual(
    b.members.map((x) => [x.servedFrom, x.embedded?.block, x.sizeMatchesDeclared]),
    [
      ['container', 0, true],
      ['container', 1, true],
      ['container', 1, true],
    ],
  );
  assert.equal(str(readBundleMember(m, b, 'ui\\three.txt')), '333');
  assert.match(b.container!.notes.join('\n'), /2 concatenated EMBB blocks/);
  // The identity describes one block: two headers and two path tables make it fail, and the mirror check says why.
  assert.equal(b.identity.holds, false);
  assert.match(b.mirror!.differences.join('\n'), /container has 2 blocks/);
  m.close();
});

test('a container-less bundle: members are loose entries or missing', () => {
  const m = Mount.open({ root: install() });
  const b = resolveBundle(m, 'sound\\SFX.bndl');
  assert.equal(b.container, undefined);
  assert.equal(b.mirror, undefined);
  assert.equal(b.type, 'Sound_1');
  assert.deepEqual(
    b.members.map((x) => [x.path, x.servedFrom, x.source, x.sizeMatchesDeclared]),
    [
      ['sound\\sfx\\hit.bnk', 'loose', 'Base.arch06', true],
      ['sound\\sfx\\gone.bnk', 'missing', undefined, false],
    ],
  );
  assert.match(b.notes.join('\n'), /no container anywhere/);
  assert.equal(str(readBundleMember(m, b, 'sound\\sfx\\hit.bnk')), 'BKH');
  m.close();
});

test('no manifest, a container without one, a data-carrying BNDL: typed errors', () => {
  const m = Mount.open({ root: install() });
  assert.throws(
    () => resolveBundle(m, 'bundles\\nothing.bndl'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'NOT_FOUND',
  );
  assert.throws(
    () => resolveBundle(m, 'bundles\\orphan'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'NOT_FOUND' && /but no manifest/.test(e.message),
  );
  assert.throws(
    () => resolveBundle(m, 'bundles\\mordor.bndl'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'INVALID' && /data-carrying/.test(e.message),
  );
  m.close();
});

test('a corrupt container is a typed error naming the source and entry', () => {
  const root = install();
  const base = new LtarWriter();
  const good = writeEmbb(orcMembers);
  const bad = Uint8Array.from(good);
  new DataView(bad.buffer).setUint32(12, 1000, true); // count far beyond the file
  base.addBytes('bundles\\orc.bndl', writeBndl('Presentation', sizes(orcMembers)));
  base.addBytes('bundles\\orc.embb', bad);
  writeTree(root, { 'Base.arch06': base.toBytes() });
  const m = Mount.open({ root });
  assert.throws(
    () => resolveBundle(m, 'bundles\\orc'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'TRUNCATED' && e.file === 'Base.arch06:bundles\\orc.embb',
  );
  m.close();
});

test("the sample install's bundle: manifest patched in Patch_02 above the container in Base", () => {
  const root = tempDir('arch06-sample-bundle-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  const m = Mount.open({ root });
  const b = resolveBundle(m, `${SAMPLE_BUNDLE}.bndl`);
  assert.equal(b.manifest.source, 'Patch_02.arch06');
  assert.deepEqual(b.manifest.copies, ['Patch_02.arch06', 'Base.arch06']);
  assert.equal(b.container!.source, 'Base.arch06');
  assert.equal(b.manifestAboveContainer, true);
  assert.deepEqual(
    b.members.map((x) => [x.path.split('\\').pop(), x.servedFrom, x.source ?? null]),
    [
      ['body.txt', 'container', 'Base.arch06'],
      ['head.txt', 'container', 'Base.arch06'],
      ['weapon.txt', 'container', 'Base.arch06'],
      ['banner.txt', 'loose', 'Patch_02.arch06'],
      ['voice.txt', 'missing', null],
    ],
  );
  assert.match(str(readBundleMember(m, b, b.members[2])), /cleaver/);
  // The winning manifest declares two members beyond the container, so it no longer mirrors it.
  assert.equal(b.mirror!.mirrors, false);
  assert.equal(b.mirror!.identityHolds, false);
  m.close();
});
