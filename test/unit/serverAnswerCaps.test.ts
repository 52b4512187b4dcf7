// Issue 21 item 7: every answer list of the built language server is capped, with the true count
// stated. A registry binding one function to 100,000 objects gives a lens titled with the true
// count that carries 200 of them (and a hover listing 12 "and 99,988 more"); 3,000 bound functions
// give 2,000 lenses and one stating the count; 12,000 references give 5,000 locations and a message
// with the count; 3,000 globals give 1,000 completions in a list marked incomplete, whose last item
// states the count; 3,000 definitions across the install give 2,000 workspace symbols and one more
// stating the count. Sizes are asserted, never times.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { writeRegistry } from '../../core/formats/registry';
import { writeScri } from '../../core/formats/script';
import { LspClient, within } from '../support/lspClient';
import { looseScriptUri, sampleInstall } from '../support/lspInstall';

const WATCHDOG_MS = 120_000;

interface Lens {
  command: { title: string; arguments?: { total: number; sites: unknown[] }[] };
}

test('language server: a function bound to 100,000 objects and 3,000 bound functions: lenses and hover capped, true counts stated', async () => {
  const many = 'worlds\\crafted\\many.scripts';
  const wide = 'worlds\\crafted\\wide.scripts';
  const objects = Array.from({ length: 100_000 }, (_, i) => `o${i}.SR`);
  const functions = Array.from({ length: 3000 }, (_, i) => `_wide_fn_${i}`);
  const manySource = 'local section_1 = {\n  _many_fn = function (self) end,\n}\n';
  const wideSource = `local section_2 = {\n${functions.map((f) => `  ${f} = function (self) end,\n`).join('')}}\n`;
  const root = sampleInstall('arch06-lsp-caps-', {
    [many]: writeScri(manySource),
    'worlds\\crafted\\many.objres': writeRegistry({
      scriptPath: many,
      objects: objects.map((name) => ({ className: 'ScriptRelay', name })),
      bindings: objects.map((name) => ({ name, bindings: [{ event: 'Script1', function: '_many_fn' }] })),
      groups: [],
    }),
    [wide]: writeScri(wideSource),
    'worlds\\crafted\\wide.objres': writeRegistry({
      scriptPath: wide,
      objects: [{ className: 'ScriptRelay', name: 'w.SR' }],
      bindings: [{ name: 'w.SR', bindings: functions.map((f) => ({ event: 'Script1', function: f })) }],
      groups: [],
    }),
  });
  const client = await LspClient.start(root);
  try {
    const manyUri = looseScriptUri(many);
    await client.open(manyUri, manySource);
    const lenses = await within(client.request<Lens[]>('textDocument/codeLens', { textDocument: { uri: manyUri } }), WATCHDOG_MS, 'lenses');
    assert.equal(lenses.length, 1);
    assert.equal(lenses[0].command.title, 'bound by 100000 objects');
    assert.equal(lenses[0].command.arguments?.[0].total, 100_000);
    assert.equal(lenses[0].command.arguments?.[0].sites.length, 200);
    assert.ok(JSON.stringify(lenses).length < 100_000, `${JSON.stringify(lenses).length} characters`);
    const hover = await within(
      client.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri: manyUri }, position: { line: 1, character: 4 } }),
      WATCHDOG_MS,
      'hover',
    );
    assert.match(hover.contents.value, /Bound by 100000 objects/);
    assert.match(hover.contents.value, /… and 99988 more/);
    assert.equal((hover.contents.value.match(/^- o\d+\.SR/gm) ?? []).length, 12);

    const wideUri = looseScriptUri(wide);
    await client.open(wideUri, wideSource);
    const wideLenses = await within(client.request<Lens[]>('textDocument/codeLens', { textDocument: { uri: wideUri } }), WATCHDOG_MS, 'wide lenses');
    assert.equal(wideLenses.length, 2001);
    assert.equal(wideLenses[0].command.title, '2,000 of 3,000 bound definitions have a lens');
    const diags = await client.diagnosticsOf(wideUri, WATCHDOG_MS);
    assert.equal(diags.length, 0);
  } finally {
    await client.stop();
  }
});

test('language server: 12,000 references, 3,000 completions and 3,000 workspace symbols are capped with the true count stated', async () => {
  const defs = 'worlds\\crafted\\defs.scripts';
  const defsSource = Array.from({ length: 3000 }, (_, i) => `function crafted_def_${i}() end\n`).join('');
  const root = sampleInstall('arch06-lsp-lists-', { [defs]: writeScri(defsSource) });
  const client = await LspClient.start(root);
  try {
    const uri = 'file:///tmp/lists.scripts';
    const uses = Array.from({ length: 12_000 }, () => 'shared_global()\n').join('');
    const globals = Array.from({ length: 3000 }, (_, i) => `global_${i}()\n`).join('');
    await client.open(uri, uses + globals + '\n');
    const refs = await within(
      client.request<unknown[]>('textDocument/references', {
        textDocument: { uri },
        position: { line: 0, character: 2 },
        context: { includeDeclaration: true },
      }),
      WATCHDOG_MS,
      'references',
    );
    assert.equal(refs.length, 5000);
    for (let i = 0; i < 100 && !client.messages.some((m) => /references: the first 5,000 of 12,000 places/.test(m)); i++)
      await new Promise((r) => setTimeout(r, 25));
    assert.ok(
      client.messages.some((m) => /references: the first 5,000 of 12,000 places are listed/.test(m)),
      client.messages.join('\n'),
    );

    const list = await within(
      client.request<{ isIncomplete: boolean; items: { label: string }[] }>('textDocument/completion', {
        textDocument: { uri },
        position: { line: 12_000 + 3000, character: 0 },
      }),
      WATCHDOG_MS,
      'completion',
    );
    assert.equal(list.isIncomplete, true);
    assert.equal(list.items.length, 1001);
    assert.match(list.items[1000].label, /^\(1,000 of [\d,]+ shown: type to narrow\)$/);

    const symbols = await within(client.request<{ name: string }[]>('workspace/symbol', { query: 'crafted_def_' }), WATCHDOG_MS, 'workspace symbols');
    assert.equal(symbols.length, 2001);
    assert.equal(symbols[2000].name, '(2,000 of 3,000 symbols listed: refine the query)');
  } finally {
    await client.stop();
  }
});
