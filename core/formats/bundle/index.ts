/**
 * The bundle family's public face: EMBB containers (walked lazily: header, path table, size
 * words), BNDL manifests (checked against their container) and the writers of both. Which copy of
 * a member the game serves is core/archive's business (`resolveBundle`).
 */
export { parseEmbb, readEmbb } from './embb';
export type { EmbbBlock, EmbbContainer, EmbbMember, EmbbReadOptions } from './embb';
export { parseBndl } from './bndl';
export { patchDeclaredSizes } from './bndlPatch';
export type { Bndl, BndlDataBundle, BndlDataMember, BndlManifest, BndlManifestMember } from './bndl';
export type { MirrorCheck } from './mirror';
export { writeEmbb } from './embbWriter';
export type { EmbbWriterMember } from './embbWriter';
export { rewriteBndl, writeBndl } from './bndlWriter';
export type { BndlWriterMember } from './bndlWriter';
export type { PathPoolOptions } from './pathPool';
