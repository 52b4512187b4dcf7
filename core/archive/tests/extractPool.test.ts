// Extraction across the worker pool (issue 25 item 3): for 1, 2 and 3 workers the same files on
// disk, byte for byte, and the same result as one thread, progress in entry order; a cancelled
// extraction stops every worker before it resolves.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LtarWriter, type WriterChunk } from '../../formats/archive';
import { Mount } from '../mount';
import { collectEntries, extractEntries } from '../extract';
import { extractEntriesParallel } from '../extractPool';
import { WorkerPool } from '../workerPool';
import { mountSample } from '../../../test/support/sampleMount';
import { tempDir } from '../../../test/support/fixtures';

const workerFile = path.join(__dirname, '..', '..', 'workers', 'poolWorker.js');

/** The sample install plus an archive of chunked entries (one that does not decode) and many small ones. */
function install(): string {
  const root = mountSample('arch06-xpool-').root;
  const w = new LtarWriter();
  for (let k = 0; k < 4; k++) {
    const chunks: WriterChunk[] = [];
    for (let c = 0; c < 3; c++) {
      const raw = Buffer.alloc(0x10000, k * 7 + c);
      chunks.push(k === 2 && c === 1 ? { payload: Buffer.from([0x8c, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8]), rawLen: 0x10000 } : { payload: raw, rawLen: raw.length });
    }
    w.add(`data\\big_${k}.bin`, { storage: 'chunks', chunks });
  }
  for (let i = 0; i < 300; i++) w.add(`data\\small\\s_${i}.txt`, { storage: 'plain', bytes: Buffer.from(`file ${i}\n`.repeat(i % 9)) });
  fs.writeFileSync(path.join(root, 'Workers.arch06'), Buffer.concat(w.build()));
  fs.appendFileSync(path.join(root, 'x64', 'default.archcfg'), '\r\n..\\Workers.arch06\r\n');
  return root;
}

/** Every file under `dir` with its bytes, by relative path. */
function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (f.isFile()) out.set(path.relative(dir, path.join(f.parentPath, f.name)), fs.readFileSync(path.join(f.parentPath, f.name)).toString('base64'));
  return out;
}

test('extract on 1, 2 and 3 workers: the one-thread files and result, progress in entry order', async () => {
  const m = Mount.open({ root: install() });
  try {
    const entries = collectEntries(m, '');
    const oneDir = tempDir('arch06-x1-');
    const one = await extractEntries(m, entries, oneDir);
    assert.ok(one.files > 300 && one.failures.some((f) => f.path === 'data\\big_2.bin'), 'the fixture has what it should');
    const want = tree(oneDir);
    for (const jobs of [1, 2, 3]) {
      const pool = new WorkerPool(workerFile, jobs);
      try {
        const dir = tempDir(`arch06-x${jobs}-`);
        const seen: number[] = [];
        const r = await extractEntriesParallel(m, entries, dir, { pool, runBytes: 0x8000, onProgress: (done) => seen.push(done) });
        assert.deepEqual(r, one, `${jobs} workers`);
        assert.deepEqual(tree(dir), want, `${jobs} workers: the same files`);
        assert.deepEqual(
          seen,
          entries.map((_, i) => i + 1),
        );
      } finally {
        await pool.terminate();
      }
    }
  } finally {
    m.close();
  }
});

test('a cancelled extraction on the pool stops every worker before it resolves', async () => {
  const m = Mount.open({ root: install() });
  const pool = new WorkerPool(workerFile, 2);
  try {
    const entries = collectEntries(m, '');
    const abort = new AbortController();
    let progress = 0;
    const out = tempDir('arch06-xc-');
    const r = await extractEntriesParallel(m, entries, out, {
      pool,
      runBytes: 0x1000,
      signal: abort.signal,
      onProgress: () => {
        if (++progress === 1) abort.abort();
      },
    });
    assert.equal(r.cancelled, true);
    assert.equal(pool.exited, pool.started, 'every worker has exited when the extraction resolves');
    assert.ok(r.files < entries.length);
    const temps = (fs.readdirSync(out, { recursive: true }) as string[]).filter((p) => /\.arch06-[0-9a-f]{24}\.tmp$/.test(p));
    assert.deepEqual(temps, [], 'no temp file of a terminated write is left behind');
    const after = progress;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(progress, after, 'nothing is merged after it resolved');
  } finally {
    await pool.terminate();
    m.close();
  }
});
