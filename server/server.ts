/**
 * The language server (Havok Script and `.objres` bindings). It lands with the language issue;
 * for now it only answers `initialize`, so the build and the client wiring can be exercised.
 */
import { createConnection, ProposedFeatures, TextDocumentSyncKind } from 'vscode-languageserver/node';

const connection = createConnection(ProposedFeatures.all);
connection.onInitialize(() => ({ capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental } }));
connection.listen();
