/** core/texture, the public face: the tier chain of a texture (`.tex` / `.tex0` / `.texuhd`, arrays `.texa*`). */
export { tierChain } from './tierChain';
export type { ChainLevel, Tier, TierChain, TierReader } from './tierChain';
