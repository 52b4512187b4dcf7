/**
 * The Oodle decoders: Kraken (both engines: the dispatch, then the WebAssembly engine and the
 * TypeScript reference alone, which must agree byte for byte or both refuse) and LZB16. Seeds:
 * the shared Kraken vectors, hand-made streams, writer-made LZB16 streams and the real chunks of
 * Patch_00.arch06. Mutations: the blind ones plus lies about the raw size; half the LZB16 cases get
 * their length word rewritten to fit, so mutations reach the sequences. A decode must give exactly
 * the raw size, never write outside its destination, and fail only with a located typed error.
 */
import { Arch06Error } from '../../core/errors';
import { decodeOodle, decodeOodleInto, identifyCodec } from '../../core/oodle';
import { decodeKrakenReferenceInto, decodeKrakenWasmInto, krakenEngine } from '../../core/oodle/kraken';
import { type OodleVector, loadKrakenVectors, loadLzb16Vectors } from '../../core/oodle/tests/vectors';
import { sharedPath } from '../../test/support/shared';
import { copyOf, mutateBytes, type Seed } from '../mutate';
import type { Rng } from '../random';
import { type FuzzCase, type FuzzTarget, FuzzInvariant } from '../target';

const GUARD = 64;
/** Engine comparison up to this raw size (larger lies are the dispatch's business). */
const COMPARE_LIMIT = 1 << 22;

interface OodleParam {
  rawSize: number;
  /** Decode through `decodeOodleInto` with guard bytes around the destination. */
  into: boolean;
}

const vectorOf = new Map<Seed, OodleVector>();

function asSeeds(vectors: OodleVector[]): Seed[] {
  return vectors.map((v) => {
    const s: Seed = { name: v.name, bytes: v.src };
    vectorOf.set(s, v);
    return s;
  });
}

function patchArchive(): string | undefined {
  const p = sharedPath('samples/real/Patch_00.arch06');
  return p.skip ? undefined : p.path;
}

/** A raw size near, far from or unrelated to the true one. */
function sizeLie(rawSize: number, rnd: Rng): number {
  switch (rnd.int(6)) {
    case 0:
      return Math.max(0, rawSize + rnd.int(17) - 8);
    case 1:
      return rawSize * 2;
    case 2:
      return rawSize >> 1;
    case 3:
      return rnd.int(1 << 20);
    case 4:
      return rawSize + 0x20000;
    default:
      return 0x40000 + rnd.int(0x40000);
  }
}

function mutateStream(seed: Seed, rnd: Rng, seeds: readonly Seed[]): ReturnType<NonNullable<FuzzTarget['mutate']>> {
  const v = vectorOf.get(seed)!;
  const m = rnd.chance(0.15) ? { bytes: copyOf(seed.bytes), label: `${seed.name}` } : mutateBytes({ name: seed.name, bytes: seed.bytes }, rnd, seeds);
  let rawSize = v.rawSize;
  let label = m.label;
  if (rnd.chance(0.15)) {
    rawSize = sizeLie(rawSize, rnd);
    label += `, raw size ${rawSize} (was ${v.rawSize})`;
  }
  const src = m.bytes;
  if (v.lzb16 && src.length > 4 && rnd.chance(0.5)) {
    const w = Math.min(0xffff, src.length - 5);
    src[2] = w >> 8;
    src[3] = w & 0xff;
    label += ' + length word';
  }
  return { bytes: src, label, param: { rawSize, into: rnd.chance(0.5) } satisfies OodleParam };
}

/** Decode a Kraken case with each engine alone; a problem when they disagree. */
function compareEngines(src: Uint8Array, rawSize: number): string | undefined {
  const ref = new Uint8Array(rawSize);
  let refError: unknown;
  try {
    decodeKrakenReferenceInto(src, ref, 0, rawSize);
  } catch (e) {
    refError = e;
  }
  const fast = new Uint8Array(rawSize);
  const outcome = decodeKrakenWasmInto(src, fast, 0, rawSize);
  if (outcome === 'trapped') return 'WebAssembly engine trapped outside its checks';
  if (outcome === 'unavailable') return 'WebAssembly engine unavailable';
  if (refError !== undefined) {
    if (!(refError instanceof Arch06Error)) return undefined; // the dispatch run reports it
    return outcome === 'rejected' ? undefined : `WebAssembly engine decoded a stream the reference refuses (${refError.code}: ${refError.message})`;
  }
  if (outcome === 'rejected') return 'WebAssembly engine refused a stream the reference decodes';
  for (let i = 0; i < rawSize; i++) if (ref[i] !== fast[i]) return `engines differ at output byte ${i}`;
  return undefined;
}

/** Decode through the dispatch; check size, guards and the error's location. */
function decodeChecked(c: FuzzCase, kraken: boolean): Uint8Array {
  const { rawSize, into } = c.param as OodleParam;
  if (kraken && identifyCodec(c.bytes) === 'kraken' && rawSize <= COMPARE_LIMIT) {
    const problem = compareEngines(c.bytes, rawSize);
    if (problem) throw new FuzzInvariant(problem);
  }
  const where = { file: 'fuzz', chunkIndex: c.index };
  try {
    if (into) {
      if (rawSize > 1 << 24) return new Uint8Array(0); // a destination that large is the caller's choice, not the decoder's
      const buf = new Uint8Array(rawSize + 2 * GUARD).fill(0xe7);
      decodeOodleInto(c.bytes, buf, GUARD, rawSize, where);
      for (let i = 0; i < GUARD; i++) if (buf[i] !== 0xe7 || buf[GUARD + rawSize + i] !== 0xe7) throw new FuzzInvariant('wrote outside the destination range');
      return buf;
    }
    const out = decodeOodle(c.bytes, rawSize, where);
    if (out.length !== rawSize) throw new FuzzInvariant(`returned ${out.length} bytes for a raw size of ${rawSize}`);
    return out;
  } catch (e) {
    if (e instanceof Arch06Error && (e.file !== 'fuzz' || !e.field?.startsWith(`chunk[${c.index}]`) || typeof e.offset !== 'number')) {
      throw new FuzzInvariant(`typed error without its location: ${JSON.stringify(e.toJSON())}`);
    }
    throw e;
  }
}

export const kraken: FuzzTarget = {
  name: 'kraken',
  covers: 'Kraken streams: the dispatch, and the WebAssembly engine against the TypeScript reference',
  seeds: () => {
    if (krakenEngine() !== 'wasm') throw new Error('the dispatch does not decode Kraken with WebAssembly here: the engines cannot be compared');
    const dirs = ['kraken-vectors', 'kraken-real-oodle'].map((d) => sharedPath(d)).filter((p) => !p.skip);
    return asSeeds(
      loadKrakenVectors(
        dirs.map((p) => p.path),
        patchArchive(),
      ),
    );
  },
  mutate: mutateStream,
  run: (c) => decodeChecked(c, true),
  memoryBasis: (c) => c.bytes.length + (c.param as OodleParam).rawSize,
};

export const lzb16: FuzzTarget = {
  name: 'lzb16',
  covers: 'LZB16 streams (writer-made and the real chunks of Patch_00)',
  seeds: () => asSeeds(loadLzb16Vectors(patchArchive())),
  mutate: mutateStream,
  run: (c) => decodeChecked(c, false),
  memoryBasis: (c) => c.bytes.length + (c.param as OodleParam).rawSize,
};
