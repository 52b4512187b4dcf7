/**
 * The language server for Havok Script and the registries' script bindings: the only file that
 * speaks LSP. It mounts the install itself (`initializationOptions.installRoot`, through the
 * engine), indexes every script and registry it serves, and answers from server/analysis/, which
 * knows nothing of LSP: offsets there, positions here (`TextDocument` converts; both count UTF-16).
 *
 * Started by the extension over IPC; also runnable by any client: `node dist/server.js --stdio`
 * with `initializationOptions: { installRoot, cfg?, extraArchives?, cacheFolder?, dictionaryFiles?, inlayHints? }`.
 * The extension sends `arch06/settings` (the same shape) when the mount or the settings change.
 */
import * as fs from 'node:fs';
import {
  CodeLens,
  CompletionItem,
  CompletionItemKind,
  Diagnostic,
  DiagnosticSeverity,
  DocumentSymbol,
  FoldingRange,
  InlayHint,
  Location,
  MarkupKind,
  ProposedFeatures,
  Range,
  SelectionRange,
  SemanticTokensBuilder,
  SymbolInformation,
  SymbolKind,
  TextDocumentSyncKind,
  TextDocuments,
  createConnection,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseDictionaryFile } from '../core/hash';
import type { ScriptSymbol, Span } from '../core/havokScript';
import { type AnalysedScript, scriptDiagnostics } from '../core/scriptIndex';
import { bindingLenses, siteLine } from './analysis/bindings';
import { type CompletionKind, completion } from './analysis/completion';
import { foldingSpans } from './analysis/folding';
import { hashLiteralAt, hashLiterals, hashNames } from './analysis/hashes';
import { hover } from './analysis/hover';
import { selectionSpans } from './analysis/selection';
import { TOKEN_MODIFIERS, TOKEN_TYPES, semanticSpans } from './analysis/semantics';
import { boundFunctionDefinition, definition, definitionOffset, references } from './analysis/navigation';
import { type MountSettings, type ScriptLocation, ScriptWorkspace } from './analysis/workspace';

interface ServerSettings extends Partial<MountSettings> {
  /** A folder for the index cache (the extension's storage); no cache without it. */
  cacheFolder?: string;
  /** Text files of names, one a line, added to the hash dictionary. */
  dictionaryFiles?: string[];
  /** Inlay hints after raw hex hashes (off by default: they are noise where names are known). */
  inlayHints?: boolean;
}

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
let settings: ServerSettings = {};
let workspace = ScriptWorkspace.create(undefined);
/** How long a hash hover or inlay hint waits for the names still being gathered before it answers with what is in. */
const NAMES_WAIT_MS = 3000;

/** Resolves once the first mount and index are built: requests wait for it rather than answer from nothing. */
let markReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => (markReady = resolve));

/** (Re)mount and index the install the settings name, with progress in the client. */
async function openWorkspace(next: ServerSettings): Promise<void> {
  settings = next;
  const progress = await connection.window.createWorkDoneProgress();
  progress.begin('arch06: indexing scripts and registries', 0, '', false);
  const started = Date.now();
  let ws: ScriptWorkspace;
  try {
    ws = ScriptWorkspace.create(next.installRoot ? (next as MountSettings) : undefined, {
      onProgress: (done, total) => progress.report(Math.floor((done / Math.max(1, total)) * 100), `${done} / ${total}`),
      cacheFolder: next.cacheFolder,
      log: (line) => connection.console.warn(line),
    });
  } catch (e) {
    connection.window.showErrorMessage(`arch06 language server: could not mount ${next.installRoot}: ${e instanceof Error ? e.message : String(e)}`);
    ws = ScriptWorkspace.create(undefined);
  }
  progress.done();
  ws.setUserNames(readDictionaryFiles(next.dictionaryFiles ?? []));
  workspace.dispose();
  workspace = ws;
  const i = ws.index;
  if (i)
    connection.console.info(
      `${ws.indexedFrom === 'cache' ? 'read the index from the cache' : 'indexed'}: ${i.scripts().length} scripts and ${i.registries} registries of ${next.installRoot} in ${Date.now() - started} ms` +
        (i.failures.length ? `; ${i.failures.length} could not be read (first: ${i.failures[0].path}: ${i.failures[0].reason})` : ''),
    );
  markReady();
  for (const d of documents.all()) refresh(d);
  // The cross-script facts (globals across scripts, the API's usage) in the background, so the first
  // completion or reference does not wait for the pass.
  setTimeout(() => {
    const x = ws.cross();
    connection.console.info(
      `cross-script index (globals, API usage) ${ws.crossFrom === 'cache' ? 'read from the cache' : 'built'} in ${x.buildMs.toFixed(0)} ms`,
    );
  }, 0);
  connection.languages.inlayHint.refresh().catch(() => undefined);
  connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
}

function readDictionaryFiles(files: string[]): string[] {
  const names: string[] = [];
  for (const f of files) {
    try {
      // Dictionary files are word lists: a file larger than 64 MiB is not one.
      if (fs.statSync(f).size > 64 * 1024 * 1024) throw new Error('larger than 64 MiB');
      names.push(...parseDictionaryFile(fs.readFileSync(f, 'utf8')));
    } catch (e) {
      connection.window.showWarningMessage(`arch06: dictionary file ${f} not read: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return names;
}

/** Analyse a document and publish its diagnostics. */
function refresh(d: TextDocument): AnalysedScript {
  const script = workspace.didOpen(d.uri, d.version, d.getText());
  connection.sendDiagnostics({ uri: d.uri, diagnostics: scriptDiagnostics(workspace.index, script).map((x) => toDiagnostic(d, x)) });
  return script;
}

// Conversions: offsets ⇄ positions, analysis kinds ⇄ LSP kinds.

const range = (d: TextDocument, s: Span): Range => ({ start: d.positionAt(s.start), end: d.positionAt(s.end) });

function toDiagnostic(d: TextDocument, x: { start: number; end: number; message: string; severity: 'error' | 'warning' }): Diagnostic {
  return { range: range(d, x), message: x.message, severity: x.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning, source: 'arch06' };
}

/** A location in any script: the open document's text when open, else the served copy's text. */
function toLocation(l: ScriptLocation): Location {
  const uri = l.uri ?? workspace.uriOf(l.script);
  const open = documents.get(uri);
  const doc = open ?? TextDocument.create(uri, 'havokscript', 0, l.script.text);
  return { uri, range: range(doc, l.span) };
}

const SYMBOL_KIND: Record<ScriptSymbol['kind'], SymbolKind> = {
  function: SymbolKind.Function,
  hmake: SymbolKind.Object,
  method: SymbolKind.Method,
  structure: SymbolKind.Struct,
  field: SymbolKind.Field,
  table: SymbolKind.Namespace,
};

function toDocumentSymbol(d: TextDocument, s: ScriptSymbol): DocumentSymbol {
  return {
    name: s.name,
    kind: SYMBOL_KIND[s.kind],
    range: range(d, s),
    selectionRange: range(d, s.selection),
    ...(s.detail ? { detail: s.detail } : {}),
    children: s.children.map((c) => toDocumentSymbol(d, c)),
  };
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

/**
 * Scripts get every feature; the other documents the client sends (the decoded-text views of
 * registries, string tables, bundles) only get hashes decoded on hover.
 */
const isScript = (d: TextDocument): boolean => d.languageId === 'havokscript';

/** The document's analysis, (re)made when its version changed (after the first index is built). */
async function scriptOf(uri: string): Promise<{ d: TextDocument; script: AnalysedScript } | undefined> {
  await ready;
  const d = documents.get(uri);
  if (!d || !isScript(d)) return undefined;
  return { d, script: workspace.document(uri) ?? refresh(d) };
}

connection.onInitialize((params) => {
  settings = (params.initializationOptions ?? {}) as ServerSettings;
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

connection.onInitialized(() => void openWorkspace(settings));
connection.onNotification('arch06/settings', (next: ServerSettings) => {
  const mountOf = (x: ServerSettings): string => JSON.stringify([x.installRoot ?? '', x.cfg ?? '', x.extraArchives ?? [], x.mods ?? []]);
  if (mountOf(next) !== mountOf(settings)) return void openWorkspace(next);
  // The same install: only the hash settings changed; no remount, no new index.
  settings = next;
  workspace.setUserNames(readDictionaryFiles(next.dictionaryFiles ?? []));
  connection.languages.inlayHint.refresh().catch(() => undefined);
});

documents.onDidChangeContent((e) => void ready.then(() => (isScript(e.document) ? refresh(e.document) : undefined)));
documents.onDidClose((e) => {
  workspace.didClose(e.document.uri);
  connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});

connection.onDocumentSymbol(async (p) => {
  const s = await scriptOf(p.textDocument.uri);
  return s ? s.script.symbols.map((x) => toDocumentSymbol(s.d, x)) : [];
});

connection.onWorkspaceSymbol(async (p) => {
  await ready;
  const q = p.query.toLowerCase();
  const out: SymbolInformation[] = [];
  for (const script of workspace.scripts()) {
    for (const d of script.definitions.values()) {
      if (q && !d.name.toLowerCase().includes(q)) continue;
      const at = definitionOffset(script.text, d.line, d.name);
      if (at < 0) continue;
      out.push({
        name: d.name,
        kind: d.kind === 'hmake' ? SymbolKind.Object : SymbolKind.Function,
        location: toLocation({ script, span: { start: at, end: at + d.name.length } }),
        containerName: script.path,
      });
      if (out.length >= 2000) return out;
    }
  }
  return out;
});

connection.onHover(async (p) => {
  const d = documents.get(p.textDocument.uri);
  if (d && !isScript(d)) {
    await ready;
    const literal = hashLiteralAt(d.getText(), d.offsetAt(p.position));
    if (literal) await workspace.namesGathered(NAMES_WAIT_MS);
    return literal ? { contents: { kind: MarkupKind.Markdown, value: hashNames(workspace, literal.hash, literal.text) }, range: range(d, literal.span) } : null;
  }
  const s = await scriptOf(p.textDocument.uri);
  if (!s) return null;
  if (hashLiteralAt(s.script.text, s.d.offsetAt(p.position))) await workspace.namesGathered(NAMES_WAIT_MS);
  const h = hover(workspace, p.textDocument.uri, s.d.offsetAt(p.position));
  return h ? { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: range(s.d, h.span) } : null;
});

connection.onDefinition(async (p) => {
  const d = documents.get(p.textDocument.uri);
  if (d && !isScript(d)) {
    await ready;
    return boundFunctionDefinition(workspace, d.uri, d.getText(), d.offsetAt(p.position)).map(toLocation);
  }
  const s = await scriptOf(p.textDocument.uri);
  return s ? definition(workspace, p.textDocument.uri, s.d.offsetAt(p.position)).map(toLocation) : [];
});

connection.onReferences(async (p) => {
  const s = await scriptOf(p.textDocument.uri);
  return s ? references(workspace, p.textDocument.uri, s.d.offsetAt(p.position), p.context.includeDeclaration).map(toLocation) : [];
});

connection.onCodeLens(async (p) => {
  const s = await scriptOf(p.textDocument.uri);
  if (!s) return [];
  return bindingLenses(workspace, s.script).map((l): CodeLens => ({
    range: range(s.d, l.span),
    command: {
      title: `bound by ${l.sites.length} object${l.sites.length === 1 ? '' : 's'}`,
      command: 'arch06.showBindings',
      arguments: [
        {
          function: l.name,
          script: s.script.path,
          sites: l.sites.map((x) => ({ object: x.object, class: x.class, event: x.event, registry: x.registry, label: siteLine(x) })),
        },
      ],
    },
  }));
});

connection.onCompletion(async (p) => {
  const s = await scriptOf(p.textDocument.uri);
  if (!s) return [];
  return completion(workspace, p.textDocument.uri, s.d.offsetAt(p.position)).map((e): CompletionItem => ({
    label: e.label,
    kind: COMPLETION_KIND[e.kind],
    ...(e.detail ? { detail: e.detail } : {}),
    ...(e.documentation ? { documentation: { kind: MarkupKind.Markdown, value: e.documentation } } : {}),
    // Higher rank first: a zero-padded inverse of the rank sorts ascending.
    sortText: String(1e9 - Math.min(1e9, Math.max(-1, e.rank))).padStart(10, '0'),
  }));
});

connection.languages.inlayHint.on(async (p) => {
  if (!settings.inlayHints) return [];
  const s = await scriptOf(p.textDocument.uri);
  if (!s) return [];
  await workspace.namesGathered(NAMES_WAIT_MS);
  const dict = workspace.dictionary();
  const hints: InlayHint[] = [];
  for (const l of hashLiterals(s.script.text, { start: s.d.offsetAt(p.range.start), end: s.d.offsetAt(p.range.end) })) {
    const name = dict.name(l.hash);
    if (name) hints.push({ position: s.d.positionAt(l.span.end), label: ` ${name}`, paddingLeft: true, tooltip: `StringHash("${name}")` });
  }
  return hints;
});

connection.onFoldingRanges(async (p) => {
  const s = await scriptOf(p.textDocument.uri);
  if (!s) return [];
  return foldingSpans(s.script.chunk, s.script.text).map((x): FoldingRange => ({
    startLine: s.d.positionAt(x.start).line,
    endLine: s.d.positionAt(x.end).line,
  }));
});

connection.onSelectionRanges(async (p) => {
  const s = await scriptOf(p.textDocument.uri);
  if (!s) return [];
  return p.positions.map((pos) => {
    // Outermost first, each the parent of the next.
    let parent: SelectionRange | undefined;
    for (const span of selectionSpans(s.script, s.d.offsetAt(pos)).reverse()) parent = { range: range(s.d, span), ...(parent ? { parent } : {}) };
    return parent ?? { range: { start: pos, end: pos } };
  });
});

connection.languages.semanticTokens.on(async (p) => {
  const s = await scriptOf(p.textDocument.uri);
  const builder = new SemanticTokensBuilder();
  if (!s) return builder.build();
  for (const t of semanticSpans(workspace, s.script)) {
    const at = s.d.positionAt(t.start);
    const end = s.d.positionAt(t.end);
    if (end.line !== at.line) continue; // names never span lines
    builder.push(
      at.line,
      at.character,
      end.character - at.character,
      TOKEN_TYPES.indexOf(t.type),
      t.modifiers.reduce((m, x) => m | (1 << TOKEN_MODIFIERS.indexOf(x)), 0),
    );
  }
  return builder.build();
});

documents.listen(connection);
connection.listen();
