// Issue 21 items 4 and 11: the built language server over stdio never exits on input. Every
// request and notification, for URIs with `.`/`..` segments, control characters, broken escapes
// and schemes of every kind, with params that are null or of the wrong type, answers alone (a
// result or an LSP error) and the process answers afterwards; URIs outside the install make it
// touch nothing on disk (a preload records every file-system call naming a marker); one broken
// file of the install costs that file only; a memory ceiling too small for the install leaves
// files out of the index with a warning instead of ending the process.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeScri } from '../../core/formats/script';
import { writeRegistry } from '../../core/formats/registry';
import { SAMPLE_LAYER_SOURCE } from '../../core/sample';
import { tempDir } from '../support/fixtures';
import { LspClient, within } from '../support/lspClient';
import { SAMPLE_SCRIPT_URI, looseScriptUri, sampleInstall } from '../support/lspInstall';

/** A watchdog against a hang (never a timing assertion). */
const WATCHDOG_MS = 60_000;
const MARKER = 'arch06-outside-marker';

/** The URIs of the issue and more: dot segments, traversal, control characters, broken escapes, odd schemes. */
const HOSTILE_URIS = [
  `file:///tmp/x/./y.scripts`,
  `arch06:/../../etc/passwd`,
  `arch06:/../../${MARKER}/passwd.scripts`,
  `arch06-text:/a/../../${MARKER}.scripts%20(text)`,
  `arch06-text:/%2E%2E/%2E%2E/${MARKER}.scripts%20(text)`,
  `file:///tmp/${MARKER}/../y.scripts`,
  `arch06:/x%01y.scripts`,
  `arch06:/%E0%A4%A`,
  `arch06:/@sources/../../${MARKER}.scripts`,
  `arch06:/${'a/'.repeat(5000)}z.scripts`,
  `untitled:Untitled-1`,
  `not a uri at all`,
  ``,
  `arch06-text:/?#%`,
];

/** Every request the server handles, with params for `uri`. */
function requests(uri: string): [string, Record<string, unknown>][] {
  const textDocument = { uri };
  const position = { line: 0, character: 3 };
  return [
    ['textDocument/documentSymbol', { textDocument }],
    ['textDocument/hover', { textDocument, position }],
    ['textDocument/definition', { textDocument, position }],
    ['textDocument/references', { textDocument, position, context: { includeDeclaration: true } }],
    ['textDocument/codeLens', { textDocument }],
    ['textDocument/completion', { textDocument, position }],
    ['textDocument/inlayHint', { textDocument, range: { start: { line: 0, character: 0 }, end: { line: 5, character: 0 } } }],
    ['textDocument/foldingRange', { textDocument }],
    ['textDocument/selectionRange', { textDocument, positions: [position] }],
    ['textDocument/semanticTokens/full', { textDocument }],
    ['workspace/symbol', { query: 'gate' }],
  ];
}

/** A request's outcome: its result, or the LSP error's code (an answer either way). */
async function outcome(client: LspClient, method: string, params: unknown): Promise<{ result?: unknown; code?: number }> {
  try {
    return { result: await within(client.request(method, params), WATCHDOG_MS, method) };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    assert.equal(typeof code, 'number', `${method}: ${e instanceof Error ? e.message : String(e)}`);
    return { code: code as number };
  }
}

/** A preload that records every file-system call whose arguments name one of `markers` into `logFile`. */
function fsTracePreload(dir: string, markers: string[], logFile: string): string {
  const file = path.join(dir, 'fsTrace.cjs');
  fs.writeFileSync(
    file,
    `const fs = require('fs');
const append = fs.appendFileSync.bind(fs);
let busy = false;
const markers = ${JSON.stringify(markers)};
const named = (a) => (typeof a === 'string' || a instanceof URL || Buffer.isBuffer(a)) && markers.some((m) => String(a).includes(m));
const wrap = (obj, label) => {
  for (const k of Object.keys(obj)) {
    const f = obj[k];
    if (typeof f !== 'function' || /^[A-Z]/.test(k)) continue;
    obj[k] = function (...args) {
      if (!busy && args.some(named)) {
        busy = true;
        try { append(${JSON.stringify(logFile)}, label + k + ' ' + args.filter(named).map(String).join(' ') + '\\n'); } finally { busy = false; }
      }
      return f.apply(this, args);
    };
  }
};
wrap(fs, 'fs.');
wrap(fs.promises, 'fs.promises.');
`,
  );
  return file;
}

test('language server: hostile URIs, every request, every notification: each answers alone, nothing outside the install is touched, the process lives', async () => {
  const root = sampleInstall('arch06-lsp-uris-');
  const trace = path.join(tempDir('arch06-lsp-trace-'), 'calls.log');
  // The install root's folder name is traced too: the control that shows the trace works.
  const preload = fsTracePreload(path.dirname(trace), [MARKER, path.basename(root)], trace);
  const client = await LspClient.start(root, {}, ['--require', preload]);
  try {
    for (const uri of HOSTILE_URIS) {
      await client.open(uri, 'local a = 1\nfunction f() return a end\n');
      for (const [method, params] of requests(uri)) await outcome(client, method, params);
      await client.rpc.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 2 },
        contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }, text: 'local b' }],
      });
      await outcome(client, 'textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 7 } });
      await client.rpc.sendNotification('textDocument/didClose', { textDocument: { uri } });
      assert.equal(client.exited, undefined, `the server exited after ${uri}`);
    }
    // Still answering the real script afterwards.
    await client.open(SAMPLE_SCRIPT_URI, SAMPLE_LAYER_SOURCE);
    const symbols = await within(
      client.request<{ name: string }[]>('textDocument/documentSymbol', { textDocument: { uri: SAMPLE_SCRIPT_URI } }),
      WATCHDOG_MS,
      'symbols',
    );
    assert.equal(symbols.length, 3);
    const calls = fs.readFileSync(trace, 'utf8').split('\n');
    assert.ok(
      calls.some((c) => c.includes(path.basename(root))),
      'the trace saw the install being read',
    );
    assert.deepEqual(
      calls.filter((c) => c.includes(MARKER)),
      [],
      'file-system calls naming a place outside the install',
    );
  } finally {
    await client.stop();
  }
  assert.ok(client.exited === undefined || client.exited === 0 || client.exited === 'SIGTERM', `exit ${client.exited}`);
});

test('language server: params that are null, missing or of the wrong type are InvalidParams; the server answers afterwards', async () => {
  const root = sampleInstall('arch06-lsp-params-');
  const client = await LspClient.start(root);
  try {
    await client.open(SAMPLE_SCRIPT_URI, SAMPLE_LAYER_SOURCE);
    const bad: unknown[] = [
      null,
      42,
      'text',
      [],
      {},
      { textDocument: null },
      { textDocument: { uri: 7 } },
      { textDocument: { uri: SAMPLE_SCRIPT_URI }, position: null },
      { textDocument: { uri: SAMPLE_SCRIPT_URI }, position: { line: -1, character: 0 } },
      { textDocument: { uri: SAMPLE_SCRIPT_URI }, position: { line: 1.5, character: 0 } },
      { textDocument: { uri: SAMPLE_SCRIPT_URI }, position: { line: '0', character: 0 } },
      { textDocument: { uri: SAMPLE_SCRIPT_URI }, position: { line: 1e12, character: 1e12 } },
      { textDocument: { uri: SAMPLE_SCRIPT_URI }, range: { start: null } },
      { textDocument: { uri: SAMPLE_SCRIPT_URI }, positions: [{ line: 0 }] },
    ];
    const codes = new Set<number>();
    for (const [method] of requests(SAMPLE_SCRIPT_URI)) {
      for (const params of bad) {
        const o = await outcome(client, method, params);
        if (o.code !== undefined) codes.add(o.code);
      }
    }
    // Only "invalid params" (-32602): no internal error (-32603), nothing left unanswered.
    assert.deepEqual([...codes], [-32602]);
    // Notifications with broken params are dropped alone.
    for (const method of ['textDocument/didOpen', 'textDocument/didChange', 'textDocument/didClose', 'arch06/settings', '$/cancelRequest'])
      for (const params of [null, 5, { textDocument: null }, { textDocument: { uri: SAMPLE_SCRIPT_URI, version: 'x' }, contentChanges: [null, { text: 5 }] }])
        await client.rpc.sendNotification(method, params);
    await client.open(SAMPLE_SCRIPT_URI, SAMPLE_LAYER_SOURCE, 'havokscript', 3);
    const symbols = await within(
      client.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri: SAMPLE_SCRIPT_URI } }),
      WATCHDOG_MS,
      'symbols',
    );
    assert.equal(symbols.length, 3);
    assert.equal(client.exited, undefined);
  } finally {
    await client.stop();
  }
});

test('language server: one broken file of the install costs that file only', async () => {
  const good = 'worlds\\crafted\\good.scripts';
  const root = sampleInstall('arch06-lsp-onebad-', {
    [good]: writeScri('local section_1 = {\n  _good_fn = function (self) end,\n}\n'),
    'worlds\\crafted\\good.objres': writeRegistry({
      scriptPath: good,
      objects: [{ className: 'ScriptRelay', name: 'Good.SR' }],
      bindings: [{ name: 'Good.SR', bindings: [{ event: 'Script1', function: '_good_fn' }] }],
      groups: [],
    }),
    'worlds\\crafted\\broken.objres': new Uint8Array([0x4f, 0x42, 0x4a, 0x52, 0xff, 0xff, 0xff, 0xff, 1, 2, 3]),
    'worlds\\crafted\\broken.scripts': new Uint8Array([0x53, 0x43, 0x52, 0x49, 0xff, 0xff, 0xff, 0x7f]),
  });
  const client = await LspClient.start(root);
  try {
    const uri = looseScriptUri(good);
    await client.open(uri, '_ignored = 1\nlocal section_1 = {\n  _good_fn = function (self) end,\n}\n');
    const lenses = await within(client.request<{ command: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri } }), WATCHDOG_MS, 'lenses');
    assert.deepEqual(
      lenses.map((l) => l.command.title),
      ['bound by 1 object'],
    );
    await client.open(SAMPLE_SCRIPT_URI, SAMPLE_LAYER_SOURCE);
    const sample = await within(client.request<unknown[]>('textDocument/codeLens', { textDocument: { uri: SAMPLE_SCRIPT_URI } }), WATCHDOG_MS, 'sample');
    assert.equal(sample.length, 4);
    const status = await within(client.request<{ indexDegraded: string | null }>('arch06/status', {}), WATCHDOG_MS, 'status');
    assert.equal(status.indexDegraded, null);
  } finally {
    await client.stop();
  }
});

test('language server: a memory ceiling too small for the install leaves files out of the index with a warning; the server answers', async () => {
  // 40 scripts of 1 MiB each: more than the smallest ceiling's index budget (64 MiB / 2, at two bytes a character).
  const mods: Record<string, Uint8Array> = {};
  const body = `-- ${'x'.repeat(1 << 20)}\nfunction crafted_fn() end\n`;
  for (let i = 0; i < 40; i++) mods[`worlds\\crafted\\big${String(i).padStart(2, '0')}.scripts`] = writeScri(body);
  const root = sampleInstall('arch06-lsp-ceiling-', mods);
  const client = await LspClient.start(root, { maxMemoryMB: 64 });
  try {
    await client.open(SAMPLE_SCRIPT_URI, SAMPLE_LAYER_SOURCE);
    await client.diagnosticsOf(SAMPLE_SCRIPT_URI, WATCHDOG_MS);
    const status = await within(client.request<{ indexDegraded: string | null }>('arch06/status', {}), WATCHDOG_MS, 'status');
    assert.match(status.indexDegraded ?? '', /memory budget|ceiling/);
    assert.ok(
      client.messages.some((m) => /files left out of the index/.test(m)),
      client.messages.join('\n'),
    );
    const symbols = await within(
      client.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri: SAMPLE_SCRIPT_URI } }),
      WATCHDOG_MS,
      'symbols',
    );
    assert.equal(symbols.length, 3);
    assert.equal(client.exited, undefined);
  } finally {
    await client.stop();
  }
});
