// Find in Files on the retail scripts of ../shared/samples/real/Patch_00.arch06: each layer's
// `.scripts` is served from its container and starts with the SCRI header (NUL bytes); the search
// reads its source. The oracle cuts each script out of its container with the EMBB reader and
// drops the 13-byte header and the final NUL by hand, then splits the lines itself.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MemberCatalog } from '../../archive/memberCatalog';
import { parseEmbb } from '../../formats/bundle/embb';
import { describeSearch, searchText } from '../textSearch';
import { FuzzyIndex } from '../fuzzy';
import { pathList } from '../pathList';
import { REAL_LAYER_NAMES, mountRealPatch, realLayerStem, realPatch } from '../../../test/support/realLayers';

/** Every (path, 0-based line, column) where `word` stands in the layers' scripts, found without the search. */
function oracle(word: string): string[] {
  const m = mountRealPatch();
  try {
    const out: string[] = [];
    for (const layer of REAL_LAYER_NAMES) {
      const stem = realLayerStem(layer);
      const embb = m.entry(`${stem}.embb`).readSync();
      const member = parseEmbb(embb, `${stem}.embb`).members.find((x) => x.path.toLowerCase() === `${stem}.scripts`)!;
      const bytes = embb.subarray(member.offset, member.offset + member.size);
      assert.equal(Buffer.from(bytes.subarray(0, 4)).toString('latin1'), 'SCRI');
      const source = Buffer.from(bytes.subarray(13, bytes.length - 1)).toString('utf8');
      source.split('\n').forEach((line, i) => {
        for (let at = line.indexOf(word); at >= 0; at = line.indexOf(word, at + 1)) out.push(`${stem}.scripts:${i}:${at}`);
      });
    }
    return out;
  } finally {
    m.close();
  }
}

test('Find in Files finds BeSentry in the retail island script (served from its container, after the SCRI header)', { skip: realPatch.skip }, async () => {
  const m = mountRealPatch();
  try {
    const catalog = await MemberCatalog.build(m);
    const r = searchText(m, { query: 'BeSentry', matchCase: true, members: catalog.rows });
    const expected = oracle('BeSentry');
    assert.ok(expected.some((x) => x.includes('\\island\\')) && expected.length >= 4, expected.join(', '));
    assert.deepEqual(
      r.matches.map((x) => `${x.path.toLowerCase()}:${x.line}:${x.start}`),
      expected,
    );
    assert.ok(r.matches.every((x) => x.view === 'script' && x.source === 'Patch_00.arch06' && /fortwallgameplay\.bndl$/.test(x.bundle ?? '')));
    // The four scripts searched as source; every other member and the bundles skipped as binary, and said so.
    assert.deepEqual(r.searchedAs, { text: 0, script: 4, decoded: 0 });
    const line = describeSearch(r, 'BeSentry');
    assert.match(line, /in 4 files; 4 files searched \(4 scripts as source\); \d+ skipped as binary: /);
    assert.match(line, /by file type \(.*\.hkai 4/);
    assert.match(line, /with a decoded view, not asked for \(\.bndl 4, \.embb 4, \.objres 4\)/);
    // Include *.scripts: the same hits, nothing else considered.
    const only = searchText(m, { query: 'BeSentry', matchCase: true, include: '*.scripts', members: catalog.rows });
    assert.deepEqual([only.matchCount, only.filesIncluded, Object.keys(only.binary).length], [expected.length, 4, 0]);
  } finally {
    m.close();
  }
});

test('Go to File on the retail layers: "volcano fagameplay.scripts" ranks the volcano layer\'s script first', { skip: realPatch.skip }, async () => {
  const m = mountRealPatch();
  try {
    const list = pathList(m.distinctPaths(), (await MemberCatalog.build(m)).rows);
    const ix = new FuzzyIndex(list.paths);
    const ranked = ix.match('volcano fagameplay.scripts').map((x) => list.paths[x.index].toLowerCase());
    assert.equal(ranked[0], `${realLayerStem('volcano')}.scripts`);
    // Each layer's script once (served from its container).
    for (const layer of REAL_LAYER_NAMES) assert.equal(list.paths.filter((p) => p.toLowerCase() === `${realLayerStem(layer)}.scripts`).length, 1, layer);
  } finally {
    m.close();
  }
});
