// Archives whose entries mix stored and Kraken chunks (real Kraken streams from ../shared), read
// through the CLI as a user would: verify finds no error, extract and cat reproduce every file.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LtarWriter, WriterChunk } from '../../core/formats/archive';
import { Arch06Error } from '../../core/errors';
import { Mount, LtarEntry } from '../../core/archive';
import { sharedPath, repoRoot } from '../support/shared';
import { prng, randomBytes, tempDir, writeTree } from '../support/fixtures';

const vectors = sharedPath('kraken-vectors');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [cli, ...args], { maxBuffer: 64 << 20 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr.toString() };
};

interface Vector {
  name: string;
  rawFile: string;
  compressedFile: string;
  rawSize: number;
}

function load(): { chunk: WriterChunk; raw: Buffer; name: string }[] {
  const manifest: Vector[] = JSON.parse(fs.readFileSync(path.join(vectors.path, 'manifest.json'), 'utf8'));
  return (
    manifest
      .filter((v) => v.rawSize <= 0x10000)
      .map((v) => {
        const payload = fs.readFileSync(path.join(vectors.path, v.compressedFile));
        const raw = fs.readFileSync(path.join(vectors.path, v.rawFile));
        return { chunk: { payload, rawLen: v.rawSize }, raw, name: v.name };
      })
      // A chunk is Kraken only when its payload is shorter than its raw length; otherwise it is stored.
      .filter((v) => v.chunk.payload.length < v.chunk.rawLen)
  );
}

test('verify and extract an install whose entries mix stored and Kraken chunks', { skip: vectors.skip }, () => {
  const all = load();
  const full = all.filter((v) => v.chunk.rawLen === 0x10000);
  const tails = all.filter((v) => v.chunk.rawLen < 0x10000);
  assert.ok(full.length >= 10 && tails.length >= 5, `enough vectors (${full.length} full, ${tails.length} tails)`);
  const rnd = prng(99);
  const expected = new Map<string, Buffer>();
  const w = new LtarWriter();
  // Entry k: a run of full chunks alternating Kraken and stored, ending in a short Kraken tail.
  for (let k = 0; k < 8; k++) {
    const chunks: WriterChunk[] = [];
    const parts: Buffer[] = [];
    for (let c = 0; c < 5; c++) {
      if ((c + k) % 2 === 0) {
        const v = full[(k * 5 + c) % full.length];
        chunks.push(v.chunk);
        parts.push(v.raw);
      } else {
        const raw = Buffer.from(randomBytes(0x10000, rnd));
        chunks.push({ payload: raw, rawLen: raw.length });
        parts.push(raw);
      }
    }
    const tail = tails[k % tails.length];
    chunks.push(tail.chunk);
    parts.push(tail.raw);
    const p = `data\\mixed_${k}.bin`;
    w.add(p, { storage: 'chunks', chunks });
    expected.set(p, Buffer.concat(parts));
  }
  // Every vector on its own, as single-chunk entries (the short ones are what LZB16 would carry in retail).
  all.forEach((v, i) => {
    const p = `vectors\\${i}_${v.name}.bin`;
    w.add(p, { storage: 'chunks', chunks: [v.chunk] });
    expected.set(p, v.raw);
  });
  const root = tempDir();
  writeTree(root, { 'x64/default.archcfg': '..\\Kraken.arch06\n', 'Kraken.arch06': w.toBytes() });

  const v = run('verify', root, '--json');
  assert.equal(v.code, 0, v.stderr);
  const report = JSON.parse(v.stdout.toString());
  assert.equal(report.failures.length, 0);
  assert.equal(report.entries, expected.size);
  const out = tempDir();
  const x = run('extract', root, '', out, '--json');
  assert.equal(x.code, 0, x.stderr);
  for (const [p, bytes] of expected) assert.ok(fs.readFileSync(path.join(out, ...p.split('\\'))).equals(bytes), p);
  // cat reproduces a whole mixed entry.
  const r = run('cat', root, 'data\\mixed_3.bin');
  assert.ok(r.stdout.equals(expected.get('data\\mixed_3.bin')!));
  // A range across the stored/Kraken boundary of mixed_3 (chunk 0 stored, chunk 1 Kraken, 6 chunks
  // in all) walks and decodes only the two chunks it needs, and matches.
  const m = Mount.open({ root });
  try {
    const e = m.entry('data\\mixed_3.bin') as LtarEntry;
    const bytes = e.readSync(0x10000 - 100, 0x10000 + 100);
    assert.ok(Buffer.from(bytes).equals(expected.get('data\\mixed_3.bin')!.subarray(0x10000 - 100, 0x10000 + 100)));
    assert.equal(e.chunkStream().indexedCount, 2);
    assert.equal(e.chunkStream().indexAll(), 6);
  } finally {
    m.close();
  }
});

test('a chunk of a codec this build cannot decode (Mermaid) fails its entry only; verify counts it apart', () => {
  const w = new LtarWriter();
  w.addBytes('fine.txt', Buffer.from('fine'));
  w.add('tail.bin', {
    storage: 'chunks',
    chunks: [
      { payload: Buffer.alloc(0x10000, 7), rawLen: 0x10000 },
      { payload: Buffer.from([0x8c, 0x0a, 0, 0, 0, 0]), rawLen: 900 },
    ],
  });
  const root = tempDir();
  writeTree(root, { 'x64/default.archcfg': '..\\A.arch06\n', 'A.arch06': w.toBytes() });
  const v = run('verify', root, '--json');
  assert.equal(v.code, 2);
  const report = JSON.parse(v.stdout.toString());
  assert.equal(report.failures.length, 1);
  assert.equal(report.failures[0].code, 'UNSUPPORTED_CODEC');
  assert.match(report.failures[0].message, /Mermaid/);
  assert.match(report.failures[0].message, /tail\.bin/);
  assert.deepEqual(report.unsupportedChunks, { mermaid: 1 });
  // The stored first chunk of the same entry is still readable by range (the Mermaid chunk is
  // never reached), and the archive's other entries read as before.
  const m = Mount.open({ root });
  try {
    const e = m.entry('tail.bin') as LtarEntry;
    assert.ok(Buffer.from(e.readSync(0x10000 - 100, 0x10000)).equals(Buffer.alloc(100, 7)));
    assert.equal(e.chunkStream().indexedCount, 1);
    assert.throws(
      () => e.readSync(0x10000 - 100, 0x10000 + 1),
      (err: unknown) => err instanceof Arch06Error && err.code === 'UNSUPPORTED_CODEC',
    );
  } finally {
    m.close();
  }
  assert.equal(run('cat', root, 'fine.txt').stdout.toString(), 'fine');
});

test('arch06 oodle decodes a raw stream; a bad one exits 2 with one line', { skip: vectors.skip }, () => {
  const v = load().find((x) => x.chunk.rawLen === 0x10000)!;
  const dir = tempDir();
  const input = path.join(dir, 'in.kraken');
  fs.writeFileSync(input, v.chunk.payload);
  const outFile = path.join(dir, 'out.raw');
  const ok = run('oodle', input, '--raw-size', String(v.chunk.rawLen), '--out', outFile);
  assert.equal(ok.code, 0, ok.stderr);
  assert.ok(fs.readFileSync(outFile).equals(v.raw));
  fs.writeFileSync(input, Buffer.from(v.chunk.payload).subarray(0, 100));
  const bad = run('oodle', input, '--raw-size', String(v.chunk.rawLen));
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr.trim().split('\n').length, 1);
  assert.equal(run('oodle', input).code, 2); // no --raw-size
});
