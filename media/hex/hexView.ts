/**
 * The hex view's webview: the header (size, magic, what arch06 knows the format to be, the editor
 * that would handle it, VS Code's Hex Editor when installed) and a virtualised table of 16-byte
 * rows (offset, hex, ASCII). Only the rows on screen are in the DOM, and only the windows of bytes
 * they need are asked of the host (64 KiB each, at most MAX_BLOCKS kept), so a 1 GB entry scrolls
 * without ever being read whole. Files taller than a browser can lay out scroll on a scaled bar
 * (./hexLayout.ts); wheel and keys still move by rows.
 *
 * Keys: ↑ ↓ ← → move the selected byte; Page Up / Page Down a screenful; Home / End (with or
 * without Ctrl) the file's first and last byte; Ctrl+G (⌘G) goes to an offset (Enter goes, Escape
 * goes back to the table).
 *
 * Protocol: ./protocol.ts. The body's dataset mirrors the state for tests (see there).
 */
import { esc, failurePage, fmt, inNextFrame } from '../shared/html';
import { hostChannel } from '../shared/webviewApi';
import {
  BYTES_PER_ROW,
  type ScrollMap,
  asciiOf,
  blockRange,
  blocksForRows,
  blocksToDrop,
  clampRow,
  formatOffset,
  hexOf,
  offsetDigits,
  parseOffset,
  revealRow,
  rowCount,
  scrollMap,
  scrollTopFor,
  topRowAt,
} from './hexLayout';
import { type HexViewInfo, type HostToView, MAX_READ, type ViewToHost } from './protocol';

/** Row height in pixels (hexView.css sets the same). */
const ROW_HEIGHT = 20;
/** Rows drawn beyond the bottom edge (the top row is always the first drawn). */
const OVERSCAN = 4;
/** Bytes per window asked of the host. */
const BLOCK = MAX_READ;
/** Windows kept; beyond this the ones farthest from the view are dropped. */
const MAX_BLOCKS = 16;

const host = hostChannel<ViewToHost>();
const $ = (id: string): HTMLElement => document.getElementById(id)!;
const grid = $('grid');
const viewport = $('viewport');
const spacer = $('spacer');
const rowsEl = $('rows');
const gotoInput = $('goto') as HTMLInputElement;
const dataset = document.body.dataset;
dataset.state = 'waiting';

let view: HexViewInfo | undefined;
let size = 0;
let digits = 8;
let map: ScrollMap = scrollMap(0, ROW_HEIGHT, 400);
/** The first row on screen: the view's position (scrollTop follows it on a scaled bar). */
let top = 0;
/** The scrollTop the view set last, so the scroll event it causes keeps `top`. */
let setScrollTop = -1;
/** The selected byte, -1 for none. */
let selected = -1;
/** Windows by index: their bytes, 'pending' while asked for, or the reason they failed. */
const blocks = new Map<number, Uint8Array | 'pending' | { error: string }>();
let firstRowsSent = false;

// ---- the header ----------------------------------------------------------------------------

function summaryHtml(v: HexViewInfo): string {
  let html = '<h2>' + esc(v.title) + '</h2>';
  html +=
    '<p class="facts">' + fmt(v.size) + (v.size === 1 ? ' byte' : ' bytes') + ' · ' + esc(v.from) + ' · <span class="muted">' + esc(v.reading) + '</span></p>';
  const m = v.magic;
  html +=
    '<p class="facts" id="magic">Magic: ' +
    (m.hex ? '<code>' + esc(m.text) + '</code> <span class="muted">(' + esc(m.hex) + ')</span>' : '<span class="muted">none</span>') +
    ' — ' +
    (m.format ? '<b>' + esc(m.format) + '</b>' : '<span class="muted">not a format arch06 knows by its magic</span>') +
    (m.note ? ' <span class="muted">(' + esc(m.note) + ')</span>' : '') +
    '</p>';
  html += '<p class="facts" id="editor">';
  html += v.editor
    ? 'Handled by <b>' +
      esc(v.editor.name) +
      '</b> <span class="muted">(by ' +
      esc(v.editor.reason) +
      ')</span> <button id="openEditor">Open in ' +
      esc(v.editor.name) +
      '</button>'
    : '<span class="muted">No arch06 editor reads this format.</span>';
  if (v.hexEditor)
    html += ' <button id="openHexEditor" title="VS Code\'s Hex Editor (ms-vscode.hexeditor): search, select, inspect">Open in VS Code\'s Hex Editor</button>';
  html += '</p>';
  if (v.mismatch) html += '<p class="facts warn" id="mismatch">' + esc(v.mismatch) + '</p>';
  return html;
}

function renderHead(): void {
  let cols = '';
  for (let i = 0; i < BYTES_PER_ROW; i++) cols += '<span class="b' + (i === 8 ? ' gap' : '') + '">' + hexOf(i) + '</span>';
  $('head').innerHTML =
    '<span class="c-off" role="columnheader">' +
    'Offset'.padEnd(digits, '\u00a0') +
    '</span><span class="c-hex" role="columnheader">' +
    cols +
    '</span><span class="c-ascii" role="columnheader">ASCII</span>';
}

// ---- windows of bytes ----------------------------------------------------------------------

function request(b: number): void {
  if (blocks.has(b)) return;
  const { start, end } = blockRange(b, size, BLOCK);
  if (end <= start) return;
  blocks.set(b, 'pending');
  host.post({ type: 'read', offset: start, length: end - start });
}

/** The byte at `offset`, undefined while its window is on its way, null when it failed. */
function byteAt(offset: number): number | undefined | null {
  const b = blocks.get(Math.floor(offset / BLOCK));
  if (b === undefined || b === 'pending') return undefined;
  if (!(b instanceof Uint8Array)) return null;
  const v = b[offset % BLOCK];
  return v === undefined ? null : v;
}

function pendingCount(): number {
  let n = 0;
  for (const b of blocks.values()) if (b === 'pending') n++;
  return n;
}

// ---- the table -----------------------------------------------------------------------------

function rowHtml(row: number): string {
  const offset = row * BYTES_PER_ROW;
  const n = Math.min(BYTES_PER_ROW, size - offset);
  let hex = '';
  let ascii = '';
  let failed: string | undefined;
  for (let i = 0; i < BYTES_PER_ROW; i++) {
    const at = offset + i;
    const cls = (i === 8 ? ' gap' : '') + (at === selected ? ' sel' : '');
    if (i >= n) {
      hex += '<span class="b' + cls + '"></span>';
      continue;
    }
    const v = byteAt(at);
    if (v === undefined || v === null) {
      if (v === null) {
        const b = blocks.get(Math.floor(at / BLOCK));
        failed = b && typeof b === 'object' && 'error' in b ? b.error : 'not read';
      }
      hex += '<span class="b pending' + cls + '" data-o="' + at + '">' + (v === null ? '!!' : '··') + '</span>';
      ascii += '<span class="a pending' + (at === selected ? ' sel' : '') + '" data-o="' + at + '">' + (v === null ? '!' : '·') + '</span>';
      continue;
    }
    hex += '<span class="b' + cls + (v === 0 ? ' zero' : '') + '" data-o="' + at + '">' + hexOf(v) + '</span>';
    ascii += '<span class="a' + (at === selected ? ' sel' : '') + '" data-o="' + at + '">' + esc(asciiOf(v)) + '</span>';
  }
  return (
    '<div class="row' +
    (failed ? ' failed' : '') +
    '" role="row" data-row="' +
    row +
    '"' +
    (failed ? ' title="' + esc(failed) + '"' : '') +
    '><span class="c-off" role="rowheader">' +
    formatOffset(offset, digits) +
    '</span><span class="c-hex" role="gridcell">' +
    hex +
    '</span><span class="c-ascii" role="gridcell">' +
    ascii +
    '</span></div>'
  );
}

/** Draw the rows from `top` down (and a few beyond), asking the host for windows not held yet. */
function render(): void {
  const height = viewport.clientHeight || ROW_HEIGHT * 20;
  const end = Math.min(map.rows, top + Math.ceil(height / ROW_HEIGHT) + OVERSCAN);
  const needed = blocksForRows(top, end, size, BLOCK);
  for (const b of needed) request(b);
  for (const b of blocksToDrop(blocks.keys(), needed[0] ?? 0, MAX_BLOCKS)) if (!needed.includes(b)) blocks.delete(b);
  let html = '';
  for (let r = top; r < end; r++) html += rowHtml(r);
  // On a scaled bar the rows sit where the viewport is; otherwise where their row is.
  rowsEl.style.transform = 'translateY(' + (map.scaled ? viewport.scrollTop : top * ROW_HEIGHT) + 'px)';
  rowsEl.innerHTML = html;
  host.setState({ size, top, selected });
  dataset.top = String(top);
  dataset.drawn = String(end - top);
  dataset.pending = String(pendingCount());
  dataset.selected = selected >= 0 ? String(selected) : '';
  $('position').textContent = size
    ? (selected >= 0 ? 'byte 0x' + selected.toString(16).toUpperCase() + ' (' + fmt(selected) + ') · ' : '') +
      'rows ' +
      fmt(top + 1) +
      '-' +
      fmt(Math.min(map.rows, top + map.pageRows)) +
      ' of ' +
      fmt(map.rows)
    : '';
  if (!firstRowsSent && end > top && pendingCount() === 0) {
    firstRowsSent = true;
    requestAnimationFrame(() => host.post({ type: 'firstRows', rows: map.rows }));
  }
}

const renderSoon = inNextFrame(() => render());

/** Lay out the spacer for the viewport's height (on load and on resize). */
function layout(): void {
  map = scrollMap(rowCount(size), ROW_HEIGHT, viewport.clientHeight || ROW_HEIGHT * 20);
  spacer.style.height = map.contentPx + 'px';
  dataset.scaled = String(map.scaled);
  scrollTo(top);
}

/** Make `row` the top row and bring the scrollbar in line. */
function scrollTo(row: number): void {
  top = clampRow(map, row);
  const want = scrollTopFor(map, top, viewport.clientHeight);
  if (Math.abs(viewport.scrollTop - want) >= 1) {
    setScrollTop = want;
    viewport.scrollTop = want;
  }
  render();
}

function select(offset: number): void {
  if (!size) return;
  selected = Math.max(0, Math.min(size - 1, offset));
  scrollTo(revealRow(map, top, Math.floor(selected / BYTES_PER_ROW)));
}

// ---- go to offset --------------------------------------------------------------------------

function goTo(): void {
  const r = parseOffset(gotoInput.value, size, selected >= 0 ? selected : top * BYTES_PER_ROW);
  if ('error' in r) {
    $('gotoError').textContent = r.error;
    dataset.gotoError = r.error;
    return;
  }
  $('gotoError').textContent = '';
  dataset.gotoError = '';
  selected = r.offset;
  const row = Math.floor(r.offset / BYTES_PER_ROW);
  // The row goes near the top, unless the file ends first.
  scrollTo(Math.max(0, row - 2));
  grid.focus({ preventScroll: true });
}

// ---- messages and events -------------------------------------------------------------------

function onInit(v: HexViewInfo): void {
  view = v;
  size = v.size;
  digits = offsetDigits(size);
  blocks.clear();
  $('summary').innerHTML = summaryHtml(v);
  document.getElementById('openEditor')?.addEventListener('click', () => host.post({ type: 'openWith', target: 'editor' }));
  document.getElementById('openHexEditor')?.addEventListener('click', () => host.post({ type: 'openWith', target: 'hexEditor' }));
  dataset.size = String(size);
  dataset.rows = String(rowCount(size));
  dataset.magic = v.magic.hex;
  dataset.format = v.magic.format ?? '';
  renderHead();
  // A webview reloaded when its tab is shown again comes back where it was.
  const saved = host.getState() as { size?: unknown; top?: unknown; selected?: unknown } | undefined;
  if (saved && saved.size === size && typeof saved.top === 'number' && typeof saved.selected === 'number') {
    top = saved.top;
    selected = saved.selected < size ? saved.selected : -1;
  }
  layout();
  dataset.state = 'rows';
  grid.focus({ preventScroll: true });
  if (!size) rowsEl.innerHTML = '<div class="message muted">The file is empty.</div>';
}

window.addEventListener('message', (e: MessageEvent<HostToView>) => {
  const m = e.data;
  if (!m || typeof m !== 'object') return;
  switch (m.type) {
    case 'init':
      onInit(m.view);
      return;
    case 'bytes': {
      const d: unknown = m.data;
      const bytes = d instanceof ArrayBuffer ? new Uint8Array(d) : ArrayBuffer.isView(d) ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : undefined;
      if (!view || !bytes) return;
      const b = Math.floor(m.offset / BLOCK);
      if (blocks.get(b) !== 'pending') return; // dropped while on its way
      blocks.set(b, bytes);
      renderSoon();
      return;
    }
    case 'readFailed': {
      const b = Math.floor(m.offset / BLOCK);
      if (blocks.get(b) !== 'pending') return;
      blocks.set(b, { error: m.message });
      renderSoon();
      return;
    }
    case 'failed':
      dataset.state = 'failed';
      document.body.innerHTML = '<div class="message">' + failurePage('a file (hex view)', m) + '</div>';
      return;
  }
});

viewport.addEventListener(
  'scroll',
  () => {
    const st = viewport.scrollTop;
    // The scroll event of a position the view set keeps its row (a scaled bar rounds).
    if (setScrollTop >= 0 && Math.abs(st - setScrollTop) < 1.5) {
      setScrollTop = -1;
      renderSoon();
      return;
    }
    setScrollTop = -1;
    top = topRowAt(map, st, viewport.clientHeight);
    renderSoon();
  },
  { passive: true },
);

// On a scaled bar the wheel moves by rows, not by the bar's pixels (each of which may be many rows).
viewport.addEventListener(
  'wheel',
  (e) => {
    if (!map.scaled) return;
    e.preventDefault();
    const rows = e.deltaMode === 1 ? e.deltaY : e.deltaMode === 2 ? e.deltaY * map.pageRows : e.deltaY / ROW_HEIGHT;
    scrollTo(top + (rows > 0 ? Math.ceil(rows) : Math.floor(rows)));
  },
  { passive: false },
);

function onKey(e: KeyboardEvent): boolean {
  if (!size) return false;
  const page = Math.max(1, map.pageRows - 1);
  const at = selected >= 0 ? selected : top * BYTES_PER_ROW;
  switch (e.key) {
    case 'PageDown':
      selected = Math.min(size - 1, at + page * BYTES_PER_ROW);
      scrollTo(top + page);
      return true;
    case 'PageUp':
      selected = Math.max(0, at - page * BYTES_PER_ROW);
      scrollTo(top - page);
      return true;
    case 'Home':
      select(0);
      scrollTo(0);
      return true;
    case 'End':
      select(size - 1);
      scrollTo(map.maxTopRow);
      return true;
    case 'ArrowDown':
      select(at + BYTES_PER_ROW);
      return true;
    case 'ArrowUp':
      select(at - BYTES_PER_ROW);
      return true;
    case 'ArrowRight':
      select(at + 1);
      return true;
    case 'ArrowLeft':
      select(at - 1);
      return true;
  }
  return false;
}

grid.addEventListener('keydown', (e) => {
  if (onKey(e)) e.preventDefault();
});
gotoInput.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') {
    goTo();
    e.preventDefault();
  } else if (e.key === 'Escape') {
    $('gotoError').textContent = '';
    grid.focus({ preventScroll: true });
    e.preventDefault();
  }
});
// Ctrl+G here, not VS Code's Go to Line: handled and kept from the workbench.
document.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'g') {
    gotoInput.focus();
    gotoInput.select();
    e.preventDefault();
    e.stopPropagation();
  }
});
rowsEl.addEventListener('mousedown', (e) => {
  const cell = (e.target as HTMLElement).closest<HTMLElement>('[data-o]');
  if (!cell) return;
  selected = Number(cell.dataset.o);
  grid.focus({ preventScroll: true });
  render();
  e.preventDefault();
});
window.addEventListener('resize', () => {
  if (view) layout();
});
host.post({ type: 'ready' });
