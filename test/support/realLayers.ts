// The four world layers of ../shared/samples/real/Patch_00.arch06, mounted as the engine mounts
// them (a private copy of the archive under a temporary install), for the tests that read their
// registries and scripts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount, readBundleMember, resolveBundle } from '../../core/archive';
import { tempDir } from './fixtures';
import { sharedPath } from './shared';

export const realPatch = sharedPath('samples/real/Patch_00.arch06');

export const REAL_LAYER_NAMES = ['island', 'mtnpass', 'snowmtn', 'volcano'] as const;

/** The game path of a layer's files without the extension. */
export const realLayerStem = (layer: string): string => `worlds\\retail\\${layer}\\sectionsandlayers\\fortwallgameplay`;

/** A temporary install holding only Patch_00.arch06, mounted (call only when `realPatch.skip` is false). */
export function mountRealPatch(): Mount {
  const root = tempDir('arch06-real-layers-');
  fs.mkdirSync(path.join(root, 'x64'));
  fs.writeFileSync(path.join(root, 'x64', 'default.archcfg'), '..\\Patch_00.arch06\n');
  fs.copyFileSync(realPatch.path, path.join(root, 'Patch_00.arch06'));
  return Mount.open({ root });
}

/** The four layers' registries: their game paths and bytes, read from the mounted patch (call only when `realPatch.skip` is false). */
export function readRealRegistries(): { layer: string; path: string; bytes: Uint8Array }[] {
  const m = mountRealPatch();
  try {
    return REAL_LAYER_NAMES.map((layer) => {
      const path = `${realLayerStem(layer)}.objres`;
      return { layer, path, bytes: readBundleMember(m, resolveBundle(m, `${realLayerStem(layer)}.bndl`), path) };
    });
  } finally {
    m.close();
  }
}
