// Cache snapshots read back are files like any other: the fuzz harness (fuzz/targets/indexes.ts)
// found index snapshots whose definitions, bindings or sites held a value of another kind ending in
// TypeErrors ("Cannot read properties of undefined (reading 'toLowerCase')", "object null is not
// iterable"). Each lie below is one the harness made; each must be one typed INVALID error naming
// where, and an untouched snapshot must still read back.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { mountSample } from '../../../test/support/sampleMount';
import { CrossScriptIndex, ScriptIndex, type CrossSnapshot, type IndexSnapshot } from '..';

const mount = mountSample('arch06-snapshot-shape-');
const index = ScriptIndex.build(mount);
const indexJson = JSON.stringify(index.toSnapshot());
const crossJson = JSON.stringify(CrossScriptIndex.build(index.scripts()).toSnapshot());

/** A fresh copy of the index snapshot with `lie` applied. */
function lyingIndex(lie: (s: any) => void): IndexSnapshot {
  const s = JSON.parse(indexJson);
  lie(s);
  return s;
}

function lyingCross(lie: (s: any) => void): CrossSnapshot {
  const s = JSON.parse(crossJson);
  lie(s);
  return s;
}

const invalidAt = (field: RegExp) => (e: unknown) => e instanceof Arch06Error && e.code === 'INVALID' && field.test(e.field ?? '');

test('an untouched snapshot reads back', () => {
  const back = ScriptIndex.fromSnapshot(mount, JSON.parse(indexJson));
  assert.equal(back.scripts().length, index.scripts().length);
  assert.ok(index.scripts().length > 0 && JSON.parse(indexJson).bindings.length > 0, 'the sample has scripts and bindings to lie about');
  const cross = CrossScriptIndex.fromSnapshot(JSON.parse(crossJson));
  assert.ok(cross.usage.ranked().length > 0);
});

test('index snapshot lies the fuzz harness made are typed errors naming the field', () => {
  const withDefinitions = (s: any) => s.scripts.find((x: any) => x.definitions.length > 0);
  const cases: [string, (s: any) => void, RegExp][] = [
    ['a definition replaced by a string', (s) => (withDefinitions(s).definitions[0] = 'an object'), /^snapshot\.scripts\[\d+\]\.definitions\[0\]$/],
    ['a definition replaced by an array', (s) => (withDefinitions(s).definitions[0] = []), /definitions\[0\]$/],
    ['a definition replaced by null', (s) => (withDefinitions(s).definitions[0] = null), /definitions\[0\]$/],
    ["a definition's name removed", (s) => delete withDefinitions(s).definitions[0].name, /definitions\[0\]\.name$/],
    ['a binding object replaced by null', (s) => (s.bindings[0].objects[0] = null), /^snapshot\.bindings\[0\]\.objects\[0\]$/],
    ['a binding index of 2^32', (s) => (s.bindings[0].objects[0][3] = 2 ** 32 + 0.5), /objects\[0\]\[3\]$/],
    ['scripts not an array', (s) => (s.scripts = 'a string'), /^snapshot\.scripts$/],
    ['a path not a string', (s) => (s.scripts[0].path = 7), /^snapshot\.scripts\[0\]\.path$/],
    ['names holding a number', (s) => s.names.push(5), /^snapshot\.names\[\d+\]$/],
    ['objectNames not a string', (s) => (s.objectNames = ['a']), /^snapshot\.objectNames$/],
  ];
  for (const [what, lie, field] of cases) assert.throws(() => ScriptIndex.fromSnapshot(mount, lyingIndex(lie)), invalidAt(field), what);
  for (const snap of [null, 5, 'x', []]) {
    assert.throws(
      () => ScriptIndex.fromSnapshot(mount, snap as unknown as IndexSnapshot),
      (e: unknown) => e instanceof Arch06Error && e.code === 'UNSUPPORTED_VERSION',
      `the snapshot ${JSON.stringify(snap)}`,
    );
  }
});

test('cross-script snapshot lies are typed errors naming the field', () => {
  const cases: [string, (s: any) => void, RegExp][] = [
    ['sites not an array', (s) => (s.sites = 5), /^snapshot\.sites$/],
    ['a site entry of one element', (s) => (s.sites[0] = ['x']), /^snapshot\.sites\[0\]$/],
    ['a flat site list holding a string', (s) => (s.sites[0][1] = ['a']), /^snapshot\.sites\[0\]\[1\]\[0\]$/],
    ['a usage member indexer that is neither . nor :', (s) => (s.usage.find((u: any) => u[5].length > 0)[5][0][1] = '->'), /\[5\]\[0\]\[1\]$/],
    ['paths holding null', (s) => (s.paths[0] = null), /^snapshot\.paths\[0\]$/],
  ];
  for (const [what, lie, field] of cases) assert.throws(() => CrossScriptIndex.fromSnapshot(lyingCross(lie)), invalidAt(field), what);
});

/**
 * Every value an untouched snapshot holds, by the path the checks name it with, each with a value
 * of another kind in its place. Arrays of up to 6 elements (the tuples among them) are walked
 * whole; in a longer one (a list) the first element holding a path stands for the rest.
 */
function everyField(json: string): { at: string; lie: (s: any) => void }[] {
  const out: { at: string; lie: (s: any) => void }[] = [];
  const seen = new Set<string>();
  const other = (v: unknown): unknown => (typeof v === 'string' ? 0 : 'not a ' + (v === null ? 'null' : typeof v));
  const walk = (v: unknown, at: string, steps: (string | number)[], shape: string): void => {
    if (steps.length > 0 && at !== 'snapshot.version' && !seen.has(shape)) {
      seen.add(shape);
      out.push({
        at,
        lie: (s) => {
          let p = s;
          for (const k of steps.slice(0, -1)) p = p[k];
          p[steps[steps.length - 1]] = other(v);
        },
      });
    }
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`, [...steps, i], `${shape}[${v.length > 6 ? '*' : i}]`));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`, [...steps, k], `${shape}.${k}`);
  };
  walk(JSON.parse(json), 'snapshot', [], 'snapshot');
  return out;
}

// The checks and the snapshot drifted apart once (a definition's `kind: 'method'` and `bindable`
// came after the checks: every snapshot was refused and rebuilt at each start). Every field a
// snapshot holds is checked, so a new field without its check fails here.
test('every field of an untouched snapshot is checked: a value of another kind there is an error naming it', () => {
  const indexFields = everyField(indexJson);
  assert.ok(indexFields.some((f) => /definitions\[0\]\.bindable$/.test(f.at)) && indexFields.length > 30, indexFields.map((f) => f.at).join(' '));
  for (const { at, lie } of indexFields) {
    const exact = new RegExp(`^${at.replace(/[.[\]]/g, '\\$&')}$`);
    assert.throws(() => ScriptIndex.fromSnapshot(mount, lyingIndex(lie)), invalidAt(exact), at);
  }
  const crossFields = everyField(crossJson);
  assert.ok(crossFields.length > 10, crossFields.map((f) => f.at).join(' '));
  for (const { at, lie } of crossFields) {
    const exact = new RegExp(`^${at.replace(/[.[\]]/g, '\\$&')}$`);
    assert.throws(() => CrossScriptIndex.fromSnapshot(lyingCross(lie)), invalidAt(exact), at);
  }
});
