// Find in Files across the worker pool (issue 25 item 3): the same result as the one-thread search
// (`searchText`, which reads every file itself) for 1, 2 and 3 workers, streamed in the same order;
// a later search answered from the workers' caches; a cancelled search stops every worker; a
// search started during the background preparation goes before its remaining runs.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { LtarWriter } from '../../formats/archive/ltar/writer';
import { writeScri } from '../../formats/script/writer';
import { Mount } from '../../archive/mount';
import { WorkerPool } from '../../archive/workerPool';
import { searchText } from '../textSearch';
import { SearchPreparation, prepareSearch, searchTextStreaming } from '../streamSearch';
import type { TextSearchResult } from '../textSearch';
import { SEARCH_KIND, SearchWorkerState } from '../searchWorker';
import { archiveRef } from '../../archive/workerArchives';
import type { TextMatch } from '../fileMatch';
import { tempDir, writeTree } from '../../../test/support/fixtures';

const workerFile = path.join(__dirname, '..', '..', 'workers', 'poolWorker.js');

/** Three archives (one shadowing another's files), a loose folder, scripts, texts, binaries, a file too large. */
function mount(): Mount {
  const root = tempDir('arch06-psearch-');
  const tree: Record<string, string | Uint8Array> = {};
  const cfg = ['..\\Game'];
  for (let a = 0; a < 3; a++) {
    const w = new LtarWriter();
    for (let i = 0; i < 60; i++) {
      const word = (i + a) % 3 === 0 ? 'Ranger' : 'orc';
      w.addBytes(`docs\\f${i}.txt`, Buffer.from(`line of ${word} ${a}:${i}\n`.repeat(1 + (i % 7)) + `RANGER at the end ${a}\n`));
      w.addBytes(`worlds\\l${a}_${i}.scripts`, writeScri(`-- ${a}\nlocal ranger_${i} = "Ranger"\nreturn ranger_${i}\n`));
      w.addBytes(`textures\\t${a}_${i}.tex`, Buffer.from('Ranger but binary by type'));
    }
    w.addBytes(`blob\\b${a}.bin`, Buffer.from([0x52, 0x61, 0, 0x6e, 0x67, 0x65, 0x72]));
    w.addBytes(`big\\huge${a}.txt`, Buffer.from('Ranger '.repeat(3000)));
    tree[`A${a}.arch06`] = w.toBytes();
    cfg.push(`..\\A${a}.arch06`);
  }
  tree['x64/default.archcfg'] = cfg.join('\n') + '\n';
  tree['Game/loose/notes.txt'] = 'a loose Ranger\nand another ranger\n';
  writeTree(root, tree);
  return Mount.open({ root });
}

/** Start the pool's workers and wait until both answer, so neither starts late in the test that follows. */
async function boot(pool: WorkerPool): Promise<void> {
  const none = { ...EMPTY_TASK, archive: new Int32Array(0), file: new Int32Array(0) };
  await pool.run({ kind: SEARCH_KIND, count: pool.size, task: () => none, onResult: () => {}, inFlight: 1 });
}
const EMPTY_TASK = { query: 'x', isRegExp: false, matchCase: false, decoded: false, maxFileSize: 1, maxMatches: 1, archives: [], paths: [] };

const line = (m: TextMatch): string => `${m.source}|${m.path}|${m.line}:${m.start}-${m.end}|${m.preview}`;

test('Find in Files on 1, 2 and 3 workers: the one-thread result, matches streamed in its order', async () => {
  const m = mount();
  try {
    // Small files and a small cap, so there are many runs and a file too large for the search.
    const opts = { query: 'ranger', maxFileSize: 10_000 };
    const one = searchText(m, opts);
    assert.deepEqual([one.matchCount > 300, one.skippedCount, one.binary['by file type: .tex']], [true, 3, 180], 'the fixture has what it should');
    for (const jobs of [1, 2, 3]) {
      const pool = new WorkerPool(workerFile, jobs);
      try {
        for (const round of ['first', 'later']) {
          const streamed: string[] = [];
          const r = await searchTextStreaming(m, { ...opts, pool, runBytes: 2048, pause: async () => {}, onMatch: (x) => streamed.push(line(x)) });
          assert.deepEqual({ ...r, matches: r.matches.map(line) }, { ...one, matches: one.matches.map(line) }, `${jobs} workers, ${round} search`);
          assert.deepEqual(streamed, one.matches.map(line), `${jobs} workers: streamed in order`);
        }
        assert.equal(pool.started, jobs, 'the later search ran on the same workers');
      } finally {
        await pool.terminate();
      }
    }
    // A limit stops the merge where one thread stops.
    const limited = searchText(m, { ...opts, maxMatches: 50 });
    const pool = new WorkerPool(workerFile, 2);
    try {
      const r = await searchTextStreaming(m, { ...opts, maxMatches: 50, pool, runBytes: 2048, pause: async () => {} });
      assert.equal(r.limitHit, true);
      assert.deepEqual(r.matches.map(line), limited.matches.map(line));
    } finally {
      await pool.terminate();
    }
  } finally {
    m.close();
  }
});

test('a search started during a preparation goes first: its first results before the preparation sends its remaining runs, the one-thread result', async () => {
  const m = mount();
  const pool = new WorkerPool(workerFile, 2);
  try {
    const one = searchText(m, { query: 'ranger' });
    const paths = m.distinctPaths();
    const runBytes = 256; // many runs
    await boot(pool);
    let search: Promise<TextSearchResult> | undefined;
    let prepFiles = 0;
    const at = { start: -1, firstMatch: -1, prepFilesAtFirstMatch: -1 };
    const streamed: string[] = [];
    const preparing = prepareSearch(m, paths, pool, false, undefined, {
      runBytes,
      // The search starts once the preparation has handed on its first run.
      onProgress: (done) => {
        prepFiles = done;
        if (search) return;
        at.start = pool.tasksSent.background;
        search = searchTextStreaming(m, {
          query: 'ranger',
          paths,
          pool,
          runBytes,
          pause: async () => {},
          onMatch: (x) => {
            if (streamed.length === 0) [at.firstMatch, at.prepFilesAtFirstMatch] = [pool.tasksSent.background, prepFiles];
            streamed.push(line(x));
          },
        });
      },
    });
    const prepared = await preparing;
    const r = await search!;
    assert.equal(prepared.cancelled, false, 'the preparation went on after the search');
    assert.equal(at.firstMatch, at.start, 'no preparation run went out between the search starting and its first results');
    assert.ok(at.prepFilesAtFirstMatch < paths.length, 'the preparation was not done when the search gave its first results');
    assert.ok(pool.tasksSent.background > at.firstMatch, 'the preparation sent its remaining runs after');
    assert.deepEqual({ ...r, matches: r.matches.map(line) }, { ...one, matches: one.matches.map(line) });
    assert.deepEqual(streamed, one.matches.map(line), 'streamed in order');
    // The same search on the prepared pool: the same result, on the same workers.
    const again = await searchTextStreaming(m, { query: 'ranger', paths, pool, runBytes, pause: async () => {} });
    assert.deepEqual({ ...again, matches: again.matches.map(line) }, { ...one, matches: one.matches.map(line) });
    assert.deepEqual([pool.started, pool.exited], [2, 0], 'the same two workers throughout');
  } finally {
    await pool.terminate();
    m.close();
  }
});

test('two searches at once on the pool queue and each gives the one-thread result', async () => {
  const m = mount();
  const pool = new WorkerPool(workerFile, 2);
  try {
    const one = searchText(m, { query: 'ranger' });
    const paths = m.distinctPaths();
    const [a, b] = await Promise.all([
      searchTextStreaming(m, { query: 'ranger', paths, pool, pause: async () => {} }),
      searchTextStreaming(m, { query: 'ranger', paths, pool, pause: async () => {} }),
    ]);
    for (const r of [a, b]) assert.deepEqual({ ...r, matches: r.matches.map(line) }, { ...one, matches: one.matches.map(line) });
    assert.equal(pool.started, 2, 'the same two workers throughout');
  } finally {
    await pool.terminate();
    m.close();
  }
});

test('cancelling a search during a preparation stops every worker and ends the preparation; cancelling a preparation leaves a search alone', async () => {
  const m = mount();
  const paths = m.distinctPaths();
  const one = searchText(m, { query: 'ranger' });
  let pool = new WorkerPool(workerFile, 2);
  try {
    // The search cancelled at its first match, while the preparation still has runs to send.
    await boot(pool);
    const abort = new AbortController();
    let search: Promise<TextSearchResult> | undefined;
    const preparing = prepareSearch(m, paths, pool, false, undefined, {
      runBytes: 512,
      onProgress: () => {
        search ??= searchTextStreaming(m, {
          query: 'ranger',
          paths,
          pool,
          runBytes: 512,
          signal: abort.signal,
          pause: async () => {},
          onMatch: () => abort.abort(),
        });
      },
    });
    const prepared = await preparing;
    const r = await search!;
    assert.deepEqual([r.cancelled, prepared.cancelled], [true, true]);
    assert.deepEqual([pool.started, pool.exited], [2, 2], 'every worker exited');
    await pool.terminate();
    assert.equal(pool.exited, 2, 'none left to stop');

    // The preparation cancelled at the search's first match: the search goes on, on the same workers.
    pool = new WorkerPool(workerFile, 2);
    await boot(pool);
    const stopPrep = new AbortController();
    let preparation: Promise<TextSearchResult> | undefined;
    const searching = searchTextStreaming(m, {
      query: 'ranger',
      paths,
      pool,
      runBytes: 512,
      pause: async () => {},
      // The preparation starts at the search's first run handed on and is cancelled at its second.
      onProgress: () => {
        if (preparation) stopPrep.abort();
        else preparation = prepareSearch(m, paths, pool, false, stopPrep.signal, { runBytes: 512 });
      },
    });
    const [s, p] = [await searching, await preparation!];
    assert.equal(p.cancelled, true);
    assert.deepEqual({ ...s, matches: s.matches.map(line) }, { ...one, matches: one.matches.map(line) });
    assert.deepEqual([pool.started, pool.exited], [2, 0], 'no worker stopped');
  } finally {
    await pool.terminate();
    m.close();
  }
});

test('a new mount cancels the preparation of the one before, whose workers stop; the new one is prepared', async () => {
  const [m1, m2] = [mount(), mount()];
  const pool = new WorkerPool(workerFile, 2);
  const preparation = new SearchPreparation();
  try {
    preparation.start(m1, () => m1.distinctPaths(), pool);
    const first = preparation.going!;
    assert.equal(pool.started, 2, 'the first preparation started the workers');
    preparation.start(m2, () => m2.distinctPaths(), pool);
    const second = preparation.going!;
    assert.deepEqual([(await first).cancelled, (await second).cancelled], [true, false]);
    assert.deepEqual([pool.started, pool.exited], [4, 2], "the first mount's workers stopped, fresh ones prepared the second");
    const one = searchText(m2, { query: 'ranger' });
    const r = await searchTextStreaming(m2, { query: 'ranger', pool, pause: async () => {} });
    assert.deepEqual({ ...r, matches: r.matches.map(line) }, { ...one, matches: one.matches.map(line) });
    preparation.start(undefined, () => [], pool);
    assert.equal(preparation.going, undefined, 'no mount, nothing prepared');
  } finally {
    preparation.dispose();
    await pool.terminate();
    m1.close();
    m2.close();
  }
});

test('a cancelled Find in Files on the pool stops every worker before it resolves', async () => {
  const m = mount();
  const pool = new WorkerPool(workerFile, 2);
  try {
    const abort = new AbortController();
    let matches = 0;
    const r = await searchTextStreaming(m, {
      query: 'ranger',
      pool,
      runBytes: 512,
      signal: abort.signal,
      pause: async () => {},
      onMatch: () => {
        if (++matches === 1) abort.abort();
      },
    });
    assert.equal(r.cancelled, true);
    assert.equal(pool.started, 2);
    assert.equal(pool.exited, 2, 'every worker has exited when the search resolves');
    const after = matches;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(matches, after, 'nothing is merged after the search resolved');
    assert.ok(matches < searchText(m, { query: 'ranger' }).matchCount);
  } finally {
    await pool.terminate();
    m.close();
  }
});

test('a preparing (warm) run gives way at the file where a foreground task waits; a search run never does', () => {
  const m = mount();
  try {
    const src = m.sources.find((x) => archiveRef(x) !== undefined)!;
    const names = src
      .allPaths()
      .map((path, index) => ({ path, index }))
      .filter((e) => e.path.startsWith('docs\\'))
      .slice(0, 6);
    assert.equal(names.length, 6);
    const task = {
      ...EMPTY_TASK,
      query: 'ranger',
      maxFileSize: 1 << 20,
      maxMatches: 1000,
      archives: [archiveRef(src)!],
      paths: names.map((e) => e.path),
      archive: new Int32Array(6),
      file: Int32Array.from(names.map((e) => e.index)),
    };
    let polls = 0;
    const state = new SearchWorkerState(undefined, 1 << 20, () => ++polls > 2); // a foreground task waits from the third file on
    assert.equal(state.run({ ...task, warm: true }, [src]).included, 2, 'the warm run ended before its third file');
    const searched = state.run(task, [src]);
    assert.deepEqual([searched.included, searched.searched], [6, 6], 'a search run reads every file whatever the flag');
  } finally {
    m.close();
  }
});
