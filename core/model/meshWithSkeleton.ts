/**
 * A mesh with its skeleton: an MMSH names its bones only by StringHash, and their names, bind
 * pose and order come from the `.skel` with the same folder and stem (seed 002). Both front ends
 * load a mesh this way (the CLI's `mesh` / `mesh-file`, the mesh editor); each reads the sibling
 * through its own file access (the mount, the disk, the editor's file system), so the skeleton is
 * the same winning copy as the mesh.
 *
 * Without a skeleton (none beside the mesh, or one that does not parse) the mesh still becomes a
 * model, with bones named by hash, and a note says why. A skeleton whose bones are not the mesh's
 * is not used (`meshModelFromMmsh` says so in the model's notes; `matches` is false).
 */
import { isArch06Error } from '../errors';
import type { Mmsh } from '../formats/mesh/mmsh/layout';
import { parseSkel } from '../formats/mesh/skel/reader';
import { Skel } from '../formats/mesh/skel/layout';
import { meshModelFromMmsh } from './fromMmsh';
import type { MeshModel } from './meshModel';

/** Where the skeleton came from, or why there is none. */
export interface SkeletonLookup {
  skel?: Skel;
  /** The skeleton file as the reader names it (a game path, a disk path, a file name). */
  from?: string;
  /** Why there is no skeleton, when there is none. */
  note?: string;
}

/** A skeleton file that was found: its bytes, and the name to report it by. */
export interface SkeletonFile {
  bytes: Uint8Array;
  from: string;
}

/**
 * Reads the sibling skeleton: the file, or undefined when there is none. A throw means it is
 * there but cannot be read: an `Arch06Error` becomes the note, any other error propagates.
 */
export type SkeletonReader = (path: string) => SkeletonFile | undefined | Promise<SkeletonFile | undefined>;

/** The mesh's model and the skeleton it was built with. */
export interface MeshWithSkeleton {
  model: MeshModel;
  skeleton: SkeletonLookup;
  /** The skeleton's bones are the mesh's (so it named the bones and resolved the palettes). */
  matches: boolean;
}

/** The skeleton beside a mesh: same folder, same stem, `.skel` (either separator). */
export function siblingSkeletonPath(meshPath: string): string {
  return meshPath.replace(/\.[^.\\/]*$/, '') + '.skel';
}

const leafOf = (p: string): string => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
const byHash = (what: string): string => `${what}: bones are shown by hash`;

/** Looks for the mesh's sibling skeleton through `read` and parses it. */
export async function findSiblingSkeleton(meshPath: string, read: SkeletonReader): Promise<SkeletonLookup> {
  const sibling = siblingSkeletonPath(meshPath);
  const name = leafOf(sibling);
  let file: SkeletonFile | undefined;
  try {
    file = await read(sibling);
  } catch (e) {
    if (!isArch06Error(e)) throw e;
    return { note: byHash(`${name} does not parse (${e.message})`) };
  }
  if (!file) return { note: byHash(`no ${name} beside the mesh`) };
  try {
    return { skel: parseSkel(file.bytes, sibling), from: file.from };
  } catch (e) {
    // A sibling that does not parse: the mesh still shows, with the bone hashes of its own list.
    return { note: byHash(`${name} does not parse (${e instanceof Error ? e.message : String(e)})`) };
  }
}

/**
 * The model of `mmsh` with the skeleton looked up. The lookup's note stays in `skeleton.note`:
 * the CLI prints it beside the mesh's notes, the editor adds it to the model's for the view.
 */
export function meshModelWithSkeleton(mmsh: Mmsh, skeleton: SkeletonLookup, name: string): MeshWithSkeleton {
  const model = meshModelFromMmsh(mmsh, skeleton.skel, name);
  return { model, skeleton, matches: model.skeleton?.from === 'skel' };
}

/** `findSiblingSkeleton` then `meshModelWithSkeleton`: a mesh as both front ends open it. */
export async function loadMeshWithSkeleton(mmsh: Mmsh, meshPath: string, name: string, read: SkeletonReader): Promise<MeshWithSkeleton> {
  return meshModelWithSkeleton(mmsh, await findSiblingSkeleton(meshPath, read), name);
}
