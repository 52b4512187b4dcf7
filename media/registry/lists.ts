/**
 * The registry editor's lists (media/registry/registryView.ts): the Bindings tab (click or Enter
 * opens the part's script at the function), the Groups tab (owner → members) and the Blocks tab
 * (the chain; a raw block's bytes as hex).
 */
import { esc, fmt } from '../shared/html';
import type { HostChannel } from '../shared/webviewApi';
import type { BindingRowView, BlockRow, RegistryView, ViewToHost } from './protocol';
import { bytes, conf, count } from './summary';

const $ = (id: string): HTMLElement => document.getElementById(id)!;

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

export function renderBindings(v: RegistryView, host: HostChannel<ViewToHost>): void {
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

export function renderGroups(v: RegistryView): void {
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

export function renderBlocks(v: RegistryView): void {
  const panel = $('panel-blocks');
  panel.innerHTML =
    '<table id="blocks" class="list"><thead><tr><th class="num">#</th><th>Tag</th><th>Registered name</th><th>Name hash</th><th class="num">Offset</th><th class="num">Size</th><th>Reader</th></tr></thead><tbody>' +
    v.blocks.map(blockHtml).join('') +
    '</tbody></table><div id="hexView" hidden></div>';
}

/** The blocks panel stays while its table is rebuilt: one listener for its hex buttons. */
export function wireBlocks(host: HostChannel<ViewToHost>): void {
  $('panel-blocks').addEventListener('click', (e) => {
    const b = (e.target as HTMLElement).closest<HTMLElement>('button[data-hex]')?.dataset.hex;
    if (b !== undefined) host.post({ type: 'hex', block: Number(b) });
  });
}

export function showHex(view: RegistryView | undefined, block: number, text: string, shownBytes: number, size: number): void {
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
