/** How a fuzz run is printed: one line per finding, and the table the README's Safety section shows. */
import * as path from 'node:path';
import type { Finding, TargetReport } from './outcomes';

/** The table the README's Safety section shows: one row per target. */
export function reportTable(reports: readonly TargetReport[]): string {
  const rows = [
    '| target | inputs tried | success | typed error | crash | invariant | hang | over memory | figure |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const n = (v: number): string => v.toLocaleString('en-US');
  for (const r of reports) {
    rows.push(`| ${r.target} | ${n(r.cases)} | ${n(r.success)} | ${n(r.typed)} | ${r.crash} | ${r.invariant} | ${r.hang} | ${r.overMemory} | ${r.figure} |`);
  }
  return rows.join('\n');
}

export function findingLine(f: Finding): string {
  const where = f.saved ? ` (input: ${path.relative(process.cwd(), f.saved)})` : '';
  return `  ${f.kind.toUpperCase()} ${f.target} case ${f.index}: ${f.label}${where}\n    ${f.problem.split('\n').slice(0, 6).join('\n    ')}`;
}
