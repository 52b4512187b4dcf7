/**
 * The LTAR v4 header (0x30 bytes, ./layout.ts): magic, version, the table sizes, and the two
 * fields whose meaning is unknown but whose values every known archive shares.
 */
import { Arch06Error } from '../../../errors';
import { ByteSource } from '../../../io/byteSource';
import { FieldReader, ParseOptions } from '../../../io/fieldReader';
import { expectMagicVersion } from '../../../io/magic';
import { FILE_RECORD_SIZE, FOLDER_RECORD_SIZE, HEADER_SIZE, LTAR_VERSION } from './layout';

export interface LtarHeader {
  version: number;
  namePoolSize: number;
  folderCount: number;
  fileCount: number;
  /** +0x14, 1 in every known archive; meaning unknown. */
  unk14: number;
  /** Whether the 24 bytes at +0x18 are all zero, as in every known archive. */
  reservedZero: boolean;
}

/** Read and check the header of `source` through the field reader; throws a typed error naming the archive. */
export function readLtarHeader(source: ByteSource, options: ParseOptions = {}): LtarHeader {
  const name = source.name;
  const h = new FieldReader(source.readSync(0, Math.min(HEADER_SIZE, source.size)), name, { fileSize: source.size, spans: options.spans });
  const version = expectMagicVersion(h, 'LTAR', [LTAR_VERSION], 'LTAR', {
    what: 'an LTAR archive',
    bigEndian: 'LTAR archives',
    headerSize: HEADER_SIZE,
    versionHint: (v) => (v === 3 ? " (version 3 is Shadow of Mordor's .arch05)" : ''),
  });
  const header: LtarHeader = {
    version,
    namePoolSize: h.u32('header.namePoolSize'),
    folderCount: h.u32('header.folderCount'),
    fileCount: h.u32('header.fileCount'),
    unk14: h.u32('header.unk14'),
    reservedZero: h.bytesOf(HEADER_SIZE - 0x18, 'header.reserved').every((b) => b === 0),
  };
  if (header.folderCount === 0) {
    throw new Arch06Error('INVALID', 'an LTAR archive has at least the root folder', {
      file: name,
      offset: 12,
      field: 'header.folderCount',
      expected: '>= 1',
      actual: '0',
    });
  }
  return header;
}

/** Bytes of name pool + file table + folder table that follow the header, as the header declares them. */
export function tablesSize(header: LtarHeader): number {
  return header.namePoolSize + header.fileCount * FILE_RECORD_SIZE + header.folderCount * FOLDER_RECORD_SIZE;
}
