/**
 * The object-registry editor's webview: the header (./summary.ts) and four tabs: Objects (the
 * virtualised table, ./objectTable.ts, with the edit panel beside it, ./editPanel.ts), Bindings,
 * Groups and Blocks (./lists.ts). This file holds the state, the tabs and the message loop.
 * The page's markup comes from the host (extension/editors/registryEditor.ts), which inlines this
 * bundle (dist/webview/registryView.js) and registryView.css.
 *
 * Protocol: ./protocol.ts. The body's dataset mirrors the state for tests (see there; the edit
 * panel adds `selected`, `editing` and `editError`).
 */
import { failurePage, fmt } from '../shared/html';
import { hostChannel } from '../shared/webviewApi';
import type { HostToView, ObjectRow, RegistryView, ViewToHost } from './protocol';
import { summaryHtml } from './summary';
import { ObjectTable } from './objectTable';
import { editPanel } from './editPanel';
import { renderBindings, renderBlocks, renderGroups, showHex, wireBlocks } from './lists';

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

const panel = editPanel(host, () => table.focus());
const table = new ObjectTable({
  host,
  state,
  save,
  view: () => view,
  selected: (row: ObjectRow | null) => panel.show(row),
  enter: () => panel.focus(),
});

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
  if (tab === 'objects') table.requestWindow();
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
wireBlocks(host);

// ---- messages ----------------------------------------------------------------------------------

/** Header, tab titles and lists for a view (the first, or the registry after an edit). */
function showView(v: RegistryView): void {
  view = v;
  $('summary').innerHTML = summaryHtml(v);
  table.setView(v);
  $('tab-bindings').textContent = 'Bindings (' + fmt(v.bindingRows) + ')';
  $('tab-groups').textContent = 'Groups (' + fmt(v.groupCount) + ')';
  $('tab-blocks').textContent = 'Blocks (' + fmt(v.blocks.length) + ')';
  $('tab-objects').textContent = (v.objectKind === 'raw' ? 'Raw records (' : 'Objects (') + fmt(v.objectCount) + ')';
  renderBindings(v, host);
  renderGroups(v);
  renderBlocks(v);
}

function onInit(v: RegistryView, blocked: string | null, focus?: string): void {
  if (focus) {
    state.search = focus;
    state.tab = 'objects';
    save();
  }
  showView(v);
  panel.setView(v, v.objectKind === 'objects' ? blocked : (blocked ?? 'The objects were not decoded: they cannot be edited.'));
  dataset.state = 'ready';
  table.refilter();
  showTab(state.tab);
}

/** The registry after an edit, undo, redo or revert: same tab, search and scroll; the edited object selected. */
function onUpdated(v: RegistryView, select: string | undefined, row: ObjectRow | undefined): void {
  showView(v);
  panel.setView(v, null);
  table.selectName(select ?? dataset.selected, row);
  if (select && !row) panel.show(null, select);
  dataset.version = String(Number(dataset.version ?? '0') + 1);
  table.refilter(true);
}

window.addEventListener('message', (e: MessageEvent<HostToView>) => {
  const m = e.data;
  if (!m || typeof m !== 'object') return;
  switch (m.type) {
    case 'init':
      onInit(m.view, m.editBlocked, m.focus);
      return;
    case 'rows':
      table.onRows(m);
      return;
    case 'hex':
      showHex(view, m.block, m.text, m.shown, m.size);
      return;
    case 'updated':
      onUpdated(m.view, m.select, m.selectedRow);
      return;
    case 'editResult':
      panel.result(m.seq, m.error);
      return;
    case 'failed':
      dataset.state = 'failed';
      document.body.innerHTML = '<div class="message">' + failurePage('an object registry (OBJR)', m) + '</div>';
      return;
  }
});

showTab(state.tab);
host.post({ type: 'ready' });
