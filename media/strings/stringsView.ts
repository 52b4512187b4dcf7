/**
 * The string-table editor's webview: a virtualised table (hash, key name, one text column per
 * shown language) over rows the host keeps. The webview holds only the windows it asked for (the
 * host's model has every row), so a 68,547-key table costs a few hundred rows here. The search
 * box filters as you type (each keystroke a `query`; the host answers with the count and the
 * first window); language toggles pick the text columns; Export CSV / JSON save what the search
 * keeps. The page's markup comes from the host (extension/editors/stringTableEditor.ts), which
 * inlines this bundle (dist/webview/stringsView.js) and stringsView.css.
 *
 * Keys: ↑ ↓ PageUp PageDown Home End move the selection in the table (↑ ↓ PageUp PageDown also
 * from the search box); Ctrl+F (⌘F) focuses the search box; Escape in it clears it; typing in the
 * table goes on into the search box. Editing (the host asks for the text or name): Enter or F2
 * (or a double click) edits the selected key's text in the opened language, Insert adds a key,
 * Delete deletes the selected key; Ctrl+Z / Ctrl+Y are VS Code's undo and redo.
 *
 * Protocol: ./protocol.ts. The body's dataset mirrors the state for tests (see there).
 */
import { esc, failurePage, fmt, inNextFrame } from '../shared/html';
import { wireSearchBox } from '../shared/searchBox';
import { hostChannel } from '../shared/webviewApi';
import type { HostToView, StringRowView, StringTableView, ViewToHost } from './protocol';

/** Row height in pixels (stringsView.css sets the same). */
const ROW_HEIGHT = 22;
/** Rows drawn beyond each edge of the visible area. */
const OVERSCAN = 10;
/** Rows per window asked of the host: a window is cached whole. */
const BLOCK = 100;
/** Windows kept; beyond this the ones farthest from the view are dropped. */
const MAX_BLOCKS = 30;

interface ViewState {
  query: string;
  /** The shown languages, in column order. */
  languages?: string[];
}

const host = hostChannel<ViewToHost>();
const $ = (id: string): HTMLElement => document.getElementById(id)!;
const grid = $('grid');
const viewport = $('viewport');
const spacer = $('spacer');
const rowsEl = $('rows');
const search = $('search') as HTMLInputElement;
const saved = (host.getState() ?? {}) as Partial<ViewState>;
const state: ViewState = {
  query: typeof saved.query === 'string' ? saved.query : '',
  languages: Array.isArray(saved.languages) ? saved.languages.filter((l): l is string => typeof l === 'string') : undefined,
};
const dataset = document.body.dataset;
dataset.state = 'waiting';

let view: StringTableView | undefined;
/** The last query sent, and the one whose result is on screen. */
let seq = 0;
let shownSeq = -1;
let shown = 0;
/** The languages of the rows on screen. */
let columns: string[] = [];
/** Windows of the current result, by block number; a requested block not yet answered is 'pending'. */
let blocks = new Map<number, StringRowView[] | 'pending'>();
/** The selected position in the result, -1 for none. */
let selected = -1;
let firstRowsSent = false;

const save = (): void => host.setState({ query: state.query, languages: state.languages });

// ---- summary and toolbar -------------------------------------------------------------------

function summaryHtml(v: StringTableView): string {
  const langs = v.languages.map((l) => '<b title="' + esc(l.file) + '">' + esc(l.language) + '</b> ' + fmt(l.keys)).join(' · ');
  let html = '<h2>' + esc(v.title) + '</h2>';
  html +=
    '<p class="facts">' +
    fmt(v.total) +
    (v.total === 1 ? ' key' : ' keys') +
    ' in ' +
    v.languages.length +
    (v.languages.length === 1 ? ' language' : ' languages') +
    ': ' +
    langs +
    '</p>';
  html += '<p class="facts" id="dictionary">' + dictionaryHtml(v) + '</p>';
  if (v.notes.length)
    html += '<details><summary>Notes (' + v.notes.length + ')</summary><ul>' + v.notes.map((n) => '<li>' + esc(n) + '</li>').join('') + '</ul></details>';
  return html;
}

function dictionaryHtml(v: StringTableView): string {
  return 'Key names: <b>' + fmt(v.named) + '</b> of ' + fmt(v.total) + ' known <span class="muted">(' + esc(v.dictionary) + ')</span>';
}

function languageToggles(v: StringTableView): void {
  const on = new Set(state.languages);
  $('languages').innerHTML = v.languages
    .map(
      (l) =>
        '<label title="' +
        esc(l.file) +
        '"><input type="checkbox" data-language="' +
        esc(l.language) +
        '"' +
        (on.has(l.language) ? ' checked' : '') +
        '> ' +
        esc(l.language) +
        '</label>',
    )
    .join('');
}

/** Checked languages in table order; the last one cannot be unchecked (a table needs a text column). */
function checkedLanguages(): string[] {
  return Array.from($('languages').querySelectorAll<HTMLInputElement>('input[data-language]'))
    .filter((i) => i.checked)
    .map((i) => i.dataset.language!);
}

function renderHead(): void {
  grid.style.setProperty('--text-columns', String(Math.max(1, columns.length)));
  $('head').innerHTML =
    '<div role="columnheader" class="c-hash">Hash</div><div role="columnheader" class="c-key">Key</div>' +
    columns.map((l) => '<div role="columnheader" class="c-text">' + esc(l) + '</div>').join('');
}

// ---- queries and windows -------------------------------------------------------------------

/** The query sent last and the one on screen, as text: the same query again (new key names) keeps the scroll position and selection. */
let sentKey = '';
let shownKey: string | undefined;

function sendQuery(): void {
  seq++;
  sentKey = JSON.stringify([state.query.trim(), state.languages]);
  host.post({ type: 'query', seq, text: state.query, languages: state.languages ?? [] });
}

function onResult(m: Extract<HostToView, { type: 'result' }>): void {
  if (m.seq !== seq) return; // a newer query is on its way
  shownSeq = m.seq;
  shown = m.shown;
  columns = m.languages;
  blocks = new Map();
  storeRows(m.start, m.rows);
  const again = sentKey === shownKey;
  shownKey = sentKey;
  selected = !shown ? -1 : again ? Math.max(0, Math.min(selected, shown - 1)) : 0;
  spacer.style.height = shown * ROW_HEIGHT + 'px';
  if (!again) viewport.scrollTop = 0;
  grid.setAttribute('aria-rowcount', String(shown + 1));
  $('count').textContent = (state.query.trim() ? fmt(shown) + ' of ' + fmt(m.total) : fmt(m.total)) + (m.total === 1 ? ' key' : ' keys');
  dataset.shown = String(shown);
  dataset.total = String(m.total);
  dataset.languages = columns.join(',');
  renderHead();
  alignHead();
  render();
  dataset.state = 'rows';
  if (!firstRowsSent) {
    firstRowsSent = true;
    requestAnimationFrame(() => host.post({ type: 'firstRows', rows: m.total }));
  }
}

/** Rows arrive in whole blocks (the host's first window may cover several). */
function storeRows(start: number, rows: StringRowView[]): void {
  for (let b = Math.floor(start / BLOCK); b * BLOCK < start + rows.length; b++) {
    const from = b * BLOCK;
    if (from < start) continue; // a partial block is asked for again whole
    const part = rows.slice(from - start, from - start + BLOCK);
    if (part.length === BLOCK || from + part.length >= shown) blocks.set(b, part);
  }
}

function request(block: number): void {
  if (blocks.has(block)) return;
  blocks.set(block, 'pending');
  host.post({ type: 'rows', seq: shownSeq, start: block * BLOCK, count: BLOCK });
}

/** Drop the windows farthest from `centre` once more than MAX_BLOCKS are kept. */
function trimBlocks(centre: number): void {
  if (blocks.size <= MAX_BLOCKS) return;
  const far = [...blocks.keys()].sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre));
  for (const b of far.slice(0, blocks.size - MAX_BLOCKS)) blocks.delete(b);
}

function rowAt(pos: number): StringRowView | undefined {
  const b = blocks.get(Math.floor(pos / BLOCK));
  return b && b !== 'pending' ? b[pos % BLOCK] : undefined;
}

// ---- the table -----------------------------------------------------------------------------

/** A text on one line: line breaks as ⏎, the whole text in the tooltip. */
function textCell(t: string | null): string {
  if (t === null) return '<div role="gridcell" class="c-text missing" title="This language has no such key">missing</div>';
  if (t === '') return '<div role="gridcell" class="c-text muted" title="An empty string">(empty)</div>';
  return '<div role="gridcell" class="c-text" title="' + esc(t) + '">' + esc(t).replace(/\r?\n/g, '<span class="nl">⏎</span>') + '</div>';
}

function rowHtml(pos: number, r: StringRowView | undefined): string {
  const head = '<div role="row" id="row-' + pos + '" data-pos="' + pos + '" aria-rowindex="' + (pos + 2) + '" class="row';
  if (!r) return head + ' loading"><div role="gridcell" class="c-hash muted">…</div></div>';
  const key = r.key
    ? '<div role="gridcell" class="c-key" title="' + esc(r.key + (r.origin ? ' (from a ' + r.origin + ')' : '')) + '">' + esc(r.key) + '</div>'
    : '<div role="gridcell" class="c-key unknown" title="No gathered name hashes to ' + r.hash + '">unknown</div>';
  return head + '" data-hash="' + r.hash + '"><div role="gridcell" class="c-hash">' + r.hash + '</div>' + key + r.texts.map(textCell).join('') + '</div>';
}

/** Draw the rows in view (and a few beyond), asking the host for windows not held yet. */
function render(): void {
  const top = viewport.scrollTop;
  const height = viewport.clientHeight || ROW_HEIGHT * 20;
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(shown, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
  for (let b = Math.floor(first / BLOCK); b * BLOCK < last; b++) request(b);
  trimBlocks(Math.floor(first / BLOCK));
  let html = '';
  for (let pos = first; pos < last; pos++) html += rowHtml(pos, rowAt(pos));
  rowsEl.style.transform = 'translateY(' + first * ROW_HEIGHT + 'px)';
  rowsEl.innerHTML = html;
  markSelection();
}

function markSelection(): void {
  let active: string | undefined;
  for (const e of Array.from(rowsEl.children) as HTMLElement[]) {
    const sel = Number(e.dataset.pos) === selected;
    e.classList.toggle('selected', sel);
    e.setAttribute('aria-selected', String(sel));
    if (sel) active = e.id;
  }
  if (active) grid.setAttribute('aria-activedescendant', active);
  else grid.removeAttribute('aria-activedescendant');
  dataset.selected = (selected >= 0 && rowAt(selected)?.hash) || '';
}

function alignHead(): void {
  $('head').style.paddingRight = 12 + viewport.offsetWidth - viewport.clientWidth + 'px';
}

const renderSoon = inNextFrame(() => render());

function select(pos: number): void {
  if (!shown) return;
  selected = Math.max(0, Math.min(shown - 1, pos));
  const top = selected * ROW_HEIGHT;
  if (top < viewport.scrollTop) viewport.scrollTop = top;
  else if (top + ROW_HEIGHT > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = top + ROW_HEIGHT - viewport.clientHeight;
  render();
}

/** The selection keys; `all` adds Home and End (the search box keeps those for its text). */
function moveKey(e: KeyboardEvent, all: boolean): boolean {
  const page = Math.max(1, Math.floor(viewport.clientHeight / ROW_HEIGHT) - 1);
  const moves: Record<string, number | undefined> = {
    ArrowDown: selected + 1,
    ArrowUp: selected - 1,
    PageDown: selected + page,
    PageUp: selected - page,
    Home: all ? 0 : undefined,
    End: all ? shown - 1 : undefined,
  };
  const to = moves[e.key];
  if (to === undefined) return false;
  select(to);
  return true;
}

// ---- messages and events -------------------------------------------------------------------

function onInit(v: StringTableView): void {
  view = v;
  const known = new Set(v.languages.map((l) => l.language));
  const kept = state.languages?.filter((l) => known.has(l));
  state.languages = kept && kept.length ? kept : v.shown;
  $('summary').innerHTML = summaryHtml(v);
  languageToggles(v);
  search.value = state.query;
  dataset.named = String(v.named);
  sendQuery();
}

window.addEventListener('message', (e: MessageEvent<HostToView>) => {
  const m = e.data;
  if (!m || typeof m !== 'object') return;
  switch (m.type) {
    case 'init':
      onInit(m.view);
      return;
    case 'result':
      onResult(m);
      return;
    case 'rows':
      if (m.seq !== shownSeq) return;
      storeRows(m.start, m.rows);
      render();
      return;
    case 'names':
      if (!view) return;
      view.named = m.named;
      view.dictionary = m.dictionary;
      $('dictionary').innerHTML = dictionaryHtml(view);
      dataset.named = String(m.named);
      sendQuery(); // names change what a key-name search keeps, and every row's key column
      return;
    case 'failed':
      dataset.state = 'failed';
      document.body.innerHTML = '<div class="message">' + failurePage('an SKDB string table', m) + '</div>';
      return;
  }
});

wireSearchBox(search, {
  changed: (value) => {
    state.query = value;
    save();
    if (view) sendQuery();
  },
  move: (e) => moveKey(e, false),
  table: grid,
});
$('languages').addEventListener('change', (e) => {
  const box = e.target as HTMLInputElement;
  const picked = checkedLanguages();
  if (!picked.length) {
    box.checked = true; // keep one text column
    return;
  }
  // Keep the columns in the order they were shown; a newly checked language goes last.
  const before = (state.languages ?? []).filter((l) => picked.includes(l));
  state.languages = [...before, ...picked.filter((l) => !before.includes(l))];
  save();
  sendQuery();
});
/** The selected row's hash as a number, or undefined. */
function selectedHash(): number | undefined {
  const r = selected >= 0 ? rowAt(selected) : undefined;
  return r ? parseInt(r.hash.slice(2), 16) : undefined;
}

function editSelected(type: 'editText' | 'deleteKey'): void {
  const hash = selectedHash();
  if (hash !== undefined) host.post({ type, hash });
}

/** The edit keys in the table: Enter / F2 edit the text, Insert adds a key, Delete deletes one. */
function editKey(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  if (e.key === 'Enter' || e.key === 'F2') editSelected('editText');
  else if (e.key === 'Delete') editSelected('deleteKey');
  else if (e.key === 'Insert') host.post({ type: 'addKey' });
  else return false;
  return true;
}

grid.addEventListener('keydown', (e) => {
  if (e.target !== search && (moveKey(e, true) || editKey(e))) e.preventDefault();
});
rowsEl.addEventListener('dblclick', (e) => {
  const row = (e.target as HTMLElement).closest<HTMLElement>('.row');
  if (!row) return;
  select(Number(row.dataset.pos));
  editSelected('editText');
});
$('editText').addEventListener('click', () => editSelected('editText'));
$('addKey').addEventListener('click', () => host.post({ type: 'addKey' }));
$('deleteKey').addEventListener('click', () => editSelected('deleteKey'));
rowsEl.addEventListener('click', (e) => {
  const row = (e.target as HTMLElement).closest<HTMLElement>('.row');
  if (!row) return;
  grid.focus({ preventScroll: true });
  select(Number(row.dataset.pos));
});
$('exportCsv').addEventListener('click', () => host.post({ type: 'export', format: 'csv' }));
$('exportJson').addEventListener('click', () => host.post({ type: 'export', format: 'json' }));
viewport.addEventListener('scroll', renderSoon, { passive: true });
window.addEventListener('resize', () => {
  alignHead();
  renderSoon();
});
host.post({ type: 'ready' });
