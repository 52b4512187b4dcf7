// Member calls on the four real layer scripts of Patch_00.arch06 resolve through the enclosing
// `hmake` object: each `self:Name(` call goes (definition), hovers and completes to the object whose
// method holds it, never to another object's method of the same name (island defines Escape,
// MassEscape, Disband, SlorcPanic and CheckForCooldown in two objects each and Init in six); the
// outline and the workspace symbols list each object's methods under it; `SO:Init()` in a bound
// function, whose object nothing names, says it cannot be resolved. The oracle is the scripts' own
// layout, read here with plain line patterns: an object runs from its column-0 `name = hmake` line
// to its column-0 `}`, its methods are its one-tab `Name = function` lines.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { REAL_LAYER_NAMES, mountRealPatch, realLayerStem, realPatch } from '../../../test/support/realLayers';
import { completion } from '../completion';
import { hover } from '../hover';
import { allSymbols, definition, references } from '../navigation';
import { ScriptWorkspace } from '../workspace';
import { workspaceSymbols } from '../workspaceSymbols';

interface TextObject {
  name: string;
  /** 1-based lines of its `hmake` line and its closing `}`. */
  first: number;
  last: number;
  /** Method name → 1-based line. */
  methods: Map<string, number>;
}

/** The hmake objects of a script as its lines show them. */
function textObjects(text: string): TextObject[] {
  const lines = text.split('\n');
  const out: TextObject[] = [];
  let open: TextObject | undefined;
  lines.forEach((l, i) => {
    const head = /^([A-Za-z_]\w*) = hmake /.exec(l);
    if (head) open = { name: head[1], first: i + 1, last: i + 1, methods: new Map() };
    if (!open) return;
    const m = /^,?\t([A-Za-z_]\w*) = function/.exec(l);
    if (m && !open.methods.has(m[1])) open.methods.set(m[1], i + 1);
    if (/^,?\}/.test(l)) {
      open.last = i + 1;
      out.push(open);
      open = undefined;
    }
  });
  return out;
}

test('real layers: every self: call goes to, hovers as and completes from its own object, never another object', { skip: realPatch.skip }, () => {
  const m = mountRealPatch();
  const root = m.root;
  m.close();
  const ws = ScriptWorkspace.create({ installRoot: root });
  try {
    let calls = 0;
    let ambiguousByName = 0;
    for (const layer of REAL_LAYER_NAMES) {
      const served = ws.index!.script(`${realLayerStem(layer)}.scripts`)!;
      const uri = ws.uriOf(served);
      const text = served.text;
      const script = ws.analyse(uri, 1, text);
      const lineOf = (offset: number): number => text.slice(0, offset).split('\n').length;
      const objects = textObjects(text);
      assert.ok(objects.length >= 2, `${layer}: several objects`);
      // The outline: each object with its own methods under it, at their lines.
      const outlined = allSymbols(script).filter((s) => s.kind === 'hmake');
      assert.deepEqual(
        outlined.map((o) => [o.name, o.children.filter((c) => c.kind === 'method').map((c) => `${c.name}@${lineOf(c.selection.start)}`)]),
        objects.map((o) => [o.name, [...o.methods].map(([n, l]) => `${n}@${l}`)]),
        `${layer}: the outline's objects and methods`,
      );
      for (const call of text.matchAll(/\bself:([A-Za-z_]\w*)\(/g)) {
        const at = call.index + 'self:'.length + 1;
        const line = lineOf(at);
        const own = objects.find((o) => o.first <= line && line <= o.last);
        assert.ok(own, `${layer}:${line}: a self: call inside an object`);
        const want = own.methods.get(call[1]);
        assert.ok(want, `${layer}:${line}: ${own.name} defines ${call[1]}`);
        const others = objects.filter((o) => o !== own && o.methods.has(call[1]));
        if (others.length) ambiguousByName++;
        const defs = definition(ws, uri, at);
        assert.deepEqual(
          defs.map((d) => lineOf(d.span.start)),
          [want],
          `${layer}:${line}: self:${call[1]} goes to ${own.name}'s own method only`,
        );
        const h = hover(ws, uri, at)!;
        assert.ok(h?.markdown.includes(`Method of the object \`${own.name}\``), `${layer}:${line}: ${h?.markdown}`);
        assert.match(h.markdown, new RegExp(`Defined at line ${want}\\.`));
        // References: none inside another object.
        for (const r of references(ws, uri, at, true)) {
          const rl = lineOf(r.span.start);
          assert.ok(!others.some((o) => o.first <= rl && rl <= o.last), `${layer}:${line}: a reference at ${rl} in another object`);
        }
        calls++;
      }
      // Completion after `self:` inside each object: its own methods, and none that only other objects define.
      for (const own of objects) {
        // The start of the line after a method's first line (`Init = function ( self )`, its body).
        const method = [...own.methods].find(([name]) => name !== '__constructor')!;
        const offset = text.split('\n').slice(0, method[1]).join('\n').length + 1;
        const edited = text.slice(0, offset) + '\t\tself:\n' + text.slice(offset);
        const offered = new Set(completion(ws, uri, (ws.analyse(uri, 2, edited), offset + '\t\tself:'.length)).map((e) => e.label));
        for (const name of own.methods.keys()) assert.ok(offered.has(name), `${layer}: ${own.name} offers ${name}`);
        for (const o of objects)
          for (const name of o.methods.keys()) if (!own.methods.has(name)) assert.ok(!offered.has(name), `${layer}: ${own.name} offers ${o.name}'s ${name}`);
        ws.analyse(uri, 1, text);
      }
    }
    assert.ok(calls >= 100, `${calls} self: calls checked`);
    assert.ok(ambiguousByName >= 10, `${ambiguousByName} of them name a method that another object defines too`);
  } finally {
    ws.dispose();
  }
});

test('real island script: SO:Init() in a bound function cannot be resolved to one object and says so, naming the six', { skip: realPatch.skip }, () => {
  const m = mountRealPatch();
  const root = m.root;
  m.close();
  const ws = ScriptWorkspace.create({ installRoot: root });
  try {
    const served = ws.index!.script(`${realLayerStem('island')}.scripts`)!;
    const uri = ws.uriOf(served);
    const text = served.text;
    ws.analyse(uri, 1, text);
    const withInit = textObjects(text).filter((o) => o.methods.has('Init'));
    assert.equal(withInit.length, 6);
    const at = text.indexOf('SO:Init()') + 4;
    const h = hover(ws, uri, at)!;
    assert.match(h.markdown, /Cannot be resolved to one object/);
    assert.match(h.markdown, /6 objects of this script define `Init`/);
    for (const o of withInit) assert.ok(h.markdown.includes(`\`${o.name}\` (line ${o.first})`), o.name);
    assert.doesNotMatch(h.markdown, /Defined at line/);
  } finally {
    ws.dispose();
  }
});

test('real layers: workspace symbols (Ctrl+T) hold every hmake method, named with its object, at its line', { skip: realPatch.skip }, () => {
  const m = mountRealPatch();
  const root = m.root;
  m.close();
  const ws = ScriptWorkspace.create({ installRoot: root });
  try {
    let methods = 0;
    for (const layer of REAL_LAYER_NAMES) {
      const served = ws.index!.script(`${realLayerStem(layer)}.scripts`)!;
      const lineOf = (offset: number): number => served.text.slice(0, offset).split('\n').length;
      const all = workspaceSymbols(ws, '', 100_000).found.filter((s) => s.location.script === served);
      for (const o of textObjects(served.text)) {
        assert.ok(all.some((s) => s.kind === 'hmake' && s.name === o.name && lineOf(s.location.span.start) === o.first));
        for (const [name, line] of o.methods) {
          const found = all.filter((s) => s.kind === 'method' && s.name === name && s.container.startsWith(`${o.name} · `));
          assert.deepEqual(
            found.map((s) => lineOf(s.location.span.start)),
            [line],
            `${layer}: ${o.name}.${name}`,
          );
          methods++;
        }
      }
    }
    assert.ok(methods > 100, `${methods} methods`);
    // A query: both objects' Escape in island, each with its object.
    const escape = workspaceSymbols(ws, 'escape').found.filter((s) => s.name === 'Escape' && s.location.script.path.includes('island'));
    assert.equal(escape.length, 2);
    assert.notEqual(escape[0].container, escape[1].container);
  } finally {
    ws.dispose();
  }
});
