// Issue 21 item 11: after a framing error on stdio (a Content-Length that is no byte count, a
// header line without a colon, no Content-Length, a length over the limit) the server exits
// cleanly instead of staying alive and deaf; a body that is not JSON, with its framing intact, is
// skipped and the next message answered. And `arch06 scripts` on a script over the index's 16 MiB
// limit says so rather than that nothing serves it. The frame parser alone, chunk by chunk.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeScri } from '../../core/formats/script';
import { FrameParser, FramingError } from '../../server/framing';
import { runCli } from '../support/cli';
import { SERVER, within } from '../support/lspClient';
import { sampleInstall } from '../support/lspInstall';

const WATCHDOG_MS = 30_000;

const frame = (body: string): string => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const initialize = frame(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));

/** The server over raw stdio: what it wrote, and its exit code once it exits. */
function rawServer(): { write: (s: string) => void; output: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', () => undefined);
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { write: (s) => void child.stdin.write(s), output: () => out, exit };
}

async function answered(server: ReturnType<typeof rawServer>, id: number): Promise<void> {
  for (let i = 0; i < WATCHDOG_MS / 25; i++) {
    if (server.output().includes(`"id":${id}`)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`no answer to request ${id}`);
}

for (const [name, broken] of [
  ['a Content-Length that is no number', 'Content-Length: abc\r\n\r\n{}'],
  ['a header line without a colon', 'Content-Length 12\r\n\r\n{"jsonrpc":1}'],
  ['a header without Content-Length', 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}'],
  ['a Content-Length over the limit', 'Content-Length: 9999999999\r\n\r\n{}'],
  ['a negative Content-Length', 'Content-Length: -5\r\n\r\n{}'],
  ['a header block that never ends', `X-Pad: ${'a'.repeat(20_000)}`],
]) {
  test(`language server over stdio: ${name} ends the process cleanly (exit 1), after answering what came before`, async () => {
    const server = rawServer();
    server.write(initialize);
    await answered(server, 1);
    server.write(broken);
    assert.equal(await within(server.exit, WATCHDOG_MS, 'the exit'), 1);
  });
}

test('language server over stdio: a body that is not JSON is skipped and the next request answered', async () => {
  const server = rawServer();
  try {
    server.write(frame('{"jsonrpc": "2.0", "id": 7, "method": '));
    server.write(frame('[1, 2'));
    server.write(initialize);
    await answered(server, 1);
    server.write(frame(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'shutdown' })));
    await answered(server, 2);
  } finally {
    server.write(frame(JSON.stringify({ jsonrpc: '2.0', method: 'exit' })));
    await within(server.exit, WATCHDOG_MS, 'the exit');
  }
});

test('FrameParser: messages cut at any chunk boundary; UTF-8 bodies counted in bytes', () => {
  const bodies = ['{"a":1}', '{"b":"é✓"}', '{}'];
  const stream = Buffer.from(bodies.map(frame).join(''));
  for (const size of [1, 2, 3, 7, 64, stream.length]) {
    const parser = new FrameParser();
    const got: string[] = [];
    for (let i = 0; i < stream.length; i += size) got.push(...parser.push(stream.subarray(i, i + size)));
    assert.deepEqual(got, bodies, `chunks of ${size}`);
  }
  assert.throws(() => new FrameParser(100).push(Buffer.from('Content-Length: 101\r\n\r\n')), FramingError);
  assert.throws(() => new FrameParser().push(Buffer.from('Content-Type: text/plain; charset=latin1\r\nContent-Length: 2\r\n\r\n{}')), FramingError);
});

test('arch06 scripts on a script over the index limit (17 MiB) says it is served but over the limit', () => {
  const path = 'worlds\\crafted\\huge.scripts';
  const root = sampleInstall('arch06-scripts-huge-', { [path]: writeScri(`-- ${'x'.repeat(17 << 20)}\n`) });
  const r = runCli('scripts', root, path);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /served but not indexed: \d+ bytes, above the 16777216-byte limit/);
  assert.doesNotMatch(r.stderr, /no mounted source serves/);
});
