/**
 * The bundle editor's webview: the summary (manifest, container, counts, the container-size
 * identity, notes; ./summary.ts) and a virtualised table of the members (only the rows in view are in the DOM,
 * so a bundle of thousands of members scrolls and filters at once). The host sends every row in
 * one `init` message after `ready`; filtering, sorting and selection happen here. The page's
 * markup comes from the host (extension/editors/bundleEditor.ts), which inlines this bundle
 * (dist/webview/bundleView.js) and bundleView.css.
 *
 * Keys: typing filters by path substring (either separator, any case); ↑ ↓ PageUp PageDown Home
 * End move the selection (also from the filter box); Enter or a double-click opens the selected
 * member in its own editor; Escape in the filter box clears it, Ctrl+F (⌘F) returns to it
 * (../shared/searchBox.ts). Column headers sort (again: reverse).
 *
 * Protocol: ./protocol.ts. The body's dataset mirrors the state for tests (see there).
 */
import { esc, failurePage, fmt, inNextFrame } from '../shared/html';
import { wireSearchBox } from '../shared/searchBox';
import { hostChannel } from '../shared/webviewApi';
import type { BundleView, HostToView, MemberRow, ServedFrom, ViewToHost } from './protocol';
import { mark, summaryHtml } from './summary';
import { scrollAfterReorder } from './tableScroll';

/** Row height in pixels: the virtualised table places rows by it (bundleView.css sets the same). */
const ROW_HEIGHT = 22;
/** Rows rendered beyond each edge of the visible area, so a scroll step shows no gap. */
const OVERSCAN = 10;

type SortKey = 'index' | 'path' | 'type' | 'declared' | 'container' | 'served' | 'copies';
const COLUMNS: { key: SortKey; label: string; title: string; numeric?: boolean }[] = [
  { key: 'index', label: '#', title: 'Order in the manifest', numeric: true },
  { key: 'path', label: 'Path', title: 'The member path as the manifest spells it' },
  { key: 'type', label: 'Type', title: 'Extension' },
  { key: 'declared', label: 'Declared', title: 'Size the manifest declares (bytes)', numeric: true },
  { key: 'container', label: 'Container', title: "The container's size word for this path (bytes)", numeric: true },
  { key: 'served', label: 'Served from', title: 'Where the engine serves it from: a loose entry (which source), the container, or nowhere' },
  { key: 'copies', label: 'Copies', title: 'How many sources hold a loose copy of this path', numeric: true },
];
const SORT_KEYS: readonly string[] = COLUMNS.map((c) => c.key);

interface ViewState {
  filter: string;
  sort: SortKey;
  desc: boolean;
  /** The selected member's path (kept across a hidden tab's reload). */
  selected?: string;
}

const host = hostChannel<ViewToHost>();
const $ = (id: string): HTMLElement => document.getElementById(id)!;
const grid = $('grid');
const viewport = $('viewport');
const spacer = $('spacer');
const rowsEl = $('rows');
const filterInput = $('filter') as HTMLInputElement;
const saved = (host.getState() ?? {}) as Partial<ViewState>;
const state: ViewState = {
  filter: typeof saved.filter === 'string' ? saved.filter : '',
  sort: SORT_KEYS.includes(saved.sort ?? '') ? saved.sort! : 'index',
  desc: saved.desc === true,
  selected: typeof saved.selected === 'string' ? saved.selected : undefined,
};

let view: BundleView | undefined;
let rows: MemberRow[] = [];
/** Each row's path, lower case with backslashes: what the filter matches. */
let keys: string[] = [];
/** Every row index in the current sort order; `shown` is it filtered. */
let sorted: number[] = [];
let shown: number[] = [];
/** The selected row (an index into `rows`), -1 for none. */
let selected = -1;
/** Whether the user chose the selection (a click, a key, the restored state), not the default first row. */
let chosen = false;
let firstRowsSent = false;

const save = (): void =>
  host.setState({ filter: state.filter, sort: state.sort, desc: state.desc, selected: chosen && selected >= 0 ? rows[selected]!.path : undefined });
const dataset = document.body.dataset;
dataset.state = 'waiting';

// ---- the table -----------------------------------------------------------------------------

const SERVED_RANK: Record<ServedFrom, number> = { loose: 0, container: 1, empty: 2, missing: 3, unresolved: 4 };

/** Numbers compare as numbers, absent values after every present one (either direction). */
function compareNullable(a: number | null, b: number | null, desc: boolean): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return desc ? b - a : a - b;
}
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function comparator(key: SortKey, desc: boolean): (a: number, b: number) => number {
  const dir = desc ? -1 : 1;
  const byIndex = (a: number, b: number): number => a - b;
  switch (key) {
    case 'index':
      return (a, b) => dir * (a - b);
    case 'path':
      return (a, b) => dir * compareText(keys[a]!, keys[b]!) || byIndex(a, b);
    case 'type':
      return (a, b) => dir * compareText(rows[a]!.type, rows[b]!.type) || compareText(keys[a]!, keys[b]!) || byIndex(a, b);
    case 'declared':
      return (a, b) => compareNullable(rows[a]!.declared, rows[b]!.declared, desc) || byIndex(a, b);
    case 'container':
      return (a, b) => compareNullable(rows[a]!.container, rows[b]!.container, desc) || byIndex(a, b);
    case 'served':
      return (a, b) =>
        dir * (SERVED_RANK[rows[a]!.served] - SERVED_RANK[rows[b]!.served] || compareText(rows[a]!.source ?? '', rows[b]!.source ?? '')) || byIndex(a, b);
    case 'copies':
      return (a, b) => dir * (rows[a]!.copies.length - rows[b]!.copies.length) || byIndex(a, b);
  }
}

function renderHead(): void {
  $('head').innerHTML = COLUMNS.map((c) => {
    const on = c.key === state.sort;
    const sort = on ? (state.desc ? 'descending' : 'ascending') : 'none';
    return (
      '<div role="columnheader" class="c-' +
      c.key +
      (c.numeric ? ' num' : '') +
      '" aria-sort="' +
      sort +
      '"><button data-sort="' +
      c.key +
      '" title="' +
      esc(c.title) +
      ' (click to sort)">' +
      esc(c.label) +
      (on ? (state.desc ? ' ▼' : ' ▲') : '') +
      '</button></div>'
    );
  }).join('');
}

/** Sort every row (on a new sort key or direction), then filter. */
function resort(): void {
  sorted = rows.map((_, i) => i).sort(comparator(state.sort, state.desc));
  renderHead();
  refilter();
}

/** Keep the rows whose path contains the filter (any case, either separator); keep the selection if it survives, else the first row. */
function refilter(): void {
  const q = state.filter.trim().toLowerCase().replace(/\//g, '\\');
  shown = q ? sorted.filter((i) => keys[i]!.includes(q)) : sorted.slice();
  if (!shown.includes(selected)) {
    selected = shown.length ? shown[0]! : -1;
    chosen = false;
  }
  version++;
  spacer.style.height = shown.length * ROW_HEIGHT + 'px';
  alignHead();
  grid.setAttribute('aria-rowcount', String(shown.length + 1));
  $('shownText').textContent = q ? fmt(shown.length) + ' of ' + fmt(rows.length) + ' members' : fmt(rows.length) + ' members';
  dataset.shown = String(shown.length);
  // The user's row stays in view; otherwise the new order is shown from its top (tableScroll.ts).
  viewport.scrollTop = scrollAfterReorder({
    chosen,
    selectedPos: shown.indexOf(selected),
    scrollTop: viewport.scrollTop,
    viewHeight: viewport.clientHeight,
    rowHeight: ROW_HEIGHT,
  });
  render();
}

function cells(r: MemberRow, index: number): string {
  const cut = Math.max(r.path.lastIndexOf('\\'), r.path.lastIndexOf('/')) + 1;
  const mismatch = r.mismatch ? ' bad' : '';
  const noteMark = r.note ? ' <span class="note" title="' + esc(r.note) + '">ⓘ</span>' : '';
  const served =
    mark(r.served) +
    (r.source ? ' <span class="src">' + esc(r.source) + '</span>' : '') +
    (r.block !== undefined ? ' <span class="muted">block ' + r.block + '</span>' : '');
  const copies =
    r.served === 'unresolved'
      ? '<span class="muted" title="Not resolved: the file is outside the mounted install">—</span>'
      : r.copies.length
        ? '<span title="Loose copies, in search order: ' + esc(r.copies.join(', ')) + '">' + r.copies.length + '</span>'
        : '<span class="muted" title="No source ships this path loose">0</span>';
  return (
    '<div role="gridcell" class="c-index num muted">' +
    (index + 1) +
    '</div><div role="gridcell" class="c-path" title="' +
    esc(r.path) +
    '"><span class="dir">' +
    esc(r.path.slice(0, cut)) +
    '</span><span class="leaf">' +
    esc(r.path.slice(cut)) +
    '</span>' +
    noteMark +
    '</div><div role="gridcell" class="c-type">' +
    esc(r.type) +
    '</div><div role="gridcell" class="c-declared num' +
    mismatch +
    '"' +
    (r.mismatch ? ' title="' + esc(r.mismatch) + '"' : '') +
    '>' +
    (r.mismatch ? '<span class="flag">⚠</span> ' : '') +
    (r.declared === null ? '<span class="muted">—</span>' : fmt(r.declared)) +
    '</div><div role="gridcell" class="c-container num' +
    mismatch +
    '"' +
    (r.container === null ? ' title="Not in the container"' : '') +
    '>' +
    (r.container === null ? '<span class="muted">—</span>' : fmt(r.container)) +
    '</div><div role="gridcell" class="c-served">' +
    served +
    '</div><div role="gridcell" class="c-copies num">' +
    copies +
    '</div>'
  );
}

/** The row range in the DOM and the `shown` list it was drawn from (bumped on every filter or sort). */
let drawn = { first: -1, last: -1, version: -1 };
let version = 0;

/** Draw the rows in view (and a few beyond): the only rows in the DOM. Rebuilt only when the range or the list changed. */
function render(): void {
  const top = viewport.scrollTop;
  const height = viewport.clientHeight || ROW_HEIGHT * 20;
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(shown.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
  if (first !== drawn.first || last !== drawn.last || version !== drawn.version) {
    let html = '';
    for (let pos = first; pos < last; pos++) {
      const i = shown[pos]!;
      const r = rows[i]!;
      html +=
        '<div role="row" id="row-' +
        pos +
        '" data-pos="' +
        pos +
        '" aria-rowindex="' +
        (pos + 2) +
        '" aria-selected="false" class="row s-' +
        r.served +
        (r.mismatch ? ' mismatch' : '') +
        '">' +
        cells(r, i) +
        '</div>';
    }
    rowsEl.style.transform = 'translateY(' + first * ROW_HEIGHT + 'px)';
    rowsEl.innerHTML = html;
    drawn = { first, last, version };
  }
  markSelection();
}

/** The selection on the rows in the DOM (a click or an arrow key changes only this). */
function markSelection(): void {
  let active: string | undefined;
  for (const el of Array.from(rowsEl.children) as HTMLElement[]) {
    const sel = shown[Number(el.dataset.pos)] === selected;
    el.classList.toggle('selected', sel);
    el.setAttribute('aria-selected', String(sel));
    if (sel) active = el.id;
  }
  if (active) grid.setAttribute('aria-activedescendant', active);
  else grid.removeAttribute('aria-activedescendant');
  dataset.selected = selected >= 0 ? rows[selected]!.path : '';
}

/** The header sits outside the scrolling rows: pad it by the rows' scroll bar so the columns line up. */
function alignHead(): void {
  $('head').style.paddingRight = 12 + viewport.offsetWidth - viewport.clientWidth + 'px';
}

const renderSoon = inNextFrame(() => render());

function scrollToSelected(): void {
  const pos = shown.indexOf(selected);
  if (pos < 0) return;
  const top = pos * ROW_HEIGHT;
  const height = viewport.clientHeight;
  if (top < viewport.scrollTop) viewport.scrollTop = top;
  else if (top + ROW_HEIGHT > viewport.scrollTop + height) viewport.scrollTop = top + ROW_HEIGHT - height;
  render();
}

function select(pos: number): void {
  if (!shown.length) return;
  selected = shown[Math.max(0, Math.min(shown.length - 1, pos))]!;
  chosen = true;
  save();
  scrollToSelected();
}

function open(): void {
  if (selected >= 0) host.post({ type: 'open', row: selected });
}

/** The selection keys, shared by the table and the filter box; true when the key was one of them. */
function moveKey(e: KeyboardEvent): boolean {
  const pos = shown.indexOf(selected);
  const page = Math.max(1, Math.floor(viewport.clientHeight / ROW_HEIGHT) - 1);
  switch (e.key) {
    case 'ArrowDown':
      select(pos + 1);
      return true;
    case 'ArrowUp':
      select(pos - 1);
      return true;
    case 'PageDown':
      select(pos + page);
      return true;
    case 'PageUp':
      select(pos - page);
      return true;
    case 'Enter':
      open();
      return true;
    default:
      return false;
  }
}

// ---- messages and events -------------------------------------------------------------------

function onInit(v: BundleView): void {
  view = v;
  rows = v.rows;
  keys = rows.map((r) => r.path.toLowerCase().replace(/\//g, '\\'));
  selected = state.selected === undefined ? -1 : rows.findIndex((r) => r.path === state.selected);
  chosen = selected >= 0;
  $('summary').innerHTML = summaryHtml(v);
  filterInput.value = state.filter;
  dataset.total = String(rows.length);
  dataset.mode = v.mode;
  resort();
  dataset.state = 'rows';
  if (!firstRowsSent) {
    firstRowsSent = true;
    requestAnimationFrame(() => host.post({ type: 'firstRows', rows: rows.length }));
  }
}

window.addEventListener('message', (e: MessageEvent<HostToView>) => {
  const m = e.data;
  if (!m || typeof m !== 'object') return;
  if (m.type === 'init') onInit(m.view);
  else if (m.type === 'failed') {
    dataset.state = 'failed';
    document.body.innerHTML = '<div class="message">' + failurePage('a bundle manifest or container', m) + '</div>';
  }
});

wireSearchBox(filterInput, {
  changed: (value) => {
    state.filter = value;
    save();
    if (view) refilter();
  },
  move: moveKey,
  table: grid,
});

grid.addEventListener('keydown', (e) => {
  if (e.target === filterInput) return;
  if (moveKey(e)) e.preventDefault();
  else if (e.key === 'Home') {
    select(0);
    e.preventDefault();
  } else if (e.key === 'End') {
    select(shown.length - 1);
    e.preventDefault();
  }
});

const rowPos = (e: Event): number | undefined => {
  const row = (e.target as HTMLElement).closest<HTMLElement>('.row');
  return row ? Number(row.dataset.pos) : undefined;
};
rowsEl.addEventListener('click', (e) => {
  const pos = rowPos(e);
  if (pos === undefined) return;
  grid.focus({ preventScroll: true });
  select(pos);
});
rowsEl.addEventListener('dblclick', (e) => {
  const pos = rowPos(e);
  if (pos === undefined) return;
  select(pos);
  open();
});
$('head').addEventListener('click', (e) => {
  const key = (e.target as HTMLElement).closest<HTMLElement>('button[data-sort]')?.dataset.sort;
  if (!key || !SORT_KEYS.includes(key)) return;
  if (state.sort === key) state.desc = !state.desc;
  else {
    state.sort = key as SortKey;
    state.desc = false;
  }
  save();
  if (view) resort();
});
viewport.addEventListener('scroll', renderSoon, { passive: true });
window.addEventListener('resize', () => {
  alignHead();
  renderSoon();
});
renderHead();
host.post({ type: 'ready' });
