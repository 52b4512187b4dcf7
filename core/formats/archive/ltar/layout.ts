/**
 * LTAR v4 (`.arch06`) byte layout, from `formats-public.md` §1 (two independent public sources
 * agree) and seed 004 "LTAR v4: the .arch06 layout".
 *
 *   0x00  header (0x30 bytes): "LTAR", u32 version 4, u32 namePoolSize, u32 folderCount,
 *         u32 fileCount, u32 unk14 (1), 24 reserved bytes (0)
 *   0x30  name pool: NUL-terminated strings; every name offset is relative to 0x30
 *         file table: fileCount x 30-byte records
 *         folder table: folderCount x 16-byte records
 *         (writers leave 6 x fileCount zero bytes here; readers use absolute data offsets)
 *         entry data at the records' absolute offsets
 */

export const LTAR_MAGIC = 0x5241544c; // "LTAR" read as a little-endian u32
export const LTAR_VERSION = 4;
export const HEADER_SIZE = 0x30;
/** Name offsets are relative to the start of the pool, which is the end of the header. */
export const NAME_POOL_START = HEADER_SIZE;
export const FILE_RECORD_SIZE = 30;
export const FOLDER_RECORD_SIZE = 16;
/** No link: folder records use 0xFFFFFFFF for "no child" and "no sibling". */
export const NO_FOLDER = 0xffffffff;

/** File record fields (relative to the record start). The u64s are unaligned: records are packed. */
export const FILE_NAME_OFFSET = 0x00; // u32
export const FILE_DATA_OFFSET = 0x04; // u64, absolute in the archive
export const FILE_STORED_SIZE = 0x0c; // u64, bytes on disk incl. chunk headers and padding
export const FILE_SIZE = 0x14; // u64, decoded size
export const FILE_READER = 0x1c; // u8: 1 = chunked reader, 0 = whole-file read (seed 004)
export const FILE_FLAGS = 0x1d; // u8: 0 = plain byte range; 9 on compressed entries

export const FOLDER_NAME_OFFSET = 0x00; // u32, full path, "" for the root
export const FOLDER_FIRST_CHILD = 0x04; // u32 or NO_FOLDER
export const FOLDER_NEXT_SIBLING = 0x08; // u32 or NO_FOLDER
export const FOLDER_FILE_COUNT = 0x0c; // u32

/** Chunk stream: {u32 storedLen, u32 rawLen, payload}, each header 4-aligned from the entry start. */
export const CHUNK_HEADER_SIZE = 8;
/** The engine asserts "corrupted compressed chunk header" above this, for either length. */
export const MAX_CHUNK_LEN = 0x10000;
export const CHUNK_ALIGN = 4;

/** The name of the path index file that many archives carry as record 0. */
export const PATH_INDEX_NAME = 'archivepatchloosefiles.txt';
