/**
 * The hex view (read-only custom editor, built on webviewEditor.ts): offset, hex and ASCII columns
 * for any file, with the format's magic, what arch06 knows it to be and the arch06 editor that
 * would handle it at the top, and a button to reopen it in VS Code's Hex Editor when that is
 * installed. Two view types share this provider: `arch06.hex`, the default editor of the binary
 * types no arch06 editor reads (`.bin`, `.fxp`, …: VS Code would show its "binary file" notice), and
 * `arch06.hexAny`, offered by "Open With…" / "Reopen Editor With…" for every file.
 *
 * The file is never read whole where the file system allows ranges. What a document reads from:
 * - an `arch06:` file of the merged view or of one source: its mount entry, ranged (an archive
 *   entry decodes only the Oodle chunks a window touches);
 * - an `arch06:` bundle member: the range of the container entry that holds it, or its loose entry;
 * - a `file:` path: the file on disk, one positional read per window (regular files only; opened
 *   non-blocking, so a FIFO cannot hang the host);
 * - anything else: read once through `vscode.workspace.fs` (the API has no ranged read), refused
 *   above `WHOLE_READ_LIMIT`.
 * The webview asks for the windows it draws (media/hex/protocol.ts); the header's facts come from
 * hexModel.ts (no vscode, unit-tested) over the first bytes.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { locateBundleMember, type SourceEntry } from '../../core/archive';
import { MAX_READ, type HostToView, type ViewToHost, checkViewMessage } from '../../media/hex/protocol';
import { SCHEME, locate, parseUri } from '../fs/uris';
import type { Arch06FileSystem } from '../fs/provider';
import { MountService } from '../mountService';
import { HEX_ANY_VIEW_TYPE, HEX_EDITOR_EXTENSION, HEX_EDITOR_VIEW_TYPE, HEX_VIEW_TYPE, identify } from './hexModel';
import { ModelDocument, PageSpec, WebviewEditor, errorText } from './webviewEditor';

/** Bytes the document keeps for the header and the failure page. */
const PREFIX_BYTES = 4096;
/** The largest file read whole (a file system without ranged reads). */
const WHOLE_READ_LIMIT = 256 << 20;

/** Where a document's bytes come from: positional reads of [start, end). */
interface ByteReader {
  size: number;
  /** The header's "from" line. */
  from: string;
  /** The header's "reading" line. */
  reading: string;
  read(start: number, end: number): Promise<Uint8Array>;
}

interface HexModel {
  viewType: string | null;
}

class HexDocument extends ModelDocument<HexModel> {
  constructor(
    uri: vscode.Uri,
    prefix: Uint8Array,
    openedAt: number,
    readonly reader: ByteReader | undefined,
    /** Why the file could not be opened, when `reader` is undefined. */
    readonly problem: string | undefined,
  ) {
    super(uri, prefix, openedAt);
  }
}

const WINDOWED = 'windows of 64 KiB read as you scroll; the file is never read whole';

function entryReader(entry: SourceEntry, from: string, base = 0, size = entry.size): ByteReader {
  const how = entry.storage === 'chunked' ? ', Oodle chunks decoded per window' : '';
  return { size, from: from + how, reading: WINDOWED, read: (start, end) => entry.read(base + start, base + end) };
}

/** Positional reads of a regular file on disk, each opening it read-only and non-blocking. */
async function diskReader(fsPath: string): Promise<ByteReader | undefined> {
  const st = await fs.promises.stat(fsPath);
  if (!st.isFile()) return undefined;
  const read = async (start: number, end: number): Promise<Uint8Array> => {
    const fh = await fs.promises.open(fsPath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      if (!(await fh.stat()).isFile()) throw new Error(`${fsPath}: no longer a regular file`);
      const out = new Uint8Array(Math.max(0, end - start));
      let done = 0;
      while (done < out.length) {
        const { bytesRead } = await fh.read(out, done, out.length - done, start + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return out.subarray(0, done);
    } finally {
      await fh.close();
    }
  };
  return { size: st.size, from: 'the file on disk', reading: WINDOWED, read };
}

export class HexEditorProvider extends WebviewEditor<HexDocument, ViewToHost, HostToView> {
  static register(context: vscode.ExtensionContext, service: MountService, fileSystem: Arch06FileSystem): vscode.Disposable {
    return vscode.Disposable.from(
      new HexEditorProvider(context, service, fileSystem, HEX_VIEW_TYPE).registration(),
      new HexEditorProvider(context, service, fileSystem, HEX_ANY_VIEW_TYPE).registration(),
    );
  }

  private constructor(
    context: vscode.ExtensionContext,
    service: MountService,
    private readonly fileSystem: Arch06FileSystem,
    viewType: string,
  ) {
    super(context, service, { viewType, kind: 'hex', retainContextWhenHidden: false, resourceRoots: ['media/hex'], check: checkViewMessage });
  }

  async openCustomDocument(uri: vscode.Uri): Promise<HexDocument> {
    // A tab restored with the window opens before activation's mount has settled.
    if (uri.scheme === SCHEME) await this.service.settled();
    const openedAt = performance.now();
    try {
      const reader = await this.reader(uri);
      const prefix = await reader.read(0, Math.min(reader.size, PREFIX_BYTES));
      return new HexDocument(uri, prefix, openedAt, reader, undefined);
    } catch (e) {
      // Bad input is a message on the page, never an editor that fails to open.
      return new HexDocument(uri, new Uint8Array(0), openedAt, undefined, errorText(e));
    }
  }

  /** The reader for a URI: ranged wherever the file system allows it. */
  private async reader(uri: vscode.Uri): Promise<ByteReader> {
    if (uri.scheme === SCHEME) {
      const mount = this.service.mount;
      if (!mount) throw new Error(`${uri.path}: no Shadow of War install is mounted`);
      const f = locate(mount, uri, this.fileSystem.bundles);
      if (f?.view === 'bundle') {
        const { folder, declared } = f;
        const { entry, start, end } = locateBundleMember(mount, folder.bundle, declared);
        const where = declared.servedFrom === 'loose' ? `a loose entry in ${entry.source.name}` : `the container ${entry.path} in ${entry.source.name}`;
        return entryReader(entry, `member of ${folder.bundle.stem}.bndl, served from ${where}`, start, end - start);
      }
      if (f) return entryReader(f.entry, f.entry.source.name);
      throw new Error(`${uri.path}: no such file in the mounted install`);
    }
    if (uri.scheme === 'file') {
      const disk = await diskReader(uri.fsPath);
      if (disk) return disk;
      throw new Error(`${uri.fsPath}: not a regular file`);
    }
    const st = await vscode.workspace.fs.stat(uri);
    if (st.size > WHOLE_READ_LIMIT)
      throw new Error(
        `${uri.toString()}: ${st.size.toLocaleString('en-US')} bytes; this file system has no ranged reads and the hex view reads at most ${WHOLE_READ_LIMIT >> 20} MiB whole`,
      );
    const bytes = await vscode.workspace.fs.readFile(uri);
    return {
      size: bytes.length,
      from: `${uri.scheme}: file system`,
      reading: `read whole once (${uri.scheme}: has no ranged reads; at most ${WHOLE_READ_LIMIT >> 20} MiB)`,
      read: async (start, end) => bytes.subarray(start, end),
    };
  }

  private title(doc: HexDocument): string {
    if (doc.uri.scheme === SCHEME) {
      try {
        const u = parseUri(doc.uri);
        if (u.view === 'bundle') return `${u.bundle} [bundle]\\${u.member}`;
        if (u.view === 'merged' || u.view === 'source') return u.path;
      } catch {
        // The name below.
      }
    }
    return doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.name;
  }

  protected async onMessage(doc: HexDocument, panel: vscode.WebviewPanel, msg: ViewToHost): Promise<void> {
    switch (msg.type) {
      case 'ready': {
        const reader = doc.reader;
        if (!reader) {
          this.log(doc, doc.problem ?? 'could not be opened');
          this.post(panel, this.failed(doc, doc.problem ?? 'could not be opened'));
          return;
        }
        const id = identify(doc.bytes, doc.uri.path);
        await doc.load(() => ({ viewType: id.editor?.viewType ?? null }));
        this.post(panel, {
          type: 'init',
          view: {
            title: this.title(doc),
            size: reader.size,
            from: reader.from,
            reading: reader.reading,
            magic: id.magic,
            editor: id.editor && { name: id.editor.name, reason: id.editor.reason },
            mismatch: id.mismatch,
            hexEditor: vscode.extensions.getExtension(HEX_EDITOR_EXTENSION) !== undefined,
          },
        });
        return;
      }
      case 'read': {
        const reader = doc.reader;
        if (!reader) return;
        const start = Math.min(msg.offset, reader.size);
        const end = Math.min(reader.size, start + Math.min(msg.length, MAX_READ));
        try {
          const bytes = await reader.read(start, end);
          // A view of a larger buffer (a decoded chunk, a file read whole) is copied: only the window crosses.
          const data = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
          this.post(panel, { type: 'bytes', offset: start, data: data as ArrayBuffer });
        } catch (e) {
          this.log(doc, `bytes ${start}-${end}: ${errorText(e)}`);
          this.post(panel, { type: 'readFailed', offset: start, length: end - start, message: errorText(e) });
        }
        return;
      }
      case 'firstRows':
        if (doc.timed) return;
        doc.timed = true;
        this.logTiming(doc, 'first rows', `${msg.rows} rows, webview ready at ${Math.round(doc.readyMs)} ms`);
        return;
      case 'openWith': {
        const model = await doc.load(() => ({ viewType: null }));
        const viewType = msg.target === 'hexEditor' ? HEX_EDITOR_VIEW_TYPE : 'error' in model ? null : model.viewType;
        if (viewType) await vscode.commands.executeCommand('vscode.openWith', doc.uri, viewType, { viewColumn: panel.viewColumn, preview: false });
        return;
      }
    }
  }

  /** Script and style inlined (one round trip less before the first rows); the markup the script fills. */
  protected page(): PageSpec {
    return {
      title: 'Hex',
      style: { inline: this.extensionText('media/hex/hexView.css') },
      script: { inline: this.extensionText('dist/webview/hexView.js') },
      body: `<header id="summary" aria-live="polite"><p class="muted">Reading the file…</p></header>
<div id="toolbar" role="toolbar" aria-label="Hex view controls">
  <label for="goto">Go to offset</label>
  <input id="goto" type="text" placeholder="0x1F40, 1F40h or 8000 (Ctrl+G)" aria-label="Go to offset: hex with 0x or h, else decimal; Enter goes" spellcheck="false" autocomplete="off">
  <span id="gotoError" class="bad" aria-live="polite"></span>
  <span class="spacer"></span>
  <span id="position" aria-live="polite"></span>
</div>
<div id="grid" role="grid" tabindex="0" aria-label="Bytes: offset, hex and ASCII; Page Up/Down, Home, End, arrows move, Ctrl+G goes to an offset" aria-readonly="true">
  <div id="head" role="row"></div>
  <div id="viewport"><div id="spacer"><div id="rows" role="rowgroup"></div></div></div>
</div>
`,
    };
  }
}
