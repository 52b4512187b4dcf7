/** The effect family's public face: the LTFX (`.fxp`) header and its embedded GADB header, nothing beyond. */
export { parseLtfxHeader } from './ltfx';
export type { LtfxHeader } from './ltfx';
