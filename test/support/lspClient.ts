/**
 * A language-server client for tests: the built server (dist/server.js) spawned with `--stdio`
 * and driven over JSON-RPC as an editor drives it. It records published diagnostics, answers the
 * server's own requests (progress, refreshes) with null, and says whether the process exited.
 */
import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { type MessageConnection, StreamMessageReader, StreamMessageWriter, createMessageConnection } from 'vscode-jsonrpc/node';
import { repoRoot } from './shared';

export const SERVER = path.join(repoRoot(), 'dist', 'server.js');

export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}
export interface PublishedDiagnostic {
  range: Range;
  message: string;
  severity: number;
}

export class LspClient {
  readonly diagnostics = new Map<string, PublishedDiagnostic[]>();
  /** The document version the last diagnostics of each URI were published for. */
  readonly diagnosticVersions = new Map<string, number | undefined>();
  /** Every `window/showMessage(Request)` and `window/logMessage` text, in order. */
  readonly messages: string[] = [];
  /** The exit code (or signal) once the process has ended. */
  exited: number | string | undefined;
  private constructor(
    readonly rpc: MessageConnection,
    readonly child: ChildProcess,
  ) {}

  static async start(installRoot: string | undefined, extra: Record<string, unknown> = {}, execArgv: string[] = []): Promise<LspClient> {
    const child = spawn(process.execPath, [...execArgv, SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const rpc = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new LspClient(rpc, child);
    child.on('exit', (code, signal) => (client.exited = code ?? signal ?? 'unknown'));
    // workDoneProgress/create, codeLens/refresh, inlayHint/refresh; showMessageRequest is what the server's warnings are.
    rpc.onRequest((method: string, params: unknown) => {
      if (method === 'window/showMessageRequest') client.messages.push((params as { message: string }).message);
      return null;
    });
    rpc.onNotification('textDocument/publishDiagnostics', (p: { uri: string; version?: number; diagnostics: PublishedDiagnostic[] }) => {
      client.diagnostics.set(p.uri, p.diagnostics);
      client.diagnosticVersions.set(p.uri, p.version);
    });
    rpc.onNotification('window/showMessage', (p: { message: string }) => void client.messages.push(p.message));
    rpc.onNotification('window/logMessage', (p: { message: string }) => void client.messages.push(p.message));
    rpc.listen();
    await rpc.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: { window: { workDoneProgress: true } },
      initializationOptions: { ...(installRoot ? { installRoot } : {}), ...extra },
    });
    await rpc.sendNotification('initialized', {});
    return client;
  }

  async open(uri: string, text: string, languageId = 'havokscript', version = 1): Promise<void> {
    await this.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.rpc.sendRequest(method, params) as Promise<T>;
  }

  /** Diagnostics published for `uri`, waited for (up to `waitMs`, a watchdog against a hang, not a timing). */
  async diagnosticsOf(uri: string, waitMs = 20_000): Promise<PublishedDiagnostic[]> {
    for (let i = 0; i < waitMs / 25 && !this.diagnostics.has(uri); i++) await new Promise((r) => setTimeout(r, 25));
    return this.diagnostics.get(uri) ?? assert.fail(`no diagnostics published for ${uri}`);
  }

  /** Diagnostics published for `uri` at `version`, waited for. */
  async diagnosticsAt(uri: string, version: number, waitMs = 60_000): Promise<PublishedDiagnostic[]> {
    for (let i = 0; i < waitMs / 25 && this.diagnosticVersions.get(uri) !== version; i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(this.diagnosticVersions.get(uri), version, `diagnostics of ${uri} at version ${version}`);
    return this.diagnostics.get(uri)!;
  }

  async stop(): Promise<void> {
    await this.rpc.sendRequest('shutdown').catch(() => undefined);
    this.rpc.dispose();
    this.child.kill();
  }
}

/** `promise`, or a failure naming `what` after `ms` (a watchdog against a hang; the tests never assert a time). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${ms} ms`)), ms)));
  return Promise.race([promise, watchdog]).finally(() => clearTimeout(timer));
}
