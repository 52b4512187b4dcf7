/**
 * The viewer's controls: the toolbar (title, LOD select, Frame, the overlay toggles, the status
 * line) and the keyboard (F frames, W toggles the wireframe, Esc clears the selection). The view
 * state they edit is saved with the webview (`setState`), so a reopened tab keeps its toggles.
 */
import type { MeshModel, ModelPart } from '../../core/model';
import { lodDisabledReason } from '../../core/model';
import { el, fmt } from '../shared/html';

export type Toggle = 'wireframe' | 'textures' | 'normals' | 'tangents' | 'colors' | 'bounds' | 'bones' | 'labels' | 'uv';

export interface ViewState extends Record<Toggle, boolean> {
  /** The LOD shown (an index into `model.lods`). */
  lod: number;
}

export const DEFAULT_VIEW: ViewState = {
  lod: 0,
  wireframe: false,
  textures: true,
  normals: false,
  tangents: false,
  colors: false,
  bounds: false,
  bones: false,
  labels: false,
  uv: false,
};

const TOGGLES: { key: Toggle; label: string; title: string }[] = [
  { key: 'wireframe', label: 'Wireframe', title: 'Draw triangle edges only (W)' },
  { key: 'textures', label: 'Textures', title: 'Draw the textures assigned to material slots (assign one with "Texture…" beside a slot)' },
  { key: 'normals', label: 'Normals', title: 'Show the vertex normals the file stores' },
  { key: 'tangents', label: 'Tangents', title: 'Show the vertex tangents the file stores' },
  { key: 'colors', label: 'Vertex colours', title: 'Shade with the vertex colours instead of the material colour' },
  { key: 'bounds', label: 'Bounds', title: 'Show the bounding box and bounding sphere' },
  { key: 'bones', label: 'Bones', title: 'Show the skeleton (bones, sockets); names for the hovered or selected bone and its parent' },
  { key: 'labels', label: 'All names', title: 'Name every bone and socket, not only the hovered or selected bone and its parent' },
  { key: 'uv', label: 'UV', title: 'Show the visible parts’ triangles in UV space' },
];

/** What the controls do. */
export interface ToolbarActions {
  toggle(key: Toggle): void;
  selectLod(index: number): void;
  frame(): void;
  /** Esc: true when there was a selection to clear. */
  clearSelection(): boolean;
}

export class Toolbar {
  readonly element: HTMLDivElement;
  private readonly title = el('span', { id: 'title' });
  private readonly lodSelect = el('select', { id: 'lod', title: 'Level of detail' });
  /** The select's label: a disabled select gets no hover events in every browser, its label does. */
  private readonly lodLabel = el('label', {}, 'LOD ', this.lodSelect);
  private readonly toggles = new Map<Toggle, HTMLButtonElement>();
  private readonly status = el('span', { id: 'status' });

  constructor(actions: ToolbarActions) {
    this.lodSelect.setAttribute('aria-label', 'Level of detail');
    this.lodSelect.addEventListener('change', () => actions.selectLod(Number(this.lodSelect.value)));
    const frameButton = el('button', { id: 'frame', title: 'Frame the model, or the selected part (F)', textContent: 'Frame' });
    frameButton.addEventListener('click', () => actions.frame());
    const group = el('span', { className: 'group' });
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', 'Overlays');
    for (const t of TOGGLES) {
      const b = el('button', { title: t.title, textContent: t.label });
      b.dataset.toggle = t.key;
      b.setAttribute('aria-pressed', 'false');
      b.addEventListener('click', () => actions.toggle(t.key));
      this.toggles.set(t.key, b);
      group.append(b);
    }
    this.status.setAttribute('aria-live', 'polite');
    this.element = el('div', { id: 'toolbar' }, this.title, this.lodLabel, frameButton, group, this.status);
    this.element.setAttribute('role', 'toolbar');
    this.element.setAttribute('aria-label', '3D view controls');
    bindKeys(actions);
  }

  /** A new model: its title and its LODs in the select. */
  showModel(m: MeshModel, title: string, lod: number): void {
    this.title.textContent = title;
    this.title.title = m.name;
    this.lodSelect.replaceChildren(...m.lods.map((l, i) => el('option', { value: String(i), textContent: `LOD ${l.index} · ${fmt(l.triangles)} tris` })));
    if (m.lods.length === 0) this.lodSelect.append(el('option', { value: '-1', textContent: 'no mesh' }));
    this.lodSelect.disabled = m.lods.length <= 1;
    this.lodSelect.value = String(m.lods.length > 0 ? lod : -1);
    const why = lodDisabledReason(m);
    this.lodSelect.title = this.lodLabel.title = why ?? 'Level of detail: the parts drawn from each distance';
  }

  /**
   * Pressed toggles (`forced` ones are on whatever the state says), and those with nothing to show
   * disabled, each with why on hover. A disabled toggle is never shown pressed (no `on`, and
   * aria-pressed false), whatever the saved state says.
   */
  setToggles(state: ViewState, forced: ReadonlySet<Toggle>, disabled: ReadonlyMap<Toggle, string>): void {
    for (const [key, b] of this.toggles) {
      const why = disabled.get(key);
      const on = why === undefined && (state[key] || forced.has(key));
      b.setAttribute('aria-pressed', String(on));
      b.classList.toggle('on', on);
      b.disabled = why !== undefined;
      b.title = why === undefined ? TOGGLES.find((t) => t.key === key)!.title : `${TOGGLES.find((t) => t.key === key)!.label}: ${why}`;
    }
  }

  setStatus(text: string): void {
    this.status.textContent = text;
  }
}

function bindKeys(actions: ToolbarActions): void {
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'SELECT' || (t.tagName === 'INPUT' && (t as HTMLInputElement).type !== 'checkbox') || t.tagName === 'TEXTAREA')) return;
    const k = e.key.toLowerCase();
    if (k === 'f') actions.frame();
    else if (k === 'w') actions.toggle('wireframe');
    else if (k !== 'escape' || !actions.clearSelection()) return;
    e.preventDefault();
  });
}

/** The toggles with nothing to show for `model` and the shown LOD's `parts`, each with why (the button's title). */
export function disabledToggles(model: MeshModel | undefined, parts: readonly ModelPart[], state: ViewState, textureCount: number): Map<Toggle, string> {
  const disabled = new Map<Toggle, string>();
  const noSkeleton = !model?.skeleton || model.skeleton.bones.length === 0;
  if (noSkeleton) {
    disabled.set('bones', 'this model has no skeleton');
    disabled.set('labels', 'this model has no skeleton');
  } else if (!state.bones && model.lods.length > 0) disabled.set('labels', 'names are drawn with the skeleton: turn Bones on first');
  const none = parts.length === 0 ? 'this model has no mesh' : undefined;
  for (const [key, has, what] of [
    ['normals', 'normals', 'normals'],
    ['tangents', 'tangents', 'tangents'],
    ['colors', 'colors', 'vertex colours'],
    ['uv', 'uvs', 'texture coordinates'],
  ] as const)
    if (!parts.some((p) => p[has])) disabled.set(key, none ?? `the parts of this LOD store no ${what}`);
  if (none) disabled.set('wireframe', none);
  if (textureCount === 0) disabled.set('textures', none ?? 'no texture is assigned yet: choose one with "Texture…" beside a material slot in the panel');
  return disabled;
}
