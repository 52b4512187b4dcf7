// The language server's cold index on the worker pool (server/session.ts `Indexing`): the settings'
// `workers` give the index the one-thread build makes; a newer mount while one is indexed cancels
// it (its open resolves with nothing, the newer one with its workspace); shutdown's stop leaves
// no worker running (the pool's exits counted against its starts).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Mount } from '../../core/archive';
import { ScriptIndex } from '../../core/scriptIndex';
import { mountSample } from '../../test/support/sampleMount';
import { Indexing, type OpenedInstall } from '../session';

const workerFile = path.join(__dirname, '..', '..', 'core', 'workers', 'poolWorker.js');

function sampleRoot(prefix: string): string {
  const m = mountSample(prefix);
  m.close();
  return m.root;
}

const oneThread = (root: string): unknown => {
  const m = Mount.open({ root });
  try {
    return ScriptIndex.build(m).toSnapshot();
  } finally {
    m.close();
  }
};

test('workers: 2 builds the one-thread index; workers: 1 uses no pool', async () => {
  const root = sampleRoot('arch06-indexing-');
  const indexing = new Indexing(workerFile);
  try {
    const seen: number[] = [];
    const opened = await indexing.open(
      { installRoot: root, workers: 2 },
      (done) => seen.push(done),
      () => undefined,
    );
    assert.ok(opened?.ws.index, 'indexed');
    assert.deepEqual(opened.ws.index.toSnapshot(), oneThread(root));
    assert.match(opened.info ?? '', /indexed on 2 workers/);
    assert.deepEqual(
      seen,
      seen.map((_, i) => i + 1),
      'progress file by file',
    );
    const status = indexing.status();
    assert.equal(status.indexing, null);
    assert.equal(status.workers, 2);
    assert.ok(status.workersStarted >= 1, 'the pool ran');
    opened.ws.dispose();

    const alone = new Indexing(workerFile);
    const one = await alone.open(
      { installRoot: root, workers: 1 },
      () => undefined,
      () => undefined,
    );
    assert.deepEqual(one?.ws.index?.toSnapshot(), oneThread(root));
    assert.deepEqual(alone.status(), { indexing: null, workers: 1, workersStarted: 0, workersExited: 0 });
    one?.ws.dispose();
  } finally {
    await indexing.stop();
  }
});

test('a newer mount cancels the index in progress; stop leaves every worker exited', async () => {
  const first = sampleRoot('arch06-indexing-first-');
  const second = sampleRoot('arch06-indexing-second-');
  const indexing = new Indexing(workerFile);
  let newer: Promise<OpenedInstall | undefined> | undefined;
  let during: ReturnType<Indexing['status']> | undefined;
  const opened = await indexing.open(
    { installRoot: first, workers: 2 },
    () => {
      // The first file taken: the status says indexing, and a new mount arrives.
      during ??= indexing.status();
      newer ??= indexing.open(
        { installRoot: second, workers: 2 },
        () => undefined,
        () => undefined,
      );
    },
    () => undefined,
  );
  assert.equal(opened, undefined, 'the cancelled index is dropped');
  assert.ok(during?.indexing && during.indexing.done === 1, JSON.stringify(during));
  const after = indexing.status();
  assert.ok(after.workersStarted >= 1 && after.workersExited >= 1, `the cancel terminated the workers: ${JSON.stringify(after)}`);
  const next = await newer;
  assert.ok(next?.ws.index && !next.ws.index.cancelled, 'the newer mount is indexed');
  assert.deepEqual(next.ws.index.toSnapshot(), oneThread(second));
  next.ws.dispose();
  await indexing.stop();
  const stopped = indexing.status();
  assert.equal(stopped.workersExited, stopped.workersStarted, 'every worker exited');
});
