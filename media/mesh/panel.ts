/**
 * The side panel: the parts of the LOD on screen (visibility, selection, slot, triangles), the
 * slots' textures (slotTextures.ts fills that section), the model's LODs and bounds, its skeleton
 * and its notes.
 */
import { Vector3 } from 'three';
import type { MeshModel } from '../../core/model';
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

/** The parts table of `lv` (LOD `lodIndex` of the file), then its slots' section `slotsBox`. */
function partsSection(out: DocumentFragment, lv: LodView, lodIndex: number, slotsBox: HTMLElement, actions: PanelActions): void {
  out.append(el('h3', { textContent: `Parts of LOD ${lodIndex}` }));
  const table = el('table', { className: 'parts' });
  table.append(el('tr', {}, el('th', { textContent: 'Show · part' }), el('th', { textContent: 'Material' }), el('th', { textContent: 'Triangles' })));
  for (const p of lv.parts) {
    const box = el('input', { type: 'checkbox', checked: p.visible });
    box.setAttribute('aria-label', `Show ${p.part.name}`);
    box.addEventListener('change', () => actions.visibility(p, box.checked));
    const name = el('button', { className: 'link', textContent: p.part.name, title: 'Select this part (F frames it, Esc clears)' });
    name.addEventListener('click', () => actions.select(p));
    const swatch = el('span', { className: 'swatch' });
    swatch.style.background = `#${p.slotColor.getHexString()}`;
    const first = el('td', {}, box, ' ', name);
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
  out.append(table);
  const all = el('button', { className: 'small', textContent: 'Show all' });
  all.addEventListener('click', () => {
    table.querySelectorAll('input').forEach((b) => (b.checked = true));
    actions.showAll(lv);
  });
  out.append(el('p', {}, all));
  out.append(el('h3', { textContent: 'Textures by material slot' }), slotsBox);
}

function skeletonSection(out: DocumentFragment, m: MeshModel): void {
  const sk = m.skeleton;
  if (!sk) return;
  out.append(el('h3', { textContent: `Skeleton: ${sk.bones.length} bones, ${sk.sockets.length} sockets` }));
  const details = el('details', { open: sk.bones.length <= 64 });
  details.append(el('summary', { textContent: 'Bones (index, name, parent)' }));
  const t = el('table', { className: 'bones' });
  sk.bones.forEach((b, i) =>
    t.append(
      el(
        'tr',
        {},
        el('td', { className: 'num', textContent: String(i) }),
        el('td', { textContent: b.name }),
        el('td', { textContent: b.parent >= 0 ? (sk.bones[b.parent]?.name ?? String(b.parent)) : '(root)' }),
      ),
    ),
  );
  details.append(t);
  out.append(details);
  if (sk.sockets.length > 0) {
    const sd = el('details', { open: sk.sockets.length <= 16 });
    sd.append(el('summary', { textContent: 'Sockets (name, bone)' }));
    const st = el('table', { className: 'bones' });
    for (const s of sk.sockets) st.append(el('tr', {}, el('td', { textContent: s.name }), el('td', { textContent: sk.bones[s.bone]?.name ?? String(s.bone) })));
    sd.append(st);
    out.append(sd);
  }
}

/**
 * Fills `info` for model `m` with LOD `lv` on screen (index `lodIndex` into `m.lods`); the
 * slots' section `slotsBox` goes under the parts (the caller fills it).
 */
export function showInfo(info: HTMLElement, m: MeshModel, lv: LodView | undefined, lodIndex: number, slotsBox: HTMLElement, actions: PanelActions): void {
  const out = document.createDocumentFragment();
  if (lv) partsSection(out, lv, m.lods[lodIndex]!.index, slotsBox, actions);
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
  const modelTable = el('table');
  for (const [k, v] of rows) modelTable.append(el('tr', {}, el('th', { textContent: k }), el('td', { innerHTML: esc(v).replace(/\n/g, '<br>') })));
  out.append(el('h3', { textContent: 'Model' }), modelTable);

  skeletonSection(out, m);
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
