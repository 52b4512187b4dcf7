/**
 * The one skeleton of arch06's read-only custom editors (texture, mesh, and those to come). An
 * editor is a document class over `EditorDocument` and a provider over `WebviewEditor`; the
 * skeleton owns what every editor does the same way:
 *
 * - registration: a `CustomReadonlyEditorProvider` (the install is read-only; no editor saves),
 *   several views per document allowed, the webview kept alive while hidden only when asked for
 *   (`retainContextWhenHidden` costs memory: worth it for a three.js scene, not for a 2D canvas);
 * - the page: a Content-Security-Policy with a fresh nonce per load (`webviewNonce`), no source
 *   but the extension's own, scripts only with the nonce; the shared sheet `media/shared/editor.css`
 *   (body, summary, table rows, failure message) inlined first; style and script either inlined (each
 *   separate resource is a round trip through the host before the first pixel) or loaded from the
 *   extension's folders;
 * - the message loop: each message is checked against the editor's closed union (its protocol's
 *   `checkViewMessage`) before use and dropped when it is not in it; a handler that throws is
 *   reported (output channel and one notification), never left to escape into the host;
 * - the parse-failure page: the `failed` message, the reason plus a hex dump of the first bytes;
 * - the timing log: "first pixels / first frame N ms after the editor started opening it (…)",
 *   the line bench/editorTabs.bench.ts reads.
 *
 * vscode-hexeditor (`hexEditorProvider.ts`: one provider, one switch over checked messages) and
 * vscode-extension-samples (`register()`, ready/init handshake, CSP with nonce) are the models.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FailedMessage } from '../../media/shared/protocol';
import { MountService } from '../mountService';
import { hexDump } from './hexDump';
import { webviewNonce } from './webviewNonce';

/** An error's text for the user: an Arch06Error's message names file, offset and expectation. */
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The bytes of one opened file, and when opening it started. */
export class EditorDocument implements vscode.CustomDocument {
  constructor(
    readonly uri: vscode.Uri,
    /** Replaced only when an editable editor reverts to the file as saved (editableEditor.ts). */
    public bytes: Uint8Array,
    /** performance.now() when the editor started opening this file (for the timing log). */
    readonly openedAt: number,
  ) {}
  /** When the webview said it was ready, ms after `openedAt`. */
  readyMs = 0;
  /** The file's name (the URI's last segment). */
  get name(): string {
    return this.uri.path.split('/').pop() ?? this.uri.path;
  }
  dispose(): void {}
}

/**
 * A document whose model (a table, a registry view) is built once, on the first request of any of
 * its views, and kept; a build that throws is kept as its message (the failure page).
 */
export class ModelDocument<M> extends EditorDocument {
  private loading: Promise<M | { error: string }> | undefined;
  /** When the model was built, ms after `openedAt` (for the timing log). */
  builtMs = 0;
  /** Whether the timing line was written (a webview reloaded when its tab is shown again draws again). */
  timed = false;

  /** Forget the model (an editable editor's revert): the next `load` builds it again from `bytes`. */
  reset(): void {
    this.loading = undefined;
  }

  load(build: () => M | Promise<M>): Promise<M | { error: string }> {
    this.loading ??= (async () => {
      try {
        return await build();
      } catch (e) {
        return { error: errorText(e) };
      } finally {
        this.builtMs = performance.now() - this.openedAt;
      }
    })();
    return this.loading;
  }
}

/** What makes one editor: its view type, its name in logs, and its protocol's message check. */
export interface WebviewEditorOptions<In> {
  viewType: string;
  /** The editor's name in log lines and error titles ('texture', 'mesh'). */
  kind: string;
  /** Keep the webview (and its state) while the tab is hidden. */
  retainContextWhenHidden: boolean;
  /** Folders (relative to the extension) the webview may load from. */
  resourceRoots: string[];
  /** The protocol's check: the message as the handler may use it, or undefined to drop it. */
  check(raw: unknown): In | undefined;
}

/** A page's parts: a style sheet and a script, each inlined or loaded, and markup before the script. */
export interface PageSpec {
  title: string;
  style: { inline: string } | { href: vscode.Uri };
  script: { inline: string } | { src: vscode.Uri };
  /** Markup before the script (a script may build its own DOM instead). */
  body?: string;
  /** The page starts Web Workers from blob: URLs (their source inlined into the page). */
  blobWorkers?: boolean;
}

/**
 * The provider skeleton. `In` is the editor's webview → host union, `Out` its host → webview
 * union; `D` its document.
 */
export abstract class WebviewEditor<
  D extends EditorDocument,
  In extends { type: string },
  Out extends { type: string },
> implements vscode.CustomReadonlyEditorProvider<D> {
  /** Files read once for inlining, by path. */
  private readonly texts = new Map<string, string>();

  protected constructor(
    protected readonly context: vscode.ExtensionContext,
    protected readonly service: MountService,
    private readonly options: WebviewEditorOptions<In>,
  ) {}

  /** The provider, registered read-only under its view type. */
  protected registration(): vscode.Disposable {
    return vscode.window.registerCustomEditorProvider(this.options.viewType, this, {
      supportsMultipleEditorsPerDocument: true,
      webviewOptions: { retainContextWhenHidden: this.options.retainContextWhenHidden },
    });
  }

  abstract openCustomDocument(uri: vscode.Uri): Promise<D>;

  /** The page for one view. */
  protected abstract page(webview: vscode.Webview): PageSpec;

  /** Handles one checked message. May throw: the loop reports it. */
  protected abstract onMessage(doc: D, panel: vscode.WebviewPanel, msg: In): Promise<void>;

  /** Called once per view, after its page is set and before its first message (track views, start work). */
  protected viewOpened(_doc: D, _panel: vscode.WebviewPanel): void {}

  async resolveCustomEditor(doc: D, panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.options = { enableScripts: true, localResourceRoots: this.options.resourceRoots.map((r) => this.extensionUri(r)) };
    panel.webview.html = pageHtml(panel.webview, this.page(panel.webview), this.extensionText('media/shared/editor.css'));
    this.viewOpened(doc, panel);
    // A webview message is input like any other: checked before use, and a handler that throws reports, never escapes.
    panel.webview.onDidReceiveMessage(async (raw: unknown) => {
      const msg = this.options.check(raw);
      if (!msg) return;
      try {
        if (msg.type === 'ready') doc.readyMs = performance.now() - doc.openedAt;
        await this.onMessage(doc, panel, msg);
      } catch (e) {
        this.service.reportError(`${this.options.kind} ${doc.name}`, e);
      }
    });
  }

  /** Sends one message of the editor's union to a view. */
  protected post(panel: vscode.WebviewPanel, msg: Out): void {
    void panel.webview.postMessage(msg);
  }

  /** The `failed` message: why the file did not parse, and its first bytes. */
  protected failed(doc: D, message: string): FailedMessage {
    return { type: 'failed', message, hex: hexDump(doc.bytes), size: doc.bytes.length };
  }

  /** One line in the output channel, `<kind> <file>: …`. */
  protected log(doc: D, line: string): void {
    this.service.log(`${this.options.kind} ${doc.name}: ${line}`);
  }

  /** The timing line: `milestone` (first pixels, first frame) this long after opening started, then `details`. */
  protected logTiming(doc: D, milestone: string, details: string): void {
    this.log(doc, `${milestone} ${Math.round(performance.now() - doc.openedAt)} ms after the editor started opening it (${details})`);
  }

  /** A file of the extension (relative path), as a URI. */
  protected extensionUri(relative: string): vscode.Uri {
    return vscode.Uri.joinPath(this.context.extensionUri, ...relative.split('/'));
  }

  /** A file of the extension (relative path) as text, read once and kept for inlining. */
  protected extensionText(relative: string): string {
    let text = this.texts.get(relative);
    if (text === undefined) {
      text = fs.readFileSync(path.join(this.context.extensionPath, ...relative.split('/')), 'utf8');
      this.texts.set(relative, text);
    }
    return text;
  }
}

/** Script text safe inside a <script> element: "</script" cannot end the block early. */
export function inlineScript(text: string): string {
  return text.replace(/<\/script/gi, '<\\/script');
}

/** The page: CSP with a fresh nonce, the shared and the editor's style, the body markup, the script. */
function pageHtml(webview: vscode.Webview, spec: PageSpec, sharedStyle: string): string {
  const nonce = webviewNonce();
  const styleSrc = 'inline' in spec.style ? `'nonce-${nonce}'` : `'nonce-${nonce}' ${webview.cspSource}`;
  const style =
    `<style nonce="${nonce}">${sharedStyle}</style>` +
    ('inline' in spec.style
      ? `<style nonce="${nonce}">${spec.style.inline}</style>`
      : `<link href="${webview.asWebviewUri(spec.style.href)}" rel="stylesheet">`);
  const script =
    'inline' in spec.script
      ? `<script nonce="${nonce}">${inlineScript(spec.script.inline)}</script>`
      : `<script nonce="${nonce}" src="${webview.asWebviewUri(spec.script.src)}"></script>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${webview.cspSource} data: blob:; style-src ${styleSrc}; script-src 'nonce-${nonce}';${spec.blobWorkers ? ' worker-src blob:;' : ''}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${style}<title>${spec.title}</title></head>
<body>
${spec.body ?? ''}${script}
</body></html>`;
}
