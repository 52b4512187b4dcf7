/**
 * Textures by material slot: the host's assignments (dropped with each model, sent again after
 * it), drawn as each slot's base-colour map on its parts that have UVs, and the panel section that
 * lists the slots of the LOD on screen with their "Texture…" and "×" buttons.
 */
import { DataTexture, LinearFilter, LinearMipmapLinearFilter, NoColorSpace, RGBAFormat, RepeatWrapping, SRGBColorSpace, UnsignedByteType } from 'three';
import { el } from '../shared/html';
import { LodView, NO_MATERIAL, PartView, slotKey } from './model';

/** A texture the host assigned to a material slot: the slot's base-colour map. */
export interface SlotTexture {
  texture: DataTexture;
  path: string;
  width: number;
  height: number;
}

/**
 * A slot's map from the host's RGBA8 (rows top first).
 *
 * UV convention: parts get the game's UVs as stored (model.ts copies them into `uv` unchanged),
 * v down with the origin at the image's top-left corner, as in glTF. A DataTexture uploads its
 * first row at texture coordinate v = 0 and `flipY` stays false, so the image's top row is v = 0:
 * the stored convention, with no flip anywhere (three's GLTFLoader sets flipY = false the same way).
 *
 * A base-colour map is sRGB (seed 004: the files store UNORM formats and mark colour maps with a
 * flag whose position is unknown); a map the host marks `linear` (`_n`, `_s`, `_m` by name) is
 * shown as raw data. Alpha is ignored (the material is opaque): in the game it often carries
 * something else. Wrapping repeats, as the glTF export's sampler does, since game UVs may leave 0..1.
 */
function makeSlotTexture(rgba: ArrayBuffer, width: number, height: number, path: string, linear: boolean, anisotropy: number): DataTexture {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || rgba.byteLength !== width * height * 4) {
    throw new Error(`texture ${path}: ${rgba.byteLength} bytes do not make ${width}x${height} RGBA8 pixels`);
  }
  const t = new DataTexture(new Uint8Array(rgba), width, height, RGBAFormat, UnsignedByteType);
  t.flipY = false;
  t.colorSpace = linear ? NoColorSpace : SRGBColorSpace;
  t.wrapS = t.wrapT = RepeatWrapping;
  t.magFilter = LinearFilter;
  t.minFilter = LinearMipmapLinearFilter;
  t.generateMipmaps = true;
  t.anisotropy = anisotropy;
  t.name = path;
  t.needsUpdate = true;
  return t;
}

/** The slot textures, by slot key. */
export class SlotTextures {
  private readonly bySlot = new Map<string, SlotTexture>();

  /** `anisotropy`: the filtering the renderer allows (at most 8). */
  constructor(private readonly anisotropy: number) {}

  get size(): number {
    return this.bySlot.size;
  }

  get(slot: string): SlotTexture | undefined {
    return this.bySlot.get(slot);
  }

  /** Sets (or replaces) a slot's texture. Throws when the pixels do not make the image. */
  set(slot: string, rgba: ArrayBuffer, width: number, height: number, path: string, linear: boolean): void {
    const texture = makeSlotTexture(rgba, width, height, path, linear, this.anisotropy);
    this.bySlot.get(slot)?.texture.dispose();
    this.bySlot.set(slot, { texture, path, width, height });
  }

  /** Forgets a slot's texture; false when it had none. */
  delete(slot: string): boolean {
    const t = this.bySlot.get(slot);
    if (!t) return false;
    t.texture.dispose();
    return this.bySlot.delete(slot);
  }

  clear(): void {
    for (const t of this.bySlot.values()) t.texture.dispose();
    this.bySlot.clear();
  }
}

/** What the slot buttons do. */
export interface SlotActions {
  pick(slot: string): void;
  remove(slot: string): void;
}

/**
 * Fills `box` with the material slots of `lv`, each with its texture and the buttons to change
 * it; `focusSlot`: give that slot's "Texture…" button the focus (after "×" removed its row's button).
 */
export function renderSlots(box: HTMLElement, lv: LodView | undefined, textures: SlotTextures, actions: SlotActions, focusSlot?: string): void {
  const slots = new Map<string, PartView[]>();
  for (const p of lv?.parts ?? []) {
    const key = slotKey(p.part);
    if (key === NO_MATERIAL) continue; // nothing to name it by, and no glTF material to embed it in
    slots.set(key, [...(slots.get(key) ?? []), p]);
  }
  if (slots.size === 0) {
    box.replaceChildren(el('p', { className: 'hint', textContent: 'No material slots in this LOD.' }));
    return;
  }
  const table = el('table', { className: 'slots' });
  let focus: HTMLButtonElement | undefined;
  for (const [key, views] of slots) {
    const swatch = el('span', { className: 'swatch' });
    swatch.style.background = `#${views[0]!.slotColor.getHexString()}`;
    const pick = el('button', {
      className: 'small',
      textContent: 'Texture…',
      title: `Choose a texture file for ${key}: drawn here and embedded in the glTF export (nothing is written to the game)`,
    });
    pick.dataset.pickTexture = key;
    pick.setAttribute('aria-label', `Choose a texture for ${key}`);
    pick.addEventListener('click', () => actions.pick(key));
    if (key === focusSlot) focus = pick;
    const t = textures.get(key);
    const cell = el('td', { className: 'texture' });
    if (t) {
      const remove = el('button', { className: 'small remove', textContent: '×', title: `Remove the texture of ${key}` });
      remove.dataset.clearTexture = key;
      remove.setAttribute('aria-label', `Remove the texture of ${key}`);
      remove.addEventListener('click', () => actions.remove(key));
      cell.append(el('span', { className: 'path', textContent: t.path, title: `${t.path}: ${t.width} × ${t.height} shown` }), ' ', remove);
      if (!views.some((p) => p.part.uvs)) cell.append(el('div', { className: 'hint', textContent: 'No UVs in this slot’s parts: drawn in the plain colour.' }));
    } else cell.append(el('span', { className: 'hint', textContent: 'no texture' }));
    table.append(el('tr', {}, el('td', {}, swatch, key), el('td', {}, pick), cell));
  }
  box.replaceChildren(
    table,
    el('p', {
      className: 'hint',
      textContent: 'A mesh names its materials only by slot; the game’s design records decide which textures fill them, so choose one by hand.',
    }),
  );
  focus?.focus();
}
