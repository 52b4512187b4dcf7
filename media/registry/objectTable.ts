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

/** The table over the page's #grid markup. */
export class ObjectTable {
  private readonly dataset = document.body.dataset;
  private readonly grid = $('grid');
  private readonly viewport = $('viewport');
  private readonly spacer = $('spacer');
  private readonly rowsEl = $('rows');
  private readonly search = $('search') as HTMLInputElement;
  private readonly classFilter = $('classFilter') as HTMLSelectElement;
  /** Rows received for the current filter, by position. */
  private cache = new Map<number, ObjectRow | RawRecordRow>();
  private total = 0;
  /** Rows the current filter keeps; -1 until the host has answered for it. */
  private shown = -1;
  private seq = 0;
  /** The first query sent for the current filter: answers to older ones are stale. */
  private filterSeq = 0;
  /** The window asked for and not yet answered (positions), to avoid asking twice. */
  private pending: { start: number; end: number; seq: number } | undefined;
  private firstRowsSent = false;
  private drawn = { first: -1, last: -1 };
  /** The selected object's name (kept across edits and refilters) and its position when known. */
  private selectedName: string | undefined;
  private selectedPos = -1;
  private framePending = false;

  constructor(private readonly hooks: TableHooks) {
    this.wire();
  }

  private columns(): string[] {
    return this.hooks.view()?.objectKind === 'raw'
      ? ['#', 'Offset', 'Set', 'Record bytes (50)']
      : ['#', 'Name', 'Class', 'Group', 'Position (cm)', 'Rotation (x, y, z, w)', 'Template', 'Name hash'];
  }

  renderHead(): void {
    $('head').className = this.hooks.view()?.objectKind === 'raw' ? 'raw' : 'objects';
    $('head').innerHTML = this.columns()
      .map((c, i) => '<div role="columnheader"' + (i === 0 ? ' class="num"' : '') + '>' + esc(c) + '</div>')
      .join('');
  }

  private visibleRange(): { first: number; last: number } {
    const top = this.viewport.scrollTop;
    const height = this.viewport.clientHeight || ROW_HEIGHT * 30;
    const n = Math.max(0, this.shown);
    return {
      first: Math.max(0, Math.min(n, Math.floor(top / ROW_HEIGHT) - OVERSCAN)),
      last: Math.min(n, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN),
    };
  }

  requestWindow(): void {
    // Asked for on any tab, so the counts are known (and the objects ready) before the Objects tab is shown.
    const view = this.hooks.view();
    if (!view || view.objectKind === 'none') return;
    let { first, last } = this.visibleRange();
    if (this.shown < 0) {
      first = Math.max(0, Math.floor(this.viewport.scrollTop / ROW_HEIGHT) - OVERSCAN);
      last = first + Math.ceil((this.viewport.clientHeight || ROW_HEIGHT * 30) / ROW_HEIGHT) + 2 * OVERSCAN;
    } else {
      while (first < last && this.cache.has(first)) first++;
      while (last > first && this.cache.has(last - 1)) last--;
      if (first >= last) return;
    }
    if (this.pending && this.pending.seq >= this.filterSeq && this.pending.start <= first && this.pending.end >= last) return;
    this.seq++;
    this.pending = { start: first, end: last, seq: this.seq };
    this.hooks.host.post({
      type: 'query',
      seq: this.seq,
      text: this.hooks.state.search,
      className: this.hooks.state.className,
      start: first,
      count: Math.min(500, last - first),
    });
  }

  refilter(keepScroll = false): void {
    this.cache = new Map();
    this.shown = -1;
    this.filterSeq = this.seq + 1;
    this.pending = undefined;
    if (!keepScroll) this.viewport.scrollTop = 0;
    this.requestWindow();
  }

  onRows(m: RowsMessage): void {
    if (m.seq < this.filterSeq) return;
    if (this.pending?.seq === m.seq) this.pending = undefined;
    this.total = m.total;
    if (this.shown !== m.shown) {
      this.shown = m.shown;
      this.spacer.style.height = this.shown * ROW_HEIGHT + 'px';
    }
    m.rows.forEach((r, i) => {
      this.cache.set(m.start + i, r);
      if ('name' in r && r.name === this.selectedName) this.selectedPos = m.start + i;
    });
    const q = this.hooks.state.search.trim() !== '' || this.hooks.state.className !== '';
    const what = this.hooks.view()?.objectKind === 'raw' ? 'raw records' : 'objects';
    $('shownText').textContent = q ? fmt(this.shown) + ' of ' + fmt(this.total) + ' ' + what : fmt(this.total) + ' ' + what;
    this.dataset.total = String(this.total);
    this.dataset.shown = String(this.shown);
    this.drawn = { first: -1, last: -1 };
    this.render();
    if (!this.firstRowsSent) {
      this.firstRowsSent = true;
      requestAnimationFrame(() => this.hooks.host.post({ type: 'firstRows', rows: this.rowsEl.children.length }));
    }
    // Rows scrolled into view while this window was on its way.
    this.requestWindow();
  }

  private render(): void {
    const { first, last } = this.visibleRange();
    if (first === this.drawn.first && last === this.drawn.last) return;
    let html = '';
    const cls = this.hooks.view()?.objectKind === 'raw' ? 'row raw' : 'row objects';
    for (let pos = first; pos < last; pos++) {
      const r = this.cache.get(pos);
      const on = r !== undefined && 'name' in r && r.name === this.selectedName;
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
    this.rowsEl.style.transform = 'translateY(' + first * ROW_HEIGHT + 'px)';
    this.rowsEl.innerHTML = html;
    this.drawn = { first, last };
    this.grid.setAttribute('aria-rowcount', String(Math.max(0, this.shown) + 1));
  }

  private selectAt(pos: number): void {
    const r = this.cache.get(pos);
    if (!r || !('name' in r)) return;
    this.selectedName = r.name;
    this.selectedPos = pos;
    this.dataset.selected = r.name;
    const top = pos * ROW_HEIGHT;
    if (top < this.viewport.scrollTop) this.viewport.scrollTop = top;
    else if (top + ROW_HEIGHT > this.viewport.scrollTop + this.viewport.clientHeight) this.viewport.scrollTop = top + ROW_HEIGHT - this.viewport.clientHeight;
    this.drawn = { first: -1, last: -1 };
    this.render();
    this.grid.setAttribute('aria-activedescendant', '');
    this.hooks.selected(r);
  }

  selectName(name: string | undefined, row?: ObjectRow): void {
    this.selectedName = name;
    this.selectedPos = -1;
    if (name === undefined) delete this.dataset.selected;
    else this.dataset.selected = name;
    this.hooks.selected(row ?? null);
  }

  private wire(): void {
    this.viewport.addEventListener(
      'scroll',
      () => {
        if (this.framePending) return;
        this.framePending = true;
        requestAnimationFrame(() => {
          this.framePending = false;
          this.render();
          this.requestWindow();
        });
      },
      { passive: true },
    );
    window.addEventListener('resize', () => {
      this.drawn = { first: -1, last: -1 };
      this.render();
      this.requestWindow();
    });
    wireSearchBox(this.search, {
      changed: (value) => {
        this.hooks.state.search = value;
        this.hooks.save();
        this.refilter();
      },
      table: this.grid,
    });
    this.classFilter.addEventListener('change', () => {
      this.hooks.state.className = this.classFilter.value;
      this.hooks.save();
      this.refilter();
    });
    this.rowsEl.addEventListener('click', (e) => {
      const pos = (e.target as HTMLElement).closest<HTMLElement>('[data-pos]')?.dataset.pos;
      if (pos !== undefined) this.selectAt(Number(pos));
    });
    this.grid.addEventListener('keydown', (e) => this.key(e));
  }

  /** Arrows select, Enter goes to the edit panel, the page keys and Home/End scroll. */
  private key(e: KeyboardEvent): void {
    const v = this.viewport;
    const page = Math.max(1, Math.floor(v.clientHeight / ROW_HEIGHT) - 1) * ROW_HEIGHT;
    const scrolls: Record<string, number> = { PageDown: page, PageUp: -page };
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const down = e.key === 'ArrowDown';
      const from = this.selectedPos >= 0 ? this.selectedPos : Math.floor(v.scrollTop / ROW_HEIGHT) - (down ? 1 : 0);
      this.selectAt(Math.max(0, Math.min(this.shown - 1, from + (down ? 1 : -1))));
    } else if (e.key === 'Enter') this.hooks.enter();
    else if (e.key in scrolls) v.scrollTop += scrolls[e.key];
    else if (e.key === 'Home') v.scrollTop = 0;
    else if (e.key === 'End') v.scrollTop = this.shown * ROW_HEIGHT;
    else return;
    e.preventDefault();
  }

  /** The class filter's options and the search box for a (new) view. */
  setView(v: RegistryView): void {
    this.classFilter.innerHTML =
      '<option value="">All classes (' +
      fmt(v.objectCount) +
      ')</option>' +
      v.classes.map((c) => '<option value="' + esc(c.name) + '">' + esc(c.name) + ' (' + fmt(c.count) + ')</option>').join('');
    if (!v.classes.some((c) => c.name === this.hooks.state.className)) this.hooks.state.className = '';
    this.classFilter.value = this.hooks.state.className;
    this.classFilter.disabled = v.objectKind !== 'objects';
    this.search.value = this.hooks.state.search;
    this.renderHead();
    this.total = v.objectCount;
    this.dataset.total = String(this.total);
    if (v.objectKind === 'none') {
      $('shownText').textContent = 'No OBJL block: no objects.';
      this.dataset.shown = '0';
    }
  }

  focus(): void {
    this.grid.focus();
  }
}
