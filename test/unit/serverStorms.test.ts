// Issue 21 item 6: edit and cancellation storms against the built language server. A thousand
// one-line edits to a 160 KB script are applied as they come, but analysed only when they pause or
// a request needs the newest text (a handful of analyses, counted by the server's `arch06/status`,
// not a thousand), and the answers are the newest text's; after 3,000 more the next request is
// answered; 50 requests cancelled at once are each answered (cancelled or with a result) and the
// next request too. Counts are asserted, never times (the watchdogs only catch hangs).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import { SAMPLE_LAYER_SOURCE } from '../../core/sample';
import { LspClient, within } from '../support/lspClient';
import { SAMPLE_SCRIPT_URI, sampleInstall } from '../support/lspInstall';

const WATCHDOG_MS = 120_000;

/** The sample layer script followed by helper functions up to about 160 KB, like the largest real scripts. */
function largeScript(): string {
  const helpers: string[] = [];
  for (let i = 0, size = SAMPLE_LAYER_SOURCE.length; size < 160_000; i++) {
    const f = `function helper_${i}(self, value)\n  local doubled = value * 2\n  return doubled + ${i}\nend\n`;
    helpers.push(f);
    size += f.length;
  }
  return SAMPLE_LAYER_SOURCE + '\n' + helpers.join('');
}

interface Status {
  analyses: number;
  pending: number;
}

test('language server: 1,000 then 3,000 one-line edits cost a few analyses of the newest text; the next requests are answered', async (t) => {
  const client = await LspClient.start(sampleInstall('arch06-lsp-storm-'));
  try {
    const text = largeScript();
    let lines = text.split('\n').length; // the last one empty, after the final newline
    await client.open(SAMPLE_SCRIPT_URI, text);
    await client.diagnosticsAt(SAMPLE_SCRIPT_URI, 1, WATCHDOG_MS);
    const before = await within(client.request<Status>('arch06/status', {}), WATCHDOG_MS, 'status');
    let version = 1;
    // Each edit a top-level definition, alternately at the top and at the end of the file: the line it lands on.
    const edit = async (i: number): Promise<number> => {
      const line = i % 2 ? lines - 1 : 0;
      await client.rpc.sendNotification('textDocument/didChange', {
        textDocument: { uri: SAMPLE_SCRIPT_URI, version: ++version },
        contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: `edited_${i} = function () end\n` }],
      });
      lines++;
      return line;
    };
    for (let i = 0; i < 1000; i++) await edit(i);
    const symbols = await within(
      client.request<{ name: string }[]>('textDocument/documentSymbol', { textDocument: { uri: SAMPLE_SCRIPT_URI } }),
      WATCHDOG_MS,
      'symbols after 1,000 edits',
    );
    const edited = symbols.filter((s) => s.name.startsWith('edited_'));
    assert.equal(edited.length, 1000, 'every edit is in the answer');
    const after = await within(client.request<Status>('arch06/status', {}), WATCHDOG_MS, 'status');
    // The request analysed the newest version once; a pause in the storm may have let the quiet timer analyse once more.
    assert.ok(after.analyses - before.analyses <= 20, `${after.analyses - before.analyses} analyses for 1,000 edits`);
    // Diagnostics follow the last version once the edits pause.
    await client.diagnosticsAt(SAMPLE_SCRIPT_URI, version, WATCHDOG_MS);

    let lastLine = 0;
    for (let i = 1000; i < 4000; i++) lastLine = await edit(i);
    const hover = await within(
      client.request<{ contents: { value: string } } | null>('textDocument/hover', {
        textDocument: { uri: SAMPLE_SCRIPT_URI },
        position: { line: lastLine, character: 2 },
      }),
      WATCHDOG_MS,
      'hover after 3,000 more edits',
    );
    assert.match(hover?.contents.value ?? '', /edited_3999/);
    const last = await within(client.request<Status>('arch06/status', {}), WATCHDOG_MS, 'status');
    assert.ok(last.analyses - after.analyses <= 40, `${last.analyses - after.analyses} analyses for 3,000 edits`);
    t.diagnostic(`analyses: ${after.analyses - before.analyses} for 1,000 edits, ${last.analyses - after.analyses} for 3,000 more`);
    assert.equal(client.exited, undefined);
  } finally {
    await client.stop();
  }
});

test('language server: 50 requests cancelled at once are each answered, and so is the next one', async () => {
  const client = await LspClient.start(sampleInstall('arch06-lsp-cancel-'));
  try {
    const uri = 'file:///tmp/cancel-storm.scripts';
    // Heavy enough that answering all 50 would show: 4,000 functions, references to a global used in each.
    await client.open(uri, Array.from({ length: 4000 }, (_, i) => `function f${i}(a)\n  return shared_global + a\nend\n`).join(''));
    const outcomes: Promise<string>[] = [];
    for (let i = 0; i < 50; i++) {
      const source = new CancellationTokenSource();
      const method = i % 2 ? 'textDocument/references' : 'textDocument/semanticTokens/full';
      outcomes.push(
        client.rpc
          .sendRequest(method, { textDocument: { uri }, position: { line: 1, character: 12 }, context: { includeDeclaration: true } }, source.token)
          .then(
            () => 'result',
            (e: { code?: number }) => `error ${e.code}`,
          ),
      );
      source.cancel();
    }
    const settled = await within(Promise.all(outcomes), WATCHDOG_MS, 'the 50 cancelled requests');
    for (const o of settled) assert.ok(o === 'result' || o === 'error -32800', o);
    const refs = await within(
      client.request<unknown[]>('textDocument/references', {
        textDocument: { uri },
        position: { line: 1, character: 12 },
        context: { includeDeclaration: true },
      }),
      WATCHDOG_MS,
      'the request after them',
    );
    assert.equal(refs.length, 4000);
  } finally {
    await client.stop();
  }
});
