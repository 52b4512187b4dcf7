// The hash of `0x…hi` literals. The oracle is the real data: every `__eventmap` line of the four
// retail layer scripts of Patch_00.arch06 pairs a literal with its event's name
// (`parent.__eventmap[0xad5130eahi] = {func = parent.BeSentry, name = "BeSentry"}`); the pairs are
// read here from the scripts' bytes with a plain pattern, and the rule must give every literal
// from its name. The same pairs show the literals are not StringHash.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readBundleMember, resolveBundle } from '../../archive/bundles';
import { parseScript } from '../../formats/script/scri';
import { REAL_LAYER_NAMES, mountRealPatch, realLayerStem, realPatch } from '../../../test/support/realLayers';
import { HashDictionary } from '../dictionary';
import { hiHash, hiHashVerifiedFor } from '../hiHash';
import { stringHash } from '../stringHash';

/** Pairs per layer script: the figures the scripts hold (48 in island, as the issue counted). */
const PAIRS: Record<string, number> = { island: 48, mtnpass: 7, snowmtn: 18, volcano: 22 };

test('hi hash: the rule gives every __eventmap literal of the four real scripts from the event name beside it (95 pairs)', { skip: realPatch.skip }, () => {
  const m = mountRealPatch();
  try {
    const pairs: { literal: number; name: string; layer: string }[] = [];
    for (const layer of REAL_LAYER_NAMES) {
      const path = `${realLayerStem(layer)}.scripts`;
      const text = parseScript(readBundleMember(m, resolveBundle(m, `${realLayerStem(layer)}.bndl`), path), path).source!;
      const found = [...text.matchAll(/__eventmap\[0x([0-9a-fA-F]{1,8})hi\]\s*=\s*\{[^}\n]*\bname\s*=\s*"([^"\n]*)"/g)];
      // Every `__eventmap[0x…]` of the script is one of the pairs (none skipped by the pattern).
      assert.equal(found.length, (text.match(/__eventmap\[0x/g) ?? []).length, layer);
      assert.equal(found.length, PAIRS[layer], layer);
      for (const f of found) pairs.push({ literal: parseInt(f[1], 16) >>> 0, name: f[2], layer });
    }
    assert.equal(pairs.length, 95);
    const wrong = pairs.filter((p) => hiHash(p.name) !== p.literal);
    assert.deepEqual(wrong, [], 'pairs the rule does not give');
    // Many distinct names, and all are letters only: what the rule is verified on.
    assert.equal(new Set(pairs.map((p) => p.name)).size, 57);
    assert.ok(pairs.every((p) => hiHashVerifiedFor(p.name)));
    // Not StringHash (the table folds case); and case matters to this rule.
    assert.equal(pairs.filter((p) => stringHash(p.name) === p.literal).length, 0);
    assert.equal(pairs.filter((p) => hiHash(p.name.toLowerCase()) === p.literal).length, 0);
  } finally {
    m.close();
  }
});

test('hi hash: 919 times the hash so far plus the character minus 0x40, from 0, wrapping; characters above 0x7F refused', () => {
  assert.equal(hiHash(''), 0);
  assert.equal(hiHash('A'), 1);
  assert.equal(hiHash('a'), 33);
  assert.equal(hiHash('AB'), 919 + 2);
  assert.equal(hiHash('BeSentry'), 0xad5130ea);
  // Uppercase letters weigh as in StringHash's table, so an all-caps name hashes alike under both.
  assert.equal(hiHash('OPEN'), stringHash('OPEN'));
  // A character below 0x40 gives a negative term, wrapping at 32 bits.
  assert.equal(hiHash('0'), (0x30 - 0x40) >>> 0);
  assert.equal(hiHash('é'), undefined);
  assert.equal(hiHashVerifiedFor('Open_1'), false);
});

test('dictionary: identifier names answer hi hashes too, case kept, with their own collisions', () => {
  const d = new HashDictionary();
  d.add('BeSentry', 'script literal');
  d.add('besentry', 'path');
  d.add('worlds\\x\\BeSentry.scripts', 'path');
  assert.deepEqual(d.hiEntry(0xad5130ea), { name: 'BeSentry', origin: 'script literal' });
  assert.equal(d.hiEntry(hiHash('besentry')!)?.name, 'besentry', 'another name: case is kept');
  assert.equal(d.hiEntry(hiHash('worlds\\x\\BeSentry.scripts')!), undefined, 'paths are not kept by their hi hash');
  assert.equal(d.name(stringHash('BeSentry')), 'BeSentry', 'StringHash as before');
  assert.equal(d.stats.hiNames, 2);
});
