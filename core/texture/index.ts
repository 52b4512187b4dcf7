/** core/texture, the public face: the tier chain of a texture (`.tex` / `.tex0` / `.texuhd`, arrays `.texa*`), held against its header. */
export { tierChain } from './tierChain';
export type { ChainLevel, HeaderClaim, Shortfall, Tier, TierChain, TierChainOptions, TierRead, TierReader, TierSource } from './tierChain';
