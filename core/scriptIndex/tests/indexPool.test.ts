// The script index's cold build on the worker pool (issue 25 item 3): for 1, 2 and 3 workers the
// index `ScriptIndex.build` makes on one thread (its snapshot, the scripts' texts, progress in file
// order), on the sample install (a loose folder's script read on the calling thread in its turn)
// and on the real Patch_00.arch06; the memory budget decides the same files; a cancelled build
// terminates every worker before it resolves.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount } from '../../archive';
import { writeRegistry } from '../../formats/registry';
import { WorkerPool } from '../../archive/workerPool';
import { mountSample } from '../../../test/support/sampleMount';
import { mountRealPatch, realPatch } from '../../../test/support/realLayers';
import { ScriptIndex, buildIndexParallel } from '..';
import type { ScriptIndexOptions } from '../types';

const workerFile = path.join(__dirname, '..', '..', 'workers', 'poolWorker.js');

/** What an index holds: its snapshot and every script's text. */
const contents = (i: ScriptIndex): unknown => ({
  snapshot: i.toSnapshot(),
  texts: i.scripts().map((s) => s.text),
  cancelled: i.cancelled,
  degraded: i.degraded,
});

/** The sample install with a script in the loose Game folder (read on the calling thread) and one that does not parse. */
function sampleWithLoose(): Mount {
  const m = mountSample('arch06-index-pool-');
  const root = m.root;
  m.close();
  fs.writeFileSync(path.join(root, 'Game', 'loose_extra.scripts'), 'function LooseThing()\n  return 1\nend\n');
  fs.writeFileSync(path.join(root, 'Game', 'broken.objres'), 'OBJR not really');
  // Names that cannot be joined by newlines: sent as a list.
  const odd = [{ className: 'ScriptRelay', name: 'Line\nBreak.SR' }];
  fs.writeFileSync(path.join(root, 'Game', 'odd.objres'), writeRegistry({ scriptPath: 'odd.scripts', hash: 1, objects: odd, bindings: [], groups: [] }));
  return Mount.open({ root });
}

async function sameOn(m: Mount, options: ScriptIndexOptions, what: string): Promise<ScriptIndex> {
  const oneSeen: number[] = [];
  const one = ScriptIndex.build(m, { ...options, onProgress: (d) => oneSeen.push(d) });
  const want = contents(one);
  for (const jobs of [1, 2, 3]) {
    const pool = new WorkerPool(workerFile, jobs);
    try {
      for (const runBytes of [1, 1 << 20]) {
        const seen: number[] = [];
        const got = await buildIndexParallel(m, { ...options, pool, runBytes, onProgress: (d) => seen.push(d) });
        assert.deepEqual(contents(got), want, `${what}: ${jobs} workers, runs of ${runBytes} bytes`);
        assert.deepEqual(seen, oneSeen, `${what}: progress in file order`);
      }
    } finally {
      await pool.terminate();
    }
  }
  return one;
}

test('sample install: 1, 2 and 3 workers give the one-thread index (a loose folder file, a failure, size limits)', async () => {
  const m = sampleWithLoose();
  try {
    const one = ScriptIndex.build(m);
    assert.ok(one.script('loose_extra.scripts')?.definitions.has('loosething'), 'the loose script is indexed');
    assert.ok(
      one.failures.some((f) => f.path === 'broken.objres'),
      'the broken registry is a failure',
    );
    assert.ok(one.registryNames().objects.has('Line\nBreak.SR'), 'a name holding a newline is one name');
    assert.ok(one.registries > 0 && one.scripts().length > 2, 'the fixture has scripts and registries');
    await sameOn(m, {}, 'sample');
    const limited = await sameOn(m, { maxScriptBytes: 64, maxRegistryBytes: 1000 }, 'sample, small size limits');
    assert.ok(limited.skipped.some((s) => /above the 64-byte limit/.test(s.reason)) && limited.scripts().length < one.scripts().length, 'some scripts skipped');
    const budget = await sameOn(m, { maxRetainedBytes: 3000 }, 'sample, a memory budget');
    assert.ok(budget.degraded && budget.scripts().length > 0, 'the budget leaves files out after some are in');
  } finally {
    m.close();
  }
});

test('real Patch_00.arch06: 1, 2 and 3 workers give the one-thread index', { skip: realPatch.skip }, async () => {
  const m = mountRealPatch();
  try {
    assert.equal(ScriptIndex.build(m).registries, 4);
    await sameOn(m, {}, 'real patch');
  } finally {
    m.close();
  }
});

test('a cancelled build terminates every worker before it resolves and says cancelled', async () => {
  const m = sampleWithLoose();
  const pool = new WorkerPool(workerFile, 2);
  try {
    let taken = 0;
    const index = await buildIndexParallel(m, { pool, runBytes: 1, isCancelled: () => taken > 0, onProgress: () => void taken++ });
    assert.equal(index.cancelled, true);
    assert.equal(taken, 1, 'no file taken after the cancel');
    assert.ok(pool.started > 0, 'workers ran');
    assert.equal(pool.exited, pool.started, 'every worker exited');

    const abort = new AbortController();
    abort.abort();
    const none = await buildIndexParallel(m, { pool, signal: abort.signal });
    assert.equal(none.cancelled, true);
    assert.equal(none.scripts().length, 0);
    assert.equal(pool.exited, pool.started);
  } finally {
    await pool.terminate();
    m.close();
  }
});
