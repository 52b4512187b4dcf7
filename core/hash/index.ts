/** core/hash, the public face: the engine's StringHash, with a replaceable table (unknown bytes are reported). */
export { StringHasher, defaultHasher, formatHash, knownHashTable, parseHash, stringHash } from './stringHash';
export type { HashResult, HashTable } from './stringHash';
