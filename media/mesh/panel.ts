/**
 * The side panel: the parts of the LOD on screen (visibility, selection, slot, triangles), the
 * slots' textures (slotTextures.ts fills that section), the model's LODs and bounds, its skeleton
 * (a searchable bone list: `BoneList`) and its notes. Names the file stores only as hashes are
 * shown decoded where the host named them (`shown`), the hash on hover.
 */
import { Vector3 } from 'three';
import type { MeshModel } from '../../core/model';
import { searchBones } from '../../core/model';
import { el, esc, fmt } from '../shared/html';
import { LodView, PartView, cm, slotKey } from './model';

/** What the parts table does. */
export interface PanelActions {
  /** A part's box was ticked or unticked. */
  visibility(p: PartView, visible: boolean): void;
  /** A part's name was clicked (select it, or clear the selection when it is selected). */
  select(p: PartView): void;
  /** "Show all". */
  showAll(lv: LodView): void;
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** A table in a box that scrolls sideways when the panel is narrower than the table. */
const scrolling = (table: HTMLTableElement): HTMLDivElement => el('div', { className: 'tableBox' }, table);

/** A name as shown, with the stored form (a hash) on hover when they differ. */
function nameTitle(raw: string, shown: string, title = ''): string {
  return [title, shown !== raw ? `stored as ${raw}` : ''].filter(Boolean).join('; ');
}

/** The parts table of `lv` (LOD `lodIndex` of the file), then its slots' section `slotsBox`. */
function partsSection(out: DocumentFragment, lv: LodView, lodIndex: number, slotsBox: HTMLElement, actions: PanelActions, shown: (n: string) => string): void {
  out.append(el('h3', { textContent: `Parts of LOD ${lodIndex}` }));
  const table = el('table', { className: 'parts' });
  table.append(
    el('tr', {}, el('th', { textContent: 'Show · part' }), el('th', { textContent: 'Material' }), el('th', { className: 'num', textContent: 'Triangles' })),
  );
  for (const p of lv.parts) {
    const label = shown(p.part.name);
    const box = el('input', { type: 'checkbox', checked: p.visible });
    box.setAttribute('aria-label', `Show ${label}`);
    box.addEventListener('change', () => actions.visibility(p, box.checked));
    const name = el('button', { className: 'link', textContent: label, title: nameTitle(p.part.name, label, 'Select this part (F frames it, Esc clears)') });
    name.dataset.partName = p.part.name;
    name.addEventListener('click', () => actions.select(p));
    const swatch = el('span', { className: 'swatch' });
    swatch.style.background = `#${p.slotColor.getHexString()}`;
    const first = el('td', { className: 'part' }, box, ' ', name);
    if (p.flipped)
      first.append(
        ' ',
        el('span', {
          className: 'mark',
          textContent: 'cw',
          title: 'The triangles turn clockwise against the normals (Direct3D order); drawn reversed. The glTF export reverses them too.',
        }),
      );
    const row = el('tr', {}, first, el('td', {}, swatch, slotKey(p.part)), el('td', { className: 'num', textContent: fmt(p.triangles) }));
    row.dataset.part = String(p.index);
    table.append(row);
  }
  out.append(scrolling(table));
  const all = el('button', { className: 'small', textContent: 'Show all' });
  all.addEventListener('click', () => {
    table.querySelectorAll('input').forEach((b) => (b.checked = true));
    actions.showAll(lv);
  });
  out.append(el('p', {}, all));
  out.append(el('h3', { textContent: 'Textures by material slot' }), slotsBox);
}

/** What the bone list does. */
export interface BoneActions {
  /** A bone was chosen in the list (undefined: the selection was cleared). */
  select(bone: number | undefined): void;
  /** The pointer is over a bone's row (undefined: it left the list). */
  hover(bone: number | undefined): void;
}

/**
 * The skeleton's bones as a searchable list box: a search field (every word, in the name, the
 * stored hash or the index) over the matching bones, each with its parent. Choosing a bone (click,
 * or the arrow keys in the field or the list, Enter, Home/End) selects it, which highlights it in
 * the scene and names it and its parent there; Esc clears the search, then the selection.
 */
export class BoneList {
  readonly element: HTMLElement;
  private readonly input = el('input', { type: 'search', id: 'boneSearch', placeholder: 'Find a bone (name, hash or index)', autocomplete: 'off' });
  private readonly list = el('ul', { id: 'boneList', tabIndex: 0 });
  private readonly count = el('span', { className: 'hint', id: 'boneCount' });
  private matches: number[] = [];
  private selected: number | undefined;
  private shownNames: string[] = [];

  constructor(
    private readonly model: MeshModel,
    private readonly shown: (n: string) => string,
    private readonly actions: BoneActions,
    query: string,
  ) {
    this.input.setAttribute('role', 'combobox');
    this.input.setAttribute('aria-label', 'Find a bone');
    this.input.setAttribute('aria-controls', 'boneList');
    this.input.setAttribute('aria-expanded', 'true');
    this.input.setAttribute('aria-autocomplete', 'list');
    this.input.value = query;
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', 'Bones');
    this.count.setAttribute('aria-live', 'polite');
    this.element = el('div', { className: 'boneList' }, el('div', { className: 'boneSearch' }, this.input, ' ', this.count), this.list);
    this.input.addEventListener('input', () => this.render());
    this.input.addEventListener('keydown', (e) => this.key(e, true));
    this.list.addEventListener('keydown', (e) => this.key(e, false));
    this.list.addEventListener('click', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('li[data-bone]');
      if (row) this.choose(Number(row.dataset.bone));
    });
    this.list.addEventListener('mouseover', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('li[data-bone]');
      this.actions.hover(row ? Number(row.dataset.bone) : undefined);
    });
    this.list.addEventListener('mouseleave', () => this.actions.hover(undefined));
    this.render();
  }

  /** The search text (kept with the view state). */
  get query(): string {
    return this.input.value;
  }

  /** Names decoded since the list was made: rows again. */
  refresh(): void {
    this.render();
  }

  /** Marks `bone` selected (from the scene or the view), scrolling its row into view. */
  setSelected(bone: number | undefined): void {
    this.selected = bone;
    let activeId = '';
    this.list.querySelectorAll<HTMLElement>('li[data-bone]').forEach((row) => {
      const on = Number(row.dataset.bone) === bone;
      row.setAttribute('aria-selected', String(on));
      row.classList.toggle('selected', on);
      if (on) {
        activeId = row.id;
        row.scrollIntoView({ block: 'nearest' });
      }
    });
    for (const e of [this.input, this.list]) {
      if (activeId) e.setAttribute('aria-activedescendant', activeId);
      else e.removeAttribute('aria-activedescendant');
    }
  }

  private render(): void {
    const sk = this.model.skeleton!;
    this.shownNames = sk.bones.map((b) => this.shown(b.name));
    this.matches = searchBones(
      this.shownNames,
      this.input.value,
      sk.bones.map((b) => b.name),
    );
    const rows = this.matches.map((i) => {
      const b = sk.bones[i]!;
      const parent = b.parent >= 0 ? (this.shownNames[b.parent] ?? String(b.parent)) : '(root)';
      const row = el(
        'li',
        { id: `bone-${i}`, title: nameTitle(b.name, this.shownNames[i]!, `bone ${i}, parent ${parent}`) },
        el('span', { className: 'num', textContent: String(i) }),
        el('span', { className: 'name', textContent: this.shownNames[i]! }),
        el('span', { className: 'parent', textContent: `← ${parent}` }),
      );
      row.dataset.bone = String(i);
      row.setAttribute('role', 'option');
      return row;
    });
    this.list.replaceChildren(...rows);
    if (rows.length === 0) this.list.append(el('li', { className: 'hint', textContent: 'No bone matches.' }));
    this.count.textContent = this.input.value.trim() ? `${this.matches.length} of ${sk.bones.length}` : `${sk.bones.length}`;
    this.setSelected(this.selected);
  }

  private choose(bone: number | undefined): void {
    this.setSelected(bone);
    this.actions.select(bone);
  }

  private key(e: KeyboardEvent, inField: boolean): void {
    const at = this.selected === undefined ? -1 : this.matches.indexOf(this.selected);
    const last = this.matches.length - 1;
    let next: number | undefined;
    if (e.key === 'ArrowDown') next = Math.min(last, at + 1);
    else if (e.key === 'ArrowUp') next = at < 0 ? last : Math.max(0, at - 1);
    else if (!inField && e.key === 'Home') next = 0;
    else if (!inField && e.key === 'End') next = last;
    else if (e.key === 'Enter' || (!inField && e.key === ' ')) next = at >= 0 ? at : 0;
    else if (e.key === 'Escape') {
      if (inField && this.input.value) {
        this.input.value = '';
        this.render();
      } else this.choose(undefined);
      e.preventDefault();
      e.stopPropagation();
      return;
    } else return;
    e.preventDefault();
    e.stopPropagation();
    if (next !== undefined && next >= 0 && this.matches[next] !== undefined) this.choose(this.matches[next]);
  }
}

function skeletonSection(out: DocumentFragment, m: MeshModel, bones: BoneList | undefined, shown: (n: string) => string): void {
  const sk = m.skeleton;
  if (!sk) return;
  out.append(el('h3', { textContent: `Skeleton: ${sk.bones.length} bones, ${sk.sockets.length} sockets` }));
  if (bones) out.append(bones.element);
  else if (sk.bones.length > 0) out.append(el('p', { className: 'hint', textContent: 'Listing the bones…' }));
  if (sk.sockets.length > 0) {
    const sd = el('details', { open: sk.sockets.length <= 16 });
    sd.append(el('summary', { textContent: 'Sockets (name, bone)' }));
    const st = el('table', { className: 'bones' });
    for (const s of sk.sockets) {
      const bone = sk.bones[s.bone];
      st.append(el('tr', {}, el('td', { textContent: shown(s.name) }), el('td', { textContent: bone ? shown(bone.name) : String(s.bone) })));
    }
    sd.append(scrolling(st));
    out.append(sd);
  }
}

/**
 * Fills `info` for model `m` with LOD `lv` on screen (index `lodIndex` into `m.lods`); the
 * slots' section `slotsBox` goes under the parts (the caller fills it), the bone list `bones`
 * under the skeleton's heading (undefined until the caller makes it: after the first frame).
 * `shown` gives a name as shown (hashes decoded).
 */
export function showInfo(
  info: HTMLElement,
  m: MeshModel,
  lv: LodView | undefined,
  lodIndex: number,
  slotsBox: HTMLElement,
  actions: PanelActions,
  shown: (n: string) => string,
  bones: BoneList | undefined,
): void {
  const out = document.createDocumentFragment();
  if (lv) partsSection(out, lv, m.lods[lodIndex]!.index, slotsBox, actions, shown);
  else if (m.lods.length === 0) out.append(el('p', { className: 'hint', textContent: 'This model has no mesh: only its skeleton is drawn.' }));

  const size = new Vector3(...m.bounds.max).sub(new Vector3(...m.bounds.min));
  const rows: [string, string][] = [
    ['file', m.name],
    [
      'LODs',
      m.lods.map((l) => `${l.index}: ${fmt(l.triangles)} tris, ${fmt(l.vertices)} verts${l.distance !== undefined ? ` @ ${cm(l.distance)}` : ''}`).join('\n') ||
        'none',
    ],
    ['bounds', `${cm(size.x)} × ${cm(size.y)} × ${cm(size.z)}\nmin ${m.bounds.min.map(round2).join(', ')}\nmax ${m.bounds.max.map(round2).join(', ')}`],
  ];
  if (m.sphere) rows.push(['sphere', `centre ${m.sphere.center.map(round2).join(', ')}, radius ${cm(m.sphere.radius)}`]);
  const modelTable = el('table', { className: 'model' });
  for (const [k, v] of rows) modelTable.append(el('tr', {}, el('th', { textContent: k }), el('td', { innerHTML: esc(v).replace(/\n/g, '<br>') })));
  out.append(el('h3', { textContent: 'Model' }), modelTable);

  skeletonSection(out, m, bones, shown);
  if (m.notes.length > 0) {
    out.append(el('h3', { textContent: 'Notes' }));
    const ul = el('ul');
    for (const n of m.notes) ul.append(el('li', { textContent: n }));
    out.append(ul);
  }
  info.replaceChildren(out);
}

/** Marks the row of the selected part. */
export function markSelected(info: HTMLElement, selected: PartView | undefined): void {
  info.querySelectorAll<HTMLTableRowElement>('tr[data-part]').forEach((row) => row.classList.toggle('selected', selected?.index === Number(row.dataset.part)));
}
