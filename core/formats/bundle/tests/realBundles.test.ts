/**
 * The four retail bundles of ../shared/samples/real/Patch_00.arch06 (issue 20 item 4): the
 * container-size identity and the mirror check as the real files show them, a member declared
 * with 0 bytes left out of the container with its path, offset and size word. Each pair is first
 * walked by hand (independent little-endian reads, not the readers under test), then the readers
 * and the bundle resolution must report nothing wrong. Crafted breakages of the real pair must
 * still be reported. Skips with a message when ../shared is absent.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Mount } from '../../../archive/mount';
import { resolveBundle } from '../../../archive/bundles';
import { LtarWriter } from '../../archive/ltar/writer';
import { BndlManifest, parseBndl } from '../bndl';
import { parseEmbb } from '../embb';
import { writeEmbb } from '../embbWriter';
import { checkMirror } from '../mirror';
import { sharedPath } from '../../../../test/support/shared';
import { tempDir, writeTree } from '../../../../test/support/fixtures';
import { rawCString as cstring, rawU32 as u32 } from '../../../../test/support/rawLtar';

const PATCH = sharedPath('samples/real/Patch_00.arch06');
const LAYERS = ['island', 'mtnpass', 'snowmtn', 'volcano'];
const stemOf = (layer: string): string => `worlds\\retail\\${layer}\\sectionsandlayers\\fortwallgameplay`;

function mountOf(files: Record<string, Uint8Array | string>): Mount {
  const root = tempDir('arch06-real-bundles-');
  writeTree(root, { 'x64/default.archcfg': '..\\Patch_00.arch06\r\n', ...files });
  return Mount.open({ root });
}

/** The manifest and container bytes of one layer, as the retail archive holds them. */
function realPair(layer: string): { manifest: Uint8Array; container: Uint8Array } {
  const m = mountOf({ 'Patch_00.arch06': fs.readFileSync(PATCH.path) });
  try {
    return { manifest: m.entry(`${stemOf(layer)}.bndl`).readSync(), container: m.entry(`${stemOf(layer)}.embb`).readSync() };
  } finally {
    m.close();
  }
}

/** An install whose one archive holds this manifest and container for the island layer. */
function craftedMount(manifest: Uint8Array, container: Uint8Array): Mount {
  const w = new LtarWriter();
  w.addBytes(`${stemOf('island')}.bndl`, manifest);
  w.addBytes(`${stemOf('island')}.embb`, container);
  return mountOf({ 'Patch_00.arch06': w.toBytes() });
}

for (const layer of LAYERS) {
  test(`Patch_00.arch06 ${layer}: the retail bundle is not flagged, its 0-byte .wldmsh left out of the container`, { skip: PATCH.skip }, () => {
    const { manifest: mb, container: cb } = realPair(layer);
    // By hand: BNDL header (count @0x10, sizes @0x14, path area u32 @0x08, table at pool + u32 @0x0C).
    const n = u32(mb, 0x10);
    const pool = 0x14 + 4 * n;
    const area = u32(mb, 0x08);
    const sizes = [...Array(n)].map((_, i) => u32(mb, 0x14 + 4 * i));
    const offsets = [...Array(n)].map((_, i) => u32(mb, pool + u32(mb, 0x0c) + 4 * i));
    const paths = offsets.map((o) => cstring(mb, pool + o));
    assert.equal(n, 10);
    const zero = sizes.flatMap((s, i) => (s === 0 ? [i] : []));
    assert.equal(zero.length, 1, 'one member declared with 0 bytes');
    const z = zero[0];
    assert.ok(paths[z].endsWith('.wldmsh'), paths[z]);
    assert.ok(z < n - 1, 'the 0-byte member sits mid-table, so the shift of the later offsets is visible');
    const slot = offsets[z + 1] - offsets[z];
    assert.equal(slot, Math.ceil((paths[z].length + 1) / 4) * 4, 'its slot is the path, its NUL and the NUL padding to 4');
    // The container (EMBB: pool size @0x08, count @0x0C) holds the other nine, in order, with the manifest's sizes.
    const count = u32(cb, 0x0c);
    const poolSize = u32(cb, 0x08);
    assert.equal(count, n - 1);
    assert.equal(poolSize, area - slot);
    const expectedPool = Buffer.concat([mb.subarray(pool, pool + offsets[z]), mb.subarray(pool + offsets[z + 1], pool + area)]);
    assert.ok(expectedPool.equals(cb.subarray(16, 16 + poolSize)), "the container's pool is the path area less the slot");
    const kept = [...Array(n).keys()].filter((i) => i !== z);
    const containerOffsets = [...Array(count)].map((_, i) => u32(cb, 16 + poolSize + 4 * i));
    assert.deepEqual(
      containerOffsets,
      kept.map((i) => (i > z ? offsets[i] - slot : offsets[i])),
    );
    let at = 16 + poolSize + 4 * count;
    for (const i of kept) {
      assert.equal(u32(cb, at), sizes[i], paths[i]);
      at += 4 + sizes[i];
    }
    assert.equal(at, cb.length, 'the chain ends at the end of the file');
    // The plain sum over all ten is 72 bytes too many: the slot (64), one offset and one size word.
    const plain = 16 + area + 4 * n + sizes.reduce((s, x) => s + 4 + x, 0);
    assert.equal(plain - cb.length, slot + 8);
    assert.equal(slot + 8, 72);
    assert.equal(16 + (area - slot) + kept.reduce((s, i) => s + 8 + sizes[i], 0), cb.length);

    // The readers agree and report nothing.
    const parsed = parseBndl(mb, 'm.bndl') as BndlManifest;
    assert.deepEqual([parsed.notStored, parsed.notStoredPathBytes, parsed.predictedContainerSize], [[z], slot, cb.length]);
    assert.deepEqual([parsed.confidence, parsed.notes], ['confirmed', []]);
    assert.deepEqual(checkMirror(parsed, parseEmbb(cb, 'c.embb')), { mirrors: true, identityHolds: true, notStored: 1, differences: [] });
    const m = mountOf({ 'Patch_00.arch06': fs.readFileSync(PATCH.path) });
    try {
      const b = resolveBundle(m, `${stemOf(layer)}.bndl`);
      assert.equal(b.mirror!.mirrors, true);
      assert.equal(b.identity.holds, true);
      assert.equal(b.identity.predicted, cb.length);
      assert.deepEqual(b.identity.notStored, { count: 1, pathBytes: slot });
      assert.deepEqual(b.counts, { container: 9, loose: 0, empty: 1, missing: 0 });
      assert.ok(
        b.members.every((x) => x.sizeMatchesDeclared),
        layer,
      );
      assert.deepEqual([b.notes, b.container!.notes, b.undeclared, b.manifestConfidence, b.container!.confidence], [[], [], [], 'confirmed', 'confirmed']);
      assert.equal(b.members[z].servedFrom, 'empty');
    } finally {
      m.close();
    }
  });
}

test('a crafted breakage of the real island bundle is still reported', { skip: PATCH.skip }, () => {
  const { manifest, container } = realPair('island');
  const n = u32(manifest, 0x10);
  const sizes = [...Array(n)].map((_, i) => u32(manifest, 0x14 + 4 * i));
  const z = sizes.indexOf(0);
  const withSize = (i: number, size: number): Uint8Array => {
    const b = Uint8Array.from(manifest);
    new DataView(b.buffer).setUint32(0x14 + 4 * i, size, true);
    return b;
  };
  // 1. A stored member declared one byte longer than its payload.
  let m = craftedMount(withSize(0, sizes[0] + 1), container);
  try {
    const b = resolveBundle(m, `${stemOf('island')}.bndl`);
    assert.equal(b.identity.holds, false);
    assert.equal(b.identity.actual! - b.identity.predicted, -1);
    assert.equal(b.mirror!.mirrors, false);
    assert.match(b.mirror!.differences.join('\n'), /1 declared sizes differ/);
    assert.equal(b.members[0].sizeMatchesDeclared, false);
  } finally {
    m.close();
  }
  // 2. The .wldmsh declared with bytes: now it is missing, and the container is 72 + 8 bytes short.
  m = craftedMount(withSize(z, 8), container);
  try {
    const b = resolveBundle(m, `${stemOf('island')}.bndl`);
    assert.equal(b.members[z].servedFrom, 'missing');
    assert.deepEqual(b.counts, { container: 9, loose: 0, empty: 0, missing: 1 });
    assert.equal(b.identity.actual! - b.identity.predicted, -80);
    assert.equal(b.mirror!.mirrors, false);
    assert.match(b.mirror!.differences.join('\n'), /declares 10 members, container holds 9/);
  } finally {
    m.close();
  }
  // 3. A container that stores the 0-byte member after all (no retail container does).
  const c = parseEmbb(container, 'c.embb');
  const members = c.members.map((x) => ({ path: x.path, bytes: container.subarray(x.offset, x.offset + x.size) }));
  const paths = [...Array(n)].map((_, i) => cstring(manifest, 0x14 + 4 * n + u32(manifest, 0x14 + 4 * n + u32(manifest, 0x0c) + 4 * i)));
  members.splice(z, 0, { path: paths[z], bytes: new Uint8Array(0) });
  m = craftedMount(manifest, writeEmbb(members));
  try {
    const b = resolveBundle(m, `${stemOf('island')}.bndl`);
    assert.equal(b.identity.holds, false);
    assert.equal(b.mirror!.mirrors, false);
    assert.match(b.mirror!.differences.join('\n'), /1 of them declared with 0 bytes, which a container does not store/);
    assert.match(b.container!.notes.join('\n'), /1 zero-size members/);
  } finally {
    m.close();
  }
});
