// The built language server (dist/server.js) driven over stdio as a client drives it: initialize
// with the sample install's root, open the layer script at the URI the extension's script view
// uses, then ask for symbols, hover, definition, references, code lenses, completion, inlay hints
// and diagnostics, each checked against exact ranges. A broken mod (a registry binding a function
// the script lacks) gets its diagnostic.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type MessageConnection, StreamMessageReader, StreamMessageWriter, createMessageConnection } from 'vscode-jsonrpc/node';
import { hiHash, stringHash } from '../../core/hash';
import { writeRegistry } from '../../core/formats/registry';
import { SAMPLE_LAYER, SAMPLE_LAYER_REGISTRY, SAMPLE_LAYER_SCRIPT, SAMPLE_LAYER_SOURCE, sampleGame } from '../../core/sample';
import { tempDir, writeTree } from '../support/fixtures';
import { repoRoot } from '../support/shared';

const SERVER = path.join(repoRoot(), 'dist', 'server.js');
/** The script view's URI of the layer script, a member of its bundle folder (extension/views/textView.ts). */
const slashed = (p: string): string => p.replace(/\\/g, '/');
const SCRIPT_URI = `arch06-text:/${slashed(SAMPLE_LAYER)}.bndl%20%5Bbundle%5D/${slashed(SAMPLE_LAYER_SCRIPT)}%20(text%20in%20sample)`;

interface Position {
  line: number;
  character: number;
}
interface Range {
  start: Position;
  end: Position;
}

/** The position of the `nth` occurrence of `needle` in `text` (plus `delta` characters). */
function positionOf(text: string, needle: string, nth = 0, delta = 0): Position {
  let i = -1;
  for (let k = 0; k <= nth; k++) {
    i = text.indexOf(needle, i + 1);
    assert.ok(i >= 0, `${needle} #${nth} in the text`);
  }
  i += delta;
  const before = text.slice(0, i);
  return { line: before.split('\n').length - 1, character: i - before.lastIndexOf('\n') - 1 };
}
const rangeOf = (text: string, needle: string, nth = 0): Range => ({ start: positionOf(text, needle, nth), end: positionOf(text, needle, nth, needle.length) });

class Client {
  readonly diagnostics = new Map<string, { range: Range; message: string; severity: number }[]>();
  /** Who waits for a URI's first diagnostics. */
  private readonly waiting = new Map<string, (() => void)[]>();
  private constructor(
    readonly rpc: MessageConnection,
    private readonly child: ChildProcess,
  ) {}

  static async start(installRoot: string, extra: Record<string, unknown> = {}): Promise<Client> {
    const child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const rpc = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const client = new Client(rpc, child);
    rpc.onRequest(() => null); // workDoneProgress/create, codeLens/refresh, inlayHint/refresh
    rpc.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: never[] }) => {
      client.diagnostics.set(p.uri, p.diagnostics);
      for (const arrived of client.waiting.get(p.uri) ?? []) arrived();
      client.waiting.delete(p.uri);
    });
    rpc.listen();
    await rpc.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: { window: { workDoneProgress: true } },
      initializationOptions: { installRoot, ...extra },
    });
    await rpc.sendNotification('initialized', {});
    return client;
  }

  async open(uri: string, text: string, languageId = 'havokscript'): Promise<void> {
    await this.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  }

  request<T>(method: string, params: Record<string, unknown>): Promise<T> {
    return this.rpc.sendRequest(method, params) as Promise<T>;
  }

  /** Diagnostics published for `uri`, waited for until they arrive (a watchdog far above any honest wait ends a hang). */
  async diagnosticsOf(uri: string): Promise<{ range: Range; message: string; severity: number }[]> {
    if (!this.diagnostics.has(uri)) {
      await new Promise<void>((resolve, reject) => {
        const watchdog = setTimeout(() => reject(new Error(`no diagnostics published for ${uri}`)), 120_000);
        const list = this.waiting.get(uri) ?? [];
        list.push(() => {
          clearTimeout(watchdog);
          resolve();
        });
        this.waiting.set(uri, list);
      });
    }
    return this.diagnostics.get(uri)!;
  }

  /**
   * shutdown, then exit, as a client ends a server: the server exits by itself, so the coverage
   * its process collected (NODE_V8_COVERAGE, inherited from npm test's runner) is written and
   * merged into the report. A watchdog far above an honest exit kills a server that does not.
   */
  async stop(): Promise<void> {
    const exited = this.child.exitCode !== null ? Promise.resolve() : once(this.child, 'exit').then(() => undefined);
    await this.rpc.sendRequest('shutdown').catch(() => undefined);
    await this.rpc.sendNotification('exit').catch(() => undefined);
    const watchdog = setTimeout(() => this.child.kill(), 60_000);
    await exited;
    clearTimeout(watchdog);
    this.rpc.dispose();
  }
}

function sampleInstall(prefix: string): string {
  const root = tempDir(prefix);
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  return root;
}

test('language server over stdio on the sample install: symbols, hover, definition, references, code lens, completion, inlay hints, diagnostics', async () => {
  const root = sampleInstall('arch06-lsp-');
  const client = await Client.start(root, { inlayHints: true });
  const text = SAMPLE_LAYER_SOURCE;
  const doc = { textDocument: { uri: SCRIPT_URI } };
  try {
    await client.open(SCRIPT_URI, text);

    // Diagnostics: the shipped-style script is clean.
    assert.deepEqual(await client.diagnosticsOf(SCRIPT_URI), []);

    // Document symbols: the two hstructures, the section table with its four bindings; the hmake
    // object lists its methods.
    const symbols = await client.request<{ name: string; kind: number; selectionRange: Range; children?: { name: string }[] }[]>(
      'textDocument/documentSymbol',
      doc,
    );
    assert.deepEqual(
      symbols.map((s) => s.name),
      ['_gatecontroller_SO_Script_6d1f0a42_meta', '_gatecontroller_SO_Script_6d1f0a42_inst', 'section_5a3c9e21'],
    );
    const section = symbols[2].children as { name: string; selectionRange: Range; children?: { name: string }[] }[];
    assert.deepEqual(
      section.map((s) => s.name),
      ['_gatecontroller_SC_Script_2f4e8a10', '_gatecontroller_SO_Script_7b19c3d5', '_gatealarm_SR_Script1_0c1d2e3f', '_gatequest_QR_Script1_48d7e0b6'],
    );
    assert.deepEqual(section[2].selectionRange, rangeOf(text, '_gatealarm_SR_Script1_0c1d2e3f'));
    assert.deepEqual(
      section[1].children?.map((c) => c.name),
      ['__constructor', 'Init', 'OpenGate'],
    );

    // Code lens: Patch_02's standalone registry (the one in effect) binds the alarm to three relays.
    const lenses = await client.request<{ range: Range; command: { title: string; command: string; arguments: { sites: { object: string }[] }[] } }[]>(
      'textDocument/codeLens',
      doc,
    );
    const alarm = lenses.find((l) => l.command.title === 'bound by 3 objects');
    assert.ok(alarm, JSON.stringify(lenses.map((l) => l.command.title)));
    assert.deepEqual(alarm.range, rangeOf(text, '_gatealarm_SR_Script1_0c1d2e3f'));
    assert.equal(alarm.command.command, 'arch06.showBindings');
    assert.deepEqual(alarm.command.arguments[0].sites.map((s) => s.object).sort(), ['GateAlarm_00.SR', 'GateAlarm_01.SR', 'GateAlarm_02.SR']);
    assert.deepEqual(
      lenses.map((l) => l.command.title),
      ['bound by 1 object', 'bound by 1 object', 'bound by 3 objects', 'bound by 1 object'],
    );

    // Hover on a bound function: its signature, its doc comment (event and prefab), the objects.
    const hover = await client.request<{ contents: { value: string }; range: Range }>('textDocument/hover', {
      ...doc,
      position: positionOf(text, '_gatealarm_SR_Script1_0c1d2e3f', 0, 3),
    });
    assert.deepEqual(hover.range, rangeOf(text, '_gatealarm_SR_Script1_0c1d2e3f'));
    assert.match(hover.contents.value, /_gatealarm_SR_Script1_0c1d2e3f = function \(self, threadId, scriptId\)/);
    // Game text is markdown-escaped (a backslash doubled, so it shows as one).
    assert.match(hover.contents.value, /SR\.Script1 \(prefabs\\\\gameplay\\\\sample\\\\gatealarm\.prefab06c\)/);
    assert.match(hover.contents.value, /Bound by 3 objects/);
    assert.match(
      hover.contents.value,
      /GateAlarm_02\.SR \(ScriptRelay\) · Script1 · worlds\\\\retail\\\\sample\\\\sectionsandlayers\\\\fortgate\.objres \(Patch_02\.arch06\)/,
    );

    // Hover on an engine member the seeds document.
    const sys = await client.request<{ contents: { value: string }; range: Range }>('textDocument/hover', {
      ...doc,
      position: positionOf(text, 'IsDayTime', 0, 1),
    });
    assert.deepEqual(sys.range, rangeOf(text, 'IsDayTime'));
    assert.match(sys.contents.value, /System:IsDayTime/);
    assert.match(sys.contents.value, /Used 1 time/);

    // Definition: `SO:Init()` goes to the hmake object's Init method; a parameter to its declaration.
    const defInit = await client.request<{ uri: string; range: Range }[]>('textDocument/definition', { ...doc, position: positionOf(text, 'SO:Init', 0, 4) });
    assert.deepEqual(defInit, [{ uri: SCRIPT_URI, range: { start: positionOf(text, 'Init = function'), end: positionOf(text, 'Init = function', 0, 4) } }]);
    const defParam = await client.request<{ uri: string; range: Range }[]>('textDocument/definition', {
      ...doc,
      position: positionOf(text, 'scriptId.Instance', 0, 2),
    });
    assert.deepEqual(defParam, [{ uri: SCRIPT_URI, range: { start: positionOf(text, 'scriptId)'), end: positionOf(text, 'scriptId)', 0, 8) } }]);

    // References: every use of the global LithThreadSleep (two in this script).
    const refs = await client.request<{ uri: string; range: Range }[]>('textDocument/references', {
      ...doc,
      position: positionOf(text, 'LithThreadSleep', 0, 2),
      context: { includeDeclaration: true },
    });
    const here = refs.filter((r) => r.uri === SCRIPT_URI).map((r) => r.range);
    assert.deepEqual(here, [rangeOf(text, 'LithThreadSleep', 0), rangeOf(text, 'LithThreadSleep', 1)]);

    // Completion after `System:` offers what the scripts call and what the seeds document.
    const edited = text.replace('not System:IsDayTime()', 'not System:');
    const editedUri = SCRIPT_URI.replace('fortgate.scripts', 'fortgate_edit.scripts');
    await client.open(editedUri, edited);
    const items = await client.request<{ label: string; detail?: string }[]>('textDocument/completion', {
      textDocument: { uri: editedUri },
      position: positionOf(edited, 'not System:', 0, 'not System:'.length),
    });
    const labels = items.map((i) => i.label);
    assert.ok(labels.includes('IsDayTime'), labels.join(', '));
    assert.ok(labels.includes('LoadWorld'), labels.join(', '));
    // After `ScriptRelay.` the documented Create.
    const created = text.replace('ScriptRelay.Create( scriptId, "SR"  )', 'ScriptRelay.');
    const createdUri = SCRIPT_URI.replace('fortgate.scripts', 'fortgate_edit2.scripts');
    await client.open(createdUri, created);
    const members = await client.request<{ label: string; detail?: string; documentation?: { value: string } }[]>('textDocument/completion', {
      textDocument: { uri: createdUri },
      position: positionOf(created, 'ScriptRelay.\n', 0, 'ScriptRelay.'.length),
    });
    assert.ok(
      members.some(
        (m) => m.label === 'Create' && /used \d+×/.test(m.detail ?? '') && /<Class>\.Create\(scriptId, name, b3, relative\)/.test(m.documentation?.value ?? ''),
      ),
      JSON.stringify(members),
    );

    // Hash literals: 8 hex digits are a StringHash, a `hi` literal the hi hash; their names (string
    // literals of the script) on hover and as inlay hints.
    const hashed = `local key = 0x${stringHash('UI_Sample_GateOpen').toString(16).padStart(8, '0')}\nlocal ev = 0x${hiHash('OpenGate')!.toString(16).padStart(8, '0')}hi\n`;
    const hashUri = SCRIPT_URI.replace('fortgate.scripts', 'hashes.scripts');
    await client.open(hashUri, hashed);
    const hashHover = await client.request<{ contents: { value: string }; range: Range }>('textDocument/hover', {
      textDocument: { uri: hashUri },
      position: { line: 0, character: 14 },
    });
    assert.match(hashHover.contents.value, /StringHash 0x[0-9A-F]{8}\n\nName:\n- `UI_Sample_GateOpen` \(script literal\)/);
    assert.deepEqual(hashHover.range, { start: { line: 0, character: 12 }, end: { line: 0, character: 22 } });
    const hiHover = await client.request<{ contents: { value: string }; range: Range }>('textDocument/hover', {
      textDocument: { uri: hashUri },
      position: { line: 1, character: 14 },
    });
    assert.match(hiHover.contents.value, /hi hash 0x[0-9A-F]{8} \(not StringHash[^\n]*\n\nName:\n- `OpenGate` \(script literal\)/);
    const hints = await client.request<{ position: Position; label: string }[]>('textDocument/inlayHint', {
      textDocument: { uri: hashUri },
      range: { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } },
    });
    assert.deepEqual(
      hints.map((h) => [h.position, h.label.trim()]),
      [
        [{ line: 0, character: 22 }, 'UI_Sample_GateOpen'],
        [{ line: 1, character: 23 }, 'OpenGate'],
      ],
    );
    // An unknown hash says so.
    const unknownUri = SCRIPT_URI.replace('fortgate.scripts', 'unknown.scripts');
    await client.open(unknownUri, 'local key = 0x12345678hi\n');
    const unknown = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: unknownUri },
      position: { line: 0, character: 14 },
    });
    assert.match(unknown.contents.value, /No known name has this hash/);

    // A decoded text view (a registry's): hashes hover as names; it is no script (no diagnostics, no symbols).
    const decodedUri = SCRIPT_URI.replace('fortgate.scripts', 'fortgate.objres');
    const decoded = `[bindings]\nGateAlarm_00.SR event=Script1 0x${stringHash('UI_Sample_GateAlarm').toString(16).toUpperCase().padStart(8, '0')}\n`;
    await client.open(decodedUri, decoded, 'arch06-text');
    const decodedHover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: decodedUri },
      position: { line: 1, character: decoded.split('\n')[1].indexOf('0x') + 3 },
    });
    assert.match(decodedHover.contents.value, /`UI_Sample_GateAlarm` \(script literal\)/);
    assert.deepEqual(await client.request('textDocument/documentSymbol', { textDocument: { uri: decodedUri } }), []);
    // No diagnostics for it, whenever they would have come: a script opened after it is analysed
    // after it (the server handles opens in order, over one stream), so once the script's
    // diagnostics are here, any the decoded view had would be here too.
    const afterUri = SCRIPT_URI.replace('fortgate.scripts', 'after_decoded.scripts');
    await client.open(afterUri, 'local after = 1\n');
    assert.deepEqual(await client.diagnosticsOf(afterUri), []);
    assert.equal(client.diagnostics.has(decodedUri), false);
    // In the registry's decoded text, a bound function goes to its definition in the served script.
    const registryUri = SCRIPT_URI.replace('fortgate.scripts', 'fortgate.objres');
    const registryText = `[bindings]\nGateAlarm_00.SR event=Script1 function=_gatealarm_SR_Script1_0c1d2e3f\n`;
    await client.open(registryUri + '?copy', registryText, 'arch06-text');
    const toFunction = await client.request<{ uri: string; range: Range }[]>('textDocument/definition', {
      textDocument: { uri: registryUri + '?copy' },
      position: { line: 1, character: registryText.split('\n')[1].indexOf('_gatealarm') + 4 },
    });
    assert.deepEqual(
      toFunction.map((l) => l.range),
      [rangeOf(text, '_gatealarm_SR_Script1_0c1d2e3f')],
    );
  } finally {
    await client.stop();
  }
});

for (const workers of [1, 2])
  test(`language server, ${workers} index thread(s): a binding to a function the script lacks is a diagnostic on the script`, async () => {
    await brokenBinding(workers);
  });

async function brokenBinding(workers: number): Promise<void> {
  const root = sampleInstall('arch06-lsp-broken-');
  // A mod folder searched first holds a registry binding an object to a missing function.
  fs.appendFileSync(path.join(root, 'x64', 'default.archcfg'), '..\\Mods\n');
  const file = path.join(root, 'Mods', ...SAMPLE_LAYER_REGISTRY.split('\\'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    writeRegistry({
      scriptPath: SAMPLE_LAYER_SCRIPT,
      hash: 0x5a3c9e21,
      objects: [{ className: 'ScriptRelay', name: 'Lost.SR' }],
      bindings: [{ name: 'Lost.SR', bindings: [{ event: 'Script1', function: '_lost_SR_Script1_deadbeef' }] }],
      groups: [],
    }),
  );
  const client = await Client.start(root, { workers });
  try {
    await client.open(SCRIPT_URI, SAMPLE_LAYER_SOURCE);
    // Published once the index is done (on the workers with 2: the mod folder's registry read on the server's thread in its turn).
    const diags = await client.diagnosticsOf(SCRIPT_URI);
    assert.equal(diags.length, 1, JSON.stringify(diags));
    assert.match(diags[0].message, /_lost_SR_Script1_deadbeef is bound \(Lost\.SR\) but the script does not define it/);
    assert.equal(diags[0].severity, 1);
    assert.deepEqual(diags[0].range, rangeOf(SAMPLE_LAYER_SOURCE, 'section_5a3c9e21'));
    const status = await client.request<{ indexing: unknown; workers: number; workersStarted: number }>('arch06/status', {});
    assert.equal(status.indexing, null);
    assert.equal(status.workers, workers);
    assert.equal(status.workersStarted > 0, workers > 1, 'workers ran only when asked for');
  } finally {
    await client.stop();
  }
}
