/**
 * Typed failures for the Kraken decoder. Every problem the decoder finds becomes an
 * `Arch06Error` whose `offset` is the byte offset inside the Oodle stream where the bad
 * structure starts and whose `field` names the structure (`quantum`, `huffman`, `lz.offsets`…).
 * The dispatcher (`core/oodle/index.ts`) rebases the offset onto the containing file and
 * prefixes the field with the chunk it came from.
 */
import { Arch06Error } from '../../errors';

/** Malformed data: a size, count, code or distance the format does not allow. */
export function corrupt(offset: number, field: string, description: string, expected?: string, actual?: string): never {
  throw new Arch06Error('CORRUPT_STREAM', description, { offset, field, expected, actual });
}

/** The stream (or a sub-stream) ends before a field or a declared length. */
export function truncated(offset: number, field: string, needed: number, available: number): never {
  throw new Arch06Error('TRUNCATED', 'Kraken stream ends early', {
    offset,
    field,
    expected: `${needed} more byte(s)`,
    actual: `${Math.max(0, available)}`,
  });
}

/** Well-formed data using a feature this decoder does not implement. */
export function unsupported(offset: number, field: string, description: string): never {
  throw new Arch06Error('UNSUPPORTED_CODEC', description, { offset, field });
}
