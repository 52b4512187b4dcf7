/** `--glb OUT` of the mesh commands (mesh.ts, meshPrefab.ts): LOD 0 of a model written as glTF binary (core/model/glb.ts). */
import { Arch06Error } from '../../core/errors';
import { writeFileAtomic } from '../../core/io/node';
import { type MeshModel, writeGlb } from '../../core/model';
import { type ParsedArgs, flagString } from '../args';

export function writeGlbOption(model: MeshModel, args: ParsedArgs, forbid: string[]): { file: string; bytes: number } | undefined {
  const out = flagString(args, 'glb');
  if (out === undefined) return undefined;
  if (!out) throw new Arch06Error('BAD_ARGUMENT', '--glb needs a file name', { field: 'glb' });
  const glb = writeGlb(model);
  writeFileAtomic(out, glb, { forbid });
  return { file: out, bytes: glb.length };
}
