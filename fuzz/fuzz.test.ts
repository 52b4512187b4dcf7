/**
 * The fuzz harness in `npm test`: first the harness itself (a target that hangs, runs out of heap,
 * throws, dies, breaks a promise and keeps too much alive, one case each: every outcome counted at
 * its case and the run going on), then a slice of every target with a fixed seed and a fixed
 * number of cases each (about 30 seconds here), which must find nothing. `npm run fuzz` runs the
 * same targets for longer (fuzz/cli.ts); a finding here replays with
 * `npm run fuzz -- --seed <SLICE_SEED> --case <N> <target>`.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findingCount } from './outcomes';
import { reportTable } from './report';
import { runFuzz } from './runner';
import { TARGETS } from './targets';

const SLICE_SEED = 0x0a2c0621;

/** Cases per target in the slice: about a second of each on a shared 2-core machine (setup included). */
const SLICE_CASES: Record<string, number> = {
  'ltar-tables': 150,
  'ltar-chunks': 150,
  kraken: 1200,
  lzb16: 10000,
  archcfg: 20,
  'path-index': 4000,
  bndl: 4000,
  embb: 1000,
  dds: 1500,
  texr: 300,
  texa: 3000,
  bcn: 8000,
  mmsh: 12,
  skel: 120,
  prfb: 800,
  mesh: 500,
  skdb: 3000,
  objr: 40,
  objl: 40,
  scrb: 40,
  onls: 40,
  gadb: 40,
  scri: 1200,
  'hks-lexer': 240,
  'hks-parser': 16,
  server: 10,
  snapshot: 60,
  names: 300,
  ltfx: 1000,
};

test('the harness counts every outcome at its case and goes on', { timeout: 120_000 }, async () => {
  const [r] = await runFuzz({ targets: ['harness-check'], seed: 1, budget: { cases: () => 9 }, hangMs: 15_000, heapMb: 64 });
  const at = (kind: string): number[] => r.findings.filter((f) => f.kind === kind).map((f) => f.index);
  assert.equal(r.cases, 9, 'every case ran, the ones after a hang, a heap cap and a death included');
  assert.deepEqual(at('crash'), [1, 6], 'an untyped error, and the worker dying');
  assert.deepEqual(at('overMemory'), [2]);
  assert.deepEqual(at('hang'), [3]);
  assert.deepEqual(at('invariant'), [4]);
  assert.deepEqual(at('figure'), [5]);
  assert.equal(r.typed, 1, 'case 7: a typed error');
  assert.equal(r.errors.INVALID, 1);
  assert.equal(r.success, 3, 'cases 0, 5 (it returned) and 8');
  assert.equal(r.restarts, 3, 'a new worker after the heap cap, the hang and the death');
});

test('fuzz slice: every target, fixed seed, fixed cases: no crash, hang, over-memory, broken invariant or figure', { timeout: 20 * 60_000 }, async (t) => {
  assert.deepEqual(Object.keys(SLICE_CASES).sort(), TARGETS.map((x) => x.name).sort(), 'every target has its slice');
  const reports = await runFuzz({ targets: TARGETS.map((x) => x.name), seed: SLICE_SEED, budget: { cases: (name) => SLICE_CASES[name] } });
  t.diagnostic(`fuzz slice, seed ${SLICE_SEED}\n${reportTable(reports)}`);
  for (const r of reports) {
    assert.equal(r.cases, SLICE_CASES[r.target], `${r.target}: every case ran`);
    assert.ok(r.seeds > 0, `${r.target}: built its seeds`);
    const shown = r.findings.map((f) => `${f.kind} case ${f.index}: ${f.label}: ${f.problem.split('\n')[0]}`).join('\n');
    assert.equal(findingCount(r), 0, `${r.target} (seed ${SLICE_SEED}):\n${shown}`);
    assert.equal(r.success + r.typed, r.cases, `${r.target}: each case a success or a typed error`);
  }
});
