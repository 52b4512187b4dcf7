/**
 * The language server for Havok Script and the registries' script bindings: the only file that
 * speaks LSP. It mounts the install itself (`initializationOptions.installRoot`, through the
 * engine), indexes every script and registry it serves, and answers from server/analysis/, which
 * knows nothing of LSP: offsets there, positions here (`TextDocument` converts; both count UTF-16).
 *
 * Started by the extension over IPC; also runnable by any client: `node dist/server.js --stdio`
 * with `initializationOptions: { installRoot, cfg?, extraArchives?, cacheFolder?, dictionaryFiles?, inlayHints?, maxMemoryMB?, workers? }`.
 * The extension sends `arch06/settings` (the same shape) when the mount or the settings change,
 * and `arch06/modFilesChanged` ({ changes: [{ path, kind }] }) when files in an active mod change.
 *
 * Input never ends the process (issue 21): every handler answers or fails alone (a result, an
 * empty one or an LSP error; params checked by server/params.ts), analysis follows edits once they
 * pause (a request analyses the version it asks about), a cancelled request costs nothing, every
 * list is capped (server/analysis/caps.ts), a broken `--stdio` framing ends the process cleanly.
 */
import {
  type CancellationToken,
  CodeLens,
  CompletionItem,
  CompletionItemKind,
  Diagnostic,
  DiagnosticSeverity,
  DocumentSymbol,
  ErrorCodes,
  FoldingRange,
  InlayHint,
  LSPErrorCodes,
  Location,
  MarkupKind,
  ProposedFeatures,
  Range,
  ResponseError,
  SelectionRange,
  SemanticTokensBuilder,
  StreamMessageWriter,
  SymbolInformation,
  SymbolKind,
  TextDocumentSyncKind,
  createConnection,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { type ScriptSymbol, type Span, flattenOutline } from '../core/havokScript';
import type { AnalysedScript } from '../core/scriptIndex';
import { bindingLenses, lensCommand } from './analysis/bindings';
import { MAX_COMPLETIONS, MAX_DOCUMENT_SYMBOLS, MAX_INLAY_HINTS, MAX_LOCATIONS, MAX_SELECTION_POSITIONS, MAX_WORKSPACE_SYMBOLS, count } from './analysis/caps';
import { type CompletionKind, cappedCompletion, rankSortText } from './analysis/completion';
import { foldingSpans } from './analysis/folding';
import { hashLiteralAt, hashLiterals, hashNames, literalNames } from './analysis/hashes';
import { hover } from './analysis/hover';
import { QuietTimers } from './analysis/quietTimers';
import { selectionSpans } from './analysis/selection';
import { TOKEN_MODIFIERS, TOKEN_TYPES, semanticSpans, tokenCodes } from './analysis/semantics';
import { boundFunctionDefinition, definition, references } from './analysis/navigation';
import { workspaceSymbols } from './analysis/workspaceSymbols';
import { type ScriptLocation, ScriptWorkspace } from './analysis/workspace';
import { FramingError, StdioReader } from './framing';
import { BadParams, Cancelled, type Params, Stale, changesParam, checkCancelled, objectParam } from './params';
import { modChangesParam, openedParam, paramsOf, positionParam, rangeParam, uriParam } from './params';
import { type ServerSettings, mountKey, readSettings } from './settings';
import { Indexing, crossScriptFactsLater, setUserNames } from './session';

const log = (line: string): void => void process.stderr.write(`arch06 language server: ${line}\n`);
// `--stdio`: the strict framing reader (a framing error ends the process); IPC: the library's transport.
const reader = process.argv.includes('--stdio') ? new StdioReader(process.stdin, log) : undefined;
const connection = reader ? createConnection(ProposedFeatures.all, reader, new StreamMessageWriter(process.stdout)) : createConnection(ProposedFeatures.all);
reader?.onError((e) => {
  if (!(e instanceof FramingError)) return;
  log(`the stdio framing broke (${e.message}); exiting, since no later message can be found reliably`);
  process.exit(1);
});

// The last line of defence: whatever escaped a handler is logged, never fatal.
process.on('unhandledRejection', (e) => logError('an unhandled rejection', e));
process.on('uncaughtException', (e) => logError('an uncaught exception', e));

function logError(what: string, e: unknown): void {
  try {
    connection.console.error(`${what}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  } catch {
    log(`${what}: ${String(e)}`);
  }
}

/** The open documents, kept here (not by the library's TextDocuments) so each notification's params are checked first. */
const documents = new Map<string, TextDocument>();
let settings: ServerSettings = {};
let workspace = ScriptWorkspace.create(undefined);
/** How long a hash hover or inlay hint waits for the names still being gathered before it answers with what is in. */
const NAMES_WAIT_MS = 3000;
/** A document's diagnostics follow its edits once they pause this long. */
const quiet = new QuietTimers(250);

const indexing = new Indexing(); // the cold index's runs: a new mount cancels the last, shutdown stops its workers
connection.onShutdown(() => indexing.stop());
/** Resolves once the first mount and index are built: requests wait for it rather than answer from nothing. */
let markReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => (markReady = resolve));

/**
 * A request handler that answers alone: bad params are InvalidParams, a cancellation
 * RequestCancelled (checked before the work and after each wait), anything else thrown an
 * InternalError naming the method; the process goes on either way.
 */
function onRequest<R>(method: string, handler: (params: Params, token: CancellationToken) => R | Promise<R>): void {
  connection.onRequest(method, async (params: unknown, token: CancellationToken) => {
    try {
      const p = paramsOf(method, params);
      checkCancelled(token);
      const result = await handler(p, token);
      checkCancelled(token);
      return result;
    } catch (e) {
      if (e instanceof BadParams) return new ResponseError(ErrorCodes.InvalidParams, `${method}: ${e.message}`);
      if (e instanceof Cancelled) return new ResponseError(LSPErrorCodes.RequestCancelled, `${method} cancelled`);
      if (e instanceof Stale) return new ResponseError(LSPErrorCodes.ContentModified, `${method}: the document changed while it was answered`);
      logError(method, e);
      return new ResponseError(ErrorCodes.InternalError, `arch06: ${method} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
}

/** A notification handler whose failure (sync or async) is logged, never fatal. */
function onNotification(method: string, handler: (params: Params) => void | Promise<void>): void {
  connection.onNotification(method, (params: unknown) => {
    try {
      void Promise.resolve(handler(paramsOf(method, params))).catch((e: unknown) => logError(method, e));
    } catch (e) {
      logError(method, e);
    }
  });
}

/** (Re)mount and index the install the settings name, with progress in the client. */
async function openWorkspace(next: ServerSettings): Promise<void> {
  settings = next;
  const progress = await connection.window.createWorkDoneProgress().catch(() => undefined);
  progress?.begin('arch06: indexing scripts and registries', 0, '', false);
  const opened = await indexing.open(
    next,
    (done, total) => progress?.report(Math.floor((done / Math.max(1, total)) * 100), `${done} / ${total}`),
    (line) => connection.console.warn(line),
  );
  progress?.done();
  if (!opened) return; // cancelled by a newer mount or shutdown
  const ws = opened.ws;
  if (opened.error) connection.window.showErrorMessage(opened.error);
  if (opened.info) connection.console.info(opened.info);
  if (opened.warning) connection.window.showWarningMessage(opened.warning);
  for (const w of setUserNames(ws, next)) connection.window.showWarningMessage(w);
  workspace.dispose();
  workspace = ws;
  markReady();
  for (const uri of documents.keys()) publish(uri);
  crossScriptFactsLater(
    ws,
    (line) => connection.console.info(line),
    (e) => logError('the cross-script index', e),
  );
  connection.languages.inlayHint.refresh().catch(() => undefined);
  connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
}

// Documents: open, change (incremental), close. Diagnostics follow after a quiet period.

onNotification('textDocument/didOpen', (p) => {
  const o = openedParam(p);
  documents.set(o.uri, TextDocument.create(o.uri, o.languageId, o.version, o.text));
  publish(o.uri);
});

onNotification('textDocument/didChange', (p) => {
  const c = changesParam(p);
  const d = documents.get(c.uri);
  if (!d) return;
  documents.set(c.uri, TextDocument.update(d, c.changes, c.version));
  quiet.after(c.uri, () => publish(c.uri));
});

onNotification('textDocument/didClose', (p) => {
  const uri = uriParam(p);
  documents.delete(uri);
  quiet.cancel(uri);
  workspace.didClose(uri);
  connection.sendDiagnostics({ uri, diagnostics: [] });
});

/** Scripts get every feature; the other documents (decoded texts of registries, tables, bundles) only hash hovers. */
const isScript = (d: TextDocument): boolean => d.languageId === 'havokscript';

/** Analyse a script's current text (once the index is ready) and publish its diagnostics. */
function publish(uri: string): void {
  void ready
    .then(() => {
      const d = documents.get(uri);
      if (!d || !isScript(d)) return;
      const found = workspace.diagnostics(uri, d.version, d.getText());
      connection.sendDiagnostics({ uri, version: d.version, diagnostics: found.map((x) => toDiagnostic(d, x)) });
    })
    .catch((e: unknown) => logError(`diagnostics of ${uri}`, e));
}

// Conversions: offsets ⇄ positions, analysis kinds ⇄ LSP kinds.

const range = (d: TextDocument, s: Span): Range => ({ start: d.positionAt(s.start), end: d.positionAt(s.end) });

function toDiagnostic(d: TextDocument, x: { start: number; end: number; message: string; severity: 'error' | 'warning' }): Diagnostic {
  return { range: range(d, x), message: x.message, severity: x.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning, source: 'arch06' };
}

/**
 * Locations in any script (the open document's text when open, else the served copy's), at most
 * `MAX_LOCATIONS`: a cut list is said so in the client. One text per URI converts them all.
 */
function toLocations(what: string, all: readonly ScriptLocation[]): Location[] {
  if (all.length > MAX_LOCATIONS)
    connection.window.showInformationMessage(`arch06: ${what}: the first ${count(MAX_LOCATIONS)} of ${count(all.length)} places are listed`);
  const texts = new Map<string, TextDocument>();
  return all.slice(0, MAX_LOCATIONS).map((l) => {
    const uri = l.uri ?? workspace.uriOf(l.script);
    let doc = texts.get(uri);
    if (!doc) texts.set(uri, (doc = documents.get(uri) ?? TextDocument.create(uri, 'havokscript', 0, l.script.text)));
    return { uri, range: range(doc, l.span) };
  });
}

const SYMBOL_KIND: Record<ScriptSymbol['kind'], SymbolKind> = {
  function: SymbolKind.Function,
  hmake: SymbolKind.Object,
  method: SymbolKind.Method,
  structure: SymbolKind.Struct,
  field: SymbolKind.Field,
  table: SymbolKind.Namespace,
};

/** The outline as LSP symbols, at most `budget.left` of them counting children (parents first). */
function toDocumentSymbols(d: TextDocument, list: readonly ScriptSymbol[], budget: { left: number }): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  for (const s of list) {
    if (budget.left-- <= 0) break;
    out.push({
      name: s.name,
      kind: SYMBOL_KIND[s.kind],
      range: range(d, s),
      selectionRange: range(d, s.selection),
      ...(s.detail ? { detail: s.detail } : {}),
      children: toDocumentSymbols(d, s.children, budget),
    });
  }
  return out;
}

const COMPLETION_KIND: Record<CompletionKind, CompletionItemKind> = {
  function: CompletionItemKind.Function,
  method: CompletionItemKind.Method,
  field: CompletionItemKind.Field,
  class: CompletionItemKind.Class,
  variable: CompletionItemKind.Variable,
  keyword: CompletionItemKind.Keyword,
  module: CompletionItemKind.Module,
};

/** After a wait: the request was not cancelled and its document is still at `version` (else its offsets point into old text). */
function unchanged(d: TextDocument, version: number, token: CancellationToken): void {
  checkCancelled(token);
  if (documents.get(d.uri) !== d || d.version !== version) throw new Stale('stale');
}

/** The open document a request names, once the first index is ready (undefined when it is not open). */
async function openDocument(p: Params, token: CancellationToken): Promise<TextDocument | undefined> {
  const uri = uriParam(p);
  await ready;
  checkCancelled(token);
  return documents.get(uri);
}

/** The open script a request names with its current version's analysis (made now if need be). */
async function scriptOf(p: Params, token: CancellationToken): Promise<{ d: TextDocument; script: AnalysedScript } | undefined> {
  const d = await openDocument(p, token);
  if (!d || !isScript(d)) return undefined;
  return { d, script: workspace.analyse(d.uri, d.version, d.getText()) };
}

connection.onInitialize((params) => {
  settings = readSettings((params as { initializationOptions?: unknown } | null)?.initializationOptions);
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      documentSymbolProvider: true,
      workspaceSymbolProvider: true,
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      codeLensProvider: { resolveProvider: false },
      completionProvider: { triggerCharacters: ['.', ':'] },
      inlayHintProvider: true,
      foldingRangeProvider: true,
      selectionRangeProvider: true,
      semanticTokensProvider: { legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] }, full: true },
    },
    serverInfo: { name: 'arch06 Havok Script' },
  };
});

connection.onInitialized(() => void openWorkspace(settings).catch((e: unknown) => logError('opening the install', e)));
onNotification('arch06/settings', async (p) => {
  const next = readSettings(p);
  if (mountKey(next) !== mountKey(settings)) return openWorkspace(next);
  // The same install: only the hash settings changed; no remount, no new index.
  settings = next;
  for (const w of setUserNames(workspace, next)) connection.window.showWarningMessage(w);
  connection.languages.inlayHint.refresh().catch(() => undefined);
});

/** Files of active mods changed on disk (the client watches them): a saved script replaces its index entry, a file created or deleted remounts. */
onNotification('arch06/modFilesChanged', async (p) => {
  const changes = modChangesParam(p);
  const outcome = await ready.then(() => workspace.modFilesChanged(changes));
  if (outcome === 'remount') return openWorkspace(settings);
  if (outcome === 'updated') for (const uri of documents.keys()) publish(uri);
});

/** What the server has done, for tests and diagnosis: analyses made and waiting, open documents, memory, a degraded index. */
onRequest('arch06/status', () => ({
  analyses: workspace.analyses,
  pending: quiet.size,
  documents: documents.size,
  heapUsed: process.memoryUsage().heapUsed,
  indexDegraded: workspace.index?.degraded ?? null,
  ...indexing.status(),
}));

onRequest('textDocument/documentSymbol', async (p, token) => {
  const s = await scriptOf(p, token);
  if (!s) return [];
  const symbols = toDocumentSymbols(s.d, s.script.symbols, { left: MAX_DOCUMENT_SYMBOLS });
  const total = flattenOutline(s.script.symbols).length;
  // Cut: one more entry, first, says how many there are.
  if (total > MAX_DOCUMENT_SYMBOLS) symbols.unshift(noteSymbol(`${count(MAX_DOCUMENT_SYMBOLS)} of ${count(total)} symbols listed`));
  return symbols;
});

const noteSymbol = (name: string): DocumentSymbol => {
  const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return { name, kind: SymbolKind.Null, range: at, selectionRange: at, children: [] };
};

onRequest('workspace/symbol', async (p, token) => {
  await ready;
  checkCancelled(token);
  const { found, total } = workspaceSymbols(workspace, typeof p.query === 'string' ? p.query : '', MAX_WORKSPACE_SYMBOLS);
  const out = toLocations(
    'symbols',
    found.map((f) => f.location),
  ).map((location, i): SymbolInformation => ({
    name: found[i].name,
    kind: found[i].kind === 'hmake' ? SymbolKind.Object : found[i].kind === 'method' ? SymbolKind.Method : SymbolKind.Function,
    location,
    containerName: found[i].container,
  }));
  // Cut: one more entry says how many matched.
  if (total > MAX_WORKSPACE_SYMBOLS && out.length)
    out.push({
      name: `(${count(MAX_WORKSPACE_SYMBOLS)} of ${count(total)} symbols listed: refine the query)`,
      kind: SymbolKind.Null,
      location: out[0].location,
    });
  return out;
});

onRequest('textDocument/hover', async (p, token) => {
  const position = positionParam(p.position);
  const d = await openDocument(p, token);
  if (!d) return null;
  if (!isScript(d)) {
    const version = d.version;
    const literal = hashLiteralAt(d.getText(), d.offsetAt(position));
    if (literal) await workspace.namesGathered(NAMES_WAIT_MS);
    unchanged(d, version, token);
    return literal ? { contents: { kind: MarkupKind.Markdown, value: hashNames(workspace, literal) }, range: range(d, literal.span) } : null;
  }
  const version = d.version;
  const script = workspace.analyse(d.uri, version, d.getText());
  if (hashLiteralAt(script.text, d.offsetAt(position))) await workspace.namesGathered(NAMES_WAIT_MS);
  unchanged(d, version, token);
  const h = hover(workspace, d.uri, d.offsetAt(position));
  return h ? { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: range(d, h.span) } : null;
});

onRequest('textDocument/definition', async (p, token) => {
  const position = positionParam(p.position);
  const d = await openDocument(p, token);
  if (!d) return [];
  if (!isScript(d)) return toLocations('definition', boundFunctionDefinition(workspace, d.uri, d.getText(), d.offsetAt(position)));
  workspace.analyse(d.uri, d.version, d.getText());
  return toLocations('definition', definition(workspace, d.uri, d.offsetAt(position)));
});

onRequest('textDocument/references', async (p, token) => {
  const position = positionParam(p.position);
  const includeDeclaration = objectParam(p, 'context').includeDeclaration === true;
  const s = await scriptOf(p, token);
  return s ? toLocations('references', references(workspace, s.d.uri, s.d.offsetAt(position), includeDeclaration)) : [];
});

onRequest('textDocument/codeLens', async (p, token) => {
  const s = await scriptOf(p, token);
  if (!s) return [];
  const { lenses, total } = bindingLenses(workspace, s.script);
  const out = lenses.map((l): CodeLens => {
    const c = lensCommand(l, s.script.path);
    return { range: range(s.d, l.span), command: { title: c.title, command: 'arch06.showBindings', arguments: [c.argument] } };
  });
  // Cut: a lens on the first line says how many bound definitions there are.
  if (total > lenses.length)
    out.unshift({
      range: range(s.d, { start: 0, end: 0 }),
      command: { title: `${count(lenses.length)} of ${count(total)} bound definitions have a lens`, command: '' },
    });
  return out;
});

onRequest('textDocument/completion', async (p, token) => {
  const position = positionParam(p.position);
  const s = await scriptOf(p, token);
  if (!s) return [];
  // Cut to the highest ranked; the list is then incomplete (the client asks again as the user types) and says how long it was.
  const { items: kept, total } = cappedCompletion(workspace, s.d.uri, s.d.offsetAt(position), MAX_COMPLETIONS);
  const items = kept.map((e): CompletionItem => ({
    label: e.label,
    kind: COMPLETION_KIND[e.kind],
    ...(e.detail ? { detail: e.detail } : {}),
    ...(e.documentation ? { documentation: { kind: MarkupKind.Markdown, value: e.documentation } } : {}),
    sortText: rankSortText(e.rank),
  }));
  if (kept.length === total) return items;
  const note = `(${count(kept.length)} of ${count(total)} shown: type to narrow)`;
  items.push({ label: note, kind: CompletionItemKind.Text, sortText: '~', filterText: '', insertText: '' });
  return { isIncomplete: true, items };
});

onRequest('textDocument/inlayHint', async (p, token) => {
  const r = rangeParam(p.range);
  if (!settings.inlayHints) return [];
  const s = await scriptOf(p, token);
  if (!s) return [];
  const version = s.d.version;
  await workspace.namesGathered(NAMES_WAIT_MS);
  unchanged(s.d, version, token);
  const hints: InlayHint[] = [];
  for (const l of hashLiterals(s.script.text, { start: s.d.offsetAt(r.start), end: s.d.offsetAt(r.end) })) {
    const name = literalNames(workspace, l)?.name;
    if (name && hints.length < MAX_INLAY_HINTS)
      hints.push({
        position: s.d.positionAt(l.span.end),
        label: ` ${name}`,
        paddingLeft: true,
        tooltip: `${l.kind === 'hi' ? 'hi hash' : 'StringHash'}("${name}")`,
      });
  }
  return hints;
});

onRequest('textDocument/foldingRange', async (p, token) => {
  const s = await scriptOf(p, token);
  if (!s) return [];
  const spans = foldingSpans(s.script.chunk, s.script.text);
  if (spans.total > spans.items.length) connection.console.info(`folding ${s.d.uri}: the first ${count(spans.items.length)} of ${count(spans.total)} ranges`);
  return spans.items.map((x): FoldingRange => ({ startLine: s.d.positionAt(x.start).line, endLine: s.d.positionAt(x.end).line }));
});

onRequest('textDocument/selectionRange', async (p, token) => {
  const positions = Array.isArray(p.positions) ? p.positions.slice(0, MAX_SELECTION_POSITIONS).map((x, i) => positionParam(x, `positions[${i}]`)) : [];
  const s = await scriptOf(p, token);
  if (!s) return [];
  return positions.map((pos) => {
    // Outermost first, each the parent of the next.
    let parent: SelectionRange | undefined;
    for (const span of selectionSpans(s.script, s.d.offsetAt(pos)).reverse()) parent = { range: range(s.d, span), ...(parent ? { parent } : {}) };
    return parent ?? { range: { start: pos, end: pos } };
  });
});

onRequest('textDocument/semanticTokens/full', async (p, token) => {
  const s = await scriptOf(p, token);
  const builder = new SemanticTokensBuilder();
  if (!s) return builder.build();
  const spans = semanticSpans(workspace, s.script);
  if (spans.total > spans.items.length) connection.console.info(`semantic tokens ${s.d.uri}: the first ${count(spans.items.length)} of ${count(spans.total)}`);
  for (const t of spans.items) {
    const at = s.d.positionAt(t.start);
    const end = s.d.positionAt(t.end);
    if (end.line !== at.line) continue; // names never span lines
    builder.push(at.line, at.character, end.character - at.character, ...tokenCodes(t));
  }
  return builder.build();
});

connection.listen();
