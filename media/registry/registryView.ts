/**
 * The object-registry editor's webview: the header (counts, the OBJL layout's validation, the
 * patch rule, the part's script) and four tabs: Objects (a virtualised table filled window by
 * window from the host, which keeps the objects: a registry may hold 100,000; a class filter and a
 * search box filtering as you type, "N of M"), Bindings (click or Enter opens the part's script at
 * the function), Groups (owner → members) and Blocks (the chain; a raw block's bytes as hex).
 * The page's markup comes from the host (extension/editors/registryEditor.ts), which inlines this
 * bundle (dist/webview/registryView.js) and registryView.css.
 *
 * Protocol: ./protocol.ts. The body's dataset mirrors the state for tests (see there).
 */
import { esc, failurePage, fmt } from '../shared/html';
import { wireSearchBox } from '../shared/searchBox';
import { hostChannel } from '../shared/webviewApi';
import type { BindingRowView, BlockRow, Confidence, HostToView, ObjectRow, RawRecordRow, RegistryView, RowsMessage, ViewToHost } from './protocol';

/** Row height in pixels: the virtualised table places rows by it (registryView.css sets the same). */
const ROW_HEIGHT = 22;
/** Rows asked for beyond each edge of the visible area, so a scroll step shows no gap. */
const OVERSCAN = 30;
const TABS = ['objects', 'bindings', 'groups', 'blocks'] as const;
type Tab = (typeof TABS)[number];

interface ViewState {
  tab: Tab;
  search: string;
  className: string;
}

const host = hostChannel<ViewToHost>();
const $ = (id: string): HTMLElement => document.getElementById(id)!;
const saved = (host.getState() ?? {}) as Partial<ViewState>;
const state: ViewState = {
  tab: TABS.includes(saved.tab as Tab) ? saved.tab! : 'objects',
  search: typeof saved.search === 'string' ? saved.search : '',
  className: typeof saved.className === 'string' ? saved.className : '',
};
const save = (): void => host.setState({ ...state });
const dataset = document.body.dataset;
dataset.state = 'waiting';
dataset.tab = state.tab;

let view: RegistryView | undefined;

// ---- header ------------------------------------------------------------------------------------

const bytes = (n: number): string => fmt(n) + (n === 1 ? ' byte' : ' bytes');
const count = (n: number, one: string, many = one + 's'): string => fmt(n) + ' ' + (n === 1 ? one : many);
const conf = (c: Confidence): string =>
  '<span class="conf conf-' + c + '" title="confirmed / likely / uncertain: how sure the reading is">' + esc(c) + '</span>';

function summaryHtml(v: RegistryView): string {
  let html = '<h2>' + esc(v.title) + '</h2>';
  const objects = v.objectKind === 'objects' ? count(v.objectCount, 'object') : v.objectKind === 'raw' ? count(v.objectCount, 'raw record') : 'no object list';
  html +=
    '<p class="facts" id="counts">OBJR v' +
    v.version +
    ' · ' +
    bytes(v.size) +
    ' · ' +
    count(v.blocks.length, 'block') +
    ' · ' +
    objects +
    ' in ' +
    count(v.classes.length, 'class', 'classes') +
    ' · ' +
    count(v.bindingRows, 'binding row') +
    ' over ' +
    count(v.bindingRecords, 'record') +
    ' · ' +
    count(v.groupCount, 'group') +
    ' · header hash <span class="mono">' +
    esc(v.hash) +
    '</span> · ' +
    conf(v.confidence) +
    '</p>';
  const l = v.layout;
  html +=
    '<p class="layout" id="layout">OBJL record layout: ' +
    (!l.present
      ? '<span class="warn">no OBJL block</span>'
      : l.validated
        ? '<span class="ok">validated</span> on every record ' + conf(l.confidence)
        : '<span class="bad">not validated</span> ' + conf(l.confidence) + ': ' + esc(l.reason ?? '') + ' (records shown raw)') +
    '</p>';
  html +=
    '<p class="patch p-' +
    v.patch.state +
    '" id="patch" title="seed 001: a standalone .objres in the mount replaces the one embedded in the part’s container">Patch rule: ' +
    esc(v.patch.text) +
    '</p>';
  html +=
    '<p class="script" id="script">Script: <span class="mono">' +
    esc(v.script.path) +
    '</span> · ' +
    esc(v.script.note) +
    (v.bindings.length
      ? v.bindingsResolved
        ? ' · <span class="ok">every binding resolves</span>'
        : ' · <span class="bad">some bindings do not resolve</span>'
      : '') +
    '</p>';
  if (v.problems.length)
    html +=
      '<details><summary class="bad">Problems (' +
      v.problems.length +
      ')</summary><ul>' +
      v.problems.map((p) => '<li>' + esc(p) + '</li>').join('') +
      '</ul></details>';
  if (v.notes.length)
    html += '<details><summary>Notes (' + v.notes.length + ')</summary><ul>' + v.notes.map((n) => '<li>' + esc(n) + '</li>').join('') + '</ul></details>';
  return html;
}

// ---- tabs --------------------------------------------------------------------------------------

function showTab(tab: Tab, focus = false): void {
  state.tab = tab;
  dataset.tab = tab;
  save();
  for (const t of TABS) {
    const button = $('tab-' + t);
    const on = t === tab;
    button.setAttribute('aria-selected', String(on));
    button.tabIndex = on ? 0 : -1;
    ($('panel-' + t) as HTMLElement).hidden = !on;
    if (on && focus) button.focus();
  }
  if (tab === 'objects') requestWindow();
}

$('tabs').addEventListener('click', (e) => {
  const t = (e.target as HTMLElement).closest<HTMLElement>('[data-tab]')?.dataset.tab as Tab | undefined;
  if (t && TABS.includes(t)) showTab(t);
});
$('tabs').addEventListener('keydown', (e) => {
  const i = TABS.indexOf(state.tab);
  if (e.key === 'ArrowRight') showTab(TABS[(i + 1) % TABS.length], true);
  else if (e.key === 'ArrowLeft') showTab(TABS[(i + TABS.length - 1) % TABS.length], true);
  else return;
  e.preventDefault();
});

// ---- objects: a virtualised table the host fills window by window ------------------------------

const grid = $('grid');
const viewport = $('viewport');
const spacer = $('spacer');
const rowsEl = $('rows');
const search = $('search') as HTMLInputElement;
const classFilter = $('classFilter') as HTMLSelectElement;

/** Rows received for the current filter, by position. */
let cache = new Map<number, ObjectRow | RawRecordRow>();
let total = 0;
/** Rows the current filter keeps; -1 until the host has answered for it. */
let shown = -1;
let seq = 0;
/** The first query sent for the current filter: answers to older ones are stale. */
let filterSeq = 0;
/** The window asked for and not yet answered (positions), to avoid asking twice. */
let pending: { start: number; end: number; seq: number } | undefined;
let firstRowsSent = false;

const objectColumns = (): string[] =>
  view?.objectKind === 'raw'
    ? ['#', 'Offset', 'Set', 'Record bytes (50)']
    : ['#', 'Name', 'Class', 'Group', 'Position (cm)', 'Rotation (x, y, z, w)', 'Template', 'Name hash'];

function renderHead(): void {
  $('head').className = view?.objectKind === 'raw' ? 'raw' : 'objects';
  $('head').innerHTML = objectColumns()
    .map((c, i) => '<div role="columnheader"' + (i === 0 ? ' class="num"' : '') + '>' + esc(c) + '</div>')
    .join('');
}

const num = (x: number): string => (Number.isInteger(x) ? String(x) : String(Math.round(x * 1000) / 1000));
const vec = (v: number[]): string => '(' + v.map(num).join(', ') + ')';

function objectCells(r: ObjectRow | RawRecordRow): string {
  if ('hex' in r)
    return (
      '<div role="gridcell" class="num muted">' +
      r.index +
      '</div><div role="gridcell" class="mono">0x' +
      r.offset.toString(16).toUpperCase().padStart(6, '0') +
      '</div><div role="gridcell" class="mono">' +
      esc(r.set) +
      '</div><div role="gridcell" class="mono" title="' +
      esc(r.hex) +
      '">' +
      esc(r.hex) +
      '</div>'
    );
  return (
    '<div role="gridcell" class="num muted">' +
    r.index +
    '</div><div role="gridcell" class="c-name" title="' +
    esc(r.name) +
    '">' +
    esc(r.name) +
    '</div><div role="gridcell">' +
    esc(r.className) +
    '</div><div role="gridcell"' +
    (r.group === null ? ' class="muted">—' : '>' + esc(r.group)) +
    '</div><div role="gridcell" class="mono">' +
    vec(r.position) +
    '</div><div role="gridcell" class="mono">' +
    vec(r.rotation) +
    '</div><div role="gridcell" class="mono">' +
    esc(r.templateId) +
    '</div><div role="gridcell" class="mono" title="StringHash of the name: what SCRB and ONLS key objects by">' +
    esc(r.nameHash ?? '—') +
    '</div>'
  );
}

function visibleRange(): { first: number; last: number } {
  const top = viewport.scrollTop;
  const height = viewport.clientHeight || ROW_HEIGHT * 30;
  const n = Math.max(0, shown);
  return {
    first: Math.max(0, Math.min(n, Math.floor(top / ROW_HEIGHT) - OVERSCAN)),
    last: Math.min(n, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN),
  };
}

/** Ask the host for the rows in view that are not here yet (the whole first screen for a new filter). */
function requestWindow(): void {
  // Asked for on any tab, so the counts are known (and the objects ready) before the Objects tab is shown.
  if (!view || view.objectKind === 'none') return;
  let { first, last } = visibleRange();
  if (shown < 0) {
    first = 0;
    last = Math.ceil((viewport.clientHeight || ROW_HEIGHT * 30) / ROW_HEIGHT) + OVERSCAN;
  } else {
    while (first < last && cache.has(first)) first++;
    while (last > first && cache.has(last - 1)) last--;
    if (first >= last) return;
  }
  if (pending && pending.seq >= filterSeq && pending.start <= first && pending.end >= last) return;
  seq++;
  pending = { start: first, end: last, seq };
  host.post({ type: 'query', seq, text: state.search, className: state.className, start: first, count: Math.min(500, last - first) });
}

/** A new search or class: forget the rows, ask again from the top. */
function refilter(): void {
  cache = new Map();
  shown = -1;
  filterSeq = seq + 1;
  pending = undefined;
  viewport.scrollTop = 0;
  requestWindow();
}

function onRows(m: RowsMessage): void {
  if (m.seq < filterSeq) return;
  if (pending?.seq === m.seq) pending = undefined;
  total = m.total;
  if (shown !== m.shown) {
    shown = m.shown;
    spacer.style.height = shown * ROW_HEIGHT + 'px';
  }
  m.rows.forEach((r, i) => cache.set(m.start + i, r));
  const q = state.search.trim() !== '' || state.className !== '';
  const what = view?.objectKind === 'raw' ? 'raw records' : 'objects';
  $('shownText').textContent = q ? fmt(shown) + ' of ' + fmt(total) + ' ' + what : fmt(total) + ' ' + what;
  dataset.total = String(total);
  dataset.shown = String(shown);
  drawn = { first: -1, last: -1 };
  render();
  if (!firstRowsSent) {
    firstRowsSent = true;
    requestAnimationFrame(() => host.post({ type: 'firstRows', rows: rowsEl.children.length }));
  }
  // Rows scrolled into view while this window was on its way.
  requestWindow();
}

let drawn = { first: -1, last: -1 };

/** Draw the rows in view (and a few beyond): the only rows in the DOM; rows not here yet are placeholders. */
function render(): void {
  const { first, last } = visibleRange();
  if (first === drawn.first && last === drawn.last) return;
  let html = '';
  const cls = view?.objectKind === 'raw' ? 'row raw' : 'row objects';
  for (let pos = first; pos < last; pos++) {
    const r = cache.get(pos);
    html +=
      '<div role="row" class="' +
      cls +
      (r ? '' : ' loading') +
      '" aria-rowindex="' +
      (pos + 2) +
      '">' +
      (r ? objectCells(r) : '<div role="gridcell" class="muted">…</div>') +
      '</div>';
  }
  rowsEl.style.transform = 'translateY(' + first * ROW_HEIGHT + 'px)';
  rowsEl.innerHTML = html;
  drawn = { first, last };
  grid.setAttribute('aria-rowcount', String(Math.max(0, shown) + 1));
}

let framePending = false;
viewport.addEventListener(
  'scroll',
  () => {
    if (framePending) return;
    framePending = true;
    requestAnimationFrame(() => {
      framePending = false;
      render();
      requestWindow();
    });
  },
  { passive: true },
);
window.addEventListener('resize', () => {
  drawn = { first: -1, last: -1 };
  render();
  requestWindow();
});
wireSearchBox(search, {
  changed: (value) => {
    state.search = value;
    save();
    refilter();
  },
  table: grid,
});
classFilter.addEventListener('change', () => {
  state.className = classFilter.value;
  save();
  refilter();
});
grid.addEventListener('keydown', (e) => {
  const page = Math.max(1, Math.floor(viewport.clientHeight / ROW_HEIGHT) - 1) * ROW_HEIGHT;
  const moves: Record<string, number> = { ArrowDown: ROW_HEIGHT, ArrowUp: -ROW_HEIGHT, PageDown: page, PageUp: -page };
  if (e.key in moves) viewport.scrollTop += moves[e.key];
  else if (e.key === 'Home') viewport.scrollTop = 0;
  else if (e.key === 'End') viewport.scrollTop = shown * ROW_HEIGHT;
  else return;
  e.preventDefault();
});

// ---- bindings ----------------------------------------------------------------------------------

function bindingHtml(b: BindingRowView, i: number): string {
  const ok = b.problems.length === 0;
  const fn = b.function === null ? '<span class="bad">unresolved</span>' : esc(b.function);
  const where = b.line !== null ? ' <span class="muted">line ' + b.line + (b.kind === 'hmake' ? ', hmake' : '') + '</span>' : '';
  return (
    '<tr class="binding' +
    (b.openable ? ' openable' : '') +
    '" data-row="' +
    i +
    '" tabindex="-1" title="' +
    esc(b.openable ? 'Click or Enter: open the script at ' + (b.function ?? '') + (b.preview ? '\n\n' + b.preview : '') : 'Not openable') +
    '"><td>' +
    (b.object === null ? '<span class="bad mono">' + esc(b.objectHash) + '</span>' : esc(b.object)) +
    '</td><td>' +
    esc(b.className ?? '—') +
    '</td><td>' +
    esc(b.event ?? '—') +
    '</td><td class="fn">' +
    fn +
    where +
    '</td><td class="mono' +
    (b.scriptResolved ? '' : ' bad') +
    '">' +
    esc(b.script.split('\\').pop() ?? b.script) +
    '</td><td>' +
    (ok ? '<span class="ok">resolved</span>' : '<span class="bad" title="' + esc(b.problems.join('\n')) + '">' + esc(b.problems.join('; ')) + '</span>') +
    '</td></tr>'
  );
}

function renderBindings(v: RegistryView): void {
  const panel = $('panel-bindings');
  if (!v.bindings.length) {
    panel.innerHTML = '<p class="empty">No script bindings (SCRB) in this registry.</p>';
    return;
  }
  panel.innerHTML =
    '<p class="hint">' +
    count(v.bindingRows, 'object-binding row') +
    ' over ' +
    count(v.bindingRecords, 'binding record') +
    (v.bindings.length < v.bindingRows ? ' (the first ' + fmt(v.bindings.length) + ' listed: objects share runs of records)' : '') +
    '. Click a row or press Enter on it to open the part’s script at the function.</p>' +
    '<table id="bindings" class="list"><thead><tr><th>Object</th><th>Class</th><th>Event</th><th>Function</th><th>Script</th><th>Status</th></tr></thead><tbody>' +
    v.bindings.map(bindingHtml).join('') +
    '</tbody></table>';
  const rows = Array.from(panel.querySelectorAll<HTMLElement>('tr.binding'));
  if (rows[0]) rows[0].tabIndex = 0;
  const open = (tr: HTMLElement): void => host.post({ type: 'openBinding', row: Number(tr.dataset.row) });
  const focusRow = (tr: HTMLElement | undefined): void => {
    if (!tr) return;
    for (const r of rows) r.tabIndex = -1;
    tr.tabIndex = 0;
    tr.focus();
  };
  panel.querySelector('tbody')!.addEventListener('click', (e) => {
    const tr = (e.target as HTMLElement).closest<HTMLElement>('tr.binding');
    if (!tr) return;
    focusRow(tr);
    open(tr);
  });
  panel.querySelector('tbody')!.addEventListener('keydown', (e) => {
    const tr = (e.target as HTMLElement).closest<HTMLElement>('tr.binding');
    if (!tr) return;
    const i = rows.indexOf(tr);
    if (e.key === 'Enter') open(tr);
    else if (e.key === 'ArrowDown') focusRow(rows[i + 1]);
    else if (e.key === 'ArrowUp') focusRow(rows[i - 1]);
    else return;
    e.preventDefault();
  });
}

// ---- groups and blocks -------------------------------------------------------------------------

function renderGroups(v: RegistryView): void {
  const panel = $('panel-groups');
  if (!v.groups.length) {
    panel.innerHTML = '<p class="empty">No groups (ONLS) in this registry.</p>';
    return;
  }
  panel.innerHTML =
    '<p class="hint">' +
    count(v.groupCount, 'group') +
    (v.groups.length < v.groupCount ? ' (the first ' + fmt(v.groups.length) + ' listed)' : '') +
    ' (ONLS): each owner and its members.</p><table id="groups" class="list"><thead><tr><th>Owner</th><th class="num">Members</th><th>Member names</th></tr></thead><tbody>' +
    v.groups
      .map((g) => {
        const unknown = new Set(g.unknownMembers);
        return (
          '<tr><td>' +
          (g.owner === null ? '<span class="bad mono">' + esc(g.ownerHash) + '</span>' : esc(g.owner)) +
          '</td><td class="num">' +
          g.memberCount +
          '</td><td>' +
          (g.sameMembersAs !== undefined
            ? '<span class="muted">the group of ' + esc(g.sameMembersAs) + ' (listed there)</span>'
            : g.members.length
              ? g.members.map((m) => (unknown.has(m) ? '<span class="bad" title="No OBJL object has this name">' + esc(m) + '</span>' : esc(m))).join(', ')
              : '<span class="muted">empty</span>') +
          '</td></tr>'
        );
      })
      .join('') +
    '</tbody></table>';
}

function blockHtml(b: BlockRow): string {
  const state =
    b.state === 'decoded'
      ? '<span class="ok">decoded</span>'
      : b.state === 'error'
        ? '<span class="bad" title="' + esc(b.error ?? '') + '">failed: ' + esc(b.error ?? '') + '</span>'
        : '<span class="muted">raw</span>';
  const show = b.state !== 'decoded' ? ' <button class="link" data-hex="' + b.index + '">bytes</button>' : '';
  return (
    '<tr><td class="num muted">' +
    b.index +
    '</td><td class="mono">' +
    esc(b.tag ?? '—') +
    '</td><td>' +
    (b.name ? esc(b.name) + (b.nameConfidence && b.nameConfidence !== 'confirmed' ? ' ' + conf(b.nameConfidence) : '') : '<span class="muted">unknown</span>') +
    '</td><td class="mono">' +
    esc(b.hash) +
    '</td><td class="num mono">0x' +
    b.offset.toString(16).toUpperCase() +
    '</td><td class="num">' +
    fmt(b.size) +
    '</td><td>' +
    state +
    show +
    '</td></tr>'
  );
}

function renderBlocks(v: RegistryView): void {
  const panel = $('panel-blocks');
  panel.innerHTML =
    '<table id="blocks" class="list"><thead><tr><th class="num">#</th><th>Tag</th><th>Registered name</th><th>Name hash</th><th class="num">Offset</th><th class="num">Size</th><th>Reader</th></tr></thead><tbody>' +
    v.blocks.map(blockHtml).join('') +
    '</tbody></table><div id="hexView" hidden></div>';
}

// The blocks panel stays while its table is rebuilt: one listener for its hex buttons.
$('panel-blocks').addEventListener('click', (e) => {
  const b = (e.target as HTMLElement).closest<HTMLElement>('button[data-hex]')?.dataset.hex;
  if (b !== undefined) host.post({ type: 'hex', block: Number(b) });
});

function showHex(block: number, text: string, shownBytes: number, size: number): void {
  const b = view?.blocks[block];
  const hv = $('hexView');
  hv.hidden = false;
  hv.innerHTML =
    '<h3>Block ' +
    block +
    (b ? ' · ' + esc(b.tag ?? b.name ?? b.hash) : '') +
    ' · ' +
    bytes(size) +
    (shownBytes < size ? ' (the first ' + bytes(shownBytes) + ' shown)' : '') +
    '</h3><pre>' +
    esc(text || '(empty)') +
    '</pre>';
  hv.scrollIntoView({ block: 'nearest' });
}

// ---- messages ----------------------------------------------------------------------------------

function onInit(v: RegistryView, focus?: string): void {
  if (focus) {
    state.search = focus;
    state.tab = 'objects';
    save();
  }
  view = v;
  $('summary').innerHTML = summaryHtml(v);
  classFilter.innerHTML =
    '<option value="">All classes (' +
    fmt(v.objectCount) +
    ')</option>' +
    v.classes.map((c) => '<option value="' + esc(c.name) + '">' + esc(c.name) + ' (' + fmt(c.count) + ')</option>').join('');
  if (!v.classes.some((c) => c.name === state.className)) state.className = '';
  classFilter.value = state.className;
  classFilter.disabled = v.objectKind !== 'objects';
  search.value = state.search;
  $('tab-bindings').textContent = 'Bindings (' + fmt(v.bindingRows) + ')';
  $('tab-groups').textContent = 'Groups (' + fmt(v.groupCount) + ')';
  $('tab-blocks').textContent = 'Blocks (' + fmt(v.blocks.length) + ')';
  $('tab-objects').textContent = (v.objectKind === 'raw' ? 'Raw records (' : 'Objects (') + fmt(v.objectCount) + ')';
  renderHead();
  renderBindings(v);
  renderGroups(v);
  renderBlocks(v);
  total = v.objectCount;
  dataset.total = String(total);
  if (v.objectKind === 'none') {
    $('shownText').textContent = 'No OBJL block: no objects.';
    dataset.shown = '0';
  }
  dataset.state = 'ready';
  refilter();
  showTab(state.tab);
}

window.addEventListener('message', (e: MessageEvent<HostToView>) => {
  const m = e.data;
  if (!m || typeof m !== 'object') return;
  switch (m.type) {
    case 'init':
      onInit(m.view, m.focus);
      return;
    case 'rows':
      onRows(m);
      return;
    case 'hex':
      showHex(m.block, m.text, m.shown, m.size);
      return;
    case 'failed':
      dataset.state = 'failed';
      document.body.innerHTML = '<div class="message">' + failurePage('an object registry (OBJR)', m) + '</div>';
      return;
  }
});

showTab(state.tab);
host.post({ type: 'ready' });
