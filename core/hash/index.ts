/** core/hash, the public face: the engine's StringHash, with a replaceable table (unknown bytes are reported), the hash of `0x…hi` literals (another function), and the hash dictionary (hash → name, for both). */
export { StringHasher, defaultHasher, formatHash, knownHashTable, parseHash, stringHash } from './stringHash';
export type { HashResult, HashTable } from './stringHash';
export { HashDictionary, NAME_ORIGINS, parseDictionaryFile, scriptStringLiterals } from './dictionary';
export type { AddResult, DictionaryEntry, DictionaryStats, LiteralOptions, NameOrigin } from './dictionary';
export { SEED_TABLE_RVA, findHashTables, scanError, tableFromExecutable } from './tableScan';
export type { FoundHashTable, HashTableScan, ImageAddress, NearMiss, TableCandidate, TableElementSize, TableScanOptions } from './tableScan';
export { HI_HASH_RULE, HI_HASH_VERIFIED, hiHash, hiHashVerifiedFor } from './hiHash';
export { HASH_LITERAL_PATTERN, HL_UNKNOWN, namesOfHash, parseHashQuery, sourceHashLiteral } from './literal';
export type { HashKind, HashValue } from './literal';
