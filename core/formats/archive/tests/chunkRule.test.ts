/**
 * The chunk rule on every read path: each case below is one entry (a 100-byte stored chunk, then
 * the chunk under test) read whole and by ranges through the synchronous path (`readSync`, the
 * CLI and the language server) and the asynchronous one (`read`, the VS Code file system), over a
 * source in memory and a file on disk. The expected bytes are the ones the test put in, never
 * the reader's own output, and both paths must give them or the same typed error.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../../../errors';
import { MemoryByteSource } from '../../../io/byteSource';
import { LtarEntry, LtarSource } from '../../../archive/ltarSource';
import { toGamePath } from '../../../archive/gamePath';
import { LtarWriter } from '../ltar/writer';
import { compressLzb16 } from '../../../oodle/lzb16/writer';
import { tempDir } from '../../../../test/support/fixtures';

const FIRST = 100;
const RAW = 300;
const first = Uint8Array.from({ length: FIRST }, (_, i) => 200 - i);
/** Bytes no Oodle header starts with (0x00 is no codec byte): a stored payload that decodes as nothing. */
const plain = Uint8Array.from({ length: RAW }, (_, i) => (i * 7) & 0xff);
/** Repetitive, so LZB16 makes it shorter than itself. */
const repetitive = Uint8Array.from({ length: RAW }, (_, i) => 'abcabcabd'.charCodeAt(i % 9));

interface Case {
  name: string;
  payload: Uint8Array;
  /** The chunk's decoded bytes, or the error reading any of them must raise. */
  expect: Uint8Array | { code: string; message: RegExp };
}

const lzb16 = compressLzb16(repetitive);
const cases: Case[] = [
  { name: 'storedLen == rawLen: the payload is the bytes', payload: plain, expect: plain },
  { name: 'storedLen < rawLen: an Oodle (LZB16) stream', payload: lzb16, expect: repetitive },
  // An uncompressed Kraken block: header CC 06, then the bytes: 2 bytes longer than the chunk.
  { name: 'storedLen > rawLen, an Oodle stream of exactly rawLen: decoded', payload: Uint8Array.from([0xcc, 0x06, ...plain]), expect: plain },
  {
    name: 'storedLen > rawLen, no Oodle stream: fails, never a prefix',
    payload: Uint8Array.from([...plain, 1, 2]),
    expect: { code: 'INVALID', message: /longer than the chunk/ },
  },
  {
    name: 'storedLen < rawLen, no Oodle stream: fails, never padded',
    payload: plain.subarray(0, RAW - 2),
    expect: { code: 'UNSUPPORTED_CODEC', message: /codec/i },
  },
  {
    name: 'storedLen < rawLen, a codec this build lacks (Mermaid)',
    payload: Uint8Array.from([0x8c, 0x0a, 1, 2, 3, 4]),
    expect: { code: 'UNSUPPORTED_CODEC', message: /Mermaid/ },
  },
];

const entryPath = (i: number): string => `case\\${i}.bin`;

function archive(): Uint8Array {
  assert.ok(lzb16.length < RAW, `the LZB16 stream is shorter than its bytes (${lzb16.length})`);
  const w = new LtarWriter();
  cases.forEach((c, i) =>
    w.add(entryPath(i), {
      storage: 'chunks',
      chunks: [
        { payload: first, rawLen: FIRST },
        { payload: c.payload, rawLen: RAW },
      ],
    }),
  );
  return w.toBytes();
}

/** Whole entry; across the boundary; inside the case chunk; the case chunk whole; inside the first chunk only. */
const RANGES: [number, number][] = [
  [0, FIRST + RAW],
  [50, 150],
  [150, 250],
  [FIRST, FIRST + RAW],
  [FIRST + RAW - 1, FIRST + RAW],
  [10, 90],
];

function expected(c: Case, a: number, b: number): Uint8Array | { code: string; message: RegExp } {
  if (b <= FIRST) return first.subarray(a, b);
  if (!(c.expect instanceof Uint8Array)) return c.expect;
  const all = new Uint8Array(FIRST + RAW);
  all.set(first);
  all.set(c.expect, FIRST);
  return all.subarray(a, b);
}

type Read = (e: LtarEntry, a: number, b: number) => Promise<Uint8Array>;
const PATHS: [string, Read][] = [
  ['sync', (e, a, b) => Promise.resolve().then(() => e.readSync(a, b))],
  ['async', (e, a, b) => e.read(a, b)],
];

async function check(open: () => LtarSource): Promise<number> {
  let checked = 0;
  for (const [pathName, read] of PATHS) {
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i];
      for (const [a, b] of RANGES) {
        // A fresh source per read: no chunk index or decode left over from another range or path.
        const s = open();
        try {
          const e = s.lookup(toGamePath(entryPath(i))) as LtarEntry;
          const want = expected(c, a, b);
          const label = `${pathName} ${c.name} [${a}, ${b})`;
          if (want instanceof Uint8Array) {
            assert.deepEqual(Buffer.from(await read(e, a, b)), Buffer.from(want), label);
          } else {
            await assert.rejects(read(e, a, b), (err: unknown) => {
              assert.ok(err instanceof Arch06Error, `${label}: ${String(err)}`);
              assert.equal(err.code, want.code, `${label}: ${err.message}`);
              assert.match(err.message, want.message, label);
              return true;
            });
          }
          checked++;
        } finally {
          s.close();
        }
      }
    }
  }
  return checked;
}

test('the chunk rule: every case, whole and by ranges, the same on the sync and the async path (memory source)', async () => {
  const bytes = archive();
  const n = await check(() => new LtarSource('t.arch06', '/nowhere/t.arch06', new MemoryByteSource('t.arch06', bytes)));
  assert.equal(n, 2 * cases.length * RANGES.length);
});

test('the chunk rule: the same cases through a file on disk (the file source the extension reads through)', async () => {
  const file = path.join(tempDir('arch06-chunkrule-'), 't.arch06');
  fs.writeFileSync(file, archive());
  const n = await check(() => LtarSource.openFile(file, 't.arch06'));
  assert.equal(n, 2 * cases.length * RANGES.length);
});
