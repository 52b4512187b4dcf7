/** core/hash, the public face: the engine's StringHash, with a replaceable table (unknown bytes are reported), and the hash dictionary (hash → name). */
export { StringHasher, defaultHasher, formatHash, knownHashTable, parseHash, stringHash } from './stringHash';
export type { HashResult, HashTable } from './stringHash';
export { HashDictionary, NAME_ORIGINS, parseDictionaryFile, scriptStringLiterals } from './dictionary';
export type { AddResult, DictionaryEntry, DictionaryStats, LiteralOptions, NameOrigin } from './dictionary';
export { SEED_TABLE_RVA, findHashTables, scanError, tableFromExecutable } from './tableScan';
export type { FoundHashTable, HashTableScan, ImageAddress, NearMiss, TableCandidate, TableElementSize, TableScanOptions } from './tableScan';
