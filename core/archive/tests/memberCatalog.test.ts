// Every bundle member of the sample install, listed for Go to File and Find in Files: each with
// its manifest and where the engine serves it from; a manifest that does not resolve is counted,
// not thrown; and Find in Files finds text only a container holds.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount } from '../mount';
import { MemberCatalog, describeMember } from '../memberCatalog';
import { memberUriPath } from '../viewPaths';
import { searchText } from '../../search';
import { SAMPLE_BUNDLE, SAMPLE_LAYER, SAMPLE_LAYER_SCRIPT } from '../../sample';
import { mountSample } from '../../../test/support/sampleMount';

const ORC = 'characters\\orcs\\orc_sample';

test('MemberCatalog: every member of every manifest, with where it is served from', async () => {
  const m = mountSample('arch06-members-');
  try {
    let pauses = 0;
    const progress: number[] = [];
    const c = await MemberCatalog.build(m, { pause: async () => void pauses++, manifestsPerPause: 1, onProgress: (done) => progress.push(done) });
    assert.equal(c.failures.length, 0);
    assert.equal(c.manifests, m.distinctPaths().filter((p) => /\.bndl$/i.test(p)).length);
    assert.ok(pauses >= c.manifests);
    assert.equal(progress.at(-1), c.manifests);
    const row = (p: string) => c.rows.find((r) => r.path.toLowerCase() === p.toLowerCase());
    // The orc bundle: container members in Base, a member shipped loose in Patch_02, one shipped nowhere.
    assert.deepEqual(row(`${ORC}\\body.txt`), {
      path: `${ORC}\\body.txt`,
      bundle: `${SAMPLE_BUNDLE}.bndl`,
      servedFrom: 'container',
      source: 'Base.arch06',
      size: 51,
    });
    assert.equal(row(`${ORC}\\banner.txt`)?.servedFrom, 'loose');
    assert.equal(row(`${ORC}\\voice.txt`)?.servedFrom, 'missing');
    assert.equal(describeMember(row(`${ORC}\\body.txt`)!), 'in orc_sample.bndl, served from the container (Base.arch06)');
    assert.equal(describeMember(row(`${ORC}\\banner.txt`)!), 'in orc_sample.bndl, served from a loose copy in Patch_02.arch06');
    assert.equal(describeMember(row(`${ORC}\\voice.txt`)!), 'in orc_sample.bndl, served from nowhere: no source ships it');
    // The world layer's script is a member only (seed 001: a layer's data ships in its container).
    assert.equal(row(SAMPLE_LAYER_SCRIPT)?.bundle.toLowerCase(), `${SAMPLE_LAYER}.bndl`.toLowerCase());
    assert.equal(
      memberUriPath(`${SAMPLE_BUNDLE}.bndl`, `${ORC}\\body.txt`),
      '/bundles/characters/orc_sample.bndl [bundle]/characters/orcs/orc_sample/body.txt',
    );
    // Cancelled: stops before the first manifest.
    const none = await MemberCatalog.build(m, { isCancelled: () => true });
    assert.deepEqual([none.cancelled, none.rows.length], [true, 0]);
  } finally {
    m.close();
  }
});

test('MemberCatalog: a manifest that does not resolve is a failure with its reason, the others still list', async () => {
  const root = mountSample('arch06-members-').root;
  fs.mkdirSync(path.join(root, 'Game', 'broken'), { recursive: true });
  fs.writeFileSync(path.join(root, 'Game', 'broken', 'bad.bndl'), 'not a manifest');
  const m = Mount.open({ root });
  try {
    const c = await MemberCatalog.build(m);
    assert.equal(c.failures.length, 1);
    assert.match(c.failures[0].bundle, /bad\.bndl$/);
    assert.ok(c.failures[0].reason.length > 0);
    assert.ok(c.rows.some((r) => r.path.toLowerCase() === `${ORC}\\body.txt`));
  } finally {
    m.close();
  }
});

test('Find in Files with the catalog: text only a container holds is found, named by its bundle', async () => {
  const m = mountSample('arch06-members-');
  try {
    const c = await MemberCatalog.build(m);
    const without = searchText(m, { query: 'a cleaver' });
    assert.equal(without.matches.length, 0, 'the member ships only inside the container');
    const found = searchText(m, { query: 'a cleaver', members: c.rows });
    assert.deepEqual(
      found.matches.map((x) => [x.path, x.bundle, x.source, x.line, x.start]),
      [[`${ORC}\\weapon.txt`, `${SAMPLE_BUNDLE}.bndl`, 'Base.arch06', 0, 19]],
    );
    // The glob filters members by their own paths; a member a loose copy serves is searched once, as that copy.
    assert.equal(searchText(m, { query: 'a cleaver', members: c.rows, include: '*.scripts' }).matches.length, 0);
    const banner = searchText(m, { query: 'orc_sample banner', members: c.rows });
    assert.deepEqual(
      banner.matches.map((x) => [x.path, x.bundle ?? null]),
      [[`${ORC}\\banner.txt`, null]],
    );
  } finally {
    m.close();
  }
});
