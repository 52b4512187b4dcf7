/**
 * The two Kraken engines: the WebAssembly one (core/oodle/kraken/assembly/, embedded by
 * scripts/krakenWasm.mjs) decodes every shared vector, every genuine-Oodle block and every real
 * Kraken chunk of Patch_00.arch06 by itself, byte for byte like the TypeScript reference and
 * the expected output; it refuses bad input with its own checks (never an unplanned trap) and
 * the dispatch then reports the reference's typed error; the dispatch picks WebAssembly where
 * it runs and TypeScript where it does not; the embedded binary is built from the sources.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../../errors';
import { decodeOodle, decodeOodleInto, krakenEngine, setKrakenEngine } from '..';
import { decodeKrakenReferenceInto, decodeKrakenWasmInto } from '../kraken';
import { KrakenWasm, WasmApi } from '../kraken/wasmDecoder';
import { KRAKEN_WASM_BASE64 } from '../kraken/wasmBinary';
import { repoRoot, sharedPath } from '../../../test/support/shared';
import { realChunks } from '../../../test/support/realChunks';

const patch = sharedPath('samples/real/Patch_00.arch06');

/** sha256 of each real Kraken chunk's output, as the reference and the C++ ooz decoder both produce it. */
const REAL_CHUNK_SHA256: Record<string, string> = {
  'worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.embb#0': '47b4969e9ba4c8828433af3934f9d3533207f9c2f6136a9bda89220b37f7b5fe',
  'worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.embb#1': '8a86d589afb188bd4d8eda716df7b715b87445a50ffa5b3925eb6890e9943f67',
  'worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.embb#2': '88c7820426da6f32e0bef4c1441041153a052a3250c5d3918a2d79a1205b00d8',
  'worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.embb#3': '4c032d2ce7b1e184099e9ccb920de7475ac00b69d9e67140ade8e605ce17d48b',
  'worlds\\retail\\mtnpass\\sectionsandlayers\\fortwallgameplay.embb#0': '8b06a954ec7e444b797475a3d0395defb05330a5d3509547488fc4d2a7127f91',
  'worlds\\retail\\snowmtn\\sectionsandlayers\\fortwallgameplay.embb#0': '2eb2761e44aaddd0a2f294d8c9994b585af750bc8ddda7ec1bc923938ece417b',
  'worlds\\retail\\snowmtn\\sectionsandlayers\\fortwallgameplay.embb#1': 'bb648cc3e04ab2c5fab645d2ec2bc3f48cacadc28fd26cc9f508de2eed1eb464',
  'worlds\\retail\\volcano\\sectionsandlayers\\fortwallgameplay.embb#0': '189db84e42a3c099613b5d45d7f88eda26ee5250285449ac2eeb17943a42c963',
  'worlds\\retail\\volcano\\sectionsandlayers\\fortwallgameplay.embb#1': 'c8f212148901c389305f0c75dcaa1f0d13bfa470d8473bc68a781fedd3c7f42e',
};

const sha256 = (b: Uint8Array): string => crypto.createHash('sha256').update(b).digest('hex');

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : Math.min(a.length, b.length);
}

/** Decode with each engine alone (at an offset inside a larger buffer) and check both against `expected`. */
function checkEngines(src: Uint8Array, expected: Uint8Array, expectedSha?: string): void {
  const n = expected.length;
  const fast = new Uint8Array(n + 40).fill(0xa5);
  assert.equal(decodeKrakenWasmInto(src, fast, 17, n), 'decoded');
  assert.equal(firstDifference(fast.subarray(17, 17 + n), expected), -1, 'WebAssembly output differs');
  assert.ok(fast.subarray(0, 17).every((b) => b === 0xa5) && fast.subarray(17 + n).every((b) => b === 0xa5), 'WebAssembly wrote outside its range');
  const ref = new Uint8Array(n);
  decodeKrakenReferenceInto(src, ref, 0, n);
  assert.equal(firstDifference(ref, expected), -1, 'reference output differs');
  if (expectedSha) assert.equal(sha256(fast.subarray(17, 17 + n)), expectedSha);
}

for (const folder of ['kraken-vectors', 'kraken-real-oodle']) {
  const shared = sharedPath(folder);
  test(`${folder}: the WebAssembly engine and the reference decode every vector exactly`, { skip: shared.skip }, () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(shared.path, 'manifest.json'), 'utf8')) as {
      name: string;
      rawFile: string;
      compressedFile: string;
      rawSha256: string;
    }[];
    assert.ok(manifest.length > 0);
    for (const v of manifest) {
      const src = new Uint8Array(fs.readFileSync(path.join(shared.path, v.compressedFile)));
      const raw = new Uint8Array(fs.readFileSync(path.join(shared.path, v.rawFile)));
      assert.doesNotThrow(() => checkEngines(src, raw, v.rawSha256), v.name);
    }
  });
}

test('Patch_00.arch06: the WebAssembly engine and the reference decode every real Kraken chunk exactly', { skip: patch.skip }, () => {
  const chunks = realChunks(patch.path).filter((c) => c.codec === 'kraken');
  assert.deepEqual(chunks.map((c) => c.name).sort(), Object.keys(REAL_CHUNK_SHA256).sort(), 'the archive holds the nine Kraken chunks');
  for (const c of chunks) {
    const ref = new Uint8Array(c.rawSize);
    decodeKrakenReferenceInto(c.src, ref, 0, c.rawSize);
    assert.equal(sha256(ref), REAL_CHUNK_SHA256[c.name], c.name);
    checkEngines(c.src, ref, REAL_CHUNK_SHA256[c.name]);
  }
});

test('bad input: the WebAssembly engine refuses it by its own checks and the dispatch throws the reference error', { skip: patch.skip }, () => {
  const c = realChunks(patch.path).find((x) => x.codec === 'kraken')!;
  let refused = 0;
  for (let i = 8; i < c.src.length; i += 97) {
    const bad = c.src.slice();
    bad[i] ^= 0x5a;
    const outcome = decodeKrakenWasmInto(bad, new Uint8Array(c.rawSize), 0, c.rawSize);
    assert.notEqual(outcome, 'trapped', `byte ${i}: a trap outside the checks`);
    if (outcome !== 'rejected') continue;
    refused++;
    assert.throws(
      () => decodeOodleInto(bad, new Uint8Array(c.rawSize), 0, c.rawSize, { file: 'x.embb', chunkIndex: 2 }),
      (e: unknown) => e instanceof Arch06Error && e.file === 'x.embb' && /^chunk\[2\]/.test(e.field ?? ''),
    );
  }
  assert.ok(refused > 10, `refused ${refused} corrupted chunks`);
  // Truncated and over-long streams, and a raw size the stream does not describe.
  assert.equal(decodeKrakenWasmInto(c.src.subarray(0, c.src.length - 1), new Uint8Array(c.rawSize), 0, c.rawSize), 'rejected');
  assert.equal(decodeKrakenWasmInto(c.src, new Uint8Array(c.rawSize + 1), 0, c.rawSize + 1), 'rejected');
  assert.equal(decodeKrakenWasmInto(Uint8Array.from([...c.src, 0]), new Uint8Array(c.rawSize), 0, c.rawSize), 'rejected');
});

test('the dispatch decodes Kraken with WebAssembly here, with TypeScript when told to or when WebAssembly is missing', () => {
  assert.equal(krakenEngine(), 'wasm');
  const memset = Uint8Array.from([0x8c, 0x06, 0x07, 0xff, 0xff, 0x5a]);
  try {
    setKrakenEngine('typescript');
    assert.equal(krakenEngine(), 'typescript');
    assert.ok(decodeOodle(memset, 1000).every((b) => b === 0x5a));
  } finally {
    setKrakenEngine('auto');
  }
  assert.equal(krakenEngine(), 'wasm');
  // No WebAssembly at all (an old or locked-down host): unavailable, so the dispatch would use TypeScript.
  const none = new KrakenWasm(null);
  assert.equal(none.available, false);
  assert.equal(none.decodeInto(memset, new Uint8Array(10), 0, 10), 'unavailable');
});

test('where a synchronous compile is refused (a browser main thread), the module compiles in the background and is used once ready', async () => {
  const real = (globalThis as { WebAssembly?: WasmApi }).WebAssembly!;
  let compiled: Promise<object> | undefined;
  const api: WasmApi = {
    Module: class {
      constructor() {
        throw new RangeError('synchronous compile refused');
      }
    } as unknown as WasmApi['Module'],
    Instance: real.Instance,
    compile: (bytes) => (compiled = real.compile!(bytes)),
  };
  const engine = new KrakenWasm(api);
  const memset = Uint8Array.from([0x8c, 0x06, 0x07, 0xff, 0xff, 0x41]);
  const out = new Uint8Array(300);
  assert.equal(engine.decodeInto(memset, out, 0, 300), 'unavailable');
  assert.ok(compiled, 'a background compile started');
  await compiled;
  await new Promise((r) => setImmediate(r));
  assert.equal(engine.decodeInto(memset, out, 0, 300), 'decoded');
  assert.ok(out.every((b) => b === 0x41));
});

test('a stream whose output grows the module memory past 64 MiB is decoded, and the memory is let go', () => {
  const engine = new KrakenWasm();
  // 320 memset blocks of 256 KiB: 80 MiB of output from 1,920 bytes.
  const blocks = 320;
  const src = new Uint8Array(6 * blocks);
  for (let b = 0; b < blocks; b++) src.set([0x8c, 0x06, 0x07, 0xff, 0xff, b & 0xff], 6 * b);
  const out = new Uint8Array(blocks << 18);
  assert.equal(engine.decodeInto(src, out, 0, out.length), 'decoded');
  for (let b = 0; b < blocks; b += 37) assert.equal(out[(b << 18) + 12345], b & 0xff);
  // The next (small) decode runs on a fresh instance.
  assert.equal(engine.decodeInto(src.subarray(0, 6), out, 0, 1000), 'decoded');
  assert.equal((engine as unknown as { heap: Uint8Array }).heap.length < 64 << 20, true);
});

test('the embedded WebAssembly is built from core/oodle/kraken/assembly/ and ships inside the bundles that read archives', () => {
  const root = repoRoot();
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'krakenWasm.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  const marker = KRAKEN_WASM_BASE64.slice(0, 200);
  for (const bundle of ['extension.js', 'server.js', 'cli.js']) {
    const file = path.join(root, 'dist', bundle);
    if (!fs.existsSync(file)) continue; // npm test builds before it tests; a bare tsc run has no bundles
    assert.ok(fs.readFileSync(file, 'utf8').includes(marker), `dist/${bundle} carries the WebAssembly engine`);
  }
});
