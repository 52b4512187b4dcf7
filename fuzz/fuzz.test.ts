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

/** Cases per target in the slice: about 30 s of CPU in all, half of it the workers' start and seeds (measured with process.cpuUsage). */
const SLICE_CASES: Record<string, number> = {
  'ltar-tables': 100,
  'ltar-chunks': 120,
  kraken: 1000,
  lzb16: 8000,
  archcfg: 15,
  'path-index': 1500,
  bndl: 1500,
  embb: 600,
  dds: 1200,
  texr: 200,
  texa: 2500,
  bcn: 6000,
  mmsh: 10,
  skel: 120,
  prfb: 800,
  mesh: 500,
  skdb: 700,
  objr: 25,
  objl: 25,
  scrb: 25,
  onls: 25,
  gadb: 25,
  'registry-text': 60,
  scri: 1200,
  'hks-lexer': 200,
  'hks-parser': 12,
  server: 8,
  snapshot: 50,
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
