/**
 * The registry editor's Objects table (media/registry/registryView.ts): virtualised, filled window
 * by window from the host (which keeps the objects: a registry may hold 100,000), a class filter
 * and a search box filtering as you type ("N of M"). A click or ArrowUp/ArrowDown selects an
 * object for the edit panel (./editPanel.ts); Enter moves into the panel.
 */
import { esc, fmt } from '../shared/html';
import { wireSearchBox } from '../shared/searchBox';
import type { HostChannel } from '../shared/webviewApi';
import type { ObjectRow, RawRecordRow, RegistryView, RowsMessage, ViewToHost } from './protocol';

/** Row height in pixels: the virtualised table places rows by it (registryView.css sets the same). */
const ROW_HEIGHT = 22;
/** Rows asked for beyond each edge of the visible area, so a scroll step shows no gap. */
const OVERSCAN = 30;

export interface TableState {
  search: string;
  className: string;
}

export interface TableHooks {
  host: HostChannel<ViewToHost>;
  state: TableState;
  save(): void;
  view(): RegistryView | undefined;
  /** An object was selected (clicked, or moved to with the arrows); null: the selection went. */
  selected(row: ObjectRow | null): void;
  /** Enter on the table: go to the edit panel. */
  enter(): void;
}

const $ = (id: string): HTMLElement => document.getElementById(id)!;
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

export type ObjectTable = ReturnType<typeof objectTable>;

/** The table over the page's #grid markup. */
export function objectTable(hooks: TableHooks) {
  const { host, state } = hooks;
  const dataset = document.body.dataset;
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
  let drawn = { first: -1, last: -1 };
  /** The selected object's name (kept across edits and refilters) and its position when known. */
  let selectedName: string | undefined;
  let selectedPos = -1;

  const columns = (): string[] =>
    hooks.view()?.objectKind === 'raw'
      ? ['#', 'Offset', 'Set', 'Record bytes (50)']
      : ['#', 'Name', 'Class', 'Group', 'Position (cm)', 'Rotation (x, y, z, w)', 'Template', 'Name hash'];

  function renderHead(): void {
    $('head').className = hooks.view()?.objectKind === 'raw' ? 'raw' : 'objects';
    $('head').innerHTML = columns()
      .map((c, i) => '<div role="columnheader"' + (i === 0 ? ' class="num"' : '') + '>' + esc(c) + '</div>')
      .join('');
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
    const view = hooks.view();
    if (!view || view.objectKind === 'none') return;
    let { first, last } = visibleRange();
    if (shown < 0) {
      first = Math.max(0, Math.floor(viewport.scrollTop / ROW_HEIGHT) - OVERSCAN);
      last = first + Math.ceil((viewport.clientHeight || ROW_HEIGHT * 30) / ROW_HEIGHT) + 2 * OVERSCAN;
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

  /** Forget the rows and ask again: from the top for a new filter, where the view is after an edit. */
  function refilter(keepScroll = false): void {
    cache = new Map();
    shown = -1;
    filterSeq = seq + 1;
    pending = undefined;
    if (!keepScroll) viewport.scrollTop = 0;
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
    m.rows.forEach((r, i) => {
      cache.set(m.start + i, r);
      if ('name' in r && r.name === selectedName) selectedPos = m.start + i;
    });
    const q = state.search.trim() !== '' || state.className !== '';
    const what = hooks.view()?.objectKind === 'raw' ? 'raw records' : 'objects';
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

  /** Draw the rows in view (and a few beyond): the only rows in the DOM; rows not here yet are placeholders. */
  function render(): void {
    const { first, last } = visibleRange();
    if (first === drawn.first && last === drawn.last) return;
    let html = '';
    const cls = hooks.view()?.objectKind === 'raw' ? 'row raw' : 'row objects';
    for (let pos = first; pos < last; pos++) {
      const r = cache.get(pos);
      const on = r !== undefined && 'name' in r && r.name === selectedName;
      html +=
        '<div role="row" class="' +
        cls +
        (r ? '' : ' loading') +
        (on ? ' selected' : '') +
        '" aria-selected="' +
        on +
        '" data-pos="' +
        pos +
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

  /** Select the row at `pos` (scrolled into view) and tell the edit panel. */
  function selectAt(pos: number): void {
    const r = cache.get(pos);
    if (!r || !('name' in r)) return;
    selectedName = r.name;
    selectedPos = pos;
    dataset.selected = r.name;
    const top = pos * ROW_HEIGHT;
    if (top < viewport.scrollTop) viewport.scrollTop = top;
    else if (top + ROW_HEIGHT > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = top + ROW_HEIGHT - viewport.clientHeight;
    drawn = { first: -1, last: -1 };
    render();
    grid.setAttribute('aria-activedescendant', '');
    hooks.selected(r);
  }

  /** Select an object by name (after an edit names it), with its row when the host sent it. */
  function selectName(name: string | undefined, row?: ObjectRow): void {
    selectedName = name;
    selectedPos = -1;
    if (name === undefined) delete dataset.selected;
    else dataset.selected = name;
    hooks.selected(row ?? null);
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
      hooks.save();
      refilter();
    },
    table: grid,
  });
  classFilter.addEventListener('change', () => {
    state.className = classFilter.value;
    hooks.save();
    refilter();
  });
  rowsEl.addEventListener('click', (e) => {
    const pos = (e.target as HTMLElement).closest<HTMLElement>('[data-pos]')?.dataset.pos;
    if (pos !== undefined) selectAt(Number(pos));
  });
  grid.addEventListener('keydown', (e) => {
    const page = Math.max(1, Math.floor(viewport.clientHeight / ROW_HEIGHT) - 1) * ROW_HEIGHT;
    const scrolls: Record<string, number> = { PageDown: page, PageUp: -page };
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const from = selectedPos >= 0 ? selectedPos : Math.floor(viewport.scrollTop / ROW_HEIGHT) - (e.key === 'ArrowDown' ? 1 : 0);
      selectAt(Math.max(0, Math.min(shown - 1, from + (e.key === 'ArrowDown' ? 1 : -1))));
    } else if (e.key === 'Enter') hooks.enter();
    else if (e.key in scrolls) viewport.scrollTop += scrolls[e.key];
    else if (e.key === 'Home') viewport.scrollTop = 0;
    else if (e.key === 'End') viewport.scrollTop = shown * ROW_HEIGHT;
    else return;
    e.preventDefault();
  });

  return {
    renderHead,
    requestWindow,
    refilter,
    onRows,
    selectName,
    /** The class filter's options and the search box for a (new) view. */
    setView(v: RegistryView): void {
      classFilter.innerHTML =
        '<option value="">All classes (' +
        fmt(v.objectCount) +
        ')</option>' +
        v.classes.map((c) => '<option value="' + esc(c.name) + '">' + esc(c.name) + ' (' + fmt(c.count) + ')</option>').join('');
      if (!v.classes.some((c) => c.name === state.className)) state.className = '';
      classFilter.value = state.className;
      classFilter.disabled = v.objectKind !== 'objects';
      search.value = state.search;
      renderHead();
      total = v.objectCount;
      dataset.total = String(total);
      if (v.objectKind === 'none') {
        $('shownText').textContent = 'No OBJL block: no objects.';
        dataset.shown = '0';
      }
    },
    focus(): void {
      grid.focus();
    },
  };
}
