// Issue 21 item 5: pathological documents against the built language server. A script of a
// million stray tokens or a million bare identifiers publishes at most 1,000 diagnostics plus one
// stating the true count; nesting just under the parser's cap (999 `if`s, parentheses, tables,
// functions, chains) and over it answers folding, semantic tokens, selection and symbols without
// overflowing the stack; 20,000 definitions give at most 5,000 symbols and folding ranges, with
// the true count stated. Sizes and counts are asserted, never times (watchdogs only catch hangs).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MAX_DIAGNOSTICS, parseHavokScript } from '../../core/havokScript';
import { writeScri } from '../../core/formats/script';
import { runCli } from '../support/cli';
import { LspClient, within } from '../support/lspClient';
import { sampleInstall } from '../support/lspInstall';

const WATCHDOG_MS = 120_000;

async function ask<T>(client: LspClient, method: string, uri: string, extra: Record<string, unknown> = {}): Promise<T> {
  return within(client.request<T>(method, { textDocument: { uri }, ...extra }), WATCHDOG_MS, `${method} on ${uri}`);
}

/** The true count a capped diagnostics list states in its last entry. */
function statedTotal(diags: { message: string }[]): number {
  const m = /^([\d,]+) problems in all: the first ([\d,]+) are listed$/.exec(diags[diags.length - 1]?.message ?? '');
  assert.ok(m, `the last diagnostic states the count: ${diags[diags.length - 1]?.message}`);
  assert.equal(Number(m[2].replace(/,/g, '')), diags.length - 1);
  return Number(m[1].replace(/,/g, ''));
}

test('parser: a million stray tokens keep 1,000 problems and count them all', () => {
  const chunk = parseHavokScript(') '.repeat(1_000_000));
  assert.equal(chunk.diagnostics.length, MAX_DIAGNOSTICS);
  assert.ok(chunk.diagnosticCount >= 1_000_000, String(chunk.diagnosticCount));
  for (let i = 1; i < chunk.diagnostics.length; i++) assert.ok(chunk.diagnostics[i - 1].start <= chunk.diagnostics[i].start, 'in source order');
});

test('language server: a million stray tokens and a million identifiers publish capped diagnostics stating the true count', async () => {
  const client = await LspClient.start(sampleInstall('arch06-lsp-patho-'));
  try {
    for (const [name, text, least] of [
      ['stray', ') '.repeat(1_000_000), 1_000_000],
      ['identifiers', 'a '.repeat(1_000_000), 999_999],
    ] as const) {
      const uri = `file:///tmp/patho-${name}.scripts`;
      await client.open(uri, text);
      const diags = await client.diagnosticsOf(uri, WATCHDOG_MS);
      assert.ok(diags.length <= 1001, `${name}: ${diags.length} diagnostics`);
      assert.ok(statedTotal(diags) >= least, name);
      assert.deepEqual(await ask(client, 'textDocument/documentSymbol', uri), []);
      const folding = await ask<unknown[]>(client, 'textDocument/foldingRange', uri);
      assert.ok(folding.length <= 5000);
      const tokens = await ask<{ data: number[] }>(client, 'textDocument/semanticTokens/full', uri);
      assert.ok(tokens.data.length <= 5 * 100_000);
      await ask(client, 'textDocument/hover', uri, { position: { line: 0, character: 1_000_001 } });
      await client.rpc.sendNotification('textDocument/didClose', { textDocument: { uri } });
    }
    assert.equal(client.exited, undefined);
  } finally {
    await client.stop();
  }
});

/** Nestings `depth` deep of each shape the parser recurses through. */
function nestings(depth: number): Record<string, string> {
  return {
    ifs: 'if x then\n'.repeat(depth) + 'y()\n' + 'end\n'.repeat(depth),
    whiles: 'while x do\n'.repeat(depth) + 'end\n'.repeat(depth),
    functions: 'f = ' + 'function (p)\n'.repeat(depth) + 'return p\n' + 'end\n'.repeat(depth),
    parens: 'y = ' + '(\n'.repeat(depth) + '1' + ')\n'.repeat(depth),
    tables: 'y = ' + '{\n'.repeat(depth) + '1' + '}\n'.repeat(depth),
    unary: 'y = ' + '-\n'.repeat(depth) + '1\n',
    chain: 'y = a' + '.b\n'.repeat(depth) + '\n',
    calls: 'y = a' + '(1)\n'.repeat(depth) + '\n',
    binary: 'y = 1' + ' ..\n1'.repeat(depth) + '\n',
  };
}

test('language server: nesting just under and over the parser cap answers every tree walk without overflowing', async () => {
  const client = await LspClient.start(sampleInstall('arch06-lsp-nest-'));
  try {
    for (const depth of [999, 5000]) {
      for (const [shape, text] of Object.entries(nestings(depth))) {
        const uri = `file:///tmp/nest-${shape}-${depth}.scripts`;
        await client.open(uri, text);
        const lines = text.split('\n').length;
        const folding = await ask<{ startLine: number; endLine: number }[]>(client, 'textDocument/foldingRange', uri);
        assert.ok(folding.length <= 5000, `${shape} ${depth}`);
        if (shape === 'ifs' && depth === 999) assert.equal(folding.length, 999, 'each if folds');
        await ask(client, 'textDocument/semanticTokens/full', uri);
        const sel = await ask<unknown[]>(client, 'textDocument/selectionRange', uri, { positions: [{ line: Math.floor(lines / 2), character: 0 }] });
        assert.equal(sel.length, 1);
        await ask(client, 'textDocument/documentSymbol', uri);
        await ask(client, 'textDocument/hover', uri, { position: { line: Math.floor(lines / 2), character: 1 } });
        await ask(client, 'textDocument/references', uri, { position: { line: 0, character: 0 }, context: { includeDeclaration: true } });
        const diags = await client.diagnosticsOf(uri, WATCHDOG_MS);
        if (depth === 5000)
          assert.ok(
            diags.some((d) => /nesting deeper than 1000 levels/.test(d.message)),
            `${shape}: ${diags[0]?.message}`,
          );
        await client.rpc.sendNotification('textDocument/didClose', { textDocument: { uri } });
      }
    }
    assert.equal(client.exited, undefined);
  } finally {
    await client.stop();
  }
});

test('language server: 20,000 definitions give at most 5,000 symbols and folding ranges, the symbol list stating the true count', async () => {
  const client = await LspClient.start(sampleInstall('arch06-lsp-many-'));
  try {
    const uri = 'file:///tmp/many.scripts';
    await client.open(uri, Array.from({ length: 20_000 }, (_, i) => `function f${i}(a)\n  return a\nend\n`).join(''));
    const symbols = await ask<{ name: string }[]>(client, 'textDocument/documentSymbol', uri);
    assert.equal(symbols.length, 5001);
    assert.equal(symbols[0].name, '5,000 of 20,000 symbols listed');
    assert.equal(symbols[1].name, 'f0');
    const folding = await ask<unknown[]>(client, 'textDocument/foldingRange', uri);
    assert.equal(folding.length, 5000);
  } finally {
    await client.stop();
  }
});

test('arch06 scripts on a script of a million stray tokens: 1,000 problems listed and the true count', () => {
  const path = 'worlds\\crafted\\stray.scripts';
  const root = sampleInstall('arch06-scripts-stray-', { [path]: writeScri(') '.repeat(1_000_000)) });
  const r = runCli('scripts', root, path, '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { diagnostics: { message: string }[] };
  assert.equal(out.diagnostics.length, 1001);
  assert.ok(statedTotal(out.diagnostics) >= 1_000_000);
});
