/**
 * `npm run fuzz [target ...] [--seconds N] [--seed S] [--cases N] [--case N] [--list]`
 * (scripts/fuzz.mjs compiles, then runs this).
 *
 * - targets: any of `--list`; none means all of them;
 * - `--seconds N`: the time budget of the whole run, split evenly across the targets (default 120);
 * - `--cases N`: N cases per target instead (the run then replays exactly);
 * - `--seed S`: the run seed (default: a fresh one, printed first, so any run replays);
 * - `--case N`: replay case N of each target here, in this thread, and print what it did.
 *
 * Inputs of findings are saved under test-artifacts/fuzz/. Exit status 1 when anything was found.
 */
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Arch06Error } from '../core/errors';
import { repoRoot } from '../test/support/shared';
import { findingCount } from './outcomes';
import { findingLine, reportTable } from './report';
import { freshSeed } from './random';
import { runFuzz } from './runner';
import { realSamplesPresent } from './samples';
import { loadSeeds, makeCase } from './target';
import { TARGETS, targetByName } from './targets';

async function replay(names: string[], seed: number, index: number): Promise<void> {
  for (const name of names) {
    const t = targetByName(name);
    const c = makeCase(t, await loadSeeds(t), seed, index);
    console.log(`${name} case ${index} of seed ${seed}: ${c.label} (${c.bytes.length} bytes)`);
    try {
      await t.run(c);
      console.log('  success');
    } catch (e) {
      console.log(e instanceof Arch06Error ? `  typed error ${e.code}: ${e.message}` : `  ${(e as Error)?.stack ?? String(e)}`);
    }
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      seconds: { type: 'string' },
      seed: { type: 'string' },
      cases: { type: 'string' },
      case: { type: 'string' },
      list: { type: 'boolean' },
    },
  });
  if (values.list) {
    for (const t of TARGETS) console.log(`${t.name.padEnd(14)} ${t.covers}`);
    return 0;
  }
  const names = positionals.length > 0 ? positionals : TARGETS.map((t) => t.name);
  names.forEach(targetByName);
  const num = (v: string | undefined, what: string): number | undefined => {
    if (v === undefined) return undefined;
    const x = Number(v);
    if (!Number.isFinite(x) || x < 0) throw new Error(`--${what} takes a number, not ${JSON.stringify(v)}`);
    return x;
  };
  const seed = (num(values.seed, 'seed') ?? freshSeed()) >>> 0;
  const index = num(values.case, 'case');
  if (index !== undefined) {
    await replay(names, seed, index);
    return 0;
  }
  const cases = num(values.cases, 'cases');
  const seconds = num(values.seconds, 'seconds') ?? 120;
  const budget = cases !== undefined ? { cases: () => cases } : { seconds };
  const how = cases !== undefined ? `${cases} cases per target` : `${seconds} s across ${names.length} targets`;
  console.log(`fuzz seed ${seed}: ${how}; real samples ${realSamplesPresent() ? 'present' : 'ABSENT (writers only)'}`);
  console.log(`replay: npm run fuzz -- --seed ${seed} ${cases !== undefined ? `--cases ${cases} ` : ''}<target> (one case: --case N)`);
  const reports = await runFuzz({
    targets: names,
    seed,
    budget,
    saveDir: path.join(repoRoot(), 'test-artifacts', 'fuzz'),
    onFinding: (f) => console.log(findingLine(f)),
    onTarget: (r) => {
      const codes = Object.entries(r.errors)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      console.log(
        `${r.target}: ${r.cases} cases in ${(r.ms / 1000).toFixed(1)} s from ${r.seeds} seeds, ${r.success} success, ${r.typed} typed (${codes || 'none'}), ${findingCount(r)} findings`,
      );
      if (r.slowest) console.log(`  slowest: case ${r.slowest.index}, ${r.slowest.ms} ms for ${r.slowest.bytes} bytes (${r.slowest.label.slice(0, 100)})`);
    },
  });
  console.log('\n' + reportTable(reports));
  const total = reports.reduce((n, r) => n + findingCount(r), 0);
  console.log(`\n${total} findings (seed ${seed})`);
  return total > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(2);
  },
);
