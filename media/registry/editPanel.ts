/**
 * The registry editor's edit panel (issue 24 item 4), beside the Objects table: the selected
 * object's name, class, position (cm) and rotation (degrees: pitch about X, yaw about Y, roll about
 * Z; the file stores a unit quaternion), its bindings' events and functions, the members of the
 * group it owns, and Add / Delete. Each change is one `edit` message (./protocol.ts RegistryEdit);
 * the host applies it through core's edits, re-validated with the reader's checks, and answers
 * `editResult`: a refused edit's reason is shown here (role="alert") and nothing changed. Undo and
 * redo are VS Code's (Ctrl+Z / Ctrl+Y outside a text field; Edit menu). Every control is reachable
 * with Tab; Enter in a field applies its section; Escape goes back to the table.
 */
import { esc } from '../shared/html';
import type { HostChannel } from '../shared/webviewApi';
import type { ObjectRow, RegistryEdit, RegistryView, Vec3, ViewToHost } from './protocol';

const $ = (id: string): HTMLElement => document.getElementById(id)!;
const field = (id: string): HTMLInputElement => document.getElementById(id) as HTMLInputElement;
/** How a number shows in a field (and what "unchanged" compares against). */
const shown = (x: number): string => String(Math.round(x * 1000) / 1000);

const vec = (prefix: string): Vec3 | undefined => {
  const v = ['x', 'y', 'z'].map((k) => Number(field(prefix + k).value.trim()));
  return v.every(Number.isFinite) && ['x', 'y', 'z'].every((k) => field(prefix + k).value.trim() !== '') ? (v as Vec3) : undefined;
};

const changed = (prefix: string, was: number[]): boolean => ['x', 'y', 'z'].some((k, i) => field(prefix + k).value.trim() !== shown(was[i]));

/** The object section's edits: transform, class, then the rename (the others name it by its old name). */
function objectEdits(r: ObjectRow): RegistryEdit[] | string {
  const out: RegistryEdit[] = [];
  const moved = changed('pos', r.position);
  const turned = changed('rot', r.rotationDegrees);
  if (moved || turned) {
    const position = vec('pos');
    const rotationDegrees = vec('rot');
    if (moved && !position) return 'A position is three numbers (centimetres).';
    if (turned && !rotationDegrees) return 'A rotation is three numbers (degrees).';
    out.push({ kind: 'transform', object: r.name, ...(moved ? { position } : {}), ...(turned ? { rotationDegrees } : {}) });
  }
  const cls = field('editClass').value.trim();
  if (cls !== r.className) out.push({ kind: 'class', object: r.name, className: cls });
  const name = field('editName').value.trim();
  if (name !== r.name) out.push({ kind: 'rename', object: r.name, name });
  return out;
}

const input = (id: string, label: string, value: string, extra = ''): string =>
  '<label for="' + id + '">' + esc(label) + '</label><input id="' + id + '" value="' + esc(value) + '" spellcheck="false" autocomplete="off"' + extra + '>';

const triple = (prefix: string, label: string, v: number[], axes: string[]): string =>
  '<fieldset class="triple"><legend>' +
  esc(label) +
  '</legend>' +
  ['x', 'y', 'z'].map((k, i) => input(prefix + k, axes[i], shown(v[i]), ' inputmode="decimal" data-section="object"')).join('') +
  '</fieldset>';

function bindingsHtml(view: RegistryView | undefined, r: ObjectRow): string {
  const mine = (view?.bindings ?? []).filter((b) => b.object === r.name);
  if (!mine.length) return '<p class="muted">No script bindings.</p>';
  return mine
    .map(
      (b, k) =>
        '<div class="binding-edit" data-k="' +
        k +
        '">' +
        input('bindEvent' + k, 'Event', b.event ?? '', ' data-section="binding" data-k="' + k + '"') +
        input('bindFunction' + k, 'Function', b.function ?? '', ' data-section="binding" data-k="' + k + '"') +
        '<button data-apply="binding" data-k="' +
        k +
        '">Apply binding</button></div>',
    )
    .join('');
}

function groupHtml(view: RegistryView | undefined, r: ObjectRow): string {
  const g = (view?.groups ?? []).find((x) => x.owner === r.name);
  const members = g ? (g.sameMembersAs !== undefined ? (view?.groups.find((x) => x.owner === g.sameMembersAs)?.members ?? []) : g.members) : [];
  return (
    '<label for="editMembers">Members of its group (one name a line)</label><textarea id="editMembers" rows="4" spellcheck="false">' +
    esc(members.join('\n')) +
    '</textarea><button data-apply="group">Set members</button>'
  );
}

export interface EditPanel {
  /** Show `row` (null: nothing selected; `name` alone: selected, its row not here). */
  show(row: ObjectRow | null, name?: string): void;
  setView(v: RegistryView, blocked: string | null): void;
  result(seq: number, error: string | null): void;
  focus(): void;
}

export function editPanel(host: HostChannel<ViewToHost>, backToTable: () => void): EditPanel {
  const root = $('editPanel');
  const dataset = document.body.dataset;
  let view: RegistryView | undefined;
  let blocked: string | null = null;
  let row: ObjectRow | null = null;
  let seq = 0;
  /** Edits of one Apply, sent one after another (the next once the host accepted the previous). */
  let queue: RegistryEdit[] = [];
  let waiting = -1;
  /** The last result, kept across the re-render an edit's update makes. */
  let status = { text: '', bad: false };
  const statusHtml = (): string => '<p id="editStatus" role="alert" class="' + (status.bad ? 'bad' : 'muted') + '">' + esc(status.text) + '</p>';

  function say(text: string, bad: boolean): void {
    status = { text, bad };
    const p = document.getElementById('editStatus');
    if (p) p.outerHTML = statusHtml();
    dataset.editError = bad ? text : '';
  }

  function send(edits: RegistryEdit[]): void {
    if (!edits.length) return say('Nothing changed.', false);
    queue = edits.slice(1);
    waiting = ++seq;
    dataset.editing = 'pending';
    host.post({ type: 'edit', seq: waiting, edit: edits[0] });
  }

  function render(): void {
    if (blocked) {
      root.innerHTML = '<h3>Edit</h3><p class="warn">' + esc(blocked) + '</p>';
      return;
    }
    const add =
      '<details id="addSection"><summary>Add an object</summary>' +
      input('addName', 'Name', '', ' data-section="add"') +
      input('addClass', 'Class', row?.className ?? 'ScriptRelay', ' data-section="add"') +
      triple('addPos', 'Position (cm)', row?.position ?? [0, 0, 0], ['x', 'y', 'z']).replace(/data-section="object"/g, 'data-section="add"') +
      '<button data-apply="add">Add</button></details>';
    if (!row) {
      root.innerHTML = '<h3>Edit</h3><p class="muted">Select an object in the table (click, or ↑/↓) to edit it.</p>' + add + statusHtml();
      return;
    }
    root.innerHTML =
      '<h3>Edit <span class="mono">' +
      esc(row.name) +
      '</span></h3><div class="edit-object">' +
      input('editName', 'Name', row.name, ' data-section="object"') +
      input('editClass', 'Class', row.className, ' data-section="object"') +
      triple('pos', 'Position (cm)', row.position, ['x', 'y', 'z']) +
      triple('rot', 'Rotation (degrees)', row.rotationDegrees, ['pitch', 'yaw', 'roll']) +
      '<button id="editApply" data-apply="object">Apply</button> <button id="editDelete" data-apply="delete">Delete object</button></div>' +
      '<h4>Bindings</h4>' +
      bindingsHtml(view, row) +
      '<h4>Group</h4>' +
      groupHtml(view, row) +
      add +
      statusHtml();
  }

  function apply(section: string, k?: number): void {
    if (section === 'add') {
      const position = vec('addPos');
      if (!position) return say('A position is three numbers (centimetres).', true);
      return send([{ kind: 'add', name: field('addName').value.trim(), className: field('addClass').value.trim(), position }]);
    }
    if (!row) return;
    if (section === 'object') {
      const edits = objectEdits(row);
      return typeof edits === 'string' ? say(edits, true) : send(edits);
    }
    if (section === 'delete') return send([{ kind: 'delete', object: row.name }]);
    if (section === 'binding' && k !== undefined)
      return send([{ kind: 'binding', object: row.name, k, event: field('bindEvent' + k).value.trim(), function: field('bindFunction' + k).value.trim() }]);
    if (section === 'group') {
      const members = ($('editMembers') as HTMLTextAreaElement).value
        .split('\n')
        .map((m) => m.trim())
        .filter(Boolean);
      return send([{ kind: 'group', owner: row.name, members }]);
    }
  }

  root.addEventListener('click', (e) => {
    const b = (e.target as HTMLElement).closest<HTMLElement>('[data-apply]');
    if (b) apply(b.dataset.apply!, b.dataset.k === undefined ? undefined : Number(b.dataset.k));
  });
  root.addEventListener('keydown', (e) => {
    const t = e.target as HTMLElement;
    if (e.key === 'Escape') backToTable();
    else if (e.key === 'Enter' && t instanceof HTMLInputElement && t.dataset.section)
      apply(t.dataset.section, t.dataset.k === undefined ? undefined : Number(t.dataset.k));
    else return;
    e.preventDefault();
  });

  return {
    show(r, name) {
      row = r;
      dataset.editing = r ? 'object' : name ? 'missing' : 'none';
      render();
    },
    setView(v, b) {
      view = v;
      blocked = b;
      render();
    },
    result(s, error) {
      if (s !== waiting) return;
      if (error) {
        queue = [];
        dataset.editing = 'refused';
        return say(error, true);
      }
      const next = queue.shift();
      if (next) {
        waiting = ++seq;
        host.post({ type: 'edit', seq: waiting, edit: next });
        return;
      }
      dataset.editing = 'applied';
      say('Applied. Undo with Ctrl+Z; save into the mod with Ctrl+S.', false);
    },
    focus() {
      (root.querySelector<HTMLElement>('input, button') ?? root).focus();
    },
  };
}
