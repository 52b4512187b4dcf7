// The one whole-entry read (issue 21 item 3): the first 64 KiB are checked against the format the
// path names before anything else is read, then the size against the cap. Counted on an entry that
// records every read: a 2 GiB `.bndl` of zeros costs one 64 KiB read before "not a BNDL file";
// 8 GiB behind a valid header costs the same before the cap refuses it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Source, SourceEntry } from '..';
import { HEADER_PREFIX_BYTES, headerCheckFor, readEntryChecked } from '..';
import { expectArch06Error } from '../../../test/support/errors';

/** An entry of `size` bytes (zeros after `head`) that records each read and serves at most 1 MiB at once. */
function countingEntry(path: string, size: number, head = new Uint8Array(0)): SourceEntry & { reads: [number, number][] } {
  const reads: [number, number][] = [];
  const readSync = (start = 0, end = size): Uint8Array => {
    reads.push([start, end]);
    assert.ok(end - start <= 1 << 20, `a read of ${end - start} bytes`);
    const out = new Uint8Array(end - start);
    out.set(head.subarray(start, Math.min(head.length, end)));
    return out;
  };
  return {
    source: { name: 'Mod.arch06' } as Source,
    path,
    size,
    storedSize: 1000,
    storage: 'chunked',
    identity: `counting:${path}`,
    reads,
    readSync,
    read: async (start?: number, end?: number) => readSync(start, end),
  };
}

test('a 2 GiB .bndl of zeros: one 64 KiB read, then "not a BNDL file"', () => {
  const e = countingEntry('bundles\\zeros.bndl', 2 ** 31);
  expectArch06Error(() => readEntryChecked(e), 'BAD_MAGIC', { message: /not a BNDL file/ });
  assert.deepEqual(e.reads, [[0, HEADER_PREFIX_BYTES]]);
});

test('8 GiB behind a valid BNDL header: one 64 KiB read, then the cap (named, with how to raise it)', () => {
  const head = new Uint8Array(20);
  head.set([0x42, 0x4e, 0x44, 0x4c, 6]);
  const e = countingEntry('bundles\\huge.bndl', 2 ** 33, head);
  expectArch06Error(() => readEntryChecked(e, { raiseHint: 'set X to raise it' }), 'OUT_OF_RANGE', { message: /too large to read into memory.*set X/ });
  assert.deepEqual(e.reads, [[0, HEADER_PREFIX_BYTES]]);
  // A lower cap applies the same way.
  const small = countingEntry('bundles\\small.bndl', 4096, head);
  expectArch06Error(() => readEntryChecked(small, { maxBytes: 1000 }), 'OUT_OF_RANGE');
});

test('the header check follows the path: registries, string tables, skeletons; a script only when it starts with SCRI', () => {
  for (const [p, message] of [
    ['a.objres', /not an OBJR object registry/],
    ['a.strdb', /not an SKDB string table/],
    ['a.skel', /not a SKEL skeleton/],
  ] as const)
    expectArch06Error(() => readEntryChecked(countingEntry(p, 2 ** 31)), 'BAD_MAGIC', { message });
  // A bare script payload has no header to check: read within the cap.
  assert.equal(readEntryChecked(countingEntry('a.scripts', 100)).length, 100);
  assert.equal(headerCheckFor('a.tex'), undefined);
  // A range of an entry (a bundle member) is checked from its own start.
  const head = new Uint8Array(40);
  head.set([0x4f, 0x42, 0x4a, 0x52, 13], 16);
  const e = countingEntry('c.embb', 40, head);
  assert.equal(readEntryChecked(e, { checkHeader: headerCheckFor('m.objres') }, 16, 40).length, 24);
});
