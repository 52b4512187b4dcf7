// No clock in a test's assertion (README standards; issue 22 scope item 4): on a loaded 2-core
// machine a wall-clock limit fails for the wrong reason and does not measure what it claims.
// Bounded work is asserted by counting (reads, allocations, iterations); a generous watchdog may
// stop a hang (a `throw` or a timeout), but no assertion compares a time. Timing lives in
// `npm run bench`. Read with the TypeScript compiler: a clock call (Date.now, performance.now,
// process.hrtime) or a variable computed from one, in the checked arguments of an `assert…` call
// or in the condition of an `if` whose branch calls `assert.fail`.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { repoRoot } from '../support/shared';

const isClockCall = (n: ts.Node): boolean =>
  ts.isCallExpression(n) && /^(Date\.now|performance\.now|process\.hrtime(\.bigint)?|hrtime(\.bigint)?)$/.test(n.expression.getText());

/** The arguments an assertion checks (its message, the last one beyond these, is free to name a time). */
const CHECKED_ARGS: Record<string, number> = {
  ok: 1,
  assert: 1,
  equal: 2,
  notEqual: 2,
  strictEqual: 2,
  notStrictEqual: 2,
  deepEqual: 2,
  deepStrictEqual: 2,
  notDeepEqual: 2,
  match: 2,
  doesNotMatch: 2,
};

/** Every place in `source` where a clock decides an assertion, as "line: text". */
export function clockAssertions(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const mentionsClock = (n: ts.Node, tainted: Set<string>): boolean => {
    let found = false;
    const visit = (c: ts.Node): void => {
      if (found) return;
      if (isClockCall(c) || (ts.isIdentifier(c) && tainted.has(c.text))) found = true;
      // A function that reads a clock is not a time (its calls are judged where they are asserted).
      else if (!ts.isFunctionLike(c)) ts.forEachChild(c, visit);
    };
    visit(n);
    return found;
  };
  // Variables computed from a clock, directly or through another such variable (to a fixed point).
  const tainted = new Set<string>();
  const declarations: { name: string; value: ts.Node }[] = [];
  const collect = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) declarations.push({ name: n.name.text, value: n.initializer });
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(n.left))
      declarations.push({ name: n.left.text, value: n.right });
    ts.forEachChild(n, collect);
  };
  collect(sf);
  for (let grew = true; grew;) {
    grew = false;
    for (const d of declarations)
      if (!tainted.has(d.name) && mentionsClock(d.value, tainted)) {
        tainted.add(d.name);
        grew = true;
      }
  }
  const out: string[] = [];
  const at = (n: ts.Node): string => `${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${n.getText().slice(0, 100)}`;
  const callsFail = (n: ts.Node): boolean => {
    let found = false;
    const visit = (c: ts.Node): void => {
      if (ts.isCallExpression(c) && /^assert\.fail$/.test(c.expression.getText())) found = true;
      else if (!found) ts.forEachChild(c, visit);
    };
    visit(n);
    return found;
  };
  const check = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      const callee = n.expression.getText();
      const m = /^(?:assert|t\.assert)(?:\.(\w+))?$/.exec(callee);
      if (m) {
        const checked = CHECKED_ARGS[m[1] ?? 'assert'] ?? n.arguments.length;
        if (n.arguments.slice(0, checked).some((a) => mentionsClock(a, tainted))) out.push(at(n));
      }
    }
    if (ts.isIfStatement(n) && mentionsClock(n.expression, tainted) && callsFail(n.thenStatement)) out.push(at(n.expression));
    ts.forEachChild(n, check);
  };
  check(sf);
  return out;
}

test('the clock check finds a clock in an assertion, directly or through variables, and leaves messages and watchdogs alone', () => {
  const text = [
    'const t0 = performance.now();',
    'const ms = performance.now() - t0;',
    'assert.ok(ms < 5000);', // 3: through two variables
    'assert.ok(Date.now() - start < 10);', // 4: directly
    'assert.equal(count, 7, `took ${ms} ms`);', // the message only
    'if (Date.now() > deadline) throw new Error("hung");', // a watchdog
    'if (ms > 100) assert.fail("slow");', // 7
    'const [s] = process.hrtime(); assert.ok(reads < 10);',
    'const poll = () => { last = Date.now(); return 1; }; const v = poll(); assert.equal(v, 1);',
  ].join('\n');
  assert.deepEqual(
    clockAssertions('x.test.ts', text).map((l) => Number(l.split(':')[0])),
    [3, 4, 7],
  );
});

test('no test asserts on a clock: bounded work is counted, timing is `npm run bench`', () => {
  const root = repoRoot();
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(p);
      } else if (
        e.name.endsWith('.ts') &&
        (/\.test\.ts$/.test(e.name) || p.split(path.sep).includes('tests') || path.relative(root, p).startsWith(`test${path.sep}`))
      ) {
        for (const hit of clockAssertions(p, fs.readFileSync(p, 'utf8'))) offenders.push(`${path.relative(root, p)}:${hit}`);
      }
    }
  };
  for (const d of ['core', 'cli', 'extension', 'server', 'test', 'fuzz']) walk(path.join(root, d));
  assert.deepEqual(offenders, [], `assertions on a clock:\n${offenders.join('\n')}`);
});
