/**
 * Installs for the language-server tests: the sample install written to a temporary folder, with
 * an optional mod folder searched first (`Mods`, added to the cfg) holding crafted files written by
 * the project's writers.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SAMPLE_LAYER, SAMPLE_LAYER_SCRIPT, sampleGame } from '../../core/sample';
import { tempDir, writeTree } from './fixtures';

const slashed = (p: string): string => p.replace(/\\/g, '/');
/** The script view's URI of the sample layer script, a member of its bundle folder (extension/views/textView.ts). */
export const SAMPLE_SCRIPT_URI = `arch06-text:/${slashed(SAMPLE_LAYER)}.bndl%20%5Bbundle%5D/${slashed(SAMPLE_LAYER_SCRIPT)}%20(text)`;

/** The script view's URI of a loose file at `gamePath` (the merged view). */
export const looseScriptUri = (gamePath: string): string => `arch06-text:/${encodeURI(slashed(gamePath))}%20(text)`;

/** The sample install, plus `mods` (game path → bytes) in a folder the cfg searches first. */
export function sampleInstall(prefix: string, mods: Record<string, Uint8Array> = {}): string {
  const root = tempDir(prefix);
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  if (Object.keys(mods).length) {
    fs.appendFileSync(path.join(root, 'x64', 'default.archcfg'), '..\\Mods\n');
    for (const [gamePath, bytes] of Object.entries(mods)) {
      const file = path.join(root, 'Mods', ...gamePath.split('\\'));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, bytes);
    }
  }
  return root;
}
