// `verify` across worker threads (issue 25 item 3): the same report as one thread, unit for unit
// (split entries, a corrupt chunk, a hidden name, a loose folder), whatever the thread count; a
// cancelled run resolves only once every worker has stopped.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LtarWriter, type WriterChunk } from '../../formats/archive';
import { Mount } from '../mount';
import { verifyMount } from '../verify';
import { verifyMountParallel } from '../verifyPool';
import { planUnits } from '../verifyUnits';
import { mountSample } from '../../../test/support/sampleMount';

const workerFile = path.join(__dirname, '..', '..', 'workers', 'poolWorker.js');

/** The sample install plus an archive of chunked entries, one with a chunk that does not decode. */
function install(): string {
  const root = mountSample('arch06-vpool-').root;
  const w = new LtarWriter();
  for (let k = 0; k < 6; k++) {
    const chunks: WriterChunk[] = [];
    for (let c = 0; c < 5; c++) {
      const raw = Buffer.alloc(0x10000, k * 7 + c);
      chunks.push(k === 3 && c === 2 ? { payload: Buffer.from([0x8c, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8]), rawLen: 0x10000 } : { payload: raw, rawLen: raw.length });
    }
    w.add(`data\\big_${k}.bin`, { storage: 'chunks', chunks });
  }
  for (let i = 0; i < 40; i++) w.add(`data\\small_${i}.txt`, { storage: 'plain', bytes: Buffer.from(`file ${i}\n`) });
  fs.writeFileSync(path.join(root, 'Workers.arch06'), Buffer.concat(w.build()));
  const cfg = path.join(root, 'x64', 'default.archcfg');
  fs.appendFileSync(cfg, '\r\n..\\Workers.arch06\r\n');
  return root;
}

test('verify on 2 and 3 workers gives the one-thread report, units merged in order', async () => {
  const root = install();
  const m = Mount.open({ root });
  try {
    assert.ok(
      m.sources.some((s) => s.name === 'Workers.arch06'),
      'the extra archive is mounted',
    );
    // Small units and blocks, so entries split into ranges and every source into several units.
    const opts = { blockSize: 0x8000, unitBytes: 0x20000 };
    const units = planUnits(m, opts.blockSize, opts.unitBytes);
    assert.ok(
      units.some((u) => u.range && u.range.part > 0),
      'some entry is split',
    );
    const one = verifyMount(m, opts);
    assert.ok(
      one.failures.some((f) => f.path === 'data\\big_3.bin'),
      'the corrupt chunk fails',
    );
    assert.equal(one.failures.filter((f) => f.path === 'data\\big_3.bin').length, 1, 'once, not once per range');
    for (const jobs of [2, 3]) {
      const seen: number[] = [];
      const { units: n, jobs: used, ...many } = await verifyMountParallel(m, { ...opts, jobs, workerFile, onProgress: (done) => seen.push(done) });
      assert.deepEqual(many, one, `${jobs} workers`);
      assert.deepEqual([n, used], [units.length, jobs]);
      // Streamed in order: the count only grows, and ends at every entry.
      assert.ok(seen.every((d, i) => i === 0 || d >= seen[i - 1]));
      assert.equal(seen.at(-1), one.entries);
    }
  } finally {
    m.close();
  }
});

test('a cancelled parallel verify stops every worker before it resolves', async () => {
  const m = Mount.open({ root: install() });
  try {
    const abort = new AbortController();
    let progress = 0;
    const r = await verifyMountParallel(m, {
      blockSize: 0x8000,
      unitBytes: 0x8000,
      jobs: 2,
      workerFile,
      signal: abort.signal,
      onProgress: () => {
        if (++progress === 2) abort.abort();
      },
    });
    assert.equal(r.cancelled, true);
    const total = m.sources.reduce((n, s) => n + s.fileCount, 0);
    assert.ok(r.entries < total, `${r.entries} of ${total} entries checked`);
    const after = progress;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(progress, after, 'nothing is merged after the run resolved');
  } finally {
    m.close();
  }
});
